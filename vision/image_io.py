"""Reading photos the one way the project does: stored pixels, EXIF orientation ignored."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt

from vision.errors import ImageReadError

__all__ = ["read_image"]

_JPEG_START = b"\xff\xd8"
_JPEG_END = b"\xff\xd9"
_PNG_START = b"\x89PNG\r\n\x1a\n"
_PNG_END = b"IEND"


def _check_complete(data: bytes, path: str) -> None:
    """Refuse a truncated JPEG or PNG, which OpenCV would silently pad with grey."""
    if data.startswith(_JPEG_START) and _JPEG_END not in data[-1024:]:
        raise ImageReadError(f"truncated JPEG {path!r}: no end-of-image marker")
    if data.startswith(_PNG_START) and _PNG_END not in data[-64:]:
        raise ImageReadError(f"truncated PNG {path!r}: no IEND chunk")


def read_image(path: str | Path) -> npt.NDArray[np.uint8]:
    """Read a photo as stored, ignoring any EXIF orientation tag.

    Parameters
    ----------
    path : str or Path
        A JPEG, PNG or any format OpenCV reads.

    Returns
    -------
    ndarray of shape (H, W, 3), uint8
        BGR pixels, row 0 at the top as stored in the file.

    Raises
    ------
    ImageReadError
        If the file is missing, empty, not an image, or a truncated JPEG/PNG.
    """
    name = str(path)
    try:
        data = Path(path).read_bytes()
    except OSError as error:
        raise ImageReadError(f"cannot read {name!r}: {error.strerror or error}") from error
    if not data:
        raise ImageReadError(f"empty file {name!r}")
    _check_complete(data, name)
    buffer = np.frombuffer(data, dtype=np.uint8)
    image = cv2.imdecode(buffer, cv2.IMREAD_IGNORE_ORIENTATION | cv2.IMREAD_COLOR)
    if image is None:
        raise ImageReadError(f"not an image OpenCV can decode: {name!r}")
    return np.ascontiguousarray(image, dtype=np.uint8)
