"""A grid on a lattice of half the board's spacing, doubled back onto the board."""

from __future__ import annotations

import numpy as np
import pytest

from tests.test_vision_stretch import cells_off, drawn_board, hard_photo, points_wrong
from vision import detect_board
from vision.centring import certainty
from vision.detect import DOUBLED_KEPT, DOUBLED_LINED, _doubled_surer
from vision.geometry import apply_homography
from vision.grid import Grid, doubled_spacings, grid_from_corners
from vision.outline import weaker_lines


def half_spaced(exact: Grid, axis: int, from_end: bool) -> Grid:
    """``exact``'s lattice at half its spacing along ``axis``: the first half, or the last."""
    start, stop = (9.0, 18.0) if from_end else (0.0, 9.0)
    window = np.array([[0.0, 0.0], [18.0, 0.0], [18.0, 18.0], [0.0, 18.0]])
    window[:, axis] = np.where(window[:, axis] == 0.0, start, stop)
    return grid_from_corners(
        apply_homography(exact.homography, window), size=exact.size, image_shape=exact.image_shape
    )


@pytest.mark.parametrize(("photo_index", "most_wrong"), [(232, 6), (268, 22)])
def test_a_board_whose_lattice_took_half_its_spacing_is_read_once_doubled(
    photo_index: int, most_wrong: int
) -> None:
    # Dev 777 #232 (columns) and #268 (rows): glare over a light or a pale board
    # in motion blur. The combs' lattice lies on every line of the board and one
    # between each two; its stones read -0.11 and -0.08.
    photo = hard_photo(777, photo_index)
    detection = detect_board(photo.image, size=19)
    assert detection.details["doubled"] == 1.0
    assert detection.details["certainty"] > -0.05
    assert points_wrong(detection.grid, photo) <= most_wrong


@pytest.mark.parametrize("axis", [0, 1])
@pytest.mark.parametrize("from_end", [False, True])
def test_one_of_the_doubled_grids_is_the_board_where_the_lattice_took_half_its_spacing(
    axis: int, from_end: bool
) -> None:
    _, exact = drawn_board()
    half = half_spaced(exact, axis, from_end)
    assert cells_off(half, exact) > 4
    doubled = doubled_spacings(half)
    assert len(doubled) == 4
    # Columns from the first, from the last; then rows likewise.
    right = doubled[2 * axis + int(from_end)]
    assert cells_off(right, exact) < 1e-6
    assert all(cells_off(g, exact) > 4 for g in doubled if g is not right)


@pytest.mark.parametrize("axis", [0, 1])
def test_doubled_a_half_spaced_lattice_keeps_its_lines_and_the_board_s_grid_loses_them(
    axis: int,
) -> None:
    # What tells the two apart where the stones cannot. A lattice on every line
    # and a seam between each two is doubled onto every line. The board's own
    # grid doubled lies on every other line, with lines half a cell off it too.
    image, exact = drawn_board()
    half = half_spaced(exact, axis, from_end=False)
    doubled_half = weaker_lines(image, doubled_spacings(half)[2 * axis])
    assert doubled_half >= max(DOUBLED_LINED, DOUBLED_KEPT * weaker_lines(image, half))
    # Doubled, the board's grid reaches past the board, where a board's edge
    # and the table beyond it show as a little contrast; a quarter of its own.
    on_lines = weaker_lines(image, exact)
    assert all(weaker_lines(image, g) < DOUBLED_KEPT * on_lines for g in doubled_spacings(exact))


def test_a_grid_on_the_board_is_not_doubled() -> None:
    photo = hard_photo(777, 232)
    assert photo.corners is not None
    exact = grid_from_corners(photo.corners, size=19, image_shape=photo.image.shape[:2])
    assert _doubled_surer(photo.image, exact, certainty(photo.image, exact)) is None
