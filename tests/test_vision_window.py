"""Moving a window that stopped lines short of a crowded board onto the stones left outside it."""

from __future__ import annotations

import numpy as np

from datasets.synth import render_photo
from datasets.synth.photos import photo_seed
from vision.centring import take_in_stones
from vision.geometry import apply_homography
from vision.grid import Grid, grid_from_corners


def moved(grid: Grid, columns: int, rows: int) -> Grid:
    """The same lattice, its window ``columns`` and ``rows`` lines over."""
    homography = grid.homography @ np.array([[1.0, 0, columns], [0, 1.0, rows], [0, 0, 1.0]])
    n = grid.size
    uv = np.stack(np.meshgrid(np.arange(n, dtype=float), np.arange(n, dtype=float)), -1)
    points = apply_homography(homography, uv.reshape(-1, 2)).reshape(n, n, 2)
    return Grid(size=n, homography=homography, intersections=points, image_shape=grid.image_shape)


def test_a_window_two_lines_over_the_table_moves_back_onto_the_stones() -> None:
    photo = render_photo(seed=photo_seed(333, 117), difficulty="hard")  # nearly full, tilted
    truth = grid_from_corners(photo.corners, size=19, image_shape=photo.image.shape[:2])
    grid, move = take_in_stones(photo.image, moved(truth, 2, 0))
    assert move == (-2, 0)
    assert np.abs(grid.intersections - truth.intersections).max() < 1e-6


def test_pale_tiles_read_as_white_stones_beyond_a_right_window_do_not_pull_it() -> None:
    photo = render_photo(seed=photo_seed(555, 143), difficulty="hard")  # 9x9 on pale tiles
    truth = grid_from_corners(photo.corners, size=9, image_shape=photo.image.shape[:2])
    grid, move = take_in_stones(photo.image, truth)
    assert move == (0, 0)  # the tiles beyond the last column read white, none black
    assert grid is truth
