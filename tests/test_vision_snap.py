"""Snapping an unsure placement onto the board's lines near it, while its stones read surer."""

from __future__ import annotations

import numpy as np
import pytest

import vision.detect
from datasets.synth import render_photo
from datasets.synth.photos import photo_seed
from server.bench.vision import aligned_board
from vision import detect_board, read_stones


def test_a_grid_part_of_a_cell_off_at_one_side_is_snapped_onto_the_lines() -> None:
    photo = render_photo(seed=photo_seed(555, 234), difficulty="hard")  # tilted, motion blur
    detection = detect_board(photo.image, size=19)
    assert detection.details["snapped"] >= 1
    assert read_stones(photo.image, detection.grid).board == photo.board


def test_without_the_snap_the_same_grid_is_misplaced(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    photo = render_photo(seed=photo_seed(555, 234), difficulty="hard")
    monkeypatch.setattr(vision.detect, "SNAP_UNSURE", float("-inf"))
    # Without the snap, a second stretch onto the lines places it too, 12 points
    # wrong: here the one stretch, kept only where its stones read surer.
    monkeypatch.setattr(vision.detect, "STRETCH_ROUNDS", 1)
    monkeypatch.setattr(vision.detect, "STRETCH_CLEARER", float("inf"))
    # Nor may the learned corners dispute it: their grid places it right too.
    monkeypatch.setattr(vision.detect, "DISPUTED_BELOW", 0.0)
    detection = detect_board(photo.image, size=19)
    assert "snapped" not in detection.details
    seen = read_stones(photo.image, detection.grid).board
    board = np.array([list(row) for row in seen])
    assert aligned_board(board, detection.grid.corners, np.asarray(photo.corners)) is None
