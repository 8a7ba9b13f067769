"""The learned networks' one way in: ONNX files run by OpenCV's own ``dnn`` module.

So that users need no deep-learning runtime: training is PyTorch (an optional
extra), inference is OpenCV, which Kifu needs anyway. A ``cv2.dnn.Net`` keeps
its buffers between calls, so one must not run on two threads at once:
every forward pass holds ``NET_LOCK``.
"""

from __future__ import annotations

import threading
from pathlib import Path

import cv2

from vision.errors import VisionError

__all__ = ["NET_LOCK", "read_onnx"]

#: Held by every forward pass of a network read by :func:`read_onnx`.
NET_LOCK = threading.Lock()


def read_onnx(path: Path, what: str) -> cv2.dnn.Net:
    """An ONNX network for OpenCV's ``dnn``, or an error naming ``what`` and the file."""
    try:
        net = cv2.dnn.readNetFromONNX(str(path))
    except cv2.error as exc:
        raise VisionError(f"cannot read the {what} {path}: {exc}") from None
    return net
