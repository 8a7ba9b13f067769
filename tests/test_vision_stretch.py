"""A grid whose lines drift off the board's toward one side, stretched back onto them."""

from __future__ import annotations

import functools

import cv2
import numpy as np
import pytest

import vision.grid
from datasets.synth import SynthPhoto, render_photo
from datasets.synth.photos import photo_seed
from tests.vision_synthetic import draw_board
from vision import BoardDetection, detect_board, read_stones
from vision.centring import certainty
from vision.detect import STRETCH_KEPT, _other_searches, _stretched_onto_lines
from vision.geometry import apply_homography
from vision.grid import (
    CORNER_REACH,
    STRETCH_REACH,
    Grid,
    _sides_moved,
    _square_to_quads,
    corner_on_lines,
    edge_crossings,
    find_grid,
    grid_from_corners,
    snap_to_lines,
    stretch_to_lines,
)
from vision.kept import photo_kept

EMPTY_19 = ["." * 19] * 19
TILTED = [(230, 80), (590, 90), (760, 560), (50, 550)]


@functools.cache
def hard_photo(run: int, index: int) -> SynthPhoto:
    """Photo ``index`` of the hard synthetic run seeded ``run`` (as ``kifu synth photos``)."""
    return render_photo(seed=photo_seed(run, index), difficulty="hard")


def cells_off(grid: Grid, exact: Grid) -> float:
    """How far, in the board's cells, the grid's intersection farthest from its true place lies.

    Measured in the true grid's lattice, whichever corner the grid names
    board[0][0] (the board's symmetries are tried).
    """
    n = exact.size
    uv = apply_homography(np.linalg.inv(exact.homography), grid.intersections.reshape(-1, 2))
    uv = uv.reshape(n, n, 2)
    turns = [np.rot90(uv, k, axes=(0, 1)) for k in range(4)]
    orders = turns + [np.swapaxes(t, 0, 1) for t in turns]
    cols, rows = np.meshgrid(np.arange(n), np.arange(n))
    lattice = np.stack([cols, rows], axis=-1)
    return min(float(np.linalg.norm(o - lattice, axis=-1).max()) for o in orders)


def drawn_board() -> tuple[np.ndarray, Grid]:
    """An empty board drawn in perspective, and its true grid."""
    image, truth = draw_board(EMPTY_19, corners=TILTED, rng=np.random.default_rng(4))
    exact = grid_from_corners(
        [truth[0, 0], truth[0, -1], truth[-1, -1], truth[-1, 0]],
        size=19,
        image_shape=image.shape[:2],
    )
    return image, exact


def squeezed(exact: Grid, last_column: float, last_row: float) -> Grid:
    """``exact`` with its last column and row moved to its ``last_column`` and ``last_row``.

    The first column and row stay on the board's; the lines between drift off them.
    """
    window = [[0.0, 0.0], [last_column, 0.0], [last_column, last_row], [0.0, last_row]]
    return grid_from_corners(
        apply_homography(exact.homography, np.array(window)),
        size=exact.size,
        image_shape=exact.image_shape,
    )


def test_a_grid_squeezed_lines_off_at_its_far_sides_is_stretched_back_onto_the_lines() -> None:
    image, exact = drawn_board()
    # The first row and column right, the last column 1.6 lines in and the last
    # row 0.8: the lines between drift from on the board's to lines off them.
    start = squeezed(exact, 16.4, 17.2)
    assert cells_off(start, exact) > 1.5
    snapped = snap_to_lines(image, start)  # each line onto its nearest: the wrong ones
    assert snapped is not None and cells_off(snapped, exact) > 1.5
    stretched = stretch_to_lines(image, start)
    assert stretched is not None
    assert cells_off(stretched, exact) < 0.1


def test_a_grid_too_finely_spaced_along_one_axis_is_respaced_by_both_its_sides() -> None:
    image, exact = drawn_board()
    # Rows 8/9 of the board's spacing, centred: a line in at either side, on the
    # board's lines again at its middle and four lines from either side.
    start = grid_from_corners(
        apply_homography(
            exact.homography, np.array([[0.0, 1.0], [18.0, 1.0], [18.0, 17.0], [0.0, 17.0]])
        ),
        size=19,
        image_shape=exact.image_shape,
    )
    assert cells_off(start, exact) > 0.9
    # One side at a time lands on a beat: a line off at the other side still.
    one_side = stretch_to_lines(image, start)
    assert one_side is None or cells_off(one_side, exact) > 0.9
    respaced = stretch_to_lines(image, start, respace=True)
    assert respaced is not None
    assert cells_off(respaced, exact) < 0.1


def test_a_grid_on_the_lines_is_not_respaced() -> None:
    image, exact = drawn_board()
    assert stretch_to_lines(image, exact, respace=True) is None


def test_no_side_is_moved_beyond_the_reach_however_many_moves_take_it() -> None:
    image, exact = drawn_board()
    # 3.5 lines short at the far side: no side can reach the board's within its
    # reach, and moves of a side again and again once took it 4 cells.
    start = squeezed(exact, 15.5, 18.0)
    stretched = stretch_to_lines(image, start)
    assert stretched is not None
    corners = stretched.intersections[[0, 0, -1, -1], [0, -1, -1, 0]]
    moved = apply_homography(np.linalg.inv(start.homography), corners) - np.array(
        [[0.0, 0.0], [18.0, 0.0], [18.0, 18.0], [0.0, 18.0]]
    )
    # The lines are refined last, a little beyond the stretch's own reach.
    assert np.abs(moved).max() <= STRETCH_REACH + 0.1


def test_a_grid_on_the_lines_stays_on_them() -> None:
    # No move scores higher than none. (A move of no cells once scored a hair
    # higher, its grid fitted anew to four corners rounded to float32.)
    image, exact = drawn_board()
    assert stretch_to_lines(image, exact) is None


@pytest.mark.parametrize("axis", [0, 1])
def test_a_side_moved_keeps_the_other_sides_and_spaces_the_lines_in_perspective(
    axis: int,
) -> None:
    _, exact = drawn_board()
    first, last = np.array([-1.5, 0.0, 0.4]), np.array([0.7, 2.5, 0.0])
    moved = _sides_moved(exact.homography, 19, axis, first, last)
    assert moved.shape == (3, 3, 3)
    for h, a, b in zip(moved, first, last, strict=True):
        # The lattice's corners moved along the axis, mapped by the grid as it was.
        window = np.array([[0.0, 0.0], [18.0, 0.0], [18.0, 18.0], [0.0, 18.0]])
        shifted = window.copy()
        shifted[:, axis] = np.where(window[:, axis] == 0.0, a, 18.0 + b)
        expected = apply_homography(exact.homography, shifted)
        assert np.allclose(apply_homography(h, window), expected, atol=1e-9)
        # Lines between stay evenly spaced in the grid's own lattice: line 9 of 18
        # lies halfway between the moved first and last, in lattice units.
        middle = np.array([[9.0, 9.0]])
        in_lattice = apply_homography(np.linalg.inv(exact.homography), apply_homography(h, middle))
        expected_middle = np.array([9.0, 9.0])
        expected_middle[axis] = 0.5 * (a + 18.0 + b)
        assert np.allclose(in_lattice, [expected_middle], atol=1e-9)


@pytest.mark.parametrize(
    ("index", "wrong"),
    [
        (189, 0),  # stones on the first line only; the lattice 1.8 lines short at the far side
        (34, 5),  # a dim board in motion blur; its rows 1.2 lines off at the far side
    ],
)
def test_a_board_whose_lines_grid_drifts_off_them_is_read_once_stretched(
    index: int, wrong: int
) -> None:
    photo = hard_photo(1357, index)
    assert photo.board is not None
    by_lines = find_grid(photo.image, size=19)
    assert by_lines and by_lines.details["evidence"] < 0.7  # the lines leave it unsure
    detection = detect_board(photo.image, size=19)
    assert detection.details["stretched"] >= 1.0
    assert points_wrong(detection.grid, photo) <= wrong


def test_a_board_whose_lines_grid_is_too_finely_spaced_is_read_once_respaced() -> None:
    # Dev 1357 #52: a small pale board out of focus. The combs' lattice takes 0.89
    # of its rows' spacing, a line off at both sides; moving one side at a time
    # laid the grid on a beat, its cells then too long to be a board's.
    photo = hard_photo(1357, 52)
    by_lines = find_grid(photo.image, size=19)
    assert by_lines and by_lines.details["evidence"] < 0.7
    assert points_wrong(by_lines.grid, photo) > 20
    detection = detect_board(photo.image, size=19)
    assert detection.details["respaced"] == 1.0
    assert points_wrong(detection.grid, photo) == 0


def points_wrong(grid: Grid, photo: SynthPhoto) -> int:
    """Intersections the stones on ``grid`` read otherwise than the photo's truth."""
    assert photo.board is not None
    board = read_stones(photo.image, grid).board
    pairs = zip(board, photo.board, strict=True)
    return sum(a != b for row, truth in pairs for a, b in zip(row, truth, strict=True))


def test_an_empty_board_a_line_off_at_one_side_is_stretched_by_its_lines() -> None:
    image, exact = drawn_board()
    start = squeezed(exact, 17.0, 18.0)  # the last column a line in
    sure = certainty(image, start)
    # No stone to tell: a line off, the empty board reads as surely.
    assert sure > certainty(image, exact) - STRETCH_KEPT
    stretched = _stretched_onto_lines(image, start, sure)
    assert stretched is not None
    grid, _, rounds = stretched
    assert rounds >= 1
    assert cells_off(grid, exact) < 0.1


def test_a_grid_on_its_lines_is_not_stretched() -> None:
    image, exact = drawn_board()
    assert _stretched_onto_lines(image, exact, certainty(image, exact)) is None


def test_a_stretch_onto_lines_that_hardly_show_is_not_kept() -> None:
    # A 9×9 board its stones' lattice placed: a stretch would raise its lines
    # from -0.05 to 0.18, under MIN_LINE_CONTRAST, its stones no surer, and
    # cost it 5 points.
    photo = hard_photo(1357, 72)
    assert photo.board is not None
    detection = detect_board(photo.image, size=len(photo.board))
    assert detection.details["by_stones"] == 1.0
    assert "stretched" not in detection.details
    assert points_wrong(detection.grid, photo) <= 3


@pytest.mark.parametrize(
    ("run", "index", "placed_by"),
    [
        (1357, 83, "equalized"),  # an empty pale board in motion blur, its faint lines a row off
        (2468, 212, "outline"),  # one side of its outline's grid a line off, stones unsure
    ],
)
def test_a_board_a_last_resort_placed_a_line_off_is_stretched_onto_its_lines(
    run: int, index: int, placed_by: str
) -> None:
    photo = hard_photo(run, index)
    assert photo.board is not None
    size = len(photo.board)
    # The last resorts, as they run where the line searches found nothing.
    nothing = BoardDetection(grid=None, reason="no board found: the lines' searches")
    found = _other_searches(photo.image, size, None, nothing)
    assert found.details[placed_by] >= 1.0
    assert found.details["stretched"] >= 1.0
    assert points_wrong(found.grid, photo) == 0
    # The region search with its line filter widened now finds both first, as right.
    detection = detect_board(photo.image, size=size)
    assert detection.details["widened"] > 0
    assert points_wrong(detection.grid, photo) == 0


def test_the_square_is_mapped_onto_each_quadrilateral_as_a_fit_of_its_four_corners_maps_it() -> (
    None
):
    rng = np.random.default_rng(7)
    square = np.array([[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]])
    quads = square * 300 + 100 + rng.uniform(-60, 60, size=(20, 4, 2))
    inside = rng.uniform(0, 1, size=(50, 2))
    for quad, mapped in zip(quads, _square_to_quads(quads), strict=True):
        fitted = cv2.getPerspectiveTransform(square.astype(np.float32), quad.astype(np.float32))
        np.testing.assert_allclose(apply_homography(mapped, square), quad, atol=1e-6)
        np.testing.assert_allclose(
            apply_homography(mapped, inside), apply_homography(fitted, inside), atol=1e-3
        )


def test_a_corner_lost_under_glare_is_found_again_on_the_lines_leading_to_it() -> None:
    image, exact = drawn_board()
    corner = exact.corners[2]
    cv2.circle(image, (int(corner[0]), int(corner[1])), 60, (250, 250, 250), -1)  # 3 cells
    # Three corners right, the last one 1.7 columns out and 1.3 rows in.
    window = np.array([[0.0, 0.0], [18.0, 0.0], [19.7, 16.7], [0.0, 18.0]])
    start = grid_from_corners(
        apply_homography(exact.homography, window), size=19, image_shape=exact.image_shape
    )
    assert cells_off(start, exact) > 2.0
    found = corner_on_lines(image, start, 2)
    assert found is not None
    placed, lined = found
    # The other three stay; the moved one lands near the truth, each line then on its own.
    np.testing.assert_allclose(placed.corners[[0, 1, 3]], start.corners[[0, 1, 3]], atol=1e-6)
    assert cells_off(placed, exact) < 0.5
    assert lined is not None and cells_off(lined, exact) < 0.05


def test_a_corner_is_sought_no_farther_than_the_reach() -> None:
    image, exact = drawn_board()
    # The last row's first point two cells beyond the reach from the truth.
    window = np.array([[0.0, 0.0], [18.0, 0.0], [18.0, 18.0], [0.0, 20.0 + CORNER_REACH]])
    start = grid_from_corners(
        apply_homography(exact.homography, window), size=19, image_shape=exact.image_shape
    )
    # The lines pull the corner toward the truth, as far as the reach and no
    # farther; a best at the edge is no best (the lines may lie better beyond).
    assert corner_on_lines(image, start, 3) is None
    # Within the reach, the corner is found.
    window[3, 1] = 18.0 + CORNER_REACH - 1.0
    start = grid_from_corners(
        apply_homography(exact.homography, window), size=19, image_shape=exact.image_shape
    )
    found = corner_on_lines(image, start, 3)
    assert found is not None and cells_off(found[0], exact) < 0.1


def test_a_grid_whose_corners_lie_on_the_lines_keeps_them() -> None:
    image, exact = drawn_board()
    assert all(corner_on_lines(image, exact, corner) is None for corner in range(4))


def test_line_maps_kept_for_one_photo_change_no_check_of_it_nor_of_another(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    image, exact = drawn_board()
    start = squeezed(exact, 16.4, 17.2)
    other = np.ascontiguousarray(image[:, ::-1])  # another photo, read within the same keeping

    def checks(photo: np.ndarray) -> list[np.ndarray]:
        stretched = stretch_to_lines(photo, start)
        respaced = stretch_to_lines(photo, start, respace=True)
        snapped = snap_to_lines(photo, start)
        return [
            np.array([]) if grid is None else grid.intersections
            for grid in (stretched, respaced, snapped)
        ] + [edge_crossings(photo, start)]

    alone = checks(image) + checks(other)
    worked: list[bool] = []
    work = vision.grid._worked_line_maps
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)

    def counted(gray: np.ndarray) -> object:
        worked.append(np.array_equal(gray, grey))  # this photo's, or the other's
        return work(gray)

    monkeypatch.setattr(vision.grid, "_worked_line_maps", counted)
    with photo_kept(image):
        kept = checks(image) + checks(image) + checks(other)
    # Worked out once for the photo kept, and each time for the other.
    assert worked.count(True) == 1 and worked.count(False) == 4
    for before, after in zip(alone[:4] * 2 + alone[4:], kept, strict=True):
        np.testing.assert_array_equal(after, before)
