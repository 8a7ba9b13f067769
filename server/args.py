"""Argument types for the ``kifu`` subcommands: bad values are refused by argparse
with the domain's own message, before any work starts."""

from __future__ import annotations

import argparse
import math

from engine import Rules
from engine.errors import KifuError


def rules(text: str) -> Rules:
    """A rules preset or ``key=value`` list (see :meth:`Rules.parse`)."""
    try:
        return Rules.parse(text)
    except KifuError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def komi(text: str) -> float:
    """Komi in points: a finite number, a multiple of a quarter point."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"komi must be a number, got {text!r}") from None
    if not math.isfinite(value) or abs(value) > 625 or (value * 4) % 1:
        raise argparse.ArgumentTypeError(f"komi {text!r} is not a usable number of points")
    return value


def handicap(text: str) -> int:
    """Handicap stones: 0, or 2 to 9 (the placements the rules know)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"handicap must be a whole number, got {text!r}") from None
    if value != 0 and not 2 <= value <= 9:
        raise argparse.ArgumentTypeError(f"handicap {value} is not 0 or 2-9 stones")
    return value


def unit(text: str) -> float:
    """A fraction in 0..1 (a confidence)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number in 0..1, got {text!r}") from None
    if not 0.0 <= value <= 1.0:
        raise argparse.ArgumentTypeError(f"expected a number in 0..1, got {text!r}")
    return value
