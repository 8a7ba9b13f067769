"""A grid a line off its board, moved back by the crossings beyond its sides."""

from __future__ import annotations

import cv2
import numpy as np
import numpy.typing as npt
import pytest

from tests.test_vision_stretch import cells_off, drawn_board, hard_photo, points_wrong
from vision import detect_board
from vision.grid import (
    Grid,
    edge_crossings,
    grid_from_corners,
    lines_alternate,
    lines_beyond,
    lone_lines,
    settle_on_crossings,
)


def test_a_boards_lines_cross_on_its_outer_lines_and_not_beyond() -> None:
    image, exact = drawn_board()
    sides = edge_crossings(image, exact)  # first row, last row, first column, last column
    assert sides.shape == (4, 2)
    assert np.all(sides[:, 0] > 0.5)  # each outer line crossed
    assert np.all(sides[:, 1] < 0.05)  # nothing crosses on the margin beyond


def test_a_boards_lines_stop_at_its_margin() -> None:
    image, exact = drawn_board()
    beyond = lines_beyond(image, exact)  # first row, last row, first column, last column
    assert beyond.shape == (4, 2)
    shown = np.isfinite(beyond).all(axis=1)
    assert shown.sum() >= 3
    assert np.all(beyond[shown] < 0.3)  # margin and table, no line


def tiled_floor(tile: int = 24) -> npt.NDArray[np.uint8]:
    """A grey floor of square tiles, 640×480, joints every ``tile`` pixels."""
    floor = np.full((480, 640, 3), 150, np.uint8)
    for k in range(0, 640, tile):
        cv2.line(floor, (k, 0), (k, 479), (95, 95, 95), 3)
    for k in range(0, 480, tile):
        cv2.line(floor, (0, k), (639, k), (95, 95, 95), 3)
    return floor


def grid_on_joints(first: tuple[int, int], last: tuple[int, int]) -> Grid:
    """A 9×9 grid from the joint crossing ``first`` (tiles across, down) to ``last``."""
    corners = [first, (last[0], first[1]), last, (first[0], last[1])]
    pixels = np.array(corners, float) * 24
    return grid_from_corners(pixels, size=9, image_shape=(480, 640))


def test_a_floors_joints_go_on_past_every_side() -> None:
    # A 9×9 grid laid on the floor's joints in the middle of the photo: a
    # floor's lines go on.
    floor = tiled_floor()
    grid = grid_on_joints((9, 5), (17, 13))
    beyond = lines_beyond(floor, grid)
    assert np.isfinite(beyond).all()
    assert np.all(beyond > 0.8)


def test_a_boards_lines_all_read_alike() -> None:
    image, exact = drawn_board()
    alike = lines_alternate(image, exact)  # rows, then columns
    assert alike.shape == (2,)
    assert np.all(alike > 0.8)


def test_a_grid_on_a_floor_at_half_its_tiles_spacing_reads_every_other_line_bare() -> None:
    # A 9×9 grid laid from one joint to the fourth over: its lines fall on a
    # joint, then across a tile, and so on.
    grid = grid_on_joints((9, 5), (13, 9))
    assert np.all(lines_alternate(tiled_floor(), grid) < 0.1)


def test_a_grid_on_a_bare_floor_alternates_neither_way() -> None:
    bare = np.full((480, 640, 3), 150, np.uint8)
    assert np.isnan(lines_alternate(bare, grid_on_joints((9, 5), (13, 9)))).all()


def test_a_boards_dark_lines_have_dark_neighbours() -> None:
    image, exact = drawn_board()
    lone = lone_lines(image, exact)  # rows, then columns
    assert lone.shape == (2,)
    assert np.all(lone == 0.0)


def test_a_grid_on_a_floor_at_a_fifth_of_its_tiles_spacing_reads_its_dark_lines_alone() -> None:
    # A 19×19 with cells of 12 pixels on tiles of 60: lines 0, 5, 10 and 15
    # lie on a joint, the rest across tiles. Parity sees nothing: each parity
    # has two joints among nine or ten lines, and its median line is bare.
    floor = tiled_floor(tile=60)
    corners = np.array([(60, 60), (276, 60), (276, 276), (60, 276)], float)
    grid = grid_from_corners(corners, size=19, image_shape=(480, 640))
    assert np.all(lone_lines(floor, grid) == 1.0)
    assert np.isnan(lines_alternate(floor, grid)).all()


def test_a_grid_on_a_floor_at_half_its_tiles_spacing_reads_its_dark_lines_alone_too() -> None:
    assert np.all(lone_lines(tiled_floor(), grid_on_joints((9, 5), (13, 9))) == 1.0)


def test_a_grid_on_a_bare_floor_has_no_dark_lines_to_read() -> None:
    bare = np.full((480, 640, 3), 150, np.uint8)
    assert np.isnan(lone_lines(bare, grid_on_joints((9, 5), (13, 9)))).all()


def test_a_grid_on_the_board_is_left_where_it_is() -> None:
    image, exact = drawn_board()
    grid, moves = settle_on_crossings(image, exact)
    assert moves == (0, 0)
    assert grid is exact


@pytest.mark.parametrize(("columns", "rows"), [(1, 0), (0, -1), (-1, 1)])
def test_a_grid_a_line_off_is_moved_back_onto_the_board(columns: int, rows: int) -> None:
    image, exact = drawn_board()
    off = exact.shifted(float(columns), float(rows))
    assert cells_off(off, exact) >= 1.0
    grid, moves = settle_on_crossings(image, off)
    assert moves == (-columns, -rows)
    assert cells_off(grid, exact) < 0.1


@pytest.mark.parametrize(
    ("run", "index", "wrong"),
    [
        (1357, 6, 0),  # 57 % stones; the window a row off, onto the margin
        (1357, 217, 0),  # a 13×13 board, 65 % stones; a column off
        (2468, 100, 1),  # 57 % stones; its outline's grid a column off
    ],
)
def test_a_crowded_board_placed_a_line_off_is_read_once_moved(
    run: int, index: int, wrong: int
) -> None:
    photo = hard_photo(run, index)
    assert photo.board is not None
    detection = detect_board(photo.image, size=len(photo.board))
    moved = (
        detection.details.get("crossings_columns", 0.0),
        detection.details.get("crossings_rows", 0.0),
    )
    assert moved != (0.0, 0.0)
    assert points_wrong(detection.grid, photo) <= wrong
