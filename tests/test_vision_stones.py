"""Reading stones on a known grid: the classifier, the sampler and rule hints."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from tests.vision_synthetic import draw_board
from vision import BoardSampler, VisionError, detect_board, grid_from_corners, read_stones
from vision.classify import (
    BLACK_DARKNESS,
    black_threshold,
    classify,
    off_centre,
    white_threshold,
)
from vision.features import (
    StoneFeatures,
    _local_board,
    board_numbers,
    stone_features,
)
from vision.geometry import apply_homography
from vision.hints import suspicions
from vision.learned import board_inputs, half_size_lab, patch_inputs, small_channels

POSITION = [
    "...................",
    "...X...........O...",
    "..XO...............",
    "...O.......X.......",
    "...................",
    "...................",
    "...................",
    "...................",
    "...................",
    ".........X.........",
    "...................",
    "...................",
    "...................",
    "...................",
    "...................",
    "..O............XO..",
    "...X...........OX..",
    "...................",
    "X.................O",
]


def features(dark: list[list[float]], cell: int = 16) -> StoneFeatures:
    values = np.array(dark, dtype=np.float64)
    relative = np.kron(-values, np.ones((cell, cell))).astype(np.float32)
    return StoneFeatures(dark=values, bright=-values, relative=relative)


def test_classify_reads_dark_as_black_and_bright_as_white() -> None:
    labels, confidence = classify(
        features([[0.7, 0.0, -0.5], [0.01, -0.02, 0.0], [0.0, 0.02, 0.0]])
    )
    assert ["".join(row) for row in labels] == ["X.O", "...", "..."]
    assert confidence[0, 0] == 1.0 and confidence[0, 2] == 1.0
    assert np.all((confidence >= 0.5) & (confidence <= 1.0))


def test_confidence_falls_to_a_half_on_the_threshold() -> None:
    _, confidence = classify(features([[BLACK_DARKNESS + 1e-9, 0.0], [0.0, 0.0]]))
    assert confidence[0, 0] == pytest.approx(0.5, abs=1e-6)


def test_an_off_centre_stone_belongs_to_the_nearest_point_and_lines_to_none() -> None:
    cell, size = 16, 5
    relative = np.zeros((size * cell, size * cell), np.float32)
    centre = (2 * cell + 7.5 + 0.35 * cell, 1 * cell + 7.5 + 0.2 * cell)  # (x, y) near (1, 2)
    cv2.circle(relative, (round(centre[0]), round(centre[1])), 7, 0.5, -1)
    relative[4 * cell + 7, :] = 0.5  # a bright line along row 4
    relative[0:12, 0:40] = 0.5  # a wide bright patch (glare) over row 0
    owned = off_centre(relative, 0.2, size)
    assert owned.sum() == 1 and owned[1, 2]


def test_white_threshold_rises_with_a_noisy_board_but_not_below_its_floor() -> None:
    rng = np.random.default_rng(4)
    calm = rng.normal(0.0, 0.01, 361)
    noisy = rng.normal(0.0, 0.06, 361)
    assert white_threshold(calm) == pytest.approx(0.15)
    assert white_threshold(noisy) > 0.2


def test_a_crowded_board_keeps_its_thresholds_below_its_stones() -> None:
    # 40 % white stones, 15 % black: the stones would set the spread themselves.
    rng = np.random.default_rng(5)
    bright = rng.normal(0.0, 0.03, 361)
    bright[:145] = rng.normal(0.3, 0.05, 145)
    bright[145:200] = rng.normal(-0.6, 0.05, 55)
    assert white_threshold(bright) < float(bright[:145].min())
    assert black_threshold(-bright) < float(-bright[145:200].max())


def test_black_stones_well_apart_from_a_grainy_board_are_black() -> None:
    # A dark, grainy board: its spread is wide, the stones stand a clear gap apart.
    rng = np.random.default_rng(6)
    dark = rng.normal(0.05, 0.1, 361).clip(-0.25, 0.3)
    dark[:40] = rng.uniform(0.66, 0.8, 40)
    assert black_threshold(dark) < 0.66


def test_white_stones_well_apart_from_a_grainy_board_are_white() -> None:
    rng = np.random.default_rng(8)
    bright = rng.normal(-0.05, 0.1, 361).clip(-0.3, 0.15)
    bright[:40] = rng.uniform(0.34, 0.42, 40)
    assert white_threshold(bright) < 0.34


def test_a_run_of_deep_shadows_below_black_stones_stays_empty() -> None:
    # A dim board: shadows from 0.67 down to the stones' 1.0, no clear gap between.
    rng = np.random.default_rng(7)
    dark = rng.normal(0.2, 0.12, 361).clip(-0.1, 0.48)
    dark[:6] = 1.0
    dark[6:16] = np.linspace(0.67, 0.76, 10)
    assert black_threshold(dark) > 0.76


@pytest.mark.parametrize(
    "corners",
    [
        [(150, 100), (650, 100), (650, 560), (150, 560)],
        [(230, 80), (590, 90), (760, 560), (50, 550)],
    ],
    ids=["top-down", "tilted"],
)
def test_read_stones_on_a_drawn_board(corners: list[tuple[int, int]]) -> None:
    image, _ = draw_board(POSITION, corners=corners, rng=np.random.default_rng(11))
    detection = detect_board(image, size=19)
    assert detection, detection.reason
    reading = read_stones(image, detection.grid)  # type: ignore[arg-type]
    assert reading.board == tuple(POSITION)
    assert reading.suspicions == ()


def test_a_board_far_from_the_camera_reads_with_a_hint_that_it_is_far() -> None:
    # The drawn board, its cells 28 pixels apart, and again 9 pixels apart.
    near = [(150, 100), (650, 100), (650, 560), (150, 560)]
    far = [(300, 250), (460, 250), (460, 410), (300, 410)]
    for corners, said in ((near, False), (far, True)):
        image, _ = draw_board(POSITION, corners=corners, rng=np.random.default_rng(11))
        grid = grid_from_corners(np.array(corners, float), size=19, image_shape=image.shape[:2])
        for where in (grid, BoardSampler.for_grid(grid)):
            hints = read_stones(image, where).suspicions
            assert any(hint.startswith("the board is far") for hint in hints) == said
    assert hints == (
        "the board is far: its cells span 8.9 pixels (under 11), where stones read less surely",
    )


def test_a_sampler_is_reused_across_frames() -> None:
    corners = [(150, 100), (650, 100), (650, 560), (150, 560)]
    image, truth = draw_board(POSITION, corners=corners, rng=np.random.default_rng(3))
    grid = grid_from_corners(
        np.array([truth[0, 0], truth[0, -1], truth[-1, -1], truth[-1, 0]]),
        size=19,
        image_shape=image.shape[:2],
    )
    sampler = BoardSampler.for_grid(grid)
    first, second = read_stones(image, sampler), read_stones(image.copy(), sampler)
    assert first.board == second.board == tuple(POSITION)


def test_a_frame_of_another_size_is_refused() -> None:
    grid = grid_from_corners(
        np.array([[10.0, 10], [90, 10], [90, 90], [10, 90]]), size=9, image_shape=(100, 100)
    )
    with pytest.raises(VisionError, match="image is 200x50, but the grid was found in a 100x100"):
        read_stones(np.zeros((50, 200, 3), np.uint8), grid)


@pytest.mark.parametrize(
    ("board", "expected"),
    [
        (["X..", "...", "..."], ()),
        (["XO.", "O..", "..."], ("black chain at (0, 0) of 1 stone(s) has no liberties",)),
        (
            ["OOO", "OXO", "OOO"],
            (
                "white chain at (0, 0) of 8 stone(s) has no liberties",
                "black chain at (1, 1) of 1 stone(s) has no liberties",
                "9 stones on 9 points: the board is nearly full",
            ),
        ),
        (
            ["O" * 19] * 2 + ["." * 19] * 17,
            ("38 white stones against 0 black is an unusual count",),
        ),
    ],
)
def test_rule_hints_flag_impossible_readings(board: list[str], expected: tuple[str, ...]) -> None:
    assert suspicions(board) == expected


def test_many_boards_read_at_once_read_as_each_alone() -> None:
    # The centring reads a board at 81 offsets in one call; each board's numbers
    # and model inputs must be exactly what it gives read on its own.
    corners = [(230, 80), (590, 90), (760, 560), (50, 550)]
    image, _ = draw_board(POSITION, corners=corners, rng=np.random.default_rng(5))
    detection = detect_board(image, size=19)
    assert detection.grid is not None
    warped = BoardSampler.for_grid(detection.grid).warp(image)
    # The last has a quarter covered (a dark cloth): no board sample near some
    # points, whose brightness then falls back on the board's median.
    covered = warped.copy()
    covered[: warped.shape[0] // 2, : warped.shape[1] // 2] = 0
    boards = np.stack([warped, np.roll(warped, 6, axis=1), warped[::-1].copy(), covered])
    labs = np.stack([cv2.cvtColor(b, cv2.COLOR_BGR2LAB) for b in boards])
    dark, board = board_numbers(labs, 19)
    smalls = [small_channels(half_size_lab(b)) for b in boards]
    inputs = board_inputs(
        np.stack([s[0] for s in smalls]), np.stack([s[1] for s in smalls]), board, dark
    )
    for k, one in enumerate(boards):
        features = stone_features(one, 19)
        np.testing.assert_array_equal(dark[k], features.dark)
        np.testing.assert_array_equal(board[k], features.board)
        np.testing.assert_array_equal(inputs[k], patch_inputs(one, features))


def test_the_sampler_maps_each_pixel_through_the_grids_homography() -> None:
    corners = np.array([[230.0, 80], [590, 90], [760, 560], [50, 550]])
    grid = grid_from_corners(corners, size=19, image_shape=(600, 800))
    sampler = BoardSampler.for_grid(grid, lift=0.0)
    xy = cv2.convertMaps(sampler.map1, sampler.map2, cv2.CV_32FC1)
    side = sampler.map1.shape[0]
    # Pixel (row, col) of the straightened board is the lattice point (u, v) at
    # the middle of its block (a cell per point, with a margin of one).
    rows, cols = np.mgrid[0:side:37, 0:side:41]
    uv = (np.stack([cols, rows], -1) - (sampler.cell - 1) / 2) / sampler.cell - 1.0
    expected = apply_homography(grid.homography, uv)
    got = np.stack([xy[0][rows, cols], xy[1][rows, cols]], -1)
    np.testing.assert_allclose(got, expected, atol=1 / 32)


def test_more_boards_than_one_opencv_image_holds_are_blurred_as_each_alone() -> None:
    # The boards' samples are blurred as the channels of one image, 128 at most
    # at a time; 300 boards, some with no reliable sample near a point, must each
    # come out exactly as blurred alone.
    rng = np.random.default_rng(8)
    values = rng.random((3, 100, 20, 20)) * 200
    reliable = rng.random((3, 100, 20, 20)) > 0.3
    reliable[0, 5] = False
    reliable[1, 7, :12] = False
    together = _local_board(values, reliable, sigma=1.5)
    for index in np.ndindex(3, 100):
        alone = _local_board(values[index], reliable[index], sigma=1.5)
        np.testing.assert_array_equal(together[index], alone)
