"""Finding a grid whose lines are blurred wider than the usual line filter sees."""

from __future__ import annotations

import numpy as np
import pytest

from datasets.synth import SynthPhoto, render_photo
from datasets.synth.photos import photo_seed
from tests.vision_synthetic import lined_board
from vision import detect_board, read_stones
from vision.centring import half_cell_contrast
from vision.detect import FAINT_CONFIDENCE, WELL_LINED, _checked_reading
from vision.errors import VisionError
from vision.grid import Grid, find_blurred_grid, find_grid
from vision.outline import (
    BLURRED_CERTAINTY,
    DISTINCT_CONTRAST,
    LINED_CERTAINTY,
    MIN_CERTAINTY,
    weaker_lines,
)


def blurred_board(sigma: float) -> tuple[np.ndarray, Grid]:
    """A pale board on a dark table, its lines two pixels wide, out of focus by ``sigma``."""
    return lined_board(depth=60, thickness=2, sigma=sigma)


def cells_off_and_points_wrong(photo: SynthPhoto, grid: Grid) -> tuple[float, int]:
    """How far ``grid``'s corners lie from the photo's (in its shortest cells), and
    how many points read on it are wrong."""
    assert photo.board is not None and photo.corners is not None
    sides = np.linalg.norm(photo.corners - np.roll(photo.corners, -1, axis=0), axis=1)
    cell = sides.min() / (len(photo.board) - 1)
    off = float(np.linalg.norm(grid.corners - photo.corners, axis=1).max() / cell)
    pairs = zip(read_stones(photo.image, grid).board, photo.board, strict=True)
    wrong = sum(a != b for row, truth in pairs for a, b in zip(row, truth, strict=True))
    return off, wrong


def test_lines_blurred_past_the_usual_filter_are_found_by_a_wider_one() -> None:
    image, truth = blurred_board(sigma=4.0)
    missed = find_grid(image, size=19)
    assert not missed
    assert "(0 segments)" in missed.reason  # the usual black-hat sees no line at all
    found = find_blurred_grid(image, size=19)
    assert found.details["blurred"] == 1.0
    assert np.abs(found.grid.intersections - truth.intersections).max() < 2.0


def test_lines_in_focus_are_found_by_the_wider_filter_too() -> None:
    image, truth = blurred_board(sigma=2.0)
    for found in (find_grid(image, size=19), find_blurred_grid(image, size=19)):
        assert np.abs(found.grid.intersections - truth.intersections).max() < 1.5


def test_a_board_in_motion_blur_is_read_from_its_blurred_lines() -> None:
    photo = render_photo(seed=photo_seed(777, 43), difficulty="hard")  # smeared along one axis
    assert photo.board is not None
    blurred = find_blurred_grid(photo.image, size=19)
    assert blurred.details["blurred"] == 1.0
    assert read_stones(photo.image, blurred.grid).board == photo.board
    # The whole detection reads it too, now from the usual filter's lines: on the
    # board's region, their comb along one axis at four times the board's spacing
    # takes two halvings (MULTIPLE_ROUNDS; after one, no board), and the grid,
    # still off at its sides, is stretched onto the lines. Only the blurred
    # search found it before.
    detection = detect_board(photo.image, size=19)
    assert "blurred" not in detection.details
    assert detection.details["stretched"] >= 1.0
    assert read_stones(photo.image, detection.grid).board == photo.board


def test_an_empty_board_out_of_focus_is_taken_by_its_lines_though_its_points_read_unsure() -> None:
    photo = render_photo(seed=photo_seed(333, 49), difficulty="hard")  # empty, blurred, glare
    assert photo.board is not None and photo.corners is not None
    blurred = _checked_reading(photo.image, find_blurred_grid(photo.image, size=19), laid=True)
    assert blurred.details["blurred"] == 1.0
    # Under the floor that lets lines vouch for a grid whose stones read unsure,
    # but its lines show both ways as no floor's joints do.
    assert blurred.details["certainty"] < LINED_CERTAINTY
    assert weaker_lines(photo.image, blurred.grid) >= WELL_LINED
    off, wrong = cells_off_and_points_wrong(photo, blurred.grid)
    assert off < 0.5
    assert wrong <= 1  # one phantom stone in the glare
    assert blurred.confidence < FAINT_CONFIDENCE
    # The detection now takes it a search earlier: the faint lines' grid, which
    # centred on its stones did not read as a board, is judged as found.
    detection = detect_board(photo.image, size=19)
    assert detection.details["equalized"] == 1.0
    assert "centred" not in detection.details
    assert detection.confidence < FAINT_CONFIDENCE
    off, wrong = cells_off_and_points_wrong(photo, detection.grid)
    assert off < 0.5
    assert wrong == 0


def test_a_blurred_crowded_board_is_taken_where_its_unsure_stones_stand_out_plainly() -> None:
    photo = render_photo(seed=photo_seed(1357, 0), difficulty="hard")  # small, blurred, glare
    assert photo.board is not None and photo.corners is not None
    detection = detect_board(photo.image, size=19)
    assert detection.details["blurred"] == 1.0
    # Blur leaves its stones too unsure for the usual floor, but they read far
    # surer on the grid than half a cell off: no table or floor does that.
    assert BLURRED_CERTAINTY <= detection.details["certainty"] < MIN_CERTAINTY
    assert half_cell_contrast(photo.image, detection.grid) >= DISTINCT_CONTRAST
    off, wrong = cells_off_and_points_wrong(photo, detection.grid)
    assert off < 0.5
    assert wrong <= 13  # of 361, with cells 7 to 13 pixels; it was missed whole
    assert detection.confidence == 0.0  # reported as unsure as its stones read


def test_a_floor_whose_joints_the_wider_filter_takes_for_lines_is_still_no_board() -> None:
    photo = render_photo(seed=photo_seed(555, 6), difficulty="hard")  # no board in the picture
    assert photo.board is None
    assert find_blurred_grid(photo.image, size=19)  # the wider filter raises the joints
    detection = detect_board(photo.image, size=19)
    assert not detection
    assert "blurred lines: the blurred lines' grid does not read as a board" in detection.reason


def test_the_blurred_search_refuses_what_the_line_search_refuses() -> None:
    tiny = find_blurred_grid(np.zeros((8, 8, 3), np.uint8), size=19)
    assert not tiny
    assert tiny.reason == "no board found: image is 8x8, too small to hold a board"
    with pytest.raises(VisionError, match="board size must be one of"):
        find_blurred_grid(np.zeros((100, 100, 3), np.uint8), size=15)
