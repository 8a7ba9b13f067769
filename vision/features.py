"""Sampling a board on a known grid, and the features stones are read from.

The camera path reads stones every frame with a fixed grid, so the
per-grid work (where each output pixel samples the photo) is done once, in
:class:`BoardSampler`, and a frame costs one ``cv2.remap`` of a small board image
plus a few vectorised statistics.

Features, per intersection, relative to the board around it (so that shadows,
coloured light and pale or dark boards matter less):

- ``dark``: how much darker the middle of the point is than the local board,
  in units of the board's brightness;
- ``bright``: how much brighter it is;
- ``chroma``: how far its colour is from the board's;
- ``neutral``: how much greyer it is than the board (white stones are grey, wood
  is not, and neither are hands);
- ``ring``: how much of a stone-sized circle around the point is an edge.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from vision.errors import VisionError
from vision.geometry import apply_homography
from vision.grid import Grid

__all__ = ["CELL", "BoardSampler", "StoneFeatures", "stone_features"]

FloatArray = npt.NDArray[np.float64]

#: Pixels per grid cell in the warped board image the stones are read from.
CELL = 16


@dataclass(frozen=True, eq=False)
class BoardSampler:
    """Precomputed sampling maps from a photo to a straightened board image.

    The straightened image has ``cell`` pixels per grid cell, intersection
    ``(row, col)`` at pixel ``(cell * row + cell // 2, cell * col + cell // 2)``.
    Refined intersections that depart from the homography (lens distortion) bend
    the maps smoothly through them.
    """

    grid: Grid
    cell: int
    map1: npt.NDArray[np.int16]
    map2: npt.NDArray[np.uint16]

    @classmethod
    def for_grid(cls, grid: Grid, *, cell: int = CELL) -> BoardSampler:
        """Build the maps for a grid (once per grid, not per frame)."""
        n = grid.size
        side = n * cell
        coords = (np.arange(side, dtype=np.float64) - (cell - 1) / 2.0) / cell
        uu, vv = np.meshgrid(coords, coords)
        lattice = np.stack([uu, vv], axis=-1)
        mapped = apply_homography(grid.homography, lattice)
        # Bend through the refined intersections: interpolate their residuals.
        grid_uv = np.stack(
            np.meshgrid(np.arange(n, dtype=np.float64), np.arange(n, dtype=np.float64)), -1
        )
        residual = (grid.intersections - apply_homography(grid.homography, grid_uv)).astype(
            np.float32
        )
        fx = np.clip(uu, 0, n - 1).astype(np.float32)
        fy = np.clip(vv, 0, n - 1).astype(np.float32)
        bend = np.stack(
            [cv2.remap(residual[..., k], fx, fy, interpolation=cv2.INTER_LINEAR) for k in range(2)],
            axis=-1,
        )
        full = (mapped + bend).astype(np.float32)
        map1, map2 = cv2.convertMaps(full[..., 0], full[..., 1], cv2.CV_16SC2)
        return cls(grid=grid, cell=cell, map1=map1, map2=map2)

    def warp(self, image: npt.NDArray[np.uint8]) -> npt.NDArray[np.uint8]:
        """The straightened board, ndarray of shape (N*cell, N*cell, 3), uint8."""
        h, w = self.grid.image_shape
        if image.shape[:2] != (h, w):
            raise VisionError(
                f"image is {image.shape[1]}x{image.shape[0]}, "
                f"but the grid was found in a {w}x{h} image"
            )
        out = cv2.remap(
            image, self.map1, self.map2, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
        )
        return np.asarray(out, dtype=np.uint8)


@dataclass(frozen=True, eq=False)
class StoneFeatures:
    """Per-intersection features, each an ndarray of shape (N, N), float64."""

    dark: FloatArray
    bright: FloatArray
    chroma: FloatArray
    neutral: FloatArray
    ring: FloatArray


def _disc(cell: int, radius: float) -> npt.NDArray[np.bool_]:
    c = (cell - 1) / 2.0
    y, x = np.mgrid[0:cell, 0:cell]
    return np.asarray((x - c) ** 2 + (y - c) ** 2 <= radius**2)


def _blocks(channel: npt.NDArray[np.float32], n: int, cell: int) -> npt.NDArray[np.float32]:
    """(N*cell, N*cell) → (N, N, cell*cell): the pixels of each intersection's cell."""
    return np.asarray(
        channel.reshape(n, cell, n, cell).transpose(0, 2, 1, 3).reshape(n, n, cell * cell)
    )


def _smooth_board(values: FloatArray, reliable: npt.NDArray[np.bool_]) -> FloatArray:
    """Board value everywhere from the reliable samples: a robust quadratic surface."""
    n = values.shape[0]
    v, u = np.mgrid[0:n, 0:n].astype(np.float64) / max(n - 1, 1) - 0.5
    design = np.stack([np.ones_like(u), u, v, u * u, u * v, v * v], axis=-1).reshape(-1, 6)
    target = values.ravel()
    keep = reliable.ravel().copy()
    coef = np.zeros(6)
    for _ in range(4):
        if keep.sum() < 12:
            coef = np.array(
                [np.median(target[reliable.ravel()] if reliable.any() else target), 0, 0, 0, 0, 0]
            )
            break
        coef, *_ = np.linalg.lstsq(design[keep], target[keep], rcond=None)
        residual = target - design @ coef
        spread = 1.4826 * float(np.median(np.abs(residual[keep]))) + 1e-6
        keep = reliable.ravel() & (np.abs(residual) < 2.5 * spread)
    return np.asarray((design @ coef).reshape(n, n), dtype=np.float64)


def stone_features(warped: npt.NDArray[np.uint8], size: int) -> StoneFeatures:
    """Features of every intersection in a straightened board image.

    Parameters
    ----------
    warped : ndarray of shape (N*cell, N*cell, 3), uint8
        From :meth:`BoardSampler.warp`.
    size : int
        N.
    """
    n = size
    cell = warped.shape[0] // n
    lab = cv2.cvtColor(warped, cv2.COLOR_BGR2LAB).astype(np.float32)
    light = _blocks(lab[..., 0], n, cell)
    a = _blocks(lab[..., 1], n, cell)
    b = _blocks(lab[..., 2], n, cell)
    centre = _disc(cell, 0.3 * cell).ravel()
    core_l = np.median(light[..., centre], axis=-1).astype(np.float64)
    core_a = np.median(a[..., centre], axis=-1).astype(np.float64)
    core_b = np.median(b[..., centre], axis=-1).astype(np.float64)
    # The board between intersections: the corners of each point's cell.
    shifted = np.roll(np.roll(lab, cell // 2, axis=0), cell // 2, axis=1)
    corner = _disc(cell, 0.2 * cell).ravel()
    board_l_raw = np.median(_blocks(shifted[..., 0], n, cell)[..., corner], axis=-1).astype(
        np.float64
    )
    board_a_raw = np.median(_blocks(shifted[..., 1], n, cell)[..., corner], axis=-1).astype(
        np.float64
    )
    board_b_raw = np.median(_blocks(shifted[..., 2], n, cell)[..., corner], axis=-1).astype(
        np.float64
    )
    typical = float(np.median(board_l_raw))
    spread = 1.4826 * float(np.median(np.abs(board_l_raw - typical))) + 1.0
    reliable = np.abs(board_l_raw - typical) < 3.0 * spread
    reliable[0, :] = reliable[:, 0] = False  # these samples lie off the grid
    board_l = _smooth_board(board_l_raw, reliable)
    board_a = _smooth_board(board_a_raw, reliable)
    board_b = _smooth_board(board_b_raw, reliable)
    scale = np.maximum(board_l, 20.0)
    dark = (board_l - core_l) / scale
    bright = (core_l - board_l) / scale
    chroma = np.hypot(core_a - board_a, core_b - board_b) / scale
    neutral = (
        np.hypot(board_a - 128.0, board_b - 128.0) - np.hypot(core_a - 128.0, core_b - 128.0)
    ) / scale
    gray = lab[..., 0]
    edges = np.hypot(cv2.Sobel(gray, cv2.CV_32F, 1, 0), cv2.Sobel(gray, cv2.CV_32F, 0, 1))
    annulus = (_disc(cell, 0.5 * cell) & ~_disc(cell, 0.32 * cell)).ravel()
    ring = np.mean(_blocks(edges, n, cell)[..., annulus], axis=-1).astype(np.float64) / scale
    return StoneFeatures(dark=dark, bright=bright, chroma=chroma, neutral=neutral, ring=ring)
