"""Finding a board in a photo: the grid from its lines, centred on its stones when unsure.

:func:`vision.grid.find_grid` places the grid from the board's lines (or, when
none are seen, from the lattice of its stones). Where the lines leave that
placement unsure (crossing evidence under ``SURE_EVIDENCE``: a crowded board, a
blurred one), :func:`vision.centring.centre_on_stones` moves it to where the
stones read surest.
"""

from __future__ import annotations

import cv2
import numpy as np
import numpy.typing as npt

from vision.centring import centre_on_stones
from vision.grid import SURE_EVIDENCE, BoardDetection, find_grid

__all__ = ["detect_board"]


def detect_board(
    image: npt.NDArray[np.uint8],
    *,
    size: int = 19,
    corners: npt.ArrayLike | None = None,
    rng: np.random.Generator | None = None,
) -> BoardDetection:
    """Find a board's grid in a photo, with no clicks.

    Parameters
    ----------
    image : ndarray of shape (H, W, 3) or (H, W), uint8
        BGR (or grey) photo.
    size : int
        Board size N, one of ``SIZES``.
    corners : array-like of shape (4, 2), optional
        Image ``(x, y)`` of the corner intersections board[0][0], board[0][N-1],
        board[N-1][N-1], board[N-1][0], when known; skips the search.
    rng : numpy.random.Generator, optional
        Randomness for RANSAC; a fixed seed by default, so results repeat.

    Returns
    -------
    BoardDetection
        Truthy with ``.grid``, ``.corners``, ``.intersections`` and ``.confidence``;
        falsy with ``.reason`` (``"no board found: ..."``) when no grid fits.
        ``details["centred"]`` is the certainty gained where the grid was moved
        onto its stones.

    Raises
    ------
    VisionError
        If the image is not a uint8 array of a supported shape, or ``size`` is not
        supported.
    """
    found = find_grid(image, size=size, corners=corners, rng=rng)
    if found.grid is None or corners is not None:
        return found
    if found.details.get("evidence", 0.0) >= SURE_EVIDENCE:
        return found
    colour = image if image.ndim == 3 else cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    grid, gain = centre_on_stones(np.asarray(colour, dtype=np.uint8), found.grid)
    if gain == 0.0:
        return found
    details = {**found.details, "centred": gain}
    return BoardDetection(grid=grid, confidence=found.confidence, details=details)
