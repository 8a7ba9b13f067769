"""Reading a Go board from photos: find the grid, then the stones.

Typical use::

    detection, reading = read_board(photo, size=19)   # one photo, read whole
    if not detection:
        print(detection.reason)
    sampler = BoardSampler.for_grid(detection.grid)   # once per camera position
    reading = read_stones(frame, sampler)             # every frame

Pixel coordinates are OpenCV's ``(x, y)`` (x right, y down); board points are
``(row, col)`` from the top-left, like image arrays, and boards are in the text
form (N strings, ``'.'``, ``'X'`` black, ``'O'`` white).
"""

from vision.detect import detect_board, read_board
from vision.errors import ImageReadError, VisionError
from vision.features import BoardSampler
from vision.grid import SIZES, BoardDetection, Grid, grid_from_corners
from vision.image_io import read_image
from vision.stones import StoneReading, read_stones

__all__ = [
    "SIZES",
    "BoardDetection",
    "BoardSampler",
    "Grid",
    "ImageReadError",
    "StoneReading",
    "VisionError",
    "detect_board",
    "grid_from_corners",
    "read_board",
    "read_image",
    "read_stones",
]
