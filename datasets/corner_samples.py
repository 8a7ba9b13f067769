"""Views of synthetic photos with their true corner intersections, for the corner network.

Each rendered photo gives the views :mod:`vision.corners` looks at: the whole
photo, and views around the board as a first look would frame it (the true
corners' square grown by a random factor and shifted a little, since a first
look is off by a few view pixels). A photo with no board gives the whole view
and a random square, both with no corner. Everything follows from the seeds,
so a training set can be rebuilt from the repository alone.

The refiner's samples (:func:`refiner_samples`) are patches cut around rough
corners, the true ones moved as the corner network misplaces them, with
where the true corner lies in each.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from datasets.synth.photos import photo_seed, render_photo
from vision.corners import (
    BOARD_GROWTH,
    PATCH,
    board_view,
    corner_patches,
    patch_cells,
    whole_view,
)

__all__ = [
    "BOARD_VIEWS",
    "ROUGH_CELLS",
    "CornerSample",
    "photo_samples",
    "refiner_samples",
    "rendered_refiner_samples",
    "rendered_samples",
]

U8 = npt.NDArray[np.uint8]
F32 = npt.NDArray[np.float32]

#: Views around the board cut from each photo with one.
BOARD_VIEWS = 2
#: The board views' growth is drawn from this range (``BOARD_GROWTH`` is inside).
GROWTH_RANGE = (1.08, 1.7)
assert GROWTH_RANGE[0] <= BOARD_GROWTH <= GROWTH_RANGE[1]
#: ... and their centre moved by up to this share of the view's side.
SHIFT = 0.06


@dataclass(frozen=True)
class CornerSample:
    """One view's pixels and its corners in view pixels (shape (4, 2); NaN where no board)."""

    pixels: U8
    corners: F32


def photo_samples(
    image: U8, corners: npt.ArrayLike | None, rng: np.random.Generator
) -> list[CornerSample]:
    """The whole view and ``BOARD_VIEWS`` board views of one photo (random squares if no board)."""
    none = np.full((4, 2), np.nan, dtype=np.float32)
    whole = whole_view(image)
    if corners is None:
        height, width = image.shape[:2]
        side = rng.uniform(0.2, 0.8) * min(height, width)
        centre = rng.uniform([0, 0], [width, height])
        square = np.array([centre - side / 2, centre + side / 2])
        around = board_view(image, square)
        return [CornerSample(whole.pixels, none), CornerSample(around.pixels, none)]
    pts = np.asarray(corners, dtype=np.float64)
    samples = [CornerSample(whole.pixels, whole.to_view(pts).astype(np.float32))]
    low, high = pts.min(axis=0), pts.max(axis=0)
    side = float(np.max(high - low))
    for _ in range(BOARD_VIEWS):
        growth = rng.uniform(*GROWTH_RANGE)
        shift = rng.uniform(-SHIFT, SHIFT, size=2) * side * growth
        moved = pts + shift
        view = board_view(image, moved, growth=growth)
        samples.append(CornerSample(view.pixels, view.to_view(pts).astype(np.float32)))
    return samples


def rendered_samples(
    seed: int, indices: range, *, difficulty: str = "hard", harsh_every: int = 4
) -> Iterator[list[CornerSample]]:
    """The samples of photos ``indices`` of the run seeded ``seed``, one list per photo.

    Every ``harsh_every``-th photo is rendered in harsh light.
    """
    for index in indices:
        seed_i = photo_seed(seed, index)
        harsh = index % harsh_every == 0
        photo = render_photo(seed=seed_i, difficulty=difficulty, harsh_light=harsh)
        rng = np.random.default_rng(seed_i)
        yield photo_samples(photo.image, photo.corners, rng)


#: The refiner's rough corners: each true corner moved by a normal draw of this
#: many cells (its own cells, per axis)... The first corner network's corners
#: lay a median 0.29 of a cell off on dev photos, 96 % within a cell; those of
#: round 49's 0.11, 98.7 % within a cell, so the refiner still sees as rough.
ROUGH_CELLS = 0.45
#: ... and no farther than this many cells.
ROUGH_MOST = 1.3


def refiner_samples(
    image: U8, corners: npt.ArrayLike, size: int, rng: np.random.Generator, *, draws: int = 3
) -> tuple[U8, F32]:
    """The refiner's patches around rough corners, and where the true corners lie in them.

    Per draw, each true corner is moved by ``ROUGH_CELLS`` as the corner network
    would misplace it, and the four patches are cut on the moved corners
    (:func:`vision.corners.corner_patches`). Returns uint8 patches of shape
    (4 * draws, PATCH, PATCH, 3) and each true corner's cells ``(a, b)`` from its
    patch's centre, shape (4 * draws, 2).
    """
    truth = np.asarray(corners, dtype=np.float64).reshape(4, 2)
    sides = np.linalg.norm(truth - np.roll(truth, 1, axis=0), axis=1)
    cells = (sides + np.roll(sides, -1)) / (2.0 * (size - 1))  # each corner's own cell
    patches, targets = [], []
    for _ in range(draws):
        move = rng.normal(0.0, ROUGH_CELLS, size=(4, 2))
        length = np.linalg.norm(move, axis=1, keepdims=True)
        move *= np.minimum(1.0, ROUGH_MOST / np.maximum(length, 1e-9))
        rough = truth + move * cells[:, None]
        cut, frames = corner_patches(image, rough, size)
        for corner, frame in zip(truth, frames, strict=True):
            pixel = cv2.perspectiveTransform(corner.reshape(1, 1, 2), np.linalg.inv(frame))
            targets.append(patch_cells(pixel.reshape(2)))
        patches.append(cut)
    return np.concatenate(patches), np.asarray(targets, dtype=np.float32)


def rendered_refiner_samples(
    seed: int, indices: range, *, difficulty: str = "hard", harsh_every: int = 4, draws: int = 3
) -> Iterator[tuple[U8, F32]]:
    """The refiner's samples of photos ``indices`` of the run seeded ``seed``, per photo.

    Photos with no board give none (empty arrays). Every ``harsh_every``-th photo
    is rendered in harsh light, as for the corner network.
    """
    for index in indices:
        seed_i = photo_seed(seed, index)
        harsh = index % harsh_every == 0
        photo = render_photo(seed=seed_i, difficulty=difficulty, harsh_light=harsh)
        rng = np.random.default_rng(seed_i + 1)
        if photo.board is None or photo.corners is None:
            yield np.zeros((0, PATCH, PATCH, 3), dtype=np.uint8), np.zeros((0, 2), dtype=np.float32)
            continue
        yield refiner_samples(photo.image, photo.corners, len(photo.board), rng, draws=draws)
