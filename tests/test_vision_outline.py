"""Finding a board by its outline, where its lines are blurred away or misplace it."""

from __future__ import annotations

import functools

import cv2
import numpy as np
import pytest

from datasets.synth import SynthPhoto, render_photo
from datasets.synth.photos import photo_seed
from vision import detect_board, read_stones
from vision.grid import find_grid
from vision.outline import MARGIN, board_outlines, find_by_outline, grid_in_outline


@functools.cache
def hard_photo(run: int, index: int) -> SynthPhoto:
    """Photo ``index`` of the hard synthetic run seeded ``run`` (as ``kifu synth photos``)."""
    return render_photo(seed=photo_seed(run, index), difficulty="hard")


def points_wrong(photo: SynthPhoto, board: tuple[str, ...]) -> int:
    assert photo.board is not None
    pairs = zip(board, photo.board, strict=True)
    return sum(a != b for row, truth in pairs for a, b in zip(row, truth, strict=True))


def test_a_board_on_a_table_is_outlined_by_its_four_corners() -> None:
    image = np.full((480, 640, 3), (40, 45, 50), dtype=np.uint8)
    corners = np.array([[200, 60], [560, 110], [500, 420], [130, 370]], dtype=np.float64)
    cv2.fillPoly(image, [corners.astype(np.int32)], (90, 170, 215))
    for x, y in ((300, 200), (400, 250), (250, 300)):
        cv2.circle(image, (x, y), 9, (20, 20, 20), -1)
    outlines = board_outlines(image)
    assert len(outlines) >= 1
    assert np.abs(outlines[0] - corners).max() < 4.0


def test_the_grid_lies_a_margin_inside_the_outline() -> None:
    outline = np.array([[0.0, 0.0], [200.0, 0.0], [200.0, 200.0], [0.0, 200.0]])
    grid = grid_in_outline(outline, size=19, image_shape=(300, 300))
    cell = 200.0 / (18 + 2 * MARGIN)
    assert grid.corners[0] == pytest.approx([MARGIN * cell, MARGIN * cell])
    assert grid.corners[2] == pytest.approx([200 - MARGIN * cell, 200 - MARGIN * cell])
    assert np.linalg.norm(grid.intersections[0, 1] - grid.intersections[0, 0]) == pytest.approx(
        cell
    )


def test_each_axis_keeps_its_own_margin() -> None:
    outline = np.array([[0.0, 0.0], [200.0, 0.0], [200.0, 200.0], [0.0, 200.0]])
    grid = grid_in_outline(outline, size=19, image_shape=(300, 300), margins=(0.5, 1.0))
    across, down = 200.0 / 19, 200.0 / 20
    assert grid.corners[0] == pytest.approx([0.5 * across, 1.0 * down])
    assert grid.corners[2] == pytest.approx([200 - 0.5 * across, 200 - 1.0 * down])


def test_a_board_whose_lines_are_blurred_away_is_read_from_its_outline() -> None:
    photo = hard_photo(777, 104)  # a dim, blurred board, 174 stones, on a dark table
    assert not find_grid(photo.image, size=19)
    detection = detect_board(photo.image, size=19)
    assert detection.details["outline"] >= 1
    assert points_wrong(photo, read_stones(photo.image, detection.grid).board) <= 2


@pytest.mark.parametrize(("index", "most_wrong"), [(173, 0), (156, 9)])
def test_a_board_the_lines_misplace_is_read_from_its_outline(index: int, most_wrong: int) -> None:
    photo = hard_photo(555, index)  # crowded boards whose lines the search puts lines off
    by_lines = find_grid(photo.image, size=19)
    assert by_lines and by_lines.details["evidence"] < 0.7
    detection = detect_board(photo.image, size=19)
    assert detection.details["outline"] >= 1
    assert points_wrong(photo, read_stones(photo.image, detection.grid).board) <= most_wrong


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_table_without_a_board_is_refused(seed: int) -> None:
    photo = render_photo(seed=seed, difficulty="hard", show_board=False)
    found = find_by_outline(photo.image, size=19)
    assert not found
    assert found.reason.startswith("no board found: ")
