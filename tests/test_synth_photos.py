"""Synthetic photos: the truth matches the picture, per seed, and bad requests are refused."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from datasets.synth import SynthError, render_photo, write_photos
from datasets.synth.photos import intersections, photo_seed
from server.cli import main

EMPTY_19 = tuple("." * 19 for _ in range(19))

# Columns of black, white and empty on a 9×9 board: every point's colour is known.
STRIPES_9 = tuple("".join("XO."[(r * 9 + c) % 3] for c in range(9)) for r in range(9))


def sample(image: np.ndarray, x: float, y: float) -> float:
    """Bilinear grey value at sub-pixel ``(x, y)``."""
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY).astype(np.float32)
    patch = cv2.getRectSubPix(grey, (1, 1), (float(x), float(y)))
    return float(patch[0, 0])


def disk_median(image: np.ndarray, x: float, y: float, radius: float) -> np.ndarray:
    """Median BGR over a disk, robust to a stone's specular highlight."""
    h, w = image.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w]
    inside = (xx - x) ** 2 + (yy - y) ** 2 <= radius * radius
    median: np.ndarray = np.median(image[inside].astype(np.float64), axis=0)
    return median


@pytest.mark.parametrize("seed", [3, 11])
def test_projected_intersections_land_on_the_drawn_grid_lines(seed: int) -> None:
    photo = render_photo(seed=seed, difficulty="easy", position=EMPTY_19)
    points = intersections(photo.truth)
    # Cell centres: the mean of each square's four corners, well away from any line.
    centres = (points[:-1, :-1] + points[1:, 1:] + points[:-1, 1:] + points[1:, :-1]) / 4
    grey = cv2.cvtColor(photo.image, cv2.COLOR_BGR2GRAY)
    on_lines = np.array([sample(photo.image, x, y) for x, y in points.reshape(-1, 2)])
    in_cells = np.array([sample(photo.image, x, y) for x, y in centres.reshape(-1, 2)])
    assert grey.dtype == np.uint8
    assert np.median(in_cells) - np.median(on_lines) > 40
    # Nearly every intersection is darker than the lightest cell around it.
    neighbours = np.maximum.reduce(
        [
            np.pad(in_cells.reshape(18, 18), ((1, 0), (1, 0)), mode="edge"),
            np.pad(in_cells.reshape(18, 18), ((0, 1), (0, 1)), mode="edge"),
        ]
    )
    darker = on_lines.reshape(19, 19) < neighbours - 15
    assert darker.mean() > 0.97


@pytest.mark.parametrize("seed", [5, 6, 7, 8])
def test_truth_corners_are_the_outer_intersections_clockwise_from_top_left(seed: int) -> None:
    photo = render_photo(seed=seed, difficulty="hard", position=EMPTY_19)
    corners = photo.corners
    assert corners is not None
    points = intersections(photo.truth)
    np.testing.assert_allclose(corners, points[[0, 0, -1, -1], [0, -1, -1, 0]], atol=1e-9)
    # board[0][0] is the corner nearest the picture's top-left, as vision reports it.
    assert np.argmin(corners.sum(axis=1)) == 0
    x, y = corners[:, 0], corners[:, 1]
    assert np.sum(x * np.roll(y, -1) - np.roll(x, -1) * y) > 0  # clockwise on screen
    h, w = photo.image.shape[:2]
    assert ((corners >= 0) & (corners < [w, h])).all()


@pytest.mark.parametrize(("seed", "difficulty"), [(1, "easy"), (3, "medium"), (1, "hard")])
def test_stones_are_where_the_truth_says(seed: int, difficulty: str) -> None:
    """Against the same scene without stones: black darkens, white brightens the blue."""
    stones = render_photo(seed=seed, difficulty=difficulty, position=STRIPES_9)
    empty = render_photo(
        seed=seed, difficulty=difficulty, position=tuple("." * 9 for _ in range(9))
    )
    assert stones.board == STRIPES_9
    points = intersections(stones.truth)
    spacing = float(np.median(np.linalg.norm(np.diff(points, axis=1), axis=-1)))
    for r in range(9):
        for c in range(9):
            x, y = points[r, c]
            change = disk_median(stones.image, x, y, 0.25 * spacing) - disk_median(
                empty.image, x, y, 0.25 * spacing
            )
            what = STRIPES_9[r][c]
            if what == "X":
                assert change.mean() < -20, (r, c, change)
            elif what == "O":
                assert change[0] > 20, (r, c, change)
            else:
                assert np.abs(change).mean() < 20, (r, c, change)


def test_the_same_seed_gives_the_same_bytes_and_truth() -> None:
    first = render_photo(seed=42, difficulty="medium")
    again = render_photo(seed=42, difficulty="medium")
    other = render_photo(seed=43, difficulty="medium")
    assert first.jpeg == again.jpeg
    assert first.truth == again.truth
    assert np.array_equal(first.image, again.image)
    assert first.jpeg != other.jpeg


def test_the_picture_is_the_jpeg_it_comes_with() -> None:
    photo = render_photo(seed=8, difficulty="easy")
    decoded = cv2.imdecode(np.frombuffer(photo.jpeg, np.uint8), cv2.IMREAD_COLOR)
    assert decoded is not None
    assert np.array_equal(decoded, photo.image)
    w, h = photo.truth["image_size"]
    assert photo.image.shape == (h, w, 3)


def test_a_photo_without_a_board_says_so() -> None:
    photo = render_photo(seed=2, difficulty="hard", show_board=False)
    assert photo.board is None
    assert photo.corners is None
    assert photo.truth["board"] is None and photo.truth["corners"] is None
    with pytest.raises(SynthError, match="no board"):
        intersections(photo.truth)


def test_positions_come_from_the_games_folder_given(tmp_path: Path, shared_datasets: Path) -> None:
    games = shared_datasets / "sgf" / "pro-and-ai-games"
    written = write_photos(tmp_path, n=2, seed=4, difficulty="easy", games=games)
    assert [p.name for p in written] == ["00000.jpg", "00001.jpg"]
    for path in written:
        truth = json.loads(path.with_suffix(".json").read_text())
        assert truth["run"]["seed"] == 4
        image = cv2.imread(str(path))
        assert image is not None
        assert image.shape[:2] == tuple(reversed(truth["image_size"]))
        if truth["position"]["source"] == "game":
            assert (games / truth["position"]["file"]).is_file()


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--n", "0"], "number of photos must be at least 1, got 0"),
        (["--difficulty", "extreme"], "unknown difficulty 'extreme'"),
        (["--games", "no/such/folder"], "game folder not found: 'no/such/folder'"),
    ],
)
def test_bad_arguments_give_one_clear_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    status = main(["synth", "photos", str(tmp_path / "out"), *argv])
    err = capsys.readouterr().err
    assert status == 2
    assert message in err
    assert err.count("\n") == 1
    assert not (tmp_path / "out").exists()


def test_a_position_that_is_not_a_board_is_refused() -> None:
    with pytest.raises(SynthError, match="not a square board"):
        render_photo(seed=1, position=("X.", "O"))


def test_a_hand_is_drawn_over_the_same_photo_and_hides_the_points_it_covers() -> None:
    plain = render_photo(seed=photo_seed(77, 1), difficulty="hard", show_board=True)
    with_hand = render_photo(seed=photo_seed(77, 1), difficulty="hard", show_board=True, hand=True)
    assert "hand" not in plain.truth
    hand = with_hand.truth.pop("hand")
    assert with_hand.truth == plain.truth  # the same photo, a hand laid over it
    hidden = {tuple(point) for point in hand["hidden"]}
    assert hand["side"] in {"left", "right", "far"} and len(hidden) >= 10
    # Every point of the board is where the plain photo has it; where the hand hides
    # one, the picture there changed; far from the hand it did not.
    points = intersections(plain.truth, height=4.0)
    n = len(plain.board or ())
    changed = {
        (r, c): float(
            np.abs(
                disk_median(with_hand.image, *points[r, c], 3.0)
                - disk_median(plain.image, *points[r, c], 3.0)
            ).max()
        )
        for r in range(n)
        for c in range(n)
    }
    under = [changed[point] for point in hidden]
    untouched = [change for point, change in changed.items() if point not in hidden]
    assert min(under) > 10 and np.median(under) > 30, sorted(under)
    assert np.median(untouched) < 3


def test_hands_come_from_their_own_stream_so_photos_without_them_render_as_always() -> None:
    first = render_photo(seed=42, difficulty="medium", hand=True)
    again = render_photo(seed=42, difficulty="medium", hand=True)
    assert first.jpeg == again.jpeg and first.truth == again.truth
    assert first.jpeg != render_photo(seed=42, difficulty="medium").jpeg
    # No board, no hand: there is nothing for it to reach over.
    bare = render_photo(seed=2, difficulty="hard", show_board=False, hand=True)
    assert "hand" not in bare.truth
