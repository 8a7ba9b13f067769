"""A tiny board drawer for the vision tests: wood, lines, stones, then a perspective.

Kept deliberately simple (flat stones, one light); it checks geometry and the
classifier on images whose truth is exact, not realism (the real photos do that).
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np
import numpy.typing as npt

from vision.grid import Grid, grid_from_corners

WOOD = (80, 170, 220)  # BGR
TABLE = (90, 60, 50)  # BGR, what the board lies on


def draw_board(
    board: Sequence[str],
    *,
    corners: Sequence[tuple[float, float]],
    image_size: tuple[int, int] = (800, 600),
    cell: int = 40,
    rng: np.random.Generator,
) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.float64]]:
    """Draw a board flat, then warp it so its corner intersections land on ``corners``.

    Returns the image (H, W, 3) uint8 and the true intersections (N, N, 2) as (x, y).
    """
    n = len(board)
    margin = cell
    side = 2 * margin + (n - 1) * cell
    flat = np.zeros((side, side, 3), np.uint8)
    flat[:] = WOOD
    flat = np.clip(flat + rng.normal(0, 4, flat.shape), 0, 255).astype(np.uint8)
    for k in range(n):
        p = margin + k * cell
        cv2.line(flat, (margin, p), (side - margin, p), (30, 30, 30), 2, cv2.LINE_AA)
        cv2.line(flat, (p, margin), (p, side - margin), (30, 30, 30), 2, cv2.LINE_AA)
    for r, row in enumerate(board):
        for c, mark in enumerate(row):
            centre = (margin + c * cell, margin + r * cell)
            if mark == "X":
                cv2.circle(flat, centre, int(0.47 * cell), (25, 25, 25), -1, cv2.LINE_AA)
            elif mark == "O":
                cv2.circle(flat, centre, int(0.47 * cell), (235, 238, 240), -1, cv2.LINE_AA)
                cv2.circle(flat, centre, int(0.47 * cell), (150, 150, 150), 1, cv2.LINE_AA)
    last = margin + (n - 1) * cell
    source = np.array([[margin, margin], [last, margin], [last, last], [margin, last]], np.float32)
    target = np.array(corners, np.float32)
    matrix = np.asarray(cv2.getPerspectiveTransform(source, target), dtype=np.float64)
    width, height = image_size
    table = np.full((height, width, 3), TABLE, np.uint8)
    image = np.asarray(
        cv2.warpPerspective(
            flat, matrix, (width, height), dst=table, borderMode=cv2.BORDER_TRANSPARENT
        ),
        dtype=np.uint8,
    )
    grid = np.stack(np.meshgrid(np.arange(n), np.arange(n)), -1).astype(np.float64)
    flat_points = margin + grid * cell
    ones = np.ones((*flat_points.shape[:2], 1))
    mapped = np.concatenate([flat_points, ones], -1) @ matrix.T
    return image, np.asarray(mapped[..., :2] / mapped[..., 2:3], dtype=np.float64)


def lined_board(
    *, depth: float, thickness: int, sigma: float
) -> tuple[npt.NDArray[np.uint8], Grid]:
    """A pale, empty board on a dark table, in grey: its lines ``depth`` grey levels dark
    and ``thickness`` pixels wide, blurred by a Gaussian of ``sigma`` pixels, then noisy.

    Returns the image (720, 960) uint8 and the true grid.
    """
    image = np.full((720, 960), 120, np.float32)
    corners = np.array([[260, 120], [700, 140], [720, 580], [240, 600]], dtype=np.float64)
    margin = np.array([[-14, -14], [14, -14], [14, 14], [-14, 14]])
    cv2.fillPoly(image, [(corners + margin).astype(np.int32)], 205)
    grid = grid_from_corners(corners, size=19, image_shape=image.shape)
    at = grid.intersections
    for k in range(19):
        for start, end in ((at[k, 0], at[k, -1]), (at[0, k], at[-1, k])):
            a, b = (tuple(int(v) for v in np.round(p)) for p in (start, end))
            cv2.line(image, a, b, 205 - depth, thickness, cv2.LINE_AA)
    noise = np.random.default_rng(1).normal(0.0, 1.0, image.shape)
    image = cv2.GaussianBlur(image, (0, 0), sigma) + noise
    return np.clip(image, 0, 255).astype(np.uint8), grid
