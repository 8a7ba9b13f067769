"""Points glare washes out are read as a guess, and say so."""

from __future__ import annotations

import cv2
import numpy as np

from datasets.synth import render_photo
from datasets.synth.photos import photo_seed
from engine.referee import AlertEvent, Event, MoveEvent, Observation, Referee
from tests.test_vision_stones import POSITION
from tests.vision_synthetic import draw_board
from vision import BoardSampler, grid_from_corners, read_stones
from vision.draw import draw_reading
from vision.features import washed_out
from vision.stones import EVEN_ODDS, WASHED_CONFIDENCE

CORNERS = [(150, 100), (650, 100), (650, 560), (150, 560)]


def drawn_board() -> tuple[np.ndarray, BoardSampler, np.ndarray]:
    """POSITION drawn top-down, its sampler on the true grid, and the true intersections."""
    image, truth = draw_board(POSITION, corners=CORNERS, rng=np.random.default_rng(5))
    corners = np.array([truth[0, 0], truth[0, -1], truth[-1, -1], truth[-1, 0]])
    grid = grid_from_corners(corners, size=19, image_shape=image.shape[:2])
    return image, BoardSampler.for_grid(grid), truth


def glare(image: np.ndarray, centre: np.ndarray, radius: float) -> np.ndarray:
    """``image`` under a glare spot: white at its centre, saturated out to ``radius``."""
    ys, xs = np.mgrid[: image.shape[0], : image.shape[1]]
    distance = np.hypot(xs - centre[0], ys - centre[1])
    light = 255.0 * 2.0 * np.exp(-0.5 * (distance / radius) ** 2)[..., None]
    return np.clip(image.astype(np.float64) + light, 0, 255).astype(np.uint8)


def test_a_glare_spot_leaves_its_points_unsure_and_the_rest_as_they_were() -> None:
    image, sampler, truth = drawn_board()
    plain = read_stones(image, sampler)
    # Over the white stone at (3, 3) and the empty points around it.
    glared = glare(image, truth[3, 3], radius=30.0)
    reading = read_stones(glared, sampler)
    washed = washed_out(sampler.warp(glared), 19)
    assert washed[3, 3] and washed[2, 3] and washed[3, 4]
    assert washed.sum() <= 9
    assert np.all(reading.confidence[washed] <= WASHED_CONFIDENCE)
    assert f"glare washes out {int(washed.sum())} point(s): their reading is a guess" in (
        reading.suspicions
    )
    assert plain.suspicions == ()
    # Away from the spot, read as before and as surely.
    rows, cols = np.indices((19, 19))
    away = np.maximum(np.abs(rows - 3), np.abs(cols - 3)) > 3
    before = np.array([list(row) for row in plain.board])
    after = np.array([list(row) for row in reading.board])
    assert np.array_equal(after[away], before[away])
    assert np.all(reading.confidence[away] > 0.9)


def test_a_saturated_white_stone_in_plain_light_is_not_washed_out() -> None:
    image, sampler, truth = drawn_board()
    # A white stone as bright as the camera records, the board around it as it was.
    cv2.circle(image, tuple(int(v) for v in truth[3, 3]), 11, (255, 255, 255), -1)
    assert not washed_out(sampler.warp(image), 19).any()
    reading = read_stones(image, sampler)
    assert reading.board[3][3] == "O"
    assert reading.suspicions == ()


def test_white_stones_glare_hides_on_a_rendered_board_are_read_unsure() -> None:
    photo = render_photo(seed=photo_seed(1357, 201), difficulty="hard")  # glare over whites
    assert photo.board is not None and photo.corners is not None
    grid = grid_from_corners(photo.corners, size=19, image_shape=photo.image.shape[:2])
    reading = read_stones(photo.image, grid)
    read = np.array([list(row) for row in reading.board])
    wrong = read != np.array([list(row) for row in photo.board])
    unsure = reading.confidence < EVEN_ODDS
    # 11 points misread, all of them white stones lost in the glare and read
    # unsure: 16 before round 55's stone net read in four turns and its white
    # counted at even odds (14 with the turns alone; the stone net of round 51
    # guessed empty at 5 more of the washed-out points than round 47's, 11).
    # Before the glare cap, 17 were misread, all at a confidence of 0.97 or
    # more; with the cap and the stone model alone, 17, 16 of them unsure.
    assert wrong.sum() == 11
    assert (wrong & unsure).sum() == 11
    assert (~wrong & unsure).sum() <= 12  # read right, but there was nothing to see
    assert any(hint.startswith("glare washes out") for hint in reading.suspicions)


def test_a_white_stone_lost_in_glare_raises_no_alert_with_the_referee() -> None:
    # A 9x9 game the camera watches: black at C7, white at G3; then glare hides G3.
    empty = ["." * 9] * 9
    black = ["." * 9, "." * 9, "..X......", *["." * 9] * 6]
    both = [*black[:6], "......O..", "." * 9, "." * 9]
    corners = [(150, 100), (650, 100), (650, 560), (150, 560)]
    rng = np.random.default_rng(9)
    frames = [draw_board(b, corners=corners, cell=48, rng=rng)[0] for b in (empty, black, both)]
    _, truth = draw_board(both, corners=corners, cell=48, rng=rng)
    grid = grid_from_corners(
        np.array([truth[0, 0], truth[0, -1], truth[-1, -1], truth[-1, 0]]),
        size=9,
        image_shape=frames[0].shape[:2],
    )
    sampler = BoardSampler.for_grid(grid)
    frames.append(glare(frames[-1], truth[6, 6], radius=40.0))

    def watch(frames: list[np.ndarray], *, trust_all: bool) -> list[Event]:
        referee, events = Referee(9, komi=7.5), []
        for t, frame in enumerate(frames):
            reading = read_stones(frame, sampler)
            confidence = np.ones((9, 9)) if trust_all else reading.confidence
            seen = Observation(float(t), reading.board, tuple(map(tuple, confidence.tolist())))
            events += referee.observe(seen)
        return events

    events = watch(frames, trust_all=False)
    assert read_stones(frames[-1], sampler).board[6][6] == "."  # lost in the glare
    assert [e.point for e in events if isinstance(e, MoveEvent)] == ["C7", "G3"]
    assert not [e for e in events if isinstance(e, AlertEvent)]
    # Had the guess been trusted, the referee would have seen G3 taken off.
    trusted = [e for e in watch(frames, trust_all=True) if isinstance(e, AlertEvent)]
    assert trusted and trusted[0].kind == "illegal_capture"


def test_the_drawing_for_a_person_crosses_out_the_points_read_as_a_guess() -> None:
    image, sampler, truth = drawn_board()
    glared = glare(image, truth[3, 3], radius=30.0)
    reading = read_stones(glared, sampler)
    unsure = reading.confidence < EVEN_ODDS
    plain = draw_reading(glared, sampler.grid, board=reading.board)
    marked = draw_reading(glared, sampler.grid, board=reading.board, unsure=unsure)
    changed = np.any(marked != plain, axis=2)
    assert unsure.sum() == 5
    for r, c in zip(*np.nonzero(unsure), strict=True):
        x, y = (int(v) for v in truth[r, c])
        assert changed[y - 8 : y + 9, x - 8 : x + 9].any()
    x, y = (int(v) for v in truth[12, 12])  # far from the glare
    assert not changed[y - 20 : y + 21, x - 20 : x + 21].any()
