"""Black, white or empty from per-intersection features: a few transparent rules.

The feature is relative to the local board (see :mod:`vision.features`), so one
scale carries across boards and lighting. Both thresholds adapt to each image: a
number of robust spreads above the typical point (most points are empty), never
below a floor. White stones on a pale board are barely brighter than it, while
bright patches of wood on a dark board are; deep stone shadows on a dim board
are nearly as dark as black stones, which are about as dark as anything gets (so
the black threshold has a ceiling too). White stones that sit off their point
are found as stone-sized blobs (see :func:`off_centre`). On a crowded board the
spread is measured on the points that cannot be stones (see :func:`_quiet`).

The numbers were chosen on the real photos of ``../shared/datasets/photos`` by a
small grid search (``BLACK_CEILING`` also looking at synthetic photos of seed
2024), so the README's table measures fit; synthetic photos of other seeds are
the held-out check.
"""

from __future__ import annotations

import cv2
import numpy as np
import numpy.typing as npt

from vision.features import StoneFeatures
from vision.robust import median

__all__ = [
    "BLACK_CEILING",
    "BLACK_DARKNESS",
    "BLACK_SPREAD",
    "CROWDED",
    "GAP_REACH",
    "STONE_GAP",
    "WHITE_BRIGHTNESS",
    "WHITE_SPREAD",
    "black_threshold",
    "classify",
    "off_centre",
    "white_threshold",
]

FloatArray = npt.NDArray[np.float64]

#: A black stone's middle is at least this much darker than the board (share of its brightness).
BLACK_DARKNESS = 0.35
#: ... and at least this many robust spreads above the median point (deep shadows
#: across a dim board widen the spread).
BLACK_SPREAD = 8.0
#: ... but never asks for more than this: a black stone is about as dark as it gets.
BLACK_CEILING = 0.8
#: A gap this wide below the darkest (or brightest) points may separate the stones...
STONE_GAP = 0.1
#: ... if the board's points below it lie within this many spreads of its median.
GAP_REACH = 4.0
#: A white stone's middle is at least this much brighter than the board...
WHITE_BRIGHTNESS = 0.15
#: ... and at least this many robust spreads (1.4826 MAD) above the median point.
WHITE_SPREAD = 4.5
#: A blob of white stone is traced at this share of the white threshold: more of
#: the stone's body than its brightest middle.
BLOB_SHARE = 0.7
#: How far (cells) past the outer lines an off-centre stone's middle may lie.
EDGE_SLACK = 0.2
#: Share of points beyond a floor from which a board counts as crowded.
CROWDED = 1.0 / 3.0
#: Margin (share of the board's brightness) at which a decision counts as certain.
_SURE = 0.15


def white_threshold(bright: FloatArray) -> float:
    """The brightness above which a point is white, for one image's points."""
    quiet = _quiet(-bright)
    threshold = _adaptive(bright, WHITE_BRIGHTNESS, WHITE_SPREAD, quiet)
    return max(WHITE_BRIGHTNESS, min(threshold, _gap_above_board(bright, quiet)))


def black_threshold(dark: FloatArray) -> float:
    """The darkness above which a point is black, for one image's points."""
    quiet = _quiet(dark)
    threshold = min(_adaptive(dark, BLACK_DARKNESS, BLACK_SPREAD, quiet), BLACK_CEILING)
    return max(BLACK_DARKNESS, min(threshold, _gap_above_board(dark, quiet)))


def _gap_above_board(values: FloatArray, quiet: npt.NDArray[np.bool_]) -> float:
    """The middle of a clear gap between the board's points and the most extreme ones.

    ``values`` is darkness (for black) or brightness (for white). On a grainy
    board the board's own spread is wide, and the spreads asked for reach past
    stones that nonetheless stand well apart: the first gap of at least
    ``STONE_GAP`` below the highest values separates them when they spread over
    less than the gap (stones alike, not a run of ever deeper shadows) and
    everything below it lies within ``GAP_REACH`` spreads of the median.
    Infinite when there is no such gap.
    """
    middle = median(values[quiet])
    spread = 1.4826 * median(np.abs(values[quiet] - middle)) + 1e-9
    values = np.sort(values.ravel())[::-1]
    wide = np.nonzero(values[:-1] - values[1:] >= STONE_GAP)[0]
    if len(wide) == 0:
        return np.inf
    k = int(wide[0])
    gap = values[k] - values[k + 1]
    if values[k + 1] > middle + GAP_REACH * spread or values[0] - values[k] > gap:
        return np.inf
    return float(0.5 * (values[k] + values[k + 1]))


def _quiet(dark: FloatArray) -> npt.NDArray[np.bool_]:
    """The points the board's spread is measured on: all, unless the board is crowded.

    The median absolute deviation breaks down as stones approach half the points:
    on a crowded board (at least ``CROWDED`` of the points beyond a floor) the
    stones would set the spread themselves and push both thresholds past them, so
    the spread is measured on the points within both floors. On a sparser board
    every point counts: bright patches of empty wood must widen the spread.
    """
    beyond = (dark >= BLACK_DARKNESS) | (-dark >= WHITE_BRIGHTNESS)
    if beyond.mean() < CROWDED:
        return np.ones(dark.shape, dtype=bool)
    return np.asarray(~beyond)


def _adaptive(
    values: FloatArray, floor: float, spreads: float, quiet: npt.NDArray[np.bool_]
) -> float:
    """``spreads`` robust spreads (1.4826 MAD) above the quiet points' median, >= ``floor``."""
    middle = median(values[quiet])
    spread = 1.4826 * median(np.abs(values[quiet] - middle))
    return max(floor, middle + spreads * spread)


def off_centre(
    relative: npt.NDArray[np.float32], mask_threshold: float, size: int
) -> npt.NDArray[np.bool_]:
    """Intersections that own a stone sitting off the point.

    Pixels beyond ``mask_threshold`` (relative brightness; negative for black)
    are stone-like; where the distance transform peaks between 0.3 and 0.6 cell
    (a stone's middle, even among touching stones; never a grid line, nor a
    wide bright patch), the nearest intersection owns a stone if it lies within
    half a cell.
    """
    cell = relative.shape[0] // size
    mask = (relative > mask_threshold) if mask_threshold > 0 else (relative < mask_threshold)
    distance = cv2.distanceTransform(mask.astype(np.uint8), cv2.DIST_L2, 3)
    reach = max(3, round(1.2 * cell)) | 1  # one peak per stone: neighbours are a cell apart
    kernel = np.ones((reach, reach), np.uint8)
    # A stone's middle is 0.3..0.6 cell from the edge of its blob; a wider bright
    # patch (glare, the board's rim) is no stone.
    peaks = (
        (distance >= 0.25 * cell)
        & (distance <= 0.6 * cell)
        & (distance >= cv2.dilate(distance, kernel))
    )
    rows, cols = np.nonzero(peaks)
    owned = np.zeros((size, size), dtype=bool)
    if len(rows) == 0:
        return owned
    row = (rows - (cell - 1) / 2.0) / cell
    col = (cols - (cell - 1) / 2.0) / cell
    r, c = np.rint(row).astype(np.int64), np.rint(col).astype(np.int64)
    # Within half a cell of its point, and not out past the outer lines (where the
    # board's rim and the table catch the light).
    inside = (np.minimum(row, col) > -EDGE_SLACK) & (np.maximum(row, col) < size - 1 + EDGE_SLACK)
    near = (np.hypot(row - r, col - c) < 0.5) & inside
    owned[r[near], c[near]] = True
    return owned


def classify(features: StoneFeatures) -> tuple[npt.NDArray[np.str_], FloatArray]:
    """Label every intersection ``'X'``, ``'O'`` or ``'.'`` with a 0..1 confidence.

    Returns
    -------
    labels : ndarray of shape (N, N), str
    confidence : ndarray of shape (N, N), float64
        0.5 on a threshold, 1 at ``_SURE`` or more beyond it.
    """
    size = features.dark.shape[0]
    threshold = white_threshold(features.bright)
    black = features.dark - black_threshold(features.dark)
    white = features.bright - threshold
    labels = np.full(features.dark.shape, ".", dtype="<U1")
    labels[white > 0] = "O"
    labels[off_centre(features.relative, BLOB_SHARE * threshold, size) & (labels == ".")] = "O"
    labels[black > 0] = "X"
    margin = np.where(black > 0, black, np.where(white > 0, white, np.minimum(-black, -white)))
    confidence = 0.5 + 0.5 * np.clip(margin / _SURE, 0.0, 1.0)
    return labels, np.asarray(confidence, dtype=np.float64)
