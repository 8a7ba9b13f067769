"""Finding a grid whose lines are a grey level or two deep, on a locally equalised copy."""

from __future__ import annotations

import numpy as np
import pytest

from datasets.synth import render_photo
from datasets.synth.photos import photo_seed
from tests.vision_synthetic import lined_board
from vision import detect_board, read_stones
from vision.detect import FAINT_CONFIDENCE
from vision.errors import VisionError
from vision.grid import Grid, find_faint_grid, find_grid


def faint_board(depth: float) -> tuple[np.ndarray, Grid]:
    """A pale board on a dark table, its lines ``depth`` grey levels dark, blurred and noisy."""
    return lined_board(depth=depth, thickness=1, sigma=1.2)


def test_lines_a_few_grey_levels_deep_are_found_on_an_equalised_copy() -> None:
    image, truth = faint_board(depth=5)
    assert not find_grid(image, size=19)  # under every floor of the line search
    found = find_faint_grid(image, size=19)
    assert found.details["equalized"] == 1.0
    assert np.abs(found.grid.intersections - truth.intersections).max() < 1.5


def test_a_board_the_line_search_misses_is_read_from_its_faint_lines() -> None:
    photo = render_photo(seed=photo_seed(555, 272), difficulty="hard")  # pale lines, 29 stones
    assert photo.board is not None
    assert not find_grid(photo.image, size=19)
    detection = detect_board(photo.image, size=19)
    assert detection.details["equalized"] == 1.0
    board = read_stones(photo.image, detection.grid).board
    assert board == photo.board
    # Read right, but from lines raised with the grain: never reported as sure.
    assert 0.0 < detection.confidence <= FAINT_CONFIDENCE


def test_a_floor_whose_equalised_joints_cross_like_a_grid_is_still_no_board() -> None:
    photo = render_photo(seed=photo_seed(555, 6), difficulty="hard")  # no board in the picture
    assert photo.board is None
    assert find_faint_grid(photo.image, size=19)  # equalising raises the floor's joints
    detection = detect_board(photo.image, size=19)
    assert not detection
    assert "the faint lines' grid does not read as a board" in detection.reason


def test_the_faint_search_refuses_what_the_line_search_refuses() -> None:
    tiny = find_faint_grid(np.zeros((8, 8, 3), np.uint8), size=19)
    assert not tiny
    assert tiny.reason == "no board found: image is 8x8, too small to hold a board"
    with pytest.raises(VisionError, match="board size must be one of"):
        find_faint_grid(np.zeros((100, 100, 3), np.uint8), size=15)
