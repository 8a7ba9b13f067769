"""What one photo's reading works out once and shares: grids weighed, boards straightened."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
import pytest

import vision.stones
from datasets.synth import render_photo
from datasets.synth.photos import photo_seed
from vision import detect_board, read_board, read_stones
from vision.kept import once_per_photo, photo_kept, recent_per_photo


def test_only_the_last_few_of_a_kind_are_kept() -> None:
    photo = np.zeros((4, 4, 3), dtype=np.uint8)
    made: list[int] = []

    def make(key: int) -> int:
        made.append(key)
        return key * 10

    with photo_kept(photo):
        found = [
            recent_per_photo(photo, "tens", k, lambda k=k: make(k), last=2) for k in (1, 2, 1, 3)
        ]
        assert made == [1, 2, 3]  # 1 asked for again while kept
        assert recent_per_photo(photo, "tens", 2, lambda: make(2), last=2) == 20
        assert made == [1, 2, 3, 2]  # 2 was the least recent when 3 came: let go
    assert found == [10, 20, 10, 30]


def test_a_photo_kept_within_one_for_the_same_photo_keeps_what_the_outer_keeps() -> None:
    photo = np.zeros((4, 4, 3), dtype=np.uint8)
    other = photo.copy()
    made: list[str] = []
    with photo_kept(photo):
        once_per_photo(photo, "maps", lambda: made.append("outer"))
        with photo_kept(photo):
            once_per_photo(photo, "maps", lambda: made.append("inner"))
        once_per_photo(photo, "maps", lambda: made.append("after"))
        with photo_kept(other):  # another photo: its own store, and the outer's back after
            once_per_photo(other, "maps", lambda: made.append("other"))
        once_per_photo(photo, "maps", lambda: made.append("back"))
    assert made == ["outer", "other"]


def test_a_photo_read_whole_reads_as_detection_then_stones_and_straightens_its_grid_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Lines unsure: the detection checks its grid against the stones it reads.
    photo = render_photo(seed=photo_seed(333, 208), difficulty="hard")
    detection = detect_board(photo.image, size=19)
    assert detection.grid is not None and "certainty" in detection.details
    reading = read_stones(photo.image, detection.grid)

    straightened: list[npt.NDArray[np.uint8]] = []
    features = vision.stones.stone_features

    def counted(warped: npt.NDArray[np.uint8], size: int) -> vision.stones.StoneFeatures:
        straightened.append(warped)
        return features(warped, size)

    monkeypatch.setattr("vision.stones.stone_features", counted)
    with photo_kept(photo.image):
        detect_board(photo.image, size=19)
    by_detection = len(straightened)
    whole, read = read_board(photo.image, size=19)
    assert len(straightened) == 2 * by_detection  # the reading straightened nothing more
    assert whole.grid is not None and read is not None
    np.testing.assert_array_equal(whole.grid.intersections, detection.grid.intersections)
    assert whole.confidence == detection.confidence
    assert read.board == reading.board
    np.testing.assert_array_equal(read.confidence, reading.confidence)
    assert read.suspicions == reading.suspicions


def test_a_photo_with_no_board_read_whole_has_no_reading() -> None:
    photo = render_photo(seed=photo_seed(555, 6), difficulty="hard")  # no board in the picture
    detection, reading = read_board(photo.image, size=19)
    assert not detection and reading is None
    assert detection.reason.startswith("no board found")
