"""Errors raised by the vision code: ``ValueError`` subclasses quoting the bad input."""

from __future__ import annotations

__all__ = ["ImageReadError", "VisionError"]


class VisionError(ValueError):
    """Bad input to a vision function (not a failed detection, which is a falsy result)."""


class ImageReadError(VisionError):
    """An image file could not be read: missing, not an image, truncated or degenerate."""
