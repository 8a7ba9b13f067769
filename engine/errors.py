"""The engine's exceptions: all are ``ValueError`` subclasses that quote the bad input."""

from __future__ import annotations


class KifuError(ValueError):
    """Base of every error Kifu raises about its input."""


class CoordinateError(KifuError):
    """A point written as text (GTP "D4", SGF "dd") that is malformed or off the board."""


class IllegalMoveError(KifuError):
    """A move the rules do not allow; ``reason`` is one of :data:`REASONS`."""

    REASONS = (
        "occupied",
        "suicide",
        "ko",
        "repetition",
        "wrong turn",
        "game over",
        "off board",
        "no move",
    )

    def __init__(self, message: str, *, reason: str) -> None:
        if reason not in self.REASONS:
            raise ValueError(f"unknown reason {reason!r} for {message!r}")
        super().__init__(message)
        self.reason = reason


class SgfError(KifuError):
    """A game record that cannot be read; the message names the file and the move."""
