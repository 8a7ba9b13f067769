"""Geometry of grid finding: homographies, vanishing points, lattices, refinement."""

from __future__ import annotations

import cv2
import numpy as np
import numpy.typing as npt
import pytest

from datasets.synth import render_photo
from datasets.synth.photos import photo_seed
from tests.vision_synthetic import draw_board
from vision import detect_board, grid_from_corners, read_stones
from vision.features import lift_homography
from vision.geometry import (
    Lattice1D,
    _comb_scores,
    apply_homography,
    cell_aspect,
    comb_lattices,
    fit_homography,
    fit_lattice,
    vanishing_point,
)
from vision.grid import (
    LINE_WIDTH,
    _at_board_spacing,
    _canonical_order,
    _crossing_evidence,
    _distort,
    _fit_lines,
    _line_searches,
    _magnified_width,
    _place_window,
    _region_crop,
    _search_once,
    _seen_span,
    _stones_beyond,
    _undistort,
)

EMPTY_19 = ["." * 19] * 19


def test_fit_homography_recovers_a_known_map() -> None:
    truth = np.array([[1.2, 0.1, 30.0], [-0.05, 0.9, 12.0], [1e-4, 2e-4, 1.0]])
    source = np.random.default_rng(3).uniform(0, 500, size=(30, 2))
    target = apply_homography(truth, source)
    found = fit_homography(source, target)
    assert found is not None
    np.testing.assert_allclose(found, truth, rtol=1e-6, atol=1e-9)


def test_fit_homography_refuses_collinear_points() -> None:
    source = np.array([[0.0, 0], [1, 1], [2, 2], [3, 3], [4, 4]])
    assert fit_homography(source, source * 2) is None


def test_vanishing_point_of_converging_segments() -> None:
    rng = np.random.default_rng(7)
    apex = np.array([400.0, -900.0])
    starts = np.column_stack([rng.uniform(0, 800, 40), rng.uniform(300, 600, 40)])
    ends = starts + 0.2 * (apex - starts)
    outliers = rng.uniform(0, 800, size=(8, 4))
    segments = np.vstack([np.hstack([starts, ends]), outliers])
    found = vanishing_point(segments, np.ones(len(segments)), rng=rng)
    assert found is not None
    point, inliers = found
    np.testing.assert_allclose(point[:2] / point[2], apex, rtol=1e-3)
    assert inliers[:40].all() and inliers[40:].sum() <= 2


def test_fit_lattice_skips_gaps_and_ignores_a_stray_line() -> None:
    k = np.array([0, 1, 2, 4, 5, 6, 7, 9, 10, 11, 12, 13, 15, 16, 17, 18])
    positions = np.concatenate([10.0 + 7.5 * k, [10.0 + 7.5 * 18 + 3.1]])
    weights = np.ones(len(positions))
    lattice = fit_lattice(positions, weights, lines=19)
    assert lattice is not None
    assert lattice.spacing == pytest.approx(7.5, rel=1e-3)
    assert (lattice.origin - 10.0) / 7.5 == pytest.approx(round((lattice.origin - 10.0) / 7.5))


def test_fit_lattice_finds_no_lattice_in_positions_a_billionth_of_a_pixel_apart() -> None:
    # A line search on a blank stretch of a photo (dev 31337 #219) gave such
    # positions: their gaps round to a spacing of nothing, which fits no lattice
    # (and divided by zero before).
    positions = 100.0 + 1e-9 * np.arange(6)
    assert fit_lattice(positions, np.ones(6), lines=19) is None


def test_comb_lattices_find_a_grid_in_a_profile_with_lines_missing() -> None:
    # 19 lines 20.3 samples apart from 100; five hidden under stones, a stray
    # table edge at 40, noise everywhere.
    x = np.arange(600.0)
    profile = np.random.default_rng(0).normal(0.0, 0.1, x.shape)
    for k in (0, 1, 2, 4, 5, 7, 8, 9, 12, 13, 15, 16, 17, 18):
        profile += np.exp(-0.5 * ((x - (100.0 + 20.3 * k)) / 1.5) ** 2)
    profile += 1.5 * np.exp(-0.5 * ((x - 40.0) / 1.5) ** 2)
    combs = comb_lattices(profile, lines=19)
    (best, score), *others = combs
    assert best.spacing == pytest.approx(20.3, rel=0.005)
    assert best.origin == pytest.approx(100.0, abs=1.0)
    # Half the spacing fits every line too, with every other tooth between lines.
    assert all(other < score for _, other in others)


@pytest.mark.parametrize("step", [1.0, 0.25])
def test_each_combs_score_is_the_same_scored_alone_or_with_others(step: float) -> None:
    # Combs are scored many spacings at once, the narrow ones' rows padded; each
    # must score, to the last bit, as it would alone.
    rng = np.random.default_rng(3)
    profile = rng.normal(0.0, 0.2, 500) + np.cos(np.arange(500) * 2 * np.pi / 17.3)
    spacings = np.exp(np.arange(np.log(3.0), np.log(499 / 18), 0.01))
    scores, origins = _comb_scores(profile, spacings, 19, step)
    for i in range(0, len(spacings), 7):
        alone = _comb_scores(profile, spacings[i : i + 1], 19, step)
        assert (scores[i], origins[i]) == (alone[0][0], alone[1][0])


def test_comb_lattices_need_room_for_the_lines() -> None:
    assert comb_lattices(np.ones(40), lines=19) == []


def test_a_faint_blurred_grid_is_found_by_the_second_look() -> None:
    # Lines at a quarter of their contrast, blurred: too faint for the first
    # search, found once the noise is smoothed away and weaker lines count.
    corners = [(230, 80), (590, 90), (760, 560), (50, 550)]
    image, truth = draw_board(EMPTY_19, corners=corners, rng=np.random.default_rng(5))
    wood = np.median(image.reshape(-1, 3), axis=0)
    faint = cv2.GaussianBlur(wood + 0.25 * (image - wood), (0, 0), 1.5)
    noise = np.random.default_rng(1).normal(0.0, 3.0, faint.shape)
    photo = np.clip(faint + noise, 0, 255).astype(np.uint8)
    gray = cv2.cvtColor(photo, cv2.COLOR_BGR2GRAY)
    assert not _search_once(gray, size=19, rng=np.random.default_rng(0))
    detection = detect_board(photo, size=19)
    assert detection, detection.reason
    assert np.abs(detection.intersections - truth).max() < 0.5


def _camera_homography(tilt_degrees: float, cell: tuple[float, float]) -> np.ndarray:
    """Lattice → image for a board turned 30 degrees and tilted, seen by a 1000-px camera."""
    f, w, h = 1000.0, 1200, 900
    t, a = np.radians(tilt_degrees), np.radians(30.0)
    tilt = np.array([[1.0, 0, 0], [0, np.cos(t), -np.sin(t)], [0, np.sin(t), np.cos(t)]])
    turn = np.array([[np.cos(a), -np.sin(a), 0], [np.sin(a), np.cos(a), 0], [0, 0, 1.0]])
    rotation = tilt @ turn
    camera = np.array([[f, 0, 0.5 * (w - 1)], [0, f, 0.5 * (h - 1)], [0, 0, 1.0]])
    board = np.column_stack(
        [rotation[:, 0] * cell[0], rotation[:, 1] * cell[1], [-200.0, -200.0, 900.0]]
    )
    return np.asarray(camera @ board)


def test_cell_aspect_sees_square_cells_through_the_perspective() -> None:
    for tilt in (10.0, 30.0, 45.0):
        square = _camera_homography(tilt, (22.0, 22.0))
        assert cell_aspect(square, (900, 1200)) == pytest.approx(1.0, abs=0.02)
        # A lattice at half the spacing across the rows: cells twice as tall as wide.
        halved = _camera_homography(tilt, (11.0, 22.0))
        assert cell_aspect(halved, (900, 1200)) == pytest.approx(0.5, abs=0.02)


def test_radial_distortion_round_trip() -> None:
    points = np.random.default_rng(1).uniform(0, 1000, size=(50, 2))
    centre, radius = np.array([500.0, 400.0]), 500.0
    back = _distort(_undistort(points, centre, radius, 0.08), centre, radius, 0.08)
    np.testing.assert_allclose(back, points, atol=1e-2)


def test_fit_lines_drops_stray_points_and_fits_each_set_alone() -> None:
    rng = np.random.default_rng(3)
    along = np.linspace(0.0, 400.0, 30)
    # y = 0.5 x + 20 with a pixel of noise and two far strays (a stone's edge).
    slanted = np.stack([along, 0.5 * along + 20.0 + rng.normal(0, 0.3, 30)], axis=-1)
    slanted[[4, 17], 1] += 25.0
    upright = np.stack([np.full(12, 250.0) + rng.normal(0, 0.3, 12), along[:12]], axis=-1)
    too_few = np.array([[0.0, 0.0], [1.0, 1.0]])
    first, second, none = _fit_lines([slanted, upright, too_few])
    assert first is not None and second is not None and none is None
    # Distance from the true lines, with the strays left out: well under a pixel.
    a, b, c = first / np.hypot(first[0], first[1])
    assert abs(a * 200.0 + b * 120.0 + c) < 0.3
    a, b, c = second / np.hypot(second[0], second[1])
    assert abs(a * 250.0 + b * 100.0 + c) < 0.3


def _stones_image(points: list[tuple[int, int]]) -> npt.NDArray[np.uint8]:
    """Dark and bright discs on wood at lattice points (u, v), 20 px apart from (60, 60)."""
    image = np.full((560, 560), 150, np.uint8)
    for k, (u, v) in enumerate(points):
        centre = (60 + 20 * u, 60 + 20 * v)
        cv2.circle(image, centre, 8, 25 if k % 2 else 235, -1, lineType=cv2.LINE_AA)
    return image


def test_a_window_short_of_a_row_of_edge_stones_moves_to_take_them_in() -> None:
    # A 9x9 window on lattice u = 1..9, v = 0..8: five stones stand on u = 0, just
    # outside its left side, and none on its right line, u = 9.
    edge = [(0, v) for v in (1, 3, 4, 6, 7)]
    inner = [(u, v) for u, v in ((2, 2), (3, 5), (5, 1), (6, 6), (8, 3), (4, 8))]
    to_window = np.array([[20.0, 0.0, 80.0], [0.0, 20.0, 60.0], [0.0, 0.0, 1.0]])
    assert _stones_beyond(_stones_image(edge + inner), to_window, 9) == (-1, 0)
    # A stone on the line the move would give up: the window stays.
    held = _stones_image([*edge, *inner, (9, 4)])
    assert _stones_beyond(held, to_window, 9) == (0, 0)
    # No stones beyond the window: nothing to move for.
    assert _stones_beyond(_stones_image(inner), to_window, 9) == (0, 0)


def test_stones_are_sought_only_around_the_window() -> None:
    edge = [(0, v) for v in (1, 3, 4, 6, 7)]
    image = _stones_image(edge)
    # The same stones, but a window far off the image: none to count, no error.
    far_off = np.array([[20.0, 0.0, 5000.0], [0.0, 20.0, 60.0], [0.0, 0.0, 1.0]])
    assert _stones_beyond(image, far_off, 9) == (0, 0)
    # A window whose surroundings reach the image's top edge still counts them.
    near_corner = np.array([[20.0, 0.0, 80.0], [0.0, 20.0, 60.0], [0.0, 0.0, 1.0]])
    assert _stones_beyond(image, near_corner, 9) == (-1, 0)


def test_canonical_order_starts_near_the_top_left_and_never_mirrors() -> None:
    grid = grid_from_corners(
        [[100, 100], [500, 120], [480, 500], [90, 480]], size=9, image_shape=(600, 600)
    ).intersections
    for turned in (np.rot90(grid, 1), np.rot90(grid, 2), np.swapaxes(grid, 0, 1)):
        np.testing.assert_allclose(_canonical_order(turned), grid)


def test_zero_lift_keeps_the_homography_and_a_lift_moves_toward_the_camera() -> None:
    grid = grid_from_corners(
        [[200, 100], [600, 100], [750, 550], [50, 550]], size=19, image_shape=(600, 800)
    )
    assert lift_homography(grid.homography, (600, 800), 0.0) is grid.homography
    lifted = lift_homography(grid.homography, (600, 800), 0.5)
    centre = np.array([9.0, 9.0])
    moved = apply_homography(lifted, centre) - apply_homography(grid.homography, centre)
    # The camera looks from the near (bottom) side: raised points appear higher.
    assert moved[1] < -1.0


DRAWN_VIEWS = pytest.mark.parametrize(
    "corners",
    [
        [(150, 100), (650, 100), (650, 560), (150, 560)],  # top-down
        [(230, 80), (590, 90), (760, 560), (50, 550)],  # strong tilt
        [(260, 60), (700, 200), (560, 580), (120, 440)],  # rotated
    ],
    ids=["top-down", "tilted", "rotated"],
)


def _worst_error_px(corners: list[tuple[int, int]]) -> float:
    image, truth = draw_board(EMPTY_19, corners=corners, rng=np.random.default_rng(5))
    detection = detect_board(image, size=19)
    assert detection, detection.reason
    assert detection.confidence > 0.8
    error = np.linalg.norm(detection.intersections - truth, axis=-1)
    return float(error.max())


@DRAWN_VIEWS
def test_detect_board_is_sub_pixel_on_a_drawn_grid(corners: list[tuple[int, int]]) -> None:
    assert _worst_error_px(corners) < 1.0


def test_given_corners_skip_the_search() -> None:
    corners = [(150, 100), (650, 100), (650, 560), (150, 560)]
    image, truth = draw_board(EMPTY_19, corners=corners, rng=np.random.default_rng(2))
    detection = detect_board(image, size=19, corners=np.array(corners, dtype=float))
    np.testing.assert_allclose(detection.intersections, truth, atol=1e-6)


def test_a_small_board_among_floor_lines_is_found_on_its_region() -> None:
    # A 19×19 board 220 pixels wide in a 1600×1200 photo, a floor's dark joints
    # all across it: on the whole photo the joints outvote the grid.
    x0, y0, side = 1000, 700, 220
    corners = [
        (x0, y0),
        (x0 + side, y0 + 20),
        (x0 + side - 10, y0 + side + 10),
        (x0 - 15, y0 + side),
    ]
    image, truth = draw_board(
        EMPTY_19, corners=corners, image_size=(1600, 1200), rng=np.random.default_rng(1)
    )
    for k in range(0, 1600, 200):
        cv2.line(image, (k, 0), (k + 300, 1199), (40, 30, 30), 6)
    for k in range(0, 1200, 200):
        cv2.line(image, (0, k), (1599, k + 100), (40, 30, 30), 6)
    detection = detect_board(image, size=19)
    assert detection, detection.reason
    assert np.abs(detection.intersections - truth).max() < 1.5


def test_a_crops_line_filter_widens_as_much_as_its_lines_are_magnified() -> None:
    # Photo and crop are both scaled to the working size: a crop a third of the
    # photo's longer side magnifies its lines three times more than the photo.
    assert _magnified_width((1200, 1600), (600, 400, 1133, 800), LINE_WIDTH) == 21
    assert _magnified_width((1200, 1600), (0, 0, 1600, 1200), LINE_WIDTH) == LINE_WIDTH


def test_a_small_blurred_board_on_a_tiled_floor_is_found_with_the_filter_widened() -> None:
    # Dev 1357 #192: a 9×9 board a third of a 640-pixel photo wide, out of focus
    # by 1.8 pixels, on floor tiles. Scaled up with its region, its lines are
    # wider than the line filter; the loose stones' lattice misplaced it.
    photo = render_photo(seed=photo_seed(1357, 192), difficulty="hard")
    assert photo.board is not None and photo.corners is not None
    gray = cv2.cvtColor(photo.image, cv2.COLOR_BGR2GRAY)
    assert not _line_searches(gray, size=9, rng=np.random.default_rng(0))
    found = detect_board(photo.image, size=9)
    assert found.details["widened"] > LINE_WIDTH
    cell = np.linalg.norm(photo.corners[1] - photo.corners[0]) / 8
    assert np.linalg.norm(found.corners - photo.corners, axis=1).max() < 0.2 * cell
    assert list(read_stones(photo.image, found.grid).board) == list(photo.board)


def test_a_board_glare_half_hides_is_found_on_a_wider_crop() -> None:
    # Dev 2468 #33: a 13×13 board on a tiled floor, glare washing out its left
    # half. Its crossings are densest on the right half, and the region the
    # line searches crop to leaves the board's upper corners out.
    photo = render_photo(seed=photo_seed(2468, 33), difficulty="hard")
    assert photo.board is not None and photo.corners is not None
    gray = cv2.cvtColor(photo.image, cv2.COLOR_BGR2GRAY)
    region = _region_crop(gray)
    assert region is not None
    top = region[1]
    assert photo.corners[:, 1].min() < top  # the board reaches above the crop
    found = detect_board(photo.image, size=13)
    assert found.details["wide"] == 1.0  # no board was found before
    cell = np.linalg.norm(photo.corners[1] - photo.corners[0]) / 12
    assert np.linalg.norm(found.corners - photo.corners, axis=1).max() < 0.2 * cell
    # The glare still costs points, and the reading says it is unsure.
    board = read_stones(photo.image, found.grid).board
    pairs = zip(board, photo.board, strict=True)
    wrong = sum(a != b for row, truth in pairs for a, b in zip(row, truth, strict=True))
    assert wrong <= 9
    assert found.confidence < 0.1


def _line_mask(*, rows: bool = True, columns: bool = True) -> npt.NDArray[np.float32]:
    """A 300×300 line mask: lines 3 pixels wide every 20 pixels from 40 to 240."""
    mask = np.zeros((300, 300), dtype=np.float32)
    for k in range(11):
        at = 40 + 20 * k
        if rows:
            mask[at - 1 : at + 2, 40:241] = 1.0
        if columns:
            mask[40:241, at - 1 : at + 2] = 1.0
    return mask


def test_crossing_evidence_is_where_the_lines_cross_and_nowhere_else() -> None:
    on_lines = np.array([[20.0, 0, 40], [0, 20.0, 40], [0, 0, 1]])  # lattice (u, v) -> pixels
    lattice = np.arange(0, 11, dtype=np.float64)
    evidence = _crossing_evidence(_line_mask(), on_lines, lattice, lattice)
    assert evidence.shape == (11, 11)
    assert np.all(evidence[1:-1, 1:-1] == 1.0)  # every arm on a line, both sides off it
    assert np.all(evidence[0, 1:-1] == 1.0)  # on the edge, the arms that point inward
    half_off = _crossing_evidence(_line_mask(), on_lines, lattice + 0.5, lattice + 0.5)
    assert np.all(half_off == 0.0)
    outside = _crossing_evidence(_line_mask(), on_lines, lattice + 20, lattice)
    assert np.all(outside == 0.0)  # past the image's right edge


def test_crossing_evidence_counts_lines_seen_one_way_half_and_both_ways_not_at_all() -> None:
    on_lines = np.array([[20.0, 0, 40], [0, 20.0, 40], [0, 0, 1]])
    inner = np.arange(1, 10, dtype=np.float64)
    rows_only = _line_mask(columns=False)
    assert np.all(_crossing_evidence(rows_only, on_lines, inner, inner) == 0.5)
    assert np.all(_crossing_evidence(rows_only, on_lines, inner, inner, both=True) == 0.0)


def test_crossing_evidence_of_a_lattice_reaching_far_off_the_image_is_the_same_on_it() -> None:
    # A lattice padded by N cells either side lies mostly off the image: only
    # the points whose samples may fall on it are sampled, the rest are 0.
    on_lines = np.array([[20.0, 0, 40], [0, 20.0, 40], [0, 0, 1]])
    lattice = np.arange(0, 11, dtype=np.float64)
    padded = np.arange(-30, 41, dtype=np.float64)
    near = _crossing_evidence(_line_mask(), on_lines, lattice, lattice)
    far = _crossing_evidence(_line_mask(), on_lines, padded, padded)
    assert np.array_equal(far[30:41, 30:41], near)
    assert far.sum() == near.sum()
    # In perspective, with points behind the camera (w <= 0): still sampled as before.
    tilted = on_lines + np.array([[0, 0, 0], [0, 0, 0], [0.045, 0.0, 0]])
    assert np.any(tilted[2, 0] * padded + tilted[2, 2] <= 0)
    by_point = np.array(
        [[_crossing_evidence(_line_mask(), tilted, [u], [v])[0, 0] for u in padded] for v in padded]
    )
    assert np.array_equal(_crossing_evidence(_line_mask(), tilted, padded, padded), by_point)


@pytest.mark.parametrize("arms", ["across", "along"])
def test_one_directions_count_bounds_the_count_both_ways(arms: str) -> None:
    # What lets other spacings be tried on half the samples first.
    rng = np.random.default_rng(5)
    mask = np.maximum(_line_mask(rows=False), (rng.random((300, 300)) > 0.9).astype(np.float32))
    lattice = np.arange(-5, 25, dtype=np.float64)
    for spacing in (10.0, 20.0, 40.0, 60.0):
        to_image = np.array([[spacing, 1.0, 40], [-0.5, 20.0, 40], [1e-4, 2e-4, 1]])
        one_way = _crossing_evidence(mask, to_image, lattice, lattice, arms=arms)
        both = _crossing_evidence(mask, to_image, lattice, lattice, both=True)
        assert np.all(one_way >= both) and np.any(one_way > both)
    rows_only = _line_mask(columns=False)
    on_lines = np.array([[20.0, 0, 40], [0, 20.0, 40], [0, 0, 1]])
    inner = np.arange(1, 10, dtype=np.float64)
    expected = 1.0 if arms == "across" else 0.0  # rows are seen from the left and right arms
    assert np.all(_crossing_evidence(rows_only, on_lines, inner, inner, arms=arms) == expected)


@pytest.mark.parametrize(("fraction", "rounds"), [(0.5, 1), (1 / 3, 1), (0.25, 2)])
def test_a_lattice_at_a_fraction_of_the_spacing_is_moved_to_the_boards(
    fraction: float, rounds: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Rows faint (a shadow, a blur): the crossings read unsure, so other spacings are tried.
    mask = np.maximum(_line_mask(rows=False), 0.4 * _line_mask(columns=False))
    lines = 40.0 + 20.0 * np.arange(11)
    columns, too_fine = Lattice1D(40.0, 20.0), Lattice1D(40.0, 20.0 * fraction)
    seen = _seen_span([lines, lines])
    placed = _place_window(mask, np.eye(3), (columns, too_fine), seen, 11)
    assert placed is not None
    (_, rows), (to_work, us, vs, _, (r0, c0)) = _at_board_spacing(
        mask, np.eye(3), ((columns, too_fine), placed), seen, 11
    )
    assert rows.spacing == 20.0
    first = apply_homography(to_work, np.array([[us[c0], vs[r0]]]))
    assert np.allclose(first, [[40.0, 40.0]])  # the window starts on the first lines
    if rounds > 1:  # a quarter of the spacing is only halfway after one round
        monkeypatch.setattr("vision.grid.MULTIPLE_ROUNDS", 1)
        (_, rows), _ = _at_board_spacing(mask, np.eye(3), ((columns, too_fine), placed), seen, 11)
        assert rows.spacing == 10.0
