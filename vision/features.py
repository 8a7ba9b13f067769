"""Sampling a board on a known grid, and the features stones are read from.

The camera path reads stones every frame with a fixed grid, so the
per-grid work (where each output pixel samples the photo) is done once, in
:class:`BoardSampler`, and a frame costs one ``cv2.remap`` of a small board image
plus a few vectorised statistics.

The one feature, per intersection, is relative to the board around it (so that
shadows, coloured light and pale or dark boards matter less): ``dark``, how much
darker the middle of the point is than the local board, as a share of the
board's brightness (negative for a white stone). The board's brightness comes
from the cell centres, which stones rarely cover, margin included. The same
relative brightness per pixel (``relative``) lets stones that sit off their
point be found as blobs.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from vision.errors import VisionError
from vision.geometry import apply_homography, focal_length
from vision.grid import Grid
from vision.robust import median, medians

__all__ = [
    "CELL",
    "STONE_LIFT",
    "BoardSampler",
    "StoneFeatures",
    "board_numbers",
    "lift_homography",
    "stone_features",
    "washed_out",
]

FloatArray = npt.NDArray[np.float64]

#: Pixels per grid cell in the warped board image the stones are read from.
CELL = 16
#: Height (grid cells) of the plane stones are sampled on: about half a stone's height.
STONE_LIFT = 0.2
#: Cells of board kept around the grid in the straightened image (board colour there).
MARGIN = 1
#: Reach (grid cells, Gaussian sigma) of the local board colour estimate.
BOARD_SIGMA = 1.5
#: A point is washed out where glare saturates nearly its whole cell: at least
#: ``WASHED_SHARE`` of the cell's pixels with every channel at ``WASHED_LEVEL`` or
#: more, the board between stones included. Hard synthetic photos (dev seeds
#: 2468 and 1357, on their true grids): 1030 of 166671 points, where 212 of the
#: 599 points misread lie, each read with a confidence of 0.5 or more; real
#: photos: none (no cell over 0.32 of its pixels at 230 or more).
WASHED_LEVEL = 240
WASHED_SHARE = 0.9


def lift_homography(
    homography: FloatArray, image_shape: tuple[int, int], lift: float
) -> FloatArray:
    """Homography of the plane ``lift`` grid cells above the board, toward the camera.

    Decomposes ``homography`` (lattice → image) with an estimated camera matrix into
    the board's pose, moves the plane along its normal, and recomposes.
    """
    if lift == 0.0:
        return homography
    h, w = image_shape
    f = focal_length(homography, image_shape)
    camera = np.array([[f, 0, 0.5 * (w - 1)], [0, f, 0.5 * (h - 1)], [0, 0, 1.0]])
    pose = np.linalg.inv(camera) @ homography
    scale = 2.0 / (np.linalg.norm(pose[:, 0]) + np.linalg.norm(pose[:, 1]))
    pose = pose * scale
    if pose[2, 2] < 0:  # the board is in front of the camera
        pose = -pose
    normal = np.cross(pose[:, 0], pose[:, 1])
    normal /= np.linalg.norm(normal)
    if normal @ pose[:, 2] > 0:  # point it toward the camera
        normal = -normal
    lifted = pose.copy()
    lifted[:, 2] = pose[:, 2] + lift * normal
    out = camera @ lifted
    return np.asarray(out / out[2, 2], dtype=np.float64)


@dataclass(frozen=True, eq=False)
class BoardSampler:
    """Precomputed sampling maps from a photo to a straightened board image.

    The straightened image has ``cell`` pixels per grid cell and a margin of
    ``MARGIN`` cells around the grid: intersection ``(row, col)`` is the middle of
    the ``cell``-square block ``(row + MARGIN, col + MARGIN)``.
    Refined intersections that depart from the homography (lens distortion) bend
    the maps smoothly through them.
    """

    grid: Grid
    cell: int
    #: Fixed-point maps (``cv2.convertMaps``) onto the plane of the stones' middles.
    map1: npt.NDArray[np.int16]
    map2: npt.NDArray[np.uint16]

    @classmethod
    def for_grid(cls, grid: Grid, *, cell: int = CELL, lift: float = STONE_LIFT) -> BoardSampler:
        """Build the maps for a grid (once per grid, not per frame).

        ``lift`` is the height above the board, in grid cells, of the plane the
        stones are sampled on: a stone's body stands up from the board, and at a
        tilt it appears displaced from its intersection (parallax); sampling at
        about half a stone's height puts the sample in the middle of what the
        camera sees.
        """
        n = grid.size
        side = (n + 2 * MARGIN) * cell
        coords = (np.arange(side, dtype=np.float64) - (cell - 1) / 2.0) / cell - MARGIN
        lifted = lift_homography(grid.homography, grid.image_shape, lift)
        # The lattice's rows and columns are the same numbers: each pixel's image
        # point from one row and one column term (a fifth of the time of mapping
        # every pixel's (u, v) through the homography).
        (a, b, c), (d, e, f), (g, h, i) = lifted.tolist()
        u, v = coords[None, :], coords[:, None]
        w = g * u + (h * v + i)
        x, y = (a * u + (b * v + c)) / w, (d * u + (e * v + f)) / w
        # Bend through the refined intersections: interpolate their residuals.
        grid_uv = np.stack(
            np.meshgrid(np.arange(n, dtype=np.float64), np.arange(n, dtype=np.float64)), -1
        )
        residual = (grid.intersections - apply_homography(grid.homography, grid_uv)).astype(
            np.float32
        )
        if np.any(residual):  # a plain homography's grid has none
            fx, fy = _residual_maps(n, cell)
            x += cv2.remap(residual[..., 0], fx, fy, cv2.INTER_LINEAR)
            y += cv2.remap(residual[..., 1], fx, fy, cv2.INTER_LINEAR)
        # Each coordinate its own map, as convertMaps takes them: stacked into one
        # array and split again, they cost a third of the maps' time.
        map1, map2 = cv2.convertMaps(x.astype(np.float32), y.astype(np.float32), cv2.CV_16SC2)
        return cls(
            grid=grid,
            cell=cell,
            map1=np.asarray(map1, dtype=np.int16),
            map2=np.asarray(map2, dtype=np.uint16),
        )

    def warp(self, image: npt.NDArray[np.uint8]) -> npt.NDArray[np.uint8]:
        """The straightened board, ndarray of shape ((N+2)*cell, (N+2)*cell, 3), uint8."""
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

    #: How much darker the middle of the point is than the local board (share of its L).
    dark: FloatArray
    #: How much brighter (the negative of ``dark``).
    bright: FloatArray
    #: ndarray of shape (N*cell, N*cell), float32: every pixel's brightness relative to
    #: the board there (for stones that sit off their intersection).
    relative: npt.NDArray[np.float32]
    #: The local board's brightness (Lab L, 0..255) at each intersection, which
    #: :mod:`vision.learned` normalises its patches by; None for features made by hand.
    board: FloatArray | None = field(default=None)


@functools.cache
def _residual_maps(size: int, cell: int) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
    """Where each pixel of a straightened board lies among its N×N points: (u, v) maps.

    Clipped to the points (the margin takes the outer points' residuals).
    Cached, read-only: every grid of one size and cell shares them.
    """
    coords = (np.arange((size + 2 * MARGIN) * cell, dtype=np.float64) - (cell - 1) / 2.0) / cell
    inside = np.clip(coords - MARGIN, 0, size - 1).astype(np.float32)
    fx, fy = np.meshgrid(inside, inside)
    fx.setflags(write=False)
    fy.setflags(write=False)
    return fx, fy


@functools.cache
def _disc_offsets(cell: int, share: float) -> npt.NDArray[np.intp]:
    """Rows and columns, shape (2, K), of a block's pixels within ``share * cell`` of its middle."""
    c = (cell - 1) / 2.0
    y, x = np.mgrid[0:cell, 0:cell]
    inside = (x - c) ** 2 + (y - c) ** 2 <= (share * cell) ** 2
    return np.stack(np.nonzero(inside))


@functools.cache
def _disc_pixels(
    first: int, count: int, cell: int, share: float
) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.intp]]:
    """Rows and columns of the disc pixels of ``count``² blocks, each (count, count, K).

    Block ``(i, j)`` starts at pixel ``(first + i * cell, first + j * cell)``.
    Cached: the camera reads every frame at one size.
    """
    rows, cols = _disc_offsets(cell, share)
    starts = first + cell * np.arange(count)
    r = starts[:, None, None] + rows[None, None, :]
    c = starts[None, :, None] + cols[None, None, :]
    shape = (count, count, rows.size)
    return np.broadcast_to(r, shape).copy(), np.broadcast_to(c, shape).copy()


def _board_brightness(
    raw: FloatArray, a: npt.NDArray[np.float32], b: npt.NDArray[np.float32]
) -> FloatArray:
    """The local board's brightness at each point, from each board's cell-centre samples.

    ``raw`` is their brightness (median), ``a`` and ``b`` their colour (mean), each
    (..., N+1, N+1): one board, or many at once. Samples much darker, much
    brighter or of another colour than most of their board's are taken for
    stones, lines or shadows and left out. Returns (..., N, N).
    """
    lead = raw.shape[:-2]

    def each(values: npt.NDArray[Any]) -> npt.NDArray[Any]:
        """Each board's median, shaped to broadcast against its samples."""
        return medians(values.reshape(*lead, -1))[..., None, None]

    typical = each(raw)
    spread = 1.4826 * each(np.abs(raw - typical)) + 1.0
    colour = np.hypot(a - each(a), b - each(b))
    # Worked out in double precision, compared in the samples' single.
    colour_limit = (3.0 * (1.4826 * each(colour).astype(np.float64) + 1.0)).astype(np.float32)
    reliable = (
        (raw > typical - 3.0 * spread) & (raw < typical + 8.0 * spread) & (colour < colour_limit)
    )
    return _local_board(raw, reliable, sigma=BOARD_SIGMA)


#: Most channels OpenCV's Python binding takes in one image.
_MOST_CHANNELS = 128


def _local_board(
    values: FloatArray, reliable: npt.NDArray[np.bool_], *, sigma: float
) -> FloatArray:
    """Board value at each intersection from the cell-centre samples around it.

    ``values`` holds the (..., N+1, N+1) samples at the cell centres (including
    the margin's); a Gaussian-weighted mean of the reliable ones (normalised
    convolution) follows lighting gradients and shadows while ignoring the
    samples stones cover. Where none is near, the median of the board's reliable
    samples (of all, if none is). Returns (..., N, N).
    """
    lead, m = values.shape[:-2], values.shape[-1]
    weight = reliable.astype(np.float64)
    k = 2 * round(3 * sigma) + 1

    def blurred(plane: FloatArray) -> FloatArray:
        """Each board's ``plane`` blurred, the boards as the channels of images."""
        boards = plane.reshape(-1, m, m)
        out = np.empty_like(boards)
        for start in range(0, len(boards), _MOST_CHANNELS):
            stacked = np.ascontiguousarray(
                np.moveaxis(boards[start : start + _MOST_CHANNELS], 0, -1)
            )
            each = cv2.GaussianBlur(stacked, (k, k), sigma, borderType=cv2.BORDER_CONSTANT)
            out[start : start + _MOST_CHANNELS] = np.moveaxis(each.reshape(m, m, -1), -1, 0)
        return out.reshape(plane.shape)

    num = blurred(values * weight)
    den = blurred(weight)
    num4 = num[..., :-1, :-1] + num[..., 1:, :-1] + num[..., :-1, 1:] + num[..., 1:, 1:]
    den4 = den[..., :-1, :-1] + den[..., 1:, :-1] + den[..., :-1, 1:] + den[..., 1:, 1:]
    near = den4 > 1e-3
    out = np.where(near, num4 / np.maximum(den4, 1e-12), 0.0)
    everywhere = np.asarray(near.all(axis=(-2, -1)))
    for index in np.ndindex(*lead):
        if everywhere[index]:
            continue
        board, ok = values[index], reliable[index]
        fallback = median(board[ok]) if ok.any() else median(board)
        out[index] = np.where(near[index], out[index], fallback)
    return np.asarray(out, dtype=np.float64)


def board_numbers(lab: npt.NDArray[np.uint8], size: int) -> tuple[FloatArray, FloatArray]:
    """``dark`` and the local board's brightness at every point, from straightened Lab boards.

    ``lab`` has shape (..., side, side, 3): one board, or many at once (the same
    board moved by whole pixels, :func:`vision.centring.certainty_maps`), each
    read as :func:`stone_features` reads one. Returns two arrays of shape (..., N, N).
    """
    n = size
    side = lab.shape[-2]
    cell = side // (n + 2 * MARGIN)
    # Pixels gathered straight from ``lab``: with many boards it is a strided view
    # (moved crops of one image) that a reshape would copy whole.
    rows, cols = _disc_pixels(MARGIN * cell, n, cell, 0.3)
    core_l = medians(lab[..., rows, cols, 0])
    # The board between intersections: cell centres, margin included.
    rows, cols = _disc_pixels(MARGIN * cell - cell // 2, n + 1, cell, 0.2)
    # Brightness by median (a line or a stone's edge may cross a sample); colour,
    # only used to tell board from not-board, by the cheaper mean.
    board_l_raw = medians(lab[..., rows, cols, 0]).astype(np.float64)
    a, b = (lab[..., rows, cols, k].astype(np.float32).mean(-1) for k in (1, 2))
    board_l = _board_brightness(board_l_raw, a, b)
    scale = np.maximum(board_l, 20.0)
    dark = (board_l - core_l) / scale
    return np.asarray(dark, dtype=np.float64), np.asarray(scale, dtype=np.float64)


def stone_features(warped: npt.NDArray[np.uint8], size: int) -> StoneFeatures:
    """Features of every intersection in a straightened board image.

    Parameters
    ----------
    warped : ndarray of shape ((N+2)*cell, (N+2)*cell, 3), uint8
        From :meth:`BoardSampler.warp`, on the stones' middle plane.
    size : int
        N.
    """
    n = size
    side = warped.shape[0]
    cell = side // (n + 2 * MARGIN)
    inner = slice(MARGIN * cell, (MARGIN + n) * cell)
    lab = np.asarray(cv2.cvtColor(warped, cv2.COLOR_BGR2LAB), dtype=np.uint8)
    dark, scale = board_numbers(lab, n)
    width = n * cell
    board_px = cv2.resize(scale.astype(np.float32), (width, width), interpolation=cv2.INTER_LINEAR)
    relative = (lab[inner, inner, 0].astype(np.float32) - board_px) / board_px
    return StoneFeatures(
        dark=dark, bright=-dark, relative=np.asarray(relative, np.float32), board=scale
    )


def washed_out(warped: npt.NDArray[np.uint8], size: int) -> npt.NDArray[np.bool_]:
    """Where glare leaves nothing to read: ndarray of shape (N, N), True per point washed out.

    A white stone in plain light saturates only its disc; the board showing
    between stones keeps its colour. Where the board's colour is gone too
    (``WASHED_SHARE`` of the cell at ``WASHED_LEVEL``), a white stone and an empty
    point look the same. ``warped`` as for :func:`stone_features`.
    """
    n = size
    cell = warped.shape[0] // (n + 2 * MARGIN)
    inner = slice(MARGIN * cell, (MARGIN + n) * cell)
    # Pixels with every channel at the level (inRange: a tenth of numpy's min
    # over channels' time, which alone took 3 ms of a frame's 9 on this machine).
    level = (WASHED_LEVEL,) * 3
    bright = cv2.inRange(warped[inner, inner], level, (255, 255, 255))
    # How many in the cell half a cell either side of each point.
    counts = bright.reshape(n, cell, n, cell).sum(axis=(1, 3), dtype=np.int32) // 255
    return np.asarray(counts >= WASHED_SHARE * cell * cell)
