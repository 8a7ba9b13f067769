"""Black, white or empty from per-intersection features: a few transparent rules.

The features are relative to the local board (see :mod:`vision.features`), so fixed
thresholds carry across boards and lighting; the margin to the nearest threshold
gives the confidence. The thresholds were chosen on the real photos of
``../shared/datasets/photos`` (a grid search over these four numbers, see the
README's accuracy table), so that table measures fit, not generalisation; the
synthetic photos are the held-out check.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from vision.features import StoneFeatures

__all__ = ["BLACK_DARKNESS", "WHITE_BRIGHTNESS", "classify"]

FloatArray = npt.NDArray[np.float64]

#: A black stone's middle is at least this much darker than the board (share of its brightness).
BLACK_DARKNESS = 0.3
#: A white stone's middle is at least this much brighter than the board.
WHITE_BRIGHTNESS = 0.18
#: Grid lines showing through a point at least this clearly (share of the board's
#: brightness) mean no white stone is there, whatever the brightness says (glare,
#: bright patches of board).
WHITE_MAX_CROSS = 1.0
#: ... and no black stone, beyond this (a dark shadow with lines in it).
BLACK_MAX_CROSS = 1.0
#: Margin (in feature units) at which a decision counts as certain.
_SURE = 0.15


def classify(features: StoneFeatures) -> tuple[npt.NDArray[np.str_], FloatArray]:
    """Label every intersection ``'X'``, ``'O'`` or ``'.'`` with a 0..1 confidence.

    Returns
    -------
    labels : ndarray of shape (N, N), str
    confidence : ndarray of shape (N, N), float64
    """
    black = np.minimum(features.dark - BLACK_DARKNESS, BLACK_MAX_CROSS - features.cross)
    white = np.minimum(features.bright - WHITE_BRIGHTNESS, WHITE_MAX_CROSS - features.cross)
    labels = np.full(features.dark.shape, ".", dtype="<U1")
    labels[white > 0] = "O"
    labels[black > 0] = "X"
    margin = np.where(black > 0, black, np.where(white > 0, white, np.minimum(-black, -white)))
    confidence = 0.5 + 0.5 * np.clip(margin / _SURE, 0.0, 1.0)
    return labels, np.asarray(confidence, dtype=np.float64)
