"""Black, white or empty from per-intersection features: a few transparent rules.

The feature is relative to the local board (see :mod:`vision.features`), so one
black threshold carries across boards and lighting. White stones on a pale board
are barely brighter than it, while on a dark board bright patches of wood are
much brighter than the estimate around them; so the white threshold adapts to
each image: a few robust spreads above the typical point (most points are
empty), never below a floor.

The numbers were chosen on the real photos of ``../shared/datasets/photos`` by a
small grid search; the table in the README therefore measures fit, and the
synthetic photos (never used for choosing) are the held-out check.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from vision.features import StoneFeatures

__all__ = ["BLACK_DARKNESS", "WHITE_BRIGHTNESS", "WHITE_SPREAD", "classify", "white_threshold"]

FloatArray = npt.NDArray[np.float64]

#: A black stone's middle is at least this much darker than the board (share of its brightness).
BLACK_DARKNESS = 0.35
#: A white stone's middle is at least this much brighter than the board...
WHITE_BRIGHTNESS = 0.15
#: ... and at least this many robust spreads (1.4826 MAD) above the median point.
WHITE_SPREAD = 4.0
#: Margin (share of the board's brightness) at which a decision counts as certain.
_SURE = 0.15


def white_threshold(bright: FloatArray) -> float:
    """The brightness above which a point is white, for one image's points."""
    middle = float(np.median(bright))
    spread = 1.4826 * float(np.median(np.abs(bright - middle)))
    return max(WHITE_BRIGHTNESS, middle + WHITE_SPREAD * spread)


def classify(features: StoneFeatures) -> tuple[npt.NDArray[np.str_], FloatArray]:
    """Label every intersection ``'X'``, ``'O'`` or ``'.'`` with a 0..1 confidence.

    Returns
    -------
    labels : ndarray of shape (N, N), str
    confidence : ndarray of shape (N, N), float64
        0.5 on a threshold, 1 at ``_SURE`` or more beyond it.
    """
    black = features.dark - BLACK_DARKNESS
    white = features.bright - white_threshold(features.bright)
    labels = np.full(features.dark.shape, ".", dtype="<U1")
    labels[white > 0] = "O"
    labels[black > 0] = "X"
    margin = np.where(black > 0, black, np.where(white > 0, white, np.minimum(-black, -white)))
    confidence = 0.5 + 0.5 * np.clip(margin / _SURE, 0.0, 1.0)
    return labels, np.asarray(confidence, dtype=np.float64)
