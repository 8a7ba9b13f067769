"""Reading the stones on a known grid: black, white or empty at every intersection."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from vision.classify import classify
from vision.features import BoardSampler, stone_features
from vision.grid import Grid
from vision.hints import suspicions

__all__ = ["StoneReading", "read_stones"]

FloatArray = npt.NDArray[np.float64]


@dataclass(frozen=True)
class StoneReading:
    """What is on every intersection, and how sure the reader is."""

    #: N rows, top row first: ``'.'`` empty, ``'X'`` black, ``'O'`` white.
    board: tuple[str, ...]
    #: ndarray of shape (N, N), float64, 0..1 per intersection.
    confidence: FloatArray = field(compare=False)
    #: Why the reading may be wrong (rule-based hints), empty when nothing is odd.
    suspicions: tuple[str, ...] = ()


def read_stones(image: npt.NDArray[np.uint8], grid: Grid | BoardSampler) -> StoneReading:
    """Read black, white or empty at every intersection of a known grid.

    Parameters
    ----------
    image : ndarray of shape (H, W, 3), uint8
        BGR photo, the same size as the one the grid was found in.
    grid : Grid or BoardSampler
        Pass a :class:`BoardSampler` built once to read many frames fast.

    Returns
    -------
    StoneReading
    """
    sampler = grid if isinstance(grid, BoardSampler) else BoardSampler.for_grid(grid)
    features = stone_features(sampler.warp(image), sampler.grid.size)
    labels, confidence = classify(features)
    board = tuple("".join(row) for row in labels)
    return StoneReading(board=board, confidence=confidence, suspicions=suspicions(board))
