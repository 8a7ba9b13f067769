"""A nearly full board outlined by its stones, where its wood no longer shows as one patch."""

from __future__ import annotations

import numpy as np
import pytest

from datasets.synth import render_photo
from datasets.synth.photos import photo_seed
from tests.test_vision_blurred import cells_off_and_points_wrong
from tests.vision_synthetic import draw_board
from vision import detect_board
from vision.detect import FAINT_CONFIDENCE
from vision.outline import MARGINS, stones_outlines


def test_a_board_full_of_stones_is_outlined_round_its_outer_stones() -> None:
    rng = np.random.default_rng(3)
    board = ["".join(rng.choice(["X", "O"], size=19)) for _ in range(19)]
    corners = [(220.0, 90.0), (600.0, 120.0), (580.0, 500.0), (190.0, 470.0)]
    image, points = draw_board(board, corners=corners, image_size=(800, 600), cell=40, rng=rng)
    outlines = stones_outlines(image)
    assert outlines
    # Round the outer stones: beyond each corner intersection by a stone's
    # radius along both lines out of it, and the few pixels the spread of grey
    # is taken over; within the margins the outline search tries (MARGINS).
    cell = np.linalg.norm(points[0, 1] - points[0, 0])
    assert (
        np.linalg.norm(outlines[0] - np.array(corners), axis=1).max() < MARGINS[-1] * cell * 2**0.5
    )
    centre = points.reshape(-1, 2).mean(axis=0)
    outward = np.linalg.norm(outlines[0] - centre, axis=1) - np.linalg.norm(
        np.array(corners) - centre, axis=1
    )
    assert np.all(outward > 0.0)


@pytest.mark.parametrize(
    ("run", "index", "size", "most_wrong"),
    [
        # 341 stones on 361 points: the lines' window lies lines off, the
        # stones' lattice reads no surer, and the wood shows as no one patch.
        (1357, 280, 19, 3),
        # 76 stones on 81 points, on a thick board in blur: the blobs' lattice
        # took the gaps between the stones.
        (3333, 55, 9, 0),
    ],
)
def test_a_nearly_full_board_placed_off_its_stones_is_read_in_their_outline(
    run: int, index: int, size: int, most_wrong: int
) -> None:
    photo = render_photo(seed=photo_seed(run, index), difficulty="hard")
    detection = detect_board(photo.image, size=size)
    assert detection.details["stones_outline"] == 1.0
    assert "by_stones" not in detection.details
    off, wrong = cells_off_and_points_wrong(photo, detection.grid)
    assert off < 0.5
    assert wrong <= most_wrong


def test_a_full_board_nothing_else_found_is_read_in_its_stones_outline() -> None:
    # 75 stones on a 9×9 board's 81 points, out of focus: no line search and no
    # outline of its wood finds it; the outline of its stones does, last of all.
    photo = render_photo(seed=photo_seed(555, 271), difficulty="hard")
    detection = detect_board(photo.image, size=9)
    assert detection.details["stones_outline"] == 1.0
    assert detection.confidence <= FAINT_CONFIDENCE
    off, wrong = cells_off_and_points_wrong(photo, detection.grid)
    # 0.56 of its shortest cell at its farthest corner, seen at a steep tilt;
    # within half its mean cell, as the benchmark counts a board placed.
    assert off < 0.6
    assert wrong <= 2
