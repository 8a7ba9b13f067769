"""Pictures for a person to check: the found grid and the read stones over the photo."""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np
import numpy.typing as npt

from vision.features import STONE_LIFT, lift_homography
from vision.geometry import apply_homography
from vision.grid import Grid

__all__ = ["draw_reading"]

_BLACK_MARK = (0, 0, 255)  # red ring on black stones
_WHITE_MARK = (255, 160, 0)  # blue ring on white stones
_GRID = (0, 220, 0)
_UNSURE_MARK = (255, 0, 255)  # magenta cross where the reading is a guess


def draw_reading(
    image: npt.NDArray[np.uint8],
    grid: Grid,
    *,
    board: Sequence[str] | None = None,
    wrong: npt.NDArray[np.bool_] | None = None,
    unsure: npt.NDArray[np.bool_] | None = None,
    max_side: int = 1200,
) -> npt.NDArray[np.uint8]:
    """The photo, scaled to at most ``max_side``, with the grid and stones drawn on it.

    Parameters
    ----------
    image : ndarray of shape (H, W, 3), uint8
        The photo the grid was found in.
    grid : Grid
    board : sequence of str, optional
        A reading in text form; black stones get a red ring, white ones a blue ring,
        drawn where the stones' middles appear (raised above the board, as read).
    wrong : ndarray of shape (N, N), bool, optional
        Points to flag with a yellow square (e.g. where a reading disagrees with truth).
    unsure : ndarray of shape (N, N), bool, optional
        Points whose reading is a guess (read under a half, e.g. washed out by
        glare), crossed out in magenta.
    max_side : int
        Longest side of the picture returned.

    Returns
    -------
    ndarray of shape (h, w, 3), uint8
    """
    height, width = image.shape[:2]
    scale = min(1.0, max_side / max(height, width))
    out = cv2.resize(
        image, (round(width * scale), round(height * scale)), interpolation=cv2.INTER_AREA
    )
    points = grid.intersections * scale
    shift = 4
    fixed = np.rint(points * (1 << shift)).astype(np.int32)
    for k in range(grid.size):
        cv2.polylines(out, [fixed[k]], False, _GRID, 1, cv2.LINE_AA, shift)
        cv2.polylines(out, [np.ascontiguousarray(fixed[:, k])], False, _GRID, 1, cv2.LINE_AA, shift)
    corner = tuple(int(v) for v in np.rint(points[0, 0]))
    cv2.circle(out, corner, 6, (255, 0, 255), 2, cv2.LINE_AA)
    radius = max(3, int(0.35 * grid.cell_pixels * scale))
    n = grid.size
    lattice = np.stack(np.meshgrid(np.arange(n, dtype=float), np.arange(n, dtype=float)), -1)
    lifted = apply_homography(
        lift_homography(grid.homography, grid.image_shape, STONE_LIFT), lattice
    )
    raised = (lifted + grid.intersections - apply_homography(grid.homography, lattice)) * scale
    if board is not None:
        for r, row in enumerate(board):
            for c, mark in enumerate(row):
                centre = tuple(int(v) for v in np.rint(raised[r, c]))
                if mark == "X":
                    cv2.circle(out, centre, radius, _BLACK_MARK, 2, cv2.LINE_AA)
                elif mark == "O":
                    cv2.circle(out, centre, radius, _WHITE_MARK, 2, cv2.LINE_AA)
    if wrong is not None:
        for r, c in zip(*np.nonzero(wrong), strict=True):
            x, y = (int(v) for v in np.rint(points[r, c]))
            cv2.rectangle(out, (x - radius, y - radius), (x + radius, y + radius), (0, 255, 255), 2)
    if unsure is not None:
        for r, c in zip(*np.nonzero(unsure), strict=True):
            x, y = (int(v) for v in np.rint(raised[r, c]))
            for dx in (-radius, radius):
                cv2.line(out, (x - dx, y - radius), (x + dx, y + radius), _UNSURE_MARK, 2)
    return np.asarray(out, dtype=np.uint8)
