"""Reading the stones on a known grid: black, white or empty at every intersection.

Two readers look at every point. The classical one (:mod:`vision.classify`)
thresholds how much darker or brighter the point's middle is than the board; it
is transparent and was fitted on the real photos. The learned one
(:mod:`vision.learned`) sees the stone's shape in a patch, which tells white
stones from a pale board as bright as they are. They are combined by what was
measured (``kifu bench stones``): the classical reading, overruled by the model
where it is sure of a white stone the thresholds missed or invented, or of black
stones where the thresholds nearly saw them or failed (see :func:`combine`).

The combination's numbers were chosen by a small grid search on synthetic photos
of seed 1001 (which the model never saw) and on the real photos of
``../shared/datasets/photos``, keeping every real reading as the classical reader
has it; synthetic photos of seeds 9001 and 4242 are the held-out check.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from vision.classify import black_threshold, classify
from vision.errors import VisionError
from vision.features import BoardSampler, StoneFeatures, stone_features
from vision.grid import Grid
from vision.hints import suspicions
from vision.learned import LABELS, load_model, patch_inputs

__all__ = [
    "BLACK_FAILED",
    "BLACK_REACH",
    "BLACK_SURE",
    "READERS",
    "WHITE_SURE",
    "StoneReading",
    "combine",
    "read_stones",
]

FloatArray = npt.NDArray[np.float64]

#: The stone readers :func:`read_stones` offers; the first is the default.
READERS: tuple[str, ...] = ("combined", "classical", "learned")
#: The model adds a white stone the classical reader missed when at least this sure
#: (white stones on a pale board, as bright as the wood, are what it is for), and
#: takes away a classical white stone when at least this sure.
WHITE_SURE = 0.99
#: The model adds a black stone the classical reader missed when at least this sure...
BLACK_SURE = 0.9
#: ... and the point is at most this much (share of the board's brightness) short
#: of the classical black threshold...
BLACK_REACH = 0.02
#: ... or, anywhere on the board, when it finds at least this many times as many
#: black stones beyond the classical ones as the classical reader does: then the
#: image's black threshold has failed (a dark, grainy board's spread pushed it
#: past the stones). Otherwise black stones are left to the thresholds, since on
#: real photos the model takes deep stone shadows and a board's dark rim for stones.
BLACK_FAILED = 4.0


@dataclass(frozen=True)
class StoneReading:
    """What is on every intersection, and how sure the reader is."""

    #: N rows, top row first: ``'.'`` empty, ``'X'`` black, ``'O'`` white.
    board: tuple[str, ...]
    #: ndarray of shape (N, N), float64, 0..1 per intersection.
    confidence: FloatArray = field(compare=False)
    #: Why the reading may be wrong (rule-based hints), empty when nothing is odd.
    suspicions: tuple[str, ...] = ()


def combine(
    labels: npt.NDArray[np.str_],
    confidence: FloatArray,
    probabilities: npt.NDArray[np.float32],
    features: StoneFeatures,
) -> tuple[npt.NDArray[np.str_], FloatArray]:
    """The classical reading, overruled by the model where that was measured to help.

    The model was trained on synthetic photos only: there it is far better than
    the classical reader, but on real photos it sees black stones in deep shadows
    and along a board's dark rim. So it may add or take away white stones where
    it is sure, and add black stones only where the classical threshold was
    nearly met or has plainly failed on this image (see ``BLACK_FAILED``).

    Parameters
    ----------
    labels, confidence : ndarray of shape (N, N)
        The classical reading (:func:`vision.classify.classify`).
    probabilities : ndarray of shape (N*N, 3), float32
        The model's, row by row, classes in ``LABELS`` order.
    features : StoneFeatures
        The classical reader's features of the same image.

    Returns
    -------
    labels : ndarray of shape (N, N), str
    confidence : ndarray of shape (N, N), float64
        The model's probability where it decided, the classical confidence elsewhere.
    """
    learned, sure = _learned(probabilities, labels.shape[0])
    empty = labels == "."
    white = (empty & (learned == "O")) | ((labels == "O") & (learned == "."))
    black = empty & (learned == "X") & (sure >= BLACK_SURE)
    overrule = white & (sure >= WHITE_SURE)
    if black.any():
        failed = black.sum() >= BLACK_FAILED * max(int((labels == "X").sum()), 1)
        near = features.dark - black_threshold(features.dark) >= -BLACK_REACH
        overrule |= black & (failed | near)
    return np.where(overrule, learned, labels), np.where(overrule, sure, confidence)


def _learned(
    probabilities: npt.NDArray[np.float32], size: int
) -> tuple[npt.NDArray[np.str_], FloatArray]:
    """The model's most likely label per point and its probability, each (N, N)."""
    best = probabilities.argmax(axis=1)
    labels = np.array(list(LABELS))[best].reshape(size, size)
    sure = probabilities[np.arange(len(best)), best].reshape(size, size).astype(np.float64)
    return labels, sure


def read_stones(
    image: npt.NDArray[np.uint8], grid: Grid | BoardSampler, *, reader: str = "combined"
) -> StoneReading:
    """Read black, white or empty at every intersection of a known grid.

    Parameters
    ----------
    image : ndarray of shape (H, W, 3), uint8
        BGR photo, the same size as the one the grid was found in.
    grid : Grid or BoardSampler
        Pass a :class:`BoardSampler` built once to read many frames fast.
    reader : str
        ``"combined"`` (the default), or one of its parts alone, for comparison:
        ``"classical"`` (:mod:`vision.classify`) or ``"learned"`` (:mod:`vision.learned`).

    Returns
    -------
    StoneReading

    Raises
    ------
    VisionError
        If ``reader`` is unknown, or the image is not the grid's size.
    """
    if reader not in READERS:
        raise VisionError(f"unknown stone reader {reader!r}; expected one of {', '.join(READERS)}")
    sampler = grid if isinstance(grid, BoardSampler) else BoardSampler.for_grid(grid)
    warped = sampler.warp(image)
    size = sampler.grid.size
    features = stone_features(warped, size)
    if reader == "learned":
        labels, confidence = _learned(
            load_model().probabilities(patch_inputs(warped, features)), size
        )
    else:
        labels, confidence = classify(features)
        if reader == "combined":
            probabilities = load_model().probabilities(patch_inputs(warped, features))
            labels, confidence = combine(labels, confidence, probabilities, features)
    board = tuple("".join(row) for row in labels)
    return StoneReading(board=board, confidence=confidence, suspicions=suspicions(board))
