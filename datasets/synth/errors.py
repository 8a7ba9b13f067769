"""The one error synthetic data raises for bad requests."""

from __future__ import annotations


class SynthError(ValueError):
    """A bad argument or input file for the synthetic data makers; the message quotes it."""
