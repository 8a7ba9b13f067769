"""A small learned network that points at a board's four corner intersections.

The line searches find a board by its lines, and fail where the lines do not
show: a board far away (cells under ten pixels), blurred, or so full of stones
that little of a line is left. A person still sees the board there at a glance,
by its shape, its wood against the table and where its stones end. This network
learns that glance from synthetic photos: a small convolutional net over a
square view of the photo, ``INPUT`` pixels a side, answers a heat map at a
quarter of that resolution whose peaks are the grid's corner intersections,
with each peak's offset inside its cell.

It looks twice: once at the whole photo (:func:`whole_view`), then again at a
view around the four corners it saw (:func:`board_view`), where the board fills
most of the view and each corner is placed to a small share of a cell. Both
looks use the same weights, trained on both kinds of view.

A heat map's cell is a few photo pixels, so its corners lie a median 0.3 of a
cell off on a far board: too rough to place one. A second, smaller network,
the refiner (:func:`refine_corners`), looks again at each corner in a patch
cut around it and straightened by the four corners' grid, always turned so
that the board lies to the patch's lower right, and says where in that patch
the corner is, in cells. On 200 dev boards that brings the farthest corner
from a median 0.28 of a cell off to 0.04, and within half a cell from 83 %
of boards to 98 %. It also says how far off each answer may be
(:func:`corner_spread`), so that a corner it cannot see (cut by the photo's
edge, washed out by glare) is not taken as surely as one it can.

It says where the corners are and how sure it is (each peak's heat); it knows
nothing of what a board must read like. Its corners are a candidate like any
other search's, checked by the stones and lines on the grid they give.

Inference runs through OpenCV's own ``dnn`` module from the ONNX file shipped in
``vision/models/corners.onnx`` and ``vision/models/corner_refiner.onnx``,
each loaded once, on first use; training is ``kifu train corners`` and
``kifu train refiner`` (PyTorch, an optional extra), reproducible from a seed.
"""

from __future__ import annotations

import functools
import itertools
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt

from vision.errors import VisionError
from vision.geometry import clockwise_from_top_left
from vision.nets import NET_LOCK, read_onnx

__all__ = [
    "BOARD_GROWTH",
    "COMPLETED_FROM",
    "CORNER_COSINE",
    "INPUT",
    "LOG_SPREAD_BOUNDS",
    "MIN_HEAT",
    "MODEL_PATH",
    "PATCH",
    "PATCH_REACH",
    "REFINER_PATH",
    "SAME_GUESS_PIXELS",
    "SIDE_RATIO",
    "STRIDE",
    "CornerGuess",
    "View",
    "board_view",
    "cells_to_patch",
    "corner_frames",
    "corner_guesses",
    "corner_patches",
    "corner_spread",
    "find_corners",
    "heat_map",
    "heat_peaks",
    "load_corner_net",
    "load_refiner",
    "patch_cells",
    "refine_corners",
    "whole_view",
]

F32 = npt.NDArray[np.float32]
F64 = npt.NDArray[np.float64]
U8 = npt.NDArray[np.uint8]

#: Side of the square view the network sees, in pixels.
INPUT = 192
#: The heat map's cells are this many view pixels a side.
STRIDE = 4
#: The second look's view: the corners' bounding square grown by this factor,
#: so the board's edges and a little table show around the grid.
BOARD_GROWTH = 1.3
#: Peaks weaker than this are no corner (a sigmoid heat, 0..1).
MIN_HEAT = 0.1
#: The shipped weights.
MODEL_PATH = Path(__file__).with_name("models") / "corners.onnx"
#: The refiner's patch around one corner: this many pixels a side...
PATCH = 40
#: ... reaching this many cells each way from the corner, in the grid's own frame.
PATCH_REACH = 2.5
#: The refiner's shipped weights.
REFINER_PATH = Path(__file__).with_name("models") / "corner_refiner.onnx"
#: The bounds of the refiner's log spread, as its training clamps them.
LOG_SPREAD_BOUNDS = (-6.0, 3.0)


@dataclass(frozen=True)
class View:
    """A square part of a photo scaled to ``INPUT`` pixels: ``pixels`` and where it lies.

    ``origin`` is the photo's ``(x, y)`` at the view's top-left corner and
    ``scale`` the view pixels per photo pixel, so a photo point ``p`` is at
    ``(p - origin) * scale`` in the view. Parts outside the photo are black.
    """

    pixels: U8
    origin: tuple[float, float]
    scale: float

    def to_photo(self, points: npt.ArrayLike) -> F64:
        """View ``(x, y)`` points back in the photo's pixels."""
        photo: F64 = np.asarray(points, dtype=np.float64) / self.scale + np.asarray(self.origin)
        return photo

    def to_view(self, points: npt.ArrayLike) -> F64:
        """Photo ``(x, y)`` points in the view's pixels."""
        view: F64 = (np.asarray(points, dtype=np.float64) - np.asarray(self.origin)) * self.scale
        return view


def _square_view(image: U8, centre: tuple[float, float], side: float) -> View:
    """The square of ``side`` photo pixels centred on ``centre``, scaled to ``INPUT``."""
    colour = image if image.ndim == 3 else cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    height, width = colour.shape[:2]
    side = max(float(side), 8.0)
    x0 = round(centre[0] - side / 2.0)
    y0 = round(centre[1] - side / 2.0)
    n = round(side)
    canvas = np.zeros((n, n, 3), dtype=np.uint8)
    sx0, sy0 = max(x0, 0), max(y0, 0)
    sx1, sy1 = min(x0 + n, width), min(y0 + n, height)
    if sx1 > sx0 and sy1 > sy0:
        canvas[sy0 - y0 : sy1 - y0, sx0 - x0 : sx1 - x0] = colour[sy0:sy1, sx0:sx1]
    interpolation = cv2.INTER_AREA if n > INPUT else cv2.INTER_LINEAR
    pixels = np.asarray(
        cv2.resize(canvas, (INPUT, INPUT), interpolation=interpolation), dtype=np.uint8
    )
    return View(pixels=pixels, origin=(float(x0), float(y0)), scale=INPUT / n)


def whole_view(image: U8) -> View:
    """The whole photo, its longer side fitted to the view, centred."""
    height, width = image.shape[:2]
    return _square_view(image, (width / 2.0, height / 2.0), max(width, height))


def board_view(image: U8, corners: npt.ArrayLike, *, growth: float = BOARD_GROWTH) -> View:
    """A view around four corners: their bounding square, grown by ``growth``."""
    pts = np.asarray(corners, dtype=np.float64).reshape(-1, 2)
    low, high = pts.min(axis=0), pts.max(axis=0)
    centre = (low + high) / 2.0
    side = float(np.max(high - low)) * growth
    return _square_view(image, (float(centre[0]), float(centre[1])), side)


@functools.cache
def load_corner_net(path: Path = MODEL_PATH) -> cv2.dnn.Net:
    """The corner network, read once from its ONNX file, or an error naming the file."""
    return read_onnx(path, "corner model")


def heat_map(view: View, path: Path = MODEL_PATH) -> tuple[F32, F32]:
    """The network's heat (sigmoid, shape (INPUT/STRIDE,)*2) and offsets (2, same) on a view."""
    blob = view.pixels.astype(np.float32).transpose(2, 0, 1)[None]
    net = load_corner_net(path)
    with NET_LOCK:
        net.setInput(np.ascontiguousarray(blob))
        out = np.asarray(net.forward(), dtype=np.float32)
    # The sigmoid as a tanh: a sure net's logits overflow exp in float32.
    heat = 0.5 + 0.5 * np.tanh(0.5 * out[0, 0])
    return heat.astype(np.float32), out[0, 1:3]


def heat_peaks(heat: F32, offsets: F32, *, most: int = 8) -> tuple[F64, F64]:
    """The heat map's local maxima over ``MIN_HEAT``, strongest first: view ``(x, y)`` and heats.

    A peak's point is its cell's corner plus the offset the network gives there,
    times ``STRIDE``.
    """
    dilated = cv2.dilate(heat, np.ones((3, 3), np.uint8))
    ys, xs = np.nonzero((heat >= dilated) & (heat >= MIN_HEAT))
    order = np.argsort(-heat[ys, xs])[:most]
    ys, xs = ys[order], xs[order]
    points = np.stack(
        [(xs + offsets[0, ys, xs]) * STRIDE, (ys + offsets[1, ys, xs]) * STRIDE], axis=-1
    ).astype(np.float64)
    return points.reshape(-1, 2), heat[ys, xs].astype(np.float64)


@dataclass(frozen=True)
class CornerGuess:
    """Four corner intersections in the photo and the weakest one's heat.

    The corners run clockwise on screen from the one nearest the photo's
    top-left, as :func:`vision.grid.grid_from_corners` takes them.
    """

    corners: F64
    heat: float


def _four_corners(points: F64, heats: F64) -> tuple[F64, float] | None:
    """The four strongest peaks, if they make a convex quadrilateral, in hull order."""
    if len(points) < 4:
        return None
    quad = points[:4].astype(np.float32)
    hull = cv2.convexHull(quad, returnPoints=False)
    if hull is None or len(hull) != 4:
        return None
    return clockwise_from_top_left(points[:4]), float(heats[:4].min())


def find_corners(image: U8, *, path: Path = MODEL_PATH) -> CornerGuess | None:
    """The board's four corner intersections as the network sees them, or None.

    First on the whole photo, then on a view around what it saw there; None
    where either look finds no four corners making a convex quadrilateral.
    """
    first = whole_view(image)
    found = _four_corners(*heat_peaks(*heat_map(first, path)))
    if found is None:
        return None
    return _looked_again(image, first.to_photo(found[0]), found[1], path)


def _looked_again(image: U8, corners: F64, heat: float, path: Path) -> CornerGuess | None:
    """The second look, on a view around ``corners`` (the first look's, at ``heat``)."""
    second = board_view(image, corners)
    again = _four_corners(*heat_peaks(*heat_map(second, path)))
    if again is None:
        return None
    return CornerGuess(corners=second.to_photo(again[0]), heat=min(heat, again[1]))


#: The first look's strongest peaks whose threes :func:`corner_guesses` completes.
COMPLETED_FROM = 5
#: A completed guess's two sides from its middle corner are at most this many
#: times one another (a square board seen at up to 45 degrees' tilt, and more)...
SIDE_RATIO = 2.5
#: ... and meet at an angle whose cosine is at most this (37 to 143 degrees).
CORNER_COSINE = 0.8
#: Two guesses whose corners lie this close (photo pixels) are one.
SAME_GUESS_PIXELS = 3.0


def corner_guesses(image: U8, *, path: Path = MODEL_PATH) -> list[CornerGuess]:
    """Guesses at the corners from each three of the first look's peaks, the fourth completed.

    Where glare, a hand or the photo's edge hides one corner, or a stone bowl
    looks like one, the first look's four strongest peaks (:func:`find_corners`)
    take a stray one, and the second look, on a view around them, sees the
    board too small or cut. Three of its peaks still lie on the board's
    corners, and the fourth lies near where they complete a parallelogram. So
    each three of the ``COMPLETED_FROM`` strongest peaks, each taken in turn as
    the middle corner, is completed so (where its sides could be a board's:
    ``SIDE_RATIO``, ``CORNER_COSINE``) and looked at again as the first guess
    is. A guess's heat is the weakest of its three peaks' and its second
    look's. Guesses whose corners lie within a few pixels of one before are
    left out; the strongest come first.
    """
    first = whole_view(image)
    points, heats = heat_peaks(*heat_map(first, path), most=COMPLETED_FROM)
    photo = first.to_photo(points)
    guesses: list[CornerGuess] = []
    for three in itertools.combinations(range(len(photo)), 3):
        for middle in three:
            ends = [k for k in three if k != middle]
            a, b, c = photo[ends[0]], photo[middle], photo[ends[1]]
            sides = np.linalg.norm(a - b), np.linalg.norm(c - b)
            if min(sides) < 1.0 or max(sides) > SIDE_RATIO * min(sides):
                continue
            if abs(float(np.dot(a - b, c - b))) > CORNER_COSINE * sides[0] * sides[1]:
                continue
            quad = clockwise_from_top_left(np.array([a, b, c, a + c - b]))
            guess = _looked_again(image, quad, float(heats[list(three)].min()), path)
            if guess is None or any(
                np.abs(guess.corners - other.corners).max() < SAME_GUESS_PIXELS for other in guesses
            ):
                continue
            guesses.append(guess)
    return sorted(guesses, key=lambda guess: -guess.heat)


#: Each corner's grid point (column, row) and the way into the board from it, in
#: the order of :func:`vision.grid.grid_from_corners`'s corners.
_INWARD = ((1.0, 1.0), (-1.0, 1.0), (-1.0, -1.0), (1.0, -1.0))


def corner_frames(corners: npt.ArrayLike, size: int) -> list[F64]:
    """Per corner, the homography from its refiner patch's pixels to the photo's.

    The patch is cut in the grid's own frame, the one the four ``corners`` give:
    ``PATCH_REACH`` cells each way from the corner, turned (and for two of
    them mirrored) so that the board always lies toward the patch's lower
    right. A board's corner looks the same from any side, so one net learns
    them all. A patch point ``(a, b)`` cells from its centre is the grid point
    ``corner + inward * (a, b)``.
    """
    pts = np.asarray(corners, dtype=np.float64).reshape(4, 2)
    last = float(size - 1)
    grid = np.array([[0.0, 0.0], [last, 0.0], [last, last], [0.0, last]])
    homography = cv2.getPerspectiveTransform(grid.astype(np.float32), pts.astype(np.float32))
    step = 2.0 * PATCH_REACH / PATCH
    start = -PATCH_REACH + 0.5 * step
    frames = []
    for (u0, v0), (su, sv) in zip(grid, _INWARD, strict=True):
        to_grid = np.array(
            [[su * step, 0.0, u0 + su * start], [0.0, sv * step, v0 + sv * start], [0, 0, 1.0]]
        )
        frames.append(np.asarray(homography @ to_grid, dtype=np.float64))
    return frames


def corner_patches(image: U8, corners: npt.ArrayLike, size: int) -> tuple[U8, list[F64]]:
    """The refiner's four patches (uint8, shape (4, PATCH, PATCH, 3)) and their frames."""
    colour = image if image.ndim == 3 else cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    frames = corner_frames(corners, size)
    patches = [
        cv2.warpPerspective(
            colour,
            frame,
            (PATCH, PATCH),
            flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
            borderMode=cv2.BORDER_CONSTANT,
        )
        for frame in frames
    ]
    return np.stack(patches).astype(np.uint8), frames


def patch_cells(points: npt.ArrayLike) -> F64:
    """Patch pixels ``(x, y)`` as cells ``(a, b)`` from the patch's centre."""
    cells: F64 = (np.asarray(points, dtype=np.float64) + 0.5) * (
        2.0 * PATCH_REACH / PATCH
    ) - PATCH_REACH
    return cells


def cells_to_patch(cells: npt.ArrayLike) -> F64:
    """Cells ``(a, b)`` from a patch's centre as its pixels ``(x, y)``."""
    pixels: F64 = (np.asarray(cells, dtype=np.float64) + PATCH_REACH) / (
        2.0 * PATCH_REACH / PATCH
    ) - 0.5
    return pixels


@functools.cache
def load_refiner(path: Path = REFINER_PATH) -> cv2.dnn.Net:
    """The corner refiner, read once from its ONNX file, or an error naming the file."""
    return read_onnx(path, "corner refiner")


def refine_corners(
    image: U8, corners: npt.ArrayLike, size: int, *, rounds: int = 2, path: Path = REFINER_PATH
) -> F64:
    """Four corners placed again, each by the refiner on a patch cut around it.

    The corner network's corners lie a median 0.3 of a cell off (their heat
    map's cells are a few photo pixels), too rough to place a far board. The
    refiner looks again at each corner, in a patch straightened by the four
    corners' grid (:func:`corner_patches`), and says where the corner is, in
    cells. Each round cuts the patches on the last round's corners. Where a
    round's corners make no convex quadrilateral (or are not numbers), the
    corners before it are returned.

    Raises
    ------
    VisionError
        If the refiner's file cannot be read, or its network cannot run on the
        patches or answers other than a corner and its spread.
    """
    pts = np.asarray(corners, dtype=np.float64).reshape(4, 2)
    for _ in range(rounds):
        placed, _ = _look(image, pts, size, path)
        if not (np.isfinite(placed).all() and cv2.isContourConvex(placed.astype(np.float32))):
            break
        pts = placed
    return pts


def corner_spread(
    image: U8, corners: npt.ArrayLike, size: int, *, path: Path = REFINER_PATH
) -> F64:
    """How far off the refiner expects each of four corners to be, in cells: shape (4,).

    The refiner's own say (the larger of its two axes' expected errors),
    looking once at patches cut on ``corners``. Looking at the network's
    corners of 224 dev boards: of the 804 corners it gave under 0.05 (of 896),
    its answers lay a median 0.02 of a cell off and 3 more than half a cell;
    of the 25 it gave over 0.25, 17 lay more than half a cell off. A patch cut
    by the photo's edge, a board's side face or glare that leaves nothing of
    the lines gives a wide spread.
    """
    return _look(image, np.asarray(corners, dtype=np.float64).reshape(4, 2), size, path)[1]


def _look(image: U8, corners: F64, size: int, path: Path) -> tuple[F64, F64]:
    """One look of the refiner at ``corners``: where it places them, and their spread."""
    net = load_refiner(path)
    patches, frames = corner_patches(image, corners, size)
    blob = patches.astype(np.float32).transpose(0, 3, 1, 2)
    with NET_LOCK:
        net.setInput(np.ascontiguousarray(blob))
        try:
            out = np.asarray(net.forward(), dtype=np.float64).reshape(4, -1)
        except cv2.error as exc:
            raise VisionError(
                f"the corner refiner {path} cannot run on its patches: {exc}"
            ) from None
    if out.shape[1] != 4:
        raise VisionError(f"the corner refiner {path} answers {out.shape[1]} numbers, not 4")
    # The log spread as training bounded it (an answer past the bounds taught nothing).
    spread = np.exp(np.clip(out[:, 2:], *LOG_SPREAD_BOUNDS)).max(axis=1)
    pixels = cells_to_patch(out[:, :2])
    placed = np.array(
        [
            cv2.perspectiveTransform(pixel.reshape(1, 1, 2), frame).reshape(2)
            for pixel, frame in zip(pixels, frames, strict=True)
        ]
    )
    return placed, spread
