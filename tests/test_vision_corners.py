"""The learned corner network: its views, its peaks, its training data and what it sees.

The shipped network was trained on synthetic photos of seed 1000 only; here it
looks at photos of seed 1002, which it never saw.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import cv2
import numpy as np
import pytest

import vision.detect
from datasets import corner_samples
from datasets.corner_samples import BOARD_VIEWS, photo_samples, refiner_samples
from datasets.synth import photo_seed, render_photo
from server.bench.vision import aligned_board
from server.cli import main
from server.commands.detect import GUESSED
from tests.vision_synthetic import TABLE, WOOD, draw_board
from vision import detect_board, read_stones
from vision.centring import centre_on_stones, certainty
from vision.corners import (
    INPUT,
    MIN_HEAT,
    MODEL_PATH,
    PATCH,
    STRIDE,
    CornerGuess,
    board_view,
    cells_to_patch,
    corner_frames,
    corner_guesses,
    corner_patches,
    corner_spread,
    find_corners,
    heat_map,
    heat_peaks,
    patch_cells,
    refine_corners,
    whole_view,
)
from vision.detect import (
    AGREED_CELLS,
    AGREED_HEAT,
    ALTERNATE_LINES,
    DISPUTED_BELOW,
    DISPUTED_UNLINED,
    DOUBTED_CONFIDENCE,
    ELSEWHERE_CELLS,
    FAINT_CONFIDENCE,
    GUESSED_CONFIDENCE,
    GUESSED_HEAT,
    GUESSES_AGREE,
    KEPT_CELLS,
    LEARNED_CONFIDENCE,
    LEARNED_HEAT,
    LINES_CLEARER,
    LINES_GO_ON,
    LINES_GO_ON_SIDES,
    LONE_LINES,
    POLISHED_BELOW,
    POLISHED_CELLS,
    POLISHED_CORNER_CELLS,
    POLISHED_SPREAD,
    POLISHED_SURER,
    SHIFTED_CELLS,
    SHIFTED_SPREAD,
    UNSURE_READING,
    WELL_LINED,
)
from vision.errors import VisionError
from vision.grid import (
    SURE_EVIDENCE,
    find_grid,
    grid_from_corners,
    lines_alternate,
    lines_beyond,
    lone_lines,
)
from vision.outline import weaker_lines

#: The refined corners' median error on the test photos stays under this many
#: cells (measured 0.04, against the network's 0.27).
REFINED_MEDIAN = 0.1


def test_a_whole_view_fits_the_longer_side_and_maps_back() -> None:
    image = np.full((720, 1280, 3), 90, dtype=np.uint8)
    view = whole_view(image)
    assert view.pixels.shape == (INPUT, INPUT, 3)
    assert view.scale == pytest.approx(INPUT / 1280)
    assert view.origin == (0.0, -280.0)
    # Above and below the photo the view is black; the photo is grey.
    assert view.pixels[0, 0].tolist() == [0, 0, 0]
    assert view.pixels[INPUT // 2, INPUT // 2].tolist() == [90, 90, 90]
    points = np.array([[0.0, 0.0], [1279.0, 719.0], [640.0, 360.0]])
    np.testing.assert_allclose(view.to_photo(view.to_view(points)), points)


def test_a_board_view_frames_the_corners_with_room_around() -> None:
    image = np.zeros((600, 800, 3), dtype=np.uint8)
    corners = np.array([[300.0, 200.0], [500.0, 210.0], [490.0, 400.0], [310.0, 390.0]])
    view = board_view(image, corners, growth=1.25)
    inside = view.to_view(corners)
    assert inside.min() > 0.09 * INPUT
    assert inside.max() < 0.91 * INPUT
    np.testing.assert_allclose(view.to_photo(inside), corners, atol=1e-9)


def test_peaks_are_the_heat_maxima_plus_their_offsets_strongest_first() -> None:
    cells = INPUT // STRIDE
    heat = np.zeros((cells, cells), dtype=np.float32)
    offsets = np.zeros((2, cells, cells), dtype=np.float32)
    truth = {(5, 7): 0.9, (40, 8): 0.6, (41, 39): 0.8, (6, 38): 0.7}
    for (row, col), value in truth.items():
        heat[row - 1 : row + 2, col - 1 : col + 2] = value / 2
        heat[row, col] = value
        offsets[:, row, col] = (0.25, 0.75)
    heat[20, 20] = MIN_HEAT / 2  # a weak bump is no corner
    points, heats = heat_peaks(heat, offsets)
    assert heats.tolist() == pytest.approx([0.9, 0.8, 0.7, 0.6])
    assert points[0].tolist() == [(7 + 0.25) * STRIDE, (5 + 0.75) * STRIDE]
    assert points[3].tolist() == [(8 + 0.25) * STRIDE, (40 + 0.75) * STRIDE]


def test_training_views_carry_the_true_corners() -> None:
    photo = render_photo(seed=photo_seed(1002, 0), difficulty="hard", show_board=True)
    assert photo.corners is not None
    samples = photo_samples(photo.image, photo.corners, np.random.default_rng(0))
    assert len(samples) == 1 + BOARD_VIEWS
    whole = whole_view(photo.image)
    np.testing.assert_allclose(whole.to_photo(samples[0].corners), photo.corners, atol=1e-3)
    assert np.array_equal(samples[0].pixels, whole.pixels)
    for sample in samples[1:]:
        assert sample.pixels.shape == (INPUT, INPUT, 3)
        assert np.all((sample.corners > 0) & (sample.corners < INPUT))


def test_a_photo_with_no_board_gives_views_with_no_corners() -> None:
    photo = render_photo(seed=photo_seed(1002, 1), difficulty="hard", show_board=False)
    samples = photo_samples(photo.image, None, np.random.default_rng(0))
    assert len(samples) == 2
    assert all(np.isnan(sample.corners).all() for sample in samples)


def test_the_network_finds_the_corners_of_boards_it_never_saw() -> None:
    """Hard photos: the farthest of the four corners, in cells (dev median 0.11).

    Round 49's network (7,000 photos, 50 passes): here a median 0.19, all
    within half a cell; the first (3,800 photos, 15 passes) 0.30, 75 %.
    """
    errors = []
    for index in range(16):
        photo = render_photo(seed=photo_seed(1002, index), difficulty="hard", show_board=True)
        assert photo.corners is not None
        guess = find_corners(photo.image)
        if guess is None:
            errors.append(np.inf)
            continue
        # The corners come clockwise from the one nearest the photo's top-left,
        # as the truth's do; a board seen near 45 degrees has two such corners,
        # so the physical corners are compared.
        size = len(photo.truth["board"])
        cell = np.linalg.norm(photo.corners[1] - photo.corners[0]) / (size - 1)
        off = min(
            np.linalg.norm(np.roll(guess.corners, turn, axis=0) - photo.corners, axis=1).max()
            for turn in range(4)
        )
        errors.append(off / cell)
    assert np.median(errors) < 0.25
    assert np.mean(np.array(errors) < 0.5) >= 0.9


def farthest_corner_cells(found: np.ndarray, truth: np.ndarray, size: int) -> float:
    """The farthest of four corners from the truth's, in cells, in the best of four turns."""
    cell = np.linalg.norm(truth[1] - truth[0]) / (size - 1)
    return float(
        min(np.linalg.norm(np.roll(found, turn, axis=0) - truth, axis=1).max() for turn in range(4))
        / cell
    )


def test_a_corner_patch_is_cut_in_the_grid_frame_with_the_board_to_its_lower_right() -> None:
    corners = np.array([[100.0, 100.0], [460.0, 100.0], [460.0, 460.0], [100.0, 460.0]])
    frames = corner_frames(corners, 19)  # cells of 20 pixels
    centre = cells_to_patch([0.0, 0.0])
    inward = cells_to_patch([1.0, 1.0])
    for corner, frame in zip(corners, frames, strict=True):
        on_photo = cv2.perspectiveTransform(np.array([[centre, inward]]), frame)[0]
        np.testing.assert_allclose(on_photo[0], corner, atol=1e-6)
        # A cell right and down in the patch is a cell into the board both ways.
        into = corner + 20.0 * np.sign(corners.mean(axis=0) - corner)
        np.testing.assert_allclose(on_photo[1], into, atol=1e-6)
    np.testing.assert_allclose(patch_cells(cells_to_patch([0.3, -1.2])), [0.3, -1.2])


def test_a_corner_patch_shows_the_board_corner_in_its_middle() -> None:
    corners = [(200.0, 120.0), (560.0, 100.0), (600.0, 520.0), (180.0, 480.0)]
    image, _ = draw_board(["." * 19] * 19, corners=corners, rng=np.random.default_rng(6))
    patches, _ = corner_patches(image, corners, 19)
    assert patches.shape == (4, PATCH, PATCH, 3)

    def at(patch: np.ndarray, a: float, b: float) -> np.ndarray:
        x, y = np.round(cells_to_patch([a, b])).astype(int)
        return patch[y, x].astype(float)

    for patch in patches:
        # Every corner in one frame: table two cells out, wood a cell and a half
        # in (between the lines), and the outer lines crossing in the middle.
        np.testing.assert_allclose(at(patch, -2.0, -2.0), TABLE, atol=12)
        np.testing.assert_allclose(at(patch, 1.5, 1.5), WOOD, atol=25)
        assert at(patch, 0.0, 0.0).mean() < np.mean(WOOD) - 20


def test_the_refiner_samples_point_at_the_true_corner(monkeypatch: pytest.MonkeyPatch) -> None:
    photo = render_photo(seed=photo_seed(1002, 0), difficulty="hard", show_board=True)
    assert photo.corners is not None
    size = len(photo.truth["board"])
    monkeypatch.setattr(corner_samples, "ROUGH_CELLS", 0.0)
    patches, cells = refiner_samples(photo.image, photo.corners, size, np.random.default_rng(0))
    assert patches.shape == (12, PATCH, PATCH, 3)
    np.testing.assert_allclose(cells, 0.0, atol=1e-4)  # cut on the true corners
    monkeypatch.undo()
    _, cells = refiner_samples(photo.image, photo.corners, size, np.random.default_rng(0))
    # Moved by up to ROUGH_MOST of the corner's cells, measured in the rough grid's.
    assert 0.1 < np.median(np.linalg.norm(cells, axis=1)) < 1.0
    assert np.linalg.norm(cells, axis=1).max() < 2.0


def test_the_refiner_places_the_corners_closer_than_the_network() -> None:
    """Hard photos it never saw: the farthest of the four corners, in cells."""
    rough, refined = [], []
    for index in range(16):
        photo = render_photo(seed=photo_seed(1002, index), difficulty="hard", show_board=True)
        assert photo.corners is not None
        guess = find_corners(photo.image)
        if guess is None:
            continue
        size = len(photo.truth["board"])
        rough.append(farthest_corner_cells(guess.corners, photo.corners, size))
        again = refine_corners(photo.image, guess.corners, size)
        refined.append(farthest_corner_cells(again, photo.corners, size))
    assert len(refined) >= 12
    assert np.median(refined) < np.median(rough)
    assert np.median(refined) < REFINED_MEDIAN
    # Every board placed within half a cell (the network alone: 12 of 15).
    assert max(refined) < 0.5


def test_the_refiner_is_sure_where_it_places_a_corner_right() -> None:
    for index in (0, 1, 2, 4, 5):
        photo = render_photo(seed=photo_seed(1002, index), difficulty="hard", show_board=True)
        assert photo.board is not None and photo.corners is not None
        size = len(photo.board)
        guess = find_corners(photo.image)
        assert guess is not None
        refined = refine_corners(photo.image, guess.corners, size)
        cell = np.linalg.norm(photo.corners[1] - photo.corners[0]) / (size - 1)
        off = [np.linalg.norm(photo.corners - corner, axis=1).min() / cell for corner in refined]
        assert max(off) < 0.25
        assert corner_spread(photo.image, refined, size).max() < 0.1


def test_the_refiner_is_unsure_where_there_is_no_corner_to_see() -> None:
    # Never sure of a corner there (0.1 of a cell, as its training counts
    # sure), and far from sure of all four. The refiner retrained in round 48
    # answers 0.135 at one corner of this table, where the first answered over
    # 0.2; on 744 random squares on the 248 no-board dev photos it is sure of
    # 0.37 % of corners (the first 0.47 %), and its largest spread is 0.204 or more.
    table = render_photo(seed=photo_seed(1002, 1), difficulty="hard", show_board=False).image
    square = np.array([[300, 200], [900, 220], [880, 800], [320, 780]], dtype=np.float64)
    for image in (table, np.full_like(table, 128)):
        spread = corner_spread(image, square, 19)
        assert spread.min() > 0.1
        assert spread.max() > 2 * SHIFTED_SPREAD


def test_the_network_sees_little_heat_on_a_bare_table() -> None:
    heats = []
    for index in range(40):
        photo = render_photo(seed=photo_seed(1002, index), difficulty="hard", show_board=False)
        heat, _ = heat_map(whole_view(photo.image))
        heats.append(float(heat.max()))
    # Round 49's network: median 0.02, at most 0.25 (the first's 0.09 and 0.52).
    assert np.median(heats) < 0.05
    assert max(heats) < LEARNED_HEAT


def points_wrong(board: tuple[str, ...], truth: tuple[str, ...]) -> int:
    pairs = zip(board, truth, strict=True)
    return sum(a != b for row, right in pairs for a, b in zip(row, right, strict=True))


@pytest.mark.parametrize(
    ("run", "index", "size", "confidence", "wrong"),
    [
        # 19×19, cells of 15 pixels, missed by every other search. Its grid
        # reads as a board by the last resorts' floors. (On an AVX2-only
        # machine, round 51, the touching stones' lattice places it first,
        # 0.12 of a cell off, every point right.)
        (2222, 176, 19, FAINT_CONFIDENCE, 0),
        # 9×9 on floor tiles, missed by every other search: its stones stand
        # out by 0.029, under the floors' 0.04, but the network is sure (heat 0.63).
        (2222, 18, 9, LEARNED_CONFIDENCE, 0),
        # Missed until the refiner: the network's corners lay 0.85 and 0.29 of
        # a cell off, and centring moved the 9×9's to 1.6. Refined, 0.13 and 0.06.
        (333, 72, 9, FAINT_CONFIDENCE, 0),
        # A dark 19×19 seen low across, its stones standing out by 0.003 on
        # its true grid: the refiner retrained in round 48 places its corners
        # where the stones read sure enough (-0.015) for the floors.
        (1357, 234, 19, FAINT_CONFIDENCE, 0),
    ],
)
def test_a_board_no_search_placed_is_read_on_the_learned_corners(
    run: int, index: int, size: int, confidence: float, wrong: int
) -> None:
    photo = render_photo(seed=photo_seed(run, index), difficulty="hard")
    assert photo.board is not None and photo.corners is not None
    found = detect_board(photo.image, size=size)
    assert found
    if "by_stones" not in found.details:  # an earlier search, on some CPUs (above)
        assert "learned" in found.details
        assert 0.0 < found.confidence <= confidence
    cell = np.linalg.norm(photo.corners[1] - photo.corners[0]) / (size - 1)
    assert np.linalg.norm(found.corners - photo.corners, axis=1).max() < 0.5 * cell
    assert points_wrong(read_stones(photo.image, found.grid).board, photo.board) <= wrong


@pytest.mark.parametrize(
    ("run", "index", "size", "confidence", "wrong", "whose"),
    [
        # 19×19, placed by the board's outline 2.8 cells off (confidence 0.42):
        # the network's grid reads surer than the placement (certainty -0.012
        # against -0.038); the placement's own corners, refined, won in round
        # 48; the network of round 49's corners, refined, read surer still
        # (-0.003), every point right.
        (333, 197, 19, FAINT_CONFIDENCE, 0, "refined"),
        # 9×9 on printed paper, placed twelve cells off, on the floor's tiles:
        # since round 49 the network's own corners read surest.
        (1111, 242, 9, FAINT_CONFIDENCE, 0, "network"),
        # A printed 19×19 with cells of 7 pixels, placed a cell and a half off
        # with its stones reading -0.132, under the floors. Both learned grids
        # win: the network's own, laid on the board, reads -0.067 (19 points
        # wrong) and the refined one -0.072 (22 wrong); the surer is taken. Under
        # the floors too, but far surer, and its stones stand out; at confidence
        # 0, as the placement was. (Round 49's network: 8 points wrong.)
        (2222, 260, 19, 0.0, 19, "network"),
        # Placed by the lines 11.7 cells off at 0.51; the first network's own
        # corners lay a cell off, the refined ones 0.07; round 49's own corners
        # read surest, 0.08 of a cell off.
        (1111, 209, 19, FAINT_CONFIDENCE, 0, "network"),
        # The first network saw these two less surely (heat 0.28 and 0.34),
        # but refined, their grids lay within a fifth of a cell and read far
        # surer than placements 3 and 6 cells off. With round 49's network,
        # on the 9×9 the placement's own corners, refined, read surest (0.14
        # of a cell off), on the 13×13 the network's own (heat 0.76).
        (3333, 237, 9, FAINT_CONFIDENCE, 0, "own"),
        (777, 56, 13, FAINT_CONFIDENCE, 0, "network"),
        # Cells of 9 pixels on printed paper, placed 1.3 cells off under the
        # floors. The first network's refined corners lay half a cell off and
        # did not win, its own, laid on the board, did (20 points wrong); round
        # 49's refined corners win, 0.29 of a cell off, 1 point wrong (6 with
        # round 51's stone net: white stones read empty, five of them washed
        # out by glare, guesses at 0.2).
        (3333, 151, 19, 0.0, 6, "refined"),
        # A 9×9, its window a column off (0.54): the network sees no corners, but
        # the refiner, looking again at the placement's own, moves them 1.1
        # cells, to 0.1 of a cell from the truth, and their grid reads far
        # surer (-0.0005 against -0.023).
        (555, 268, 9, FAINT_CONFIDENCE, 0, "own"),
    ],
)
def test_an_unsure_placement_the_learned_corners_dispute_gives_way_to_theirs(
    run: int, index: int, size: int, confidence: float, wrong: int, whose: str
) -> None:
    photo = render_photo(seed=photo_seed(run, index), difficulty="hard")
    assert photo.board is not None and photo.corners is not None
    found = detect_board(photo.image, size=size)
    assert found and found.details.get("disputed")
    # Whose corners won: the network's refined, its own, or the placement's refined.
    assert ("refined" in found.details) == (whose != "network")
    assert ("own" in found.details) == (whose == "own")
    assert ("learned" in found.details) == (whose != "own")
    assert found.confidence == confidence
    cell = np.linalg.norm(photo.corners[1] - photo.corners[0]) / (size - 1)
    assert np.linalg.norm(found.corners - photo.corners, axis=1).max() < 0.5 * cell
    assert points_wrong(read_stones(photo.image, found.grid).board, photo.board) <= wrong


def test_a_placement_sure_after_its_checks_gives_way_where_two_looks_see_the_board_elsewhere(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Fresh 8282 #101: a light 19×19 with 27 stones, all on its first line.
    # The lines' window runs at half the spacing across, over half the board,
    # and its stones (read twice each, or not at all) read near certain: 0.92.
    # The refiner moves its own corners 2 cells on average and the network
    # sees the board's corners at 0.93, 11 cells away; on the network's
    # corners, as refined, the stones read as sure (-0.0016 against -0.0041),
    # which is enough where two looks see the board elsewhere.
    photo = render_photo(seed=photo_seed(8282, 101), difficulty="hard")
    assert photo.board is not None and photo.corners is not None
    found = detect_board(photo.image, size=19)
    assert found.details.get("disputed") and found.details.get("refined")
    assert found.details["learned"] >= AGREED_HEAT
    assert found.confidence == FAINT_CONFIDENCE
    cell = np.linalg.norm(photo.corners[1] - photo.corners[0]) / 18
    assert np.linalg.norm(found.corners - photo.corners, axis=1).max() < 0.5 * cell
    assert points_wrong(read_stones(photo.image, found.grid).board, photo.board) == 0
    # Unasked, the placement stands, sure and 8 cells off.
    monkeypatch.setattr(vision.detect, "_sure_unless_elsewhere", lambda colour, found: found)
    unasked = detect_board(photo.image, size=19)
    assert unasked.confidence >= DISPUTED_BELOW
    assert np.linalg.norm(unasked.corners - photo.corners, axis=1).max() > 5 * cell


def test_an_unsure_placement_the_refiner_moves_two_corners_under_half_a_cell_is_polished() -> None:
    # Dev 555 #139, placed right at 0.59 but 0.45 of a cell off at two corners
    # until round 53: the network's corners lie within
    # DISPUTED_CELLS of the placement's, so they do not dispute it; the refiner
    # moves those two corners 0.44 and 0.43 of a cell, the others hardly, under
    # SHIFTED_CELLS on average, so it is neither shifted nor doubted, but very
    # sure of them (spread 0.03 at most), and the grid there reads as sure.
    photo = render_photo(seed=photo_seed(555, 139), difficulty="hard")
    assert photo.board is not None and photo.corners is not None
    found = detect_board(photo.image, size=19)
    assert found and not {"disputed", "shifted", "doubted", "polished"} & found.details.keys()
    assert POLISHED_CORNER_CELLS <= found.details["polished_corner"] <= 0.5
    assert found.confidence == pytest.approx(0.59, abs=0.005)
    cell = np.linalg.norm(np.roll(photo.corners, -1, axis=0) - photo.corners, axis=1).mean() / 18
    assert np.linalg.norm(found.corners - photo.corners, axis=1).max() < 0.2 * cell
    assert points_wrong(read_stones(photo.image, found.grid).board, photo.board) == 0


def test_a_corner_polish_on_which_the_stones_read_much_less_sure_is_not_laid(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Fresh 99991 #72 (round 61): a tilted 19×19 with cells of 34 pixels, placed
    # right at 0.71 and read near certain. The refiner, very sure of it, moves
    # the corner under the big stones nearest the camera 0.59 of a cell, and
    # the stones read 0.017 less sure there; the placements the polish mends
    # read at most 0.005 less sure.
    photo = render_photo(seed=photo_seed(99991, 72), difficulty="hard")
    assert photo.board is not None and photo.corners is not None
    found = detect_board(photo.image, size=19)
    assert found and "polished_corner" not in found.details
    assert found.confidence == pytest.approx(0.71, abs=0.005)
    cell = np.linalg.norm(np.roll(photo.corners, -1, axis=0) - photo.corners, axis=1).min() / 18
    assert np.linalg.norm(found.corners - photo.corners, axis=1).max() < 0.2 * cell
    # Allowed round 53's 0.02 less sure, the polish lays it a corner half a cell
    # off: a wrong board reported at 0.71.
    monkeypatch.setattr(vision.detect, "POLISHED_CORNER_UNSURER", 0.02)
    polished = detect_board(photo.image, size=19)
    assert polished.details["polished_corner"] >= POLISHED_CORNER_CELLS
    assert polished.confidence == pytest.approx(0.71, abs=0.005)
    assert np.linalg.norm(polished.corners - photo.corners, axis=1).max() >= 0.5 * cell


def test_a_corner_polish_on_a_board_that_reads_unsure_anyway_may_read_less_sure(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Fresh 86420 #145 (round 61's held-out seed): a blurred 19×19 seen low,
    # cells of 10 pixels, placed by its outline at 0.5 with a corner 0.70 of a
    # cell off. The refiner, very sure of it, moves that corner onto the truth,
    # where the stones read -0.032 against -0.022: 0.011 less sure, over the
    # 0.01 allowed alone, but 1.5 times as unsure (a right board the polish
    # would break reads 11 times as unsure or more).
    photo = render_photo(seed=photo_seed(86420, 145), difficulty="hard")
    assert photo.board is not None and photo.corners is not None
    found = detect_board(photo.image, size=19)
    assert found.details["polished_corner"] >= POLISHED_CORNER_CELLS
    assert found.confidence == pytest.approx(0.5)
    assert farthest_corner_cells(found.corners, photo.corners, 19) < 0.2
    monkeypatch.setattr(vision.detect, "POLISHED_CORNER_TIMES", 1.0)
    unpolished = detect_board(photo.image, size=19)
    assert "polished_corner" not in unpolished.details
    assert farthest_corner_cells(unpolished.corners, photo.corners, 19) > 0.5


def test_a_corner_the_refiner_is_unsure_of_beside_three_it_is_sure_of_is_sought_on_the_lines(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Fresh 58585 #190 (round 65): a far printed 19×19 (cells of 9 pixels),
    # over-exposed on a white table. Its lines placed it at 0 with one corner
    # 0.67 of a cell off. The refiner is very sure of the other three and puts
    # that one half a cell off, unsure; the stones read surer on the placement
    # than on the true grid. Sought on the lines, the corner lies 0.18 off.
    photo = render_photo(seed=photo_seed(58585, 190), difficulty="hard")
    assert photo.board is not None and photo.corners is not None
    found = detect_board(photo.image, size=19)
    assert found.details["polished_completed"] >= POLISHED_CORNER_CELLS
    assert farthest_corner_cells(found.corners, photo.corners, 19) < 0.25
    monkeypatch.setattr(vision.detect, "_completed_polished", lambda *args: None)
    placed = detect_board(photo.image, size=19)
    assert placed.confidence < POLISHED_BELOW and "stones_lattice" not in placed.details
    assert farthest_corner_cells(placed.corners, photo.corners, 19) > 0.5
    refined = refine_corners(photo.image, placed.corners, 19)
    spreads = np.sort(corner_spread(photo.image, refined, 19))
    assert spreads[2] <= POLISHED_SPREAD < SHIFTED_SPREAD < spreads[3]


@pytest.mark.parametrize(
    ("run", "index", "misplaced", "confidence"),
    [
        # Placed right at 0.74, and the refiner, wrong here (its patch washed
        # out by glare), moves one corner 1.6 cells: the price of the doubt, a
        # right board reported unsure.
        (3333, 115, False, DOUBTED_CONFIDENCE),
    ],
)
def test_a_placement_whose_own_corners_the_refiner_moves_far_is_doubted(
    run: int, index: int, misplaced: bool, confidence: float
) -> None:
    photo = render_photo(seed=photo_seed(run, index), difficulty="hard")
    assert photo.board is not None and photo.corners is not None
    found = detect_board(photo.image, size=19)
    assert found and found.details.get("doubted") and "disputed" not in found.details
    assert found.confidence == confidence
    cell = np.linalg.norm(photo.corners[1] - photo.corners[0]) / 18
    off = np.linalg.norm(found.corners - photo.corners, axis=1).max() / cell
    assert (off >= 0.5) == misplaced


@pytest.mark.parametrize(
    ("run", "index", "size"),
    [
        # Placed 3 cells off, at 0: the refiner moves all four corners, unsure
        # where it puts them (spread up to 0.25), and its grid is no surer.
        (3333, 121, 19),
        # No board: a bowl of black stones on wood, under a sliver of a grid the
        # widened region's lines placed (fresh seed 14142, benched before it
        # was looked at, where it was the one no-board photo taken).
        (14142, 189, 19),
    ],
)
def test_a_doubted_placement_whose_stones_read_as_a_guess_is_no_board(
    run: int, index: int, size: int
) -> None:
    photo = render_photo(seed=photo_seed(run, index), difficulty="hard")
    found = detect_board(photo.image, size=size)
    assert not found and found.grid is None
    assert "its stones read no surer than a guess (confidence 0.00)" in found.reason
    assert "the refiner sees its corners elsewhere" in found.reason
    # Without the refusal it would be reported doubted, at 0.
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(vision.detect, "DOUBTED_REFUSED", 0.0)
        doubted = detect_board(photo.image, size=size)
    assert doubted and doubted.details.get("doubted") and doubted.confidence == 0.0
    if photo.corners is not None:  # a board, but placed cells off
        cell = np.linalg.norm(photo.corners[1] - photo.corners[0]) / (size - 1)
        assert _farthest_corner(doubted.corners, photo.corners) > 0.5 * cell


def test_a_placement_refused_as_a_guess_leaves_the_network_to_place_the_board() -> None:
    # Fresh 24601 #61 (benched before it was looked at): a 13×13 with cells of
    # 9 pixels. The lines' grid lies 2.3 cells off and reads at 0, so it is no
    # board; until round 62 nothing else was tried. The network's corners, as
    # the refiner places them (sure of each, spread 0.06 of a cell at most),
    # lie within 0.2 of a cell of the truth.
    photo = render_photo(seed=photo_seed(24601, 61), difficulty="hard")
    assert photo.board is not None and photo.corners is not None
    found = detect_board(photo.image, size=13)
    assert found and found.details["refined"] and found.details["learned"] > 0.5
    assert "guessed" not in found.details and "disputed" not in found.details
    assert farthest_corner_cells(found.corners, photo.corners, 13) < 0.2
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(vision.detect, "_placed_on_corners", lambda *args, **kw: "not tried")
        refused = detect_board(photo.image, size=13)
    assert not refused and "its stones read no surer than a guess" in refused.reason


def test_a_doubted_placement_on_lines_that_go_on_past_its_sides_is_no_board() -> None:
    # Fresh seed 16180 #35 (benched before it was looked at: its one no-board
    # photo taken): a floor of square tiles and five loose stones. The lines
    # place an empty 19×19 on the joints, read sure (certainty -0.007) at 0.3,
    # and the refiner moves a corner more than a cell; but the joints one and
    # two cells past each side shown read 0.6 to 1.2 times as dark as the
    # grid's outer lines: a floor's tiles go on where a board's lines stop.
    photo = render_photo(seed=photo_seed(16180, 35), difficulty="hard")
    assert photo.board is None
    found = detect_board(photo.image, size=19)
    assert not found and "lines go on past each of its sides" in found.reason
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(vision.detect, "_lines_go_on", lambda *args: False)
        doubted = detect_board(photo.image, size=19)
    assert doubted and doubted.details.get("doubted")
    beyond = lines_beyond(photo.image, doubted.grid)
    shown = np.isfinite(beyond).all(axis=1)
    assert shown.sum() >= LINES_GO_ON_SIDES and np.all(beyond[shown] >= LINES_GO_ON)


def test_a_tiled_floor_whose_corners_neither_look_sees_is_no_board() -> None:
    # Fresh 8282 #237: a floor of square tiles with a loose stone, no board.
    # The lines place a 19×19 on the tiles at half their spacing, reading
    # as a nearly empty board; the refiner moves each of its corners more than
    # a cell (unsure of each) and the network sees no four corners.
    photo = render_photo(seed=photo_seed(8282, 237), difficulty="hard")
    assert photo.board is None
    found = detect_board(photo.image, size=19)
    assert not found
    assert "the refiner sees none of its corners" in found.reason
    assert "the corner network sees no board" in found.reason


@pytest.mark.parametrize(
    ("run", "index", "confidence", "wrong"),
    [
        # A 19×19 with cells of 7 pixels, its stones unsure (-0.035): read on
        # the learned corners' floors until the refiner of round 48, which is
        # sure of all four (spread 0.014) and lays them where one point reads
        # wrong (6 before); on round 49's network's corners, none (0.276).
        (777, 289, 0.276, 0),
        # A printed 19×19 out of focus, its stones unsure (-0.117): placed at 0.
        (777, 214, 0.0, 43),
    ],
)
def test_a_board_whose_corners_the_refiner_is_sure_of_is_placed_however_its_stones_read(
    run: int, index: int, confidence: float, wrong: int
) -> None:
    photo = render_photo(seed=photo_seed(run, index), difficulty="hard")
    assert photo.board is not None and photo.corners is not None
    found = detect_board(photo.image, size=19)
    assert found and "learned" in found.details and found.details["refined"]
    assert found.details["spread"] <= SHIFTED_SPREAD
    assert found.confidence == pytest.approx(confidence, abs=0.005)
    cell = np.linalg.norm(photo.corners[1] - photo.corners[0]) / 18
    assert np.linalg.norm(found.corners - photo.corners, axis=1).max() < 0.5 * cell
    assert points_wrong(read_stones(photo.image, found.grid).board, photo.board) <= wrong


def test_a_bare_line_grid_leaves_the_last_searches_to_run() -> None:
    # A nearly full pale 19×19 turned 45 degrees: on the lines' grid neither
    # stones nor lines stand out, and every other search fails. The search
    # stopped there; now the learned corners place it, the refiner sure of
    # each: the first refiner 0.51 of a cell off at one corner (confidence 0),
    # the one of round 48 within 0.11 of a cell, its stones reading surer.
    photo = render_photo(seed=photo_seed(3333, 93), difficulty="hard")
    assert photo.corners is not None
    assert find_grid(photo.image, size=19)  # the lines' grid, bare
    found = detect_board(photo.image, size=19)
    assert found and "learned" in found.details
    assert found.details["spread"] <= SHIFTED_SPREAD
    assert found.confidence == LEARNED_CONFIDENCE
    cell = np.linalg.norm(photo.corners[1] - photo.corners[0]) / 18
    # Which corner is board[0][0] is ambiguous at 45 degrees: any turn will do.
    off = min(
        np.linalg.norm(np.roll(found.corners, turns, axis=0) - photo.corners, axis=1).max()
        for turns in range(4)
    )
    assert off < 0.25 * cell


def guesses_from_peaks(
    monkeypatch: pytest.MonkeyPatch, peaks: list[tuple[float, float]]
) -> list[np.ndarray]:
    """The corners :func:`corner_guesses` looks at again, given the first look's ``peaks``.

    The second look is left out: each quadrilateral comes back as it went in.
    """
    import vision.corners as corners_module

    def look_again(image: np.ndarray, quad: np.ndarray, heat: float, path: Path) -> CornerGuess:
        return CornerGuess(corners=quad, heat=heat)

    points = np.array(peaks, dtype=np.float64)
    heats = np.full(len(points), 0.9)
    monkeypatch.setattr(corners_module, "heat_map", lambda view, path: (None, None))
    monkeypatch.setattr(corners_module, "heat_peaks", lambda heat, offsets, most: (points, heats))
    monkeypatch.setattr(corners_module, "_looked_again", look_again)
    image = np.zeros((INPUT, INPUT, 3), np.uint8)  # its whole view is the photo, unscaled
    return [guess.corners for guess in corner_guesses(image)]


def test_three_corners_of_a_board_complete_the_fourth(monkeypatch: pytest.MonkeyPatch) -> None:
    # The first look saw three corners of a board seen square on; the fourth,
    # under glare, gave no peak. One guess is the whole board.
    looked = guesses_from_peaks(monkeypatch, [(40.0, 40.0), (140.0, 40.0), (140.0, 140.0)])
    board = [[40.0, 40.0], [140.0, 40.0], [140.0, 140.0], [40.0, 140.0]]
    assert any(np.allclose(quad, board) for quad in looked)  # clockwise from the top-left
    assert 1 <= len(looked) <= 3  # each peak in turn the middle corner, where it could be


def test_three_peaks_in_a_row_complete_no_board(monkeypatch: pytest.MonkeyPatch) -> None:
    # Three peaks along one line (a row of glare spots) meet at no corner a
    # board could have.
    assert guesses_from_peaks(monkeypatch, [(20.0, 50.0), (80.0, 52.0), (150.0, 55.0)]) == []


@pytest.mark.parametrize(
    ("run", "index", "size", "wrong"),
    [
        # A pale 13×13 at 9 pixels a cell whose fourth corner the network's
        # first look takes 8 cells off; three guesses agree, every point right.
        (2468, 116, 13, 0),
        # A dark 19×19 at 14 pixels a cell under a glare spot, a stone bowl at
        # its side: the network's corners lie 6 cells off; five guesses agree.
        (6161, 274, 19, 0),
        # A pale 19×19 whose top right corner glare washes out: the network
        # takes a stray peak 11 cells off for it; two guesses agree on corners
        # the refiner is sure of.
        (1212, 266, 19, 0),
    ],
)
def test_a_board_whose_corner_the_network_misses_is_placed_where_three_corner_guesses_agree(
    run: int, index: int, size: int, wrong: int
) -> None:
    photo = render_photo(seed=photo_seed(run, index), difficulty="hard")
    assert photo.board is not None and photo.corners is not None
    first = find_corners(photo.image)
    assert first is not None
    assert farthest_corner_cells(first.corners, photo.corners, size) > 1.0
    found = detect_board(photo.image, size=size)
    assert found
    assert found.details["three_corners"] >= GUESSES_AGREE
    read = np.array([list(row) for row in read_stones(photo.image, found.grid).board])
    turned = aligned_board(read, found.corners, photo.corners)  # None if misplaced
    assert turned is not None
    assert points_wrong(tuple("".join(row) for row in turned), photo.board) <= wrong


def test_guesses_that_agree_on_no_grid_place_no_board() -> None:
    # Dev 3333 #227: a pale 19×19 under glare with two stones. Of the eleven
    # guesses from three of the network's peaks, one places a grid that reads
    # as a board, 7.5 cells off, and none agrees with it: no board, not a
    # wrong one.
    photo = render_photo(seed=photo_seed(3333, 227), difficulty="hard")
    assert photo.board is not None
    found = detect_board(photo.image, size=19)
    assert not found
    assert "; three corners: of 11 guesses from three of the network's corners" in found.reason


@pytest.mark.parametrize(("run", "index"), [(2222, 121), (1111, 183)])
def test_no_board_where_the_network_sees_no_corners(run: int, index: int) -> None:
    # Photos with no board on which the first network saw four corners (heat
    # 0.15 and 0.13; the refiner's spread there 0.32 and 0.28 of a cell). The
    # network of round 49 sees four corners on none of the 248 dev photos with
    # no board.
    photo = render_photo(seed=photo_seed(run, index), difficulty="hard")
    assert photo.board is None
    assert find_corners(photo.image) is None
    found = detect_board(photo.image, size=19)
    assert not found
    assert "learned corners: the network sees no four corners" in found.reason


def test_centring_on_a_lone_stone_does_not_move_a_grid_off_corners_the_refiner_is_sure_of() -> None:
    # Dev 1111 #261, a 9×9 with one stone that every other search missed. The
    # refiner is sure of the network's corners (spread 0.10) and puts them
    # within 0.37 of a cell; centred on the one stone and laid on the board,
    # their grid passed the floors 0.64 of a cell off at one corner (misplaced,
    # at 0.29). The refined corners' grid is taken instead.
    photo = render_photo(seed=photo_seed(1111, 261), difficulty="hard")
    assert photo.board is not None and photo.corners is not None
    found = detect_board(photo.image, size=9)
    assert found and found.details["spread"] <= SHIFTED_SPREAD
    assert found.details["left"] > KEPT_CELLS
    assert found.confidence <= LEARNED_CONFIDENCE
    assert farthest_corner_cells(found.corners, photo.corners, 9) < 0.5
    assert points_wrong(read_stones(photo.image, found.grid).board, photo.board) <= 2


def test_respacing_does_not_move_a_grid_off_each_corner_the_refiner_is_sure_of() -> None:
    # Fresh 91919 #75 (round 65, misplaced at 0 when benched): a far printed
    # 19×19, cells of 9 pixels. The refiner is sure of three of the network's
    # corners (spread 0.012 to 0.119), not the fourth (0.193); respaced onto
    # the lines, their grid passed the floors with those three moved 0.7 to
    # 1.3 cells. Not kept, the fourth corner is completed on the lines (23
    # points read wrong there, glare washing out 68).
    photo = render_photo(seed=photo_seed(91919, 75), difficulty="hard")
    assert photo.board is not None and photo.corners is not None
    guess = find_corners(photo.image)
    assert guess is not None
    spreads = corner_spread(photo.image, refine_corners(photo.image, guess.corners, 19), 19)
    assert np.count_nonzero(spreads <= SHIFTED_SPREAD) == 3
    found = detect_board(photo.image, size=19)
    assert found and found.details["completed"]
    assert farthest_corner_cells(found.corners, photo.corners, 19) < 0.3
    assert points_wrong(read_stones(photo.image, found.grid).board, photo.board) <= 23
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(vision.detect, "KEPT_CELLS", np.inf)
        kept = detect_board(photo.image, size=19)
    assert kept and kept.details["respaced"] and "completed" not in kept.details
    assert farthest_corner_cells(kept.corners, photo.corners, 19) > 1.0


def test_a_board_whose_corners_two_looks_agree_on_is_placed_however_its_stones_read() -> None:
    # Dev 1357 #35, a 19×19 with cells of 10 pixels every other search missed:
    # its stones stand out from half a cell off by only 0.023 even on its true
    # grid, and the refiner is unsure of one corner (spread 0.15). But the
    # network is sure of its corners (heat 0.89) and the refiner moves none of
    # them more than 0.15 of a cell: the two agree.
    photo = render_photo(seed=photo_seed(1357, 35), difficulty="hard")
    assert photo.board is not None and photo.corners is not None
    found = detect_board(photo.image, size=19)
    assert found and found.details["learned"] >= AGREED_HEAT
    assert found.details["spread"] > SHIFTED_SPREAD
    assert found.details["agreed"] <= AGREED_CELLS
    assert 0.0 < found.confidence <= LEARNED_CONFIDENCE
    assert farthest_corner_cells(found.corners, photo.corners, 19) < 0.1
    assert points_wrong(read_stones(photo.image, found.grid).board, photo.board) == 0


@pytest.mark.parametrize(
    ("run", "index", "size", "off", "wrong"),
    [
        # A 13×13 whose first corner lies under glare: the network (heat 0.32)
        # and the refiner agree on it 1.2 cells off, the refiner unsure there
        # (spread 0.22); its three other corners within 0.08 of a cell.
        # Completed on its lines: 0.05 off, 11 points wrong.
        (1111, 106, 13, 0.1, 11),
        # A 19×19 whose third corner the refiner puts 1.7 cells off (spread
        # 0.20), the others within 0.15. Completed: 0.27 off, 12 points wrong.
        (555, 249, 19, 0.35, 12),
    ],
)
def test_a_board_with_one_corner_lost_is_completed_on_its_lines(
    run: int, index: int, size: int, off: float, wrong: int
) -> None:
    photo = render_photo(seed=photo_seed(run, index), difficulty="hard")
    assert photo.board is not None and photo.corners is not None
    guess = find_corners(photo.image)
    assert guess is not None
    refined = refine_corners(photo.image, guess.corners, size)
    assert farthest_corner_cells(refined, photo.corners, size) > 1.0  # every other search missed
    found = detect_board(photo.image, size=size)
    assert found and found.details["completed"] > 1.0
    assert found.confidence <= FAINT_CONFIDENCE
    assert farthest_corner_cells(found.corners, photo.corners, size) < off
    assert points_wrong(read_stones(photo.image, found.grid).board, photo.board) <= wrong


def test_a_corner_the_lines_place_wrong_leaves_the_board_refused_and_says_so() -> None:
    # Dev 3333 #227: half the board washed white by glare, its first corner 2.9
    # cells off (refiner's spread 0.25). Where the lines do not show, the best
    # place for it on them lies at the edge of the reach, no best at all (until
    # round 53 it was taken, and that grid did not pass the floors).
    photo = render_photo(seed=photo_seed(3333, 227), difficulty="hard")
    assert photo.board is not None
    found = detect_board(photo.image, size=19)
    assert not found
    assert "finds no best place on the lines within 4 cells of it" in found.reason
    # Nor is the learned corners' grid given as a guess: the network sees
    # them at 0.169 (round 65: under GUESSED_HEAT), and its stones read surer
    # half a cell off than on it.
    assert "does not read as a board (heat 0.17)" in found.reason
    assert "nor is it a guess: the network is too unsure of its corners" in found.reason
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(vision.detect, "GUESSED_HEAT", 0.0)
        found = detect_board(photo.image, size=19)
    assert not found
    assert "as a guess, its stones read no surer on it than half a cell off (-" in found.reason


@pytest.mark.parametrize(
    ("run", "index", "off", "wrong"),
    [
        # A 19×19 with cells of 7 pixels, out of focus, on floor tiles: no lines
        # found, and the refiner leaves one corner 0.44 of a cell off. Its stones
        # read surer on the grid than half a cell off by 0.005.
        (2468, 54, 0.5, 3),
        # A 19×19 the refiner places within 0.35 of a cell (heat 0.82); its
        # stones read unsure (-0.156) but surer than half a cell off (0.009).
        # 119 points wrong before round 55, 123 with the stone net reading in
        # turns (fewer on the dev seeds' true grids: 1,687 against 1,958).
        (555, 85, 0.5, 123),
        # The refiner leaves one corner 0.75 of a cell off: a guess can be
        # wrong, and its confidence says it is a guess (its reading is no
        # board's, so no count of points wrong is asserted).
        (777, 47, 1.0, None),
    ],
)
def test_a_board_only_the_network_sees_is_given_as_a_guess(
    run: int, index: int, off: float, wrong: int | None
) -> None:
    photo = render_photo(seed=photo_seed(run, index), difficulty="hard")
    assert photo.board is not None and photo.corners is not None
    found = detect_board(photo.image, size=19)
    assert found and found.details["guessed"] > 0.0
    assert found.confidence <= GUESSED_CONFIDENCE
    assert farthest_corner_cells(found.corners, photo.corners, 19) < off
    if wrong is not None:
        assert points_wrong(read_stones(photo.image, found.grid).board, photo.board) <= wrong


@pytest.mark.parametrize(
    ("run", "index", "heat"),
    [
        # Fresh 58585 #187 (round 65, taken at 0 when benched): no board. The
        # network sees four corners round a bowl of white stones, and their
        # grid's stones read 0.0012 surer than half a cell off.
        (58585, 187, 0.154),
        # A far 19×19 whose guess lay a corner 1.7 cells off: missed, not
        # misplaced.
        (15151, 82, 0.19),
    ],
)
def test_no_guess_is_given_on_corners_the_network_is_that_unsure_of(
    run: int, index: int, heat: float
) -> None:
    photo = render_photo(seed=photo_seed(run, index), difficulty="hard")
    guess = find_corners(photo.image)
    assert guess is not None and guess.heat == pytest.approx(heat, abs=0.005)
    assert guess.heat < GUESSED_HEAT
    found = detect_board(photo.image, size=19)
    assert not found
    assert "nor is it a guess: the network is too unsure of its corners" in found.reason
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(vision.detect, "GUESSED_HEAT", 0.0)
        guessed = detect_board(photo.image, size=19)
    assert guessed and guessed.details["guessed"] > 0.0
    if photo.corners is not None:
        assert farthest_corner_cells(guessed.corners, photo.corners, 19) > 1.0


# 2468 #54, given as a guess (the test above); 31337 #127, on the network's
# own corners, the refiner disagreeing (below).
@pytest.mark.parametrize(("run", "index"), [(2468, 54), (31337, 127)])
def test_kifu_detect_says_a_guessed_grid_is_a_guess(
    run: int, index: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    photo = render_photo(seed=photo_seed(run, index), difficulty="hard")
    path = tmp_path / "far.png"  # lossless: the very pixels the tests read
    cv2.imwrite(str(path), photo.image)
    assert main(["detect", str(path)]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["suspicions"][0] == GUESSED
    assert result["confidence"] <= GUESSED_CONFIDENCE


@pytest.mark.parametrize(
    ("run", "index", "size", "confidence", "wrong"),
    [
        # Placed a cell off by the stones' lattice at 0.48, 70 points wrong:
        # the refiner moves the corners 0.25 to 1.25 cells, sure of each, to
        # 0.06 of a cell from the truth; its stones read -0.026 there (refined
        # once more since round 64, as far off, a shade surer: 0.478, not 0.473).
        (2222, 21, 19, 0.48, 7),
        # Placed 0.76 and 0.65 of a cell off, at 0: the stones read as sure or
        # surer there than on the true grid (-0.054 against -0.082 for the 9×9,
        # -0.057 against -0.061), so only the refiner tells; it moves every
        # corner, to 0.07 and 0.2 off (the 9×9's spread is 0.11, under
        # SHIFTED_SPREAD since round 48).
        (2222, 94, 9, 0.0, 10),
        (1357, 219, 19, 0.0, 12),
    ],
)
def test_an_unsure_placement_the_refiner_surely_moves_as_a_whole_is_shifted(
    run: int, index: int, size: int, confidence: float, wrong: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    photo = render_photo(seed=photo_seed(run, index), difficulty="hard")
    assert photo.board is not None and photo.corners is not None
    cell = np.linalg.norm(photo.corners[1] - photo.corners[0]) / (size - 1)
    if (run, index) == (2222, 21):
        # Since round 67 the dispute takes 2222 #21 first: the lattice's grid
        # shows no lines, the network's refined corners' grid shows them
        # (0.84) and lies 0.09 of a cell off (4 points wrong, as shifted).
        # The shift is tested on it with that rule off.
        lined = detect_board(photo.image, size=size)
        assert lined and lined.details.get("disputed") and "shifted" not in lined.details
        assert points_wrong(read_stones(photo.image, lined.grid).board, photo.board) <= wrong
        assert np.linalg.norm(lined.corners - photo.corners, axis=1).max() < 0.25 * cell
        monkeypatch.setattr(vision.detect, "_lined_not_placed", lambda *_: False)
    found = detect_board(photo.image, size=size)
    assert found and found.details.get("shifted") and found.details.get("refined")
    assert found.confidence == pytest.approx(confidence, abs=0.005)
    assert points_wrong(read_stones(photo.image, found.grid).board, photo.board) <= wrong
    assert np.linalg.norm(found.corners - photo.corners, axis=1).max() < 0.25 * cell


@pytest.mark.parametrize(
    ("run", "index", "size"),
    [
        # Fresh 86420 #166 (round 61's held-out seed): a nearly full 19×19 the
        # stones' lattice placed a line off (1.26 cells) at 0.3. The refiner
        # moves every corner, to 0.34 of a cell off at most, its widest spread
        # 0.128 at a corner under stones.
        (86420, 166, 19),
        # Dev 27182 #231: a nearly full 9×9 placed 1.41 cells off; the refiner
        # places it 0.30 off, spread up to 0.150.
        (27182, 231, 9),
    ],
)
def test_a_nearly_full_board_the_refiner_moves_as_a_whole_is_shifted_though_less_sure(
    run: int, index: int, size: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    photo = render_photo(seed=photo_seed(run, index), difficulty="hard")
    assert photo.board is not None and photo.corners is not None
    found = detect_board(photo.image, size=size)
    assert found and found.details.get("shifted") and found.confidence <= FAINT_CONFIDENCE
    assert farthest_corner_cells(found.corners, photo.corners, size) < 0.4
    # Asked the learned corners' SHIFTED_SPREAD, the placement stands, a line off.
    monkeypatch.setattr(vision.detect, "SHIFT_SPREAD", SHIFTED_SPREAD)
    doubted = detect_board(photo.image, size=size)
    assert doubted.details.get("doubted") and "shifted" not in doubted.details
    assert farthest_corner_cells(doubted.corners, photo.corners, size) > 1.0


def test_a_shifted_board_is_refined_again_where_the_refiner_stopped_part_of_the_way(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Fresh 19191 #151 (round 64, misplaced at 0.5 when benched): a printed
    # 9×9 with wide margins on a pale floor, its lines' grid 3.6 cells off.
    # The refiner, sure of each corner, moves it as a whole to 0.69 of a cell
    # off; refined again from there, to 0.03 off, its stones reading surer.
    photo = render_photo(seed=photo_seed(19191, 151), difficulty="hard")
    assert photo.board is not None and photo.corners is not None
    found = detect_board(photo.image, size=9)
    assert found and found.details.get("shifted") and found.details.get("again")
    assert found.confidence <= FAINT_CONFIDENCE
    assert farthest_corner_cells(found.corners, photo.corners, 9) < 0.1
    assert points_wrong(read_stones(photo.image, found.grid).board, photo.board) == 0
    # Refined once only, the board is shifted part of the way.
    monkeypatch.setattr(vision.detect, "_refined_again", lambda *args: None)
    once = detect_board(photo.image, size=9)
    assert once.details.get("shifted") and "again" not in once.details
    assert farthest_corner_cells(once.corners, photo.corners, 9) > 0.5


def test_an_unsure_placement_the_refiner_moves_a_little_very_surely_is_polished(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Dev 333 #241, a kaya 19×19 placed by its outline half a cell off at one
    # corner (confidence 0): its stones read as sure there as on the true
    # grid, and the refiner moves the corners a mean 0.36 of a cell, under a
    # shift, with a spread of 0.04 at most; laid there, 0.03 of a cell off.
    photo = render_photo(seed=photo_seed(333, 241), difficulty="hard")
    assert photo.board is not None and photo.corners is not None
    # Since round 68 the same corners are taken a step earlier, the placement's
    # lines not showing where theirs do (0.54); the polish is tested without it.
    between = detect_board(photo.image, size=19)
    assert between and between.details.get("between_lines", 0.0) >= POLISHED_CELLS
    assert between.confidence == 0.0
    monkeypatch.setattr(vision.detect, "_lined_not_placed", lambda *_: False)
    found = detect_board(photo.image, size=19)
    assert found and np.allclose(found.corners, between.corners)
    assert 0.15 <= found.details["polished"] < SHIFTED_CELLS
    assert not {"shifted", "disputed", "doubted"} & found.details.keys()
    assert found.confidence == 0.0  # the board is no surer for it
    cell = np.linalg.norm(np.roll(photo.corners, -1, axis=0) - photo.corners, axis=1).mean() / 18
    assert np.linalg.norm(found.corners - photo.corners, axis=1).max() < 0.1 * cell
    assert points_wrong(read_stones(photo.image, found.grid).board, photo.board) <= 4


def test_an_unsure_placement_the_refiner_is_less_sure_of_is_not_polished() -> None:
    # Dev 333 #30, a 9×9 placed right at 0.18 (0.25 of a cell off): the
    # refiner moves its corners a mean 0.32 of a cell, but to 0.48 off, with a
    # spread of 0.089, not sure enough to polish.
    photo = render_photo(seed=photo_seed(333, 30), difficulty="hard")
    assert photo.board is not None and photo.corners is not None
    found = detect_board(photo.image, size=9)
    assert found and "polished" not in found.details
    own = refine_corners(photo.image, found.grid.corners, 9)
    assert corner_spread(photo.image, own, 9).max() > POLISHED_SPREAD
    cell = np.linalg.norm(np.roll(photo.corners, -1, axis=0) - photo.corners, axis=1).mean() / 8
    assert np.linalg.norm(found.corners - photo.corners, axis=1).max() < 0.5 * cell


@pytest.mark.parametrize(
    ("run", "index", "confidence", "wrong"),
    [
        # Placed by its lines a corner 0.72 of a cell off, at 0.63: the refiner
        # moves that corner 0.62 of a cell (spread 0.02 at each corner), and the
        # stones read as sure there.
        (6161, 261, 0.63, 0),
        # Placed by its blurred lines 0.82 and 0.64 of a cell off at two
        # corners, at 0: the refiner moves them, each spread under 0.05.
        (5150, 71, 0.0, 18),
    ],
)
def test_a_placement_with_a_corner_wrong_is_polished_where_the_refiner_moves_it(
    run: int, index: int, confidence: float, wrong: int
) -> None:
    photo = render_photo(seed=photo_seed(run, index), difficulty="hard")
    assert photo.board is not None and photo.corners is not None
    found = detect_board(photo.image, size=19)
    assert found and found.details["polished_corner"] >= POLISHED_CORNER_CELLS
    assert "polished" not in found.details
    assert found.confidence == pytest.approx(confidence, abs=0.005)
    cell = np.linalg.norm(np.roll(photo.corners, -1, axis=0) - photo.corners, axis=1).mean() / 18
    assert np.linalg.norm(found.corners - photo.corners, axis=1).max() < 0.2 * cell
    assert points_wrong(read_stones(photo.image, found.grid).board, photo.board) <= wrong


def test_a_corner_move_the_stones_read_less_sure_on_is_not_polished() -> None:
    # Dev 2222 #229, a 9×9 placed right at 0.69: the refiner moves one corner 0.62
    # of a cell, sure of it (spread 0.02), but there the stones read 0.042 less
    # sure; the placement stands, every point right.
    photo = render_photo(seed=photo_seed(2222, 229), difficulty="hard")
    assert photo.board is not None and photo.corners is not None
    found = detect_board(photo.image, size=9)
    assert found and "polished_corner" not in found.details
    own = refine_corners(photo.image, found.grid.corners, 9)
    cell = np.linalg.norm(np.roll(photo.corners, -1, axis=0) - photo.corners, axis=1).mean() / 8
    assert np.linalg.norm(own - found.corners, axis=1).max() >= POLISHED_CORNER_CELLS * cell
    assert corner_spread(photo.image, own, 9).max() <= POLISHED_SPREAD
    assert points_wrong(read_stones(photo.image, found.grid).board, photo.board) == 0


@pytest.mark.parametrize(
    ("run", "index"),
    [
        # Fresh 30303 #153 (round 67, misplaced at 0.3 when benched): a light
        # 19×19 of 8-pixel cells its lines place 3.8 cells off, where its
        # lines do not show (0.03); the network's refined corners, laid on the
        # board, show them (0.52), but the stones read only 0.0005 surer.
        (30303, 153),
        # Fresh 71717 #255 (round 67, misplaced at 0): a pale 19×19 under
        # glare its outline places 13 cells off (lines 0.00); on the
        # network's refined corners the lines show 0.71, and the stones
        # read 0.009 less sure than on the placement.
        (71717, 255),
    ],
)
def test_a_placement_whose_lines_do_not_show_gives_way_to_a_grid_whose_lines_do(
    run: int, index: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    photo = render_photo(seed=photo_seed(run, index), difficulty="hard")
    assert photo.board is not None and photo.corners is not None
    found = detect_board(photo.image, size=19)
    assert found and found.details.get("disputed") and found.details.get("learned")
    assert farthest_corner_cells(found.corners, photo.corners, 19) < 0.25
    assert weaker_lines(photo.image, found.grid) >= WELL_LINED
    monkeypatch.setattr(vision.detect, "_lined_not_placed", lambda *_: False)
    placed = detect_board(photo.image, size=19)
    assert not placed or farthest_corner_cells(placed.corners, photo.corners, 19) > 1.0
    assert not placed or weaker_lines(photo.image, placed.grid) < DISPUTED_UNLINED


def test_a_placement_whose_lines_show_faintly_gives_way_to_a_grid_whose_lines_show_far_clearer(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Fresh 57575 #194 (round 68, misplaced at 0.3 when benched): a pale 9×9
    # with cells of 25 pixels, doubted nearly 4 cells off, where its lines show
    # faintly (0.44, just under WELL_LINED). The network's refined corners,
    # laid on the board, show them nearly nine times as clearly, though the
    # stones read less sure there.
    photo = render_photo(seed=photo_seed(57575, 194), difficulty="hard")
    assert photo.board is not None and photo.corners is not None
    found = detect_board(photo.image, size=9)
    assert found and found.details.get("disputed") and found.details.get("refined")
    assert found.details.get("learned")
    assert farthest_corner_cells(found.corners, photo.corners, 9) < 0.1
    lined = weaker_lines(photo.image, found.grid)
    assert points_wrong(read_stones(photo.image, found.grid).board, photo.board) <= 3
    monkeypatch.setattr(vision.detect, "_lined_not_placed", lambda *_: False)
    placed = detect_board(photo.image, size=9)
    assert placed and placed.details.get("doubted")
    assert farthest_corner_cells(placed.corners, photo.corners, 9) > 3.0
    faint = weaker_lines(photo.image, placed.grid)
    assert DISPUTED_UNLINED <= faint < WELL_LINED <= LINES_CLEARER * faint <= lined


def test_a_placement_centring_moved_between_the_lines_is_laid_on_its_refined_corners(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Fresh 26262 #145 (round 67, misplaced at 0.90 when benched): a dark
    # 19×19 with cells of 18 pixels. The lines place it right, but its stones
    # read surer half a cell off (-0.005 against -0.018 on the truth), and
    # centring moves it there, its lines then reading between the board's.
    photo = render_photo(seed=photo_seed(26262, 145), difficulty="hard")
    assert photo.board is not None and photo.corners is not None
    placed = find_grid(photo.image, size=19)
    assert placed and farthest_corner_cells(placed.corners, photo.corners, 19) < 0.1
    centred, _ = centre_on_stones(photo.image, placed.grid)
    assert farthest_corner_cells(centred.corners, photo.corners, 19) > 0.4
    assert weaker_lines(photo.image, centred) < -WELL_LINED
    # The refiner, very sure of the centred grid's corners, moves them back.
    found = detect_board(photo.image, size=19)
    assert found and found.details.get("between_lines", 0.0) >= POLISHED_CELLS
    assert found.confidence <= FAINT_CONFIDENCE
    assert farthest_corner_cells(found.corners, photo.corners, 19) < 0.1
    assert weaker_lines(photo.image, found.grid) >= WELL_LINED
    assert points_wrong(read_stones(photo.image, found.grid).board, photo.board) == 0
    # Without the lines' say, it stood half a cell off, near sure.
    monkeypatch.setattr(vision.detect, "_lined_not_placed", lambda *_: False)
    between = detect_board(photo.image, size=19)
    assert between and farthest_corner_cells(between.corners, photo.corners, 19) > 0.4
    assert between.confidence > FAINT_CONFIDENCE


def test_a_doubted_placement_under_the_floors_is_overruled_by_the_corners_two_looks_see() -> None:
    # Fresh 6161 #145, a pale 19×19 with 11 stones, placed by lines on the
    # table 15 cells off (stones -0.065, under the floors): the refiner moves its
    # corners far, the network sees the board's at 0.57, and their refined
    # grid reads surer (-0.024), though its few stones hardly stand out.
    photo = render_photo(seed=photo_seed(6161, 145), difficulty="hard")
    assert photo.board is not None and photo.corners is not None
    found = detect_board(photo.image, size=19)
    assert found and found.details["overruled"] and found.details["learned"] >= AGREED_HEAT
    assert found.confidence <= GUESSED_CONFIDENCE
    cell = np.linalg.norm(np.roll(photo.corners, -1, axis=0) - photo.corners, axis=1).mean() / 18
    assert np.linalg.norm(found.corners - photo.corners, axis=1).max() < 0.5 * cell
    assert points_wrong(read_stones(photo.image, found.grid).board, photo.board) <= 3


@pytest.mark.parametrize(("run", "index", "size"), [(2222, 96, 19), (70707, 45, 13)])
def test_a_doubted_placement_whose_stones_pass_the_floors_stands(
    run: int, index: int, size: int
) -> None:
    # Placed right, read sure enough (-0.024 and -0.011), though the refiner
    # moves a corner more than a cell: doubted, not overruled. (Dev 1357 #172
    # stood here until round 67; it is now completed on the lines, laid on
    # the board: test_a_doubted_placement_is_completed_on_the_lines_laid_on_the_board.)
    photo = render_photo(seed=photo_seed(run, index), difficulty="hard")
    assert photo.board is not None and photo.corners is not None
    found = detect_board(photo.image, size=size)
    assert found and found.details.get("doubted") and "overruled" not in found.details
    assert found.confidence == DOUBTED_CONFIDENCE
    assert points_wrong(read_stones(photo.image, found.grid).board, photo.board) <= 1
    # A board's lines stop: two cells past some side, nothing as dark as a line.
    beyond = lines_beyond(photo.image, found.grid)
    assert np.nanmin(beyond[:, 1]) < LINES_GO_ON


def test_a_doubted_placement_is_laid_on_corners_the_refiner_is_very_sure_of_if_as_sure(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Fresh 52525 #82 (round 64, misplaced at 0.3 when benched): a printed
    # 19×19 the outline placed with three corners right and the fourth 1.7
    # cells off. The refiner moves that one 1.48 cells, to 0.06 of a cell
    # off, its spread 0.017 at most; the stones read a little surer there
    # (-0.00004 against -0.0010).
    photo = render_photo(seed=photo_seed(52525, 82), difficulty="hard")
    assert photo.board is not None and photo.corners is not None
    found = detect_board(photo.image, size=19)
    assert found and found.details["polished_corner"] > 1.0 and "doubted" not in found.details
    assert found.confidence <= DOUBTED_CONFIDENCE
    assert farthest_corner_cells(found.corners, photo.corners, 19) < 0.1
    assert points_wrong(read_stones(photo.image, found.grid).board, photo.board) == 0
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(vision.detect, "_doubted_corner", lambda *args: None)
        doubted = detect_board(photo.image, size=19)
    assert doubted.details.get("doubted")
    assert farthest_corner_cells(doubted.corners, photo.corners, 19) > 1.0
    # Dev 70707 #45, a 13×13 placed right (0.38 of a cell off at most) and
    # doubted: the refiner, as sure (0.027), moves a corner 1.27 cells, but
    # the stones read less sure there, and it stays.
    photo = render_photo(seed=photo_seed(70707, 45), difficulty="hard")
    assert photo.board is not None and photo.corners is not None
    found = detect_board(photo.image, size=13)
    assert found.details.get("doubted") and "polished_corner" not in found.details
    assert farthest_corner_cells(found.corners, photo.corners, 13) < 0.5
    own = refine_corners(photo.image, found.corners, 13)
    assert corner_spread(photo.image, own, 13).max() <= SHIFTED_SPREAD  # sure, and wrong


def test_a_sure_empty_lattice_the_network_sees_elsewhere_is_disputed() -> None:
    # Fresh 7373 #276: a small 9×9 beside a floor of square tiles, whose 9×9
    # lattice the lines took at 1.00 (evidence 0.91), reading one stone. The
    # network sees the board's corners 6.8 cells away (heat 0.52): the
    # placement goes to the dispute, and the network's grid wins.
    photo = render_photo(seed=photo_seed(7373, 276), difficulty="hard")
    assert photo.board is not None and photo.corners is not None
    found = detect_board(photo.image, size=9)
    assert found and found.details["disputed"] and found.details["learned"] >= AGREED_HEAT
    assert found.confidence <= FAINT_CONFIDENCE
    cell = np.linalg.norm(np.roll(photo.corners, -1, axis=0) - photo.corners, axis=1).mean() / 8
    assert np.linalg.norm(found.corners - photo.corners, axis=1).max() < 0.5 * cell
    assert points_wrong(read_stones(photo.image, found.grid).board, photo.board) == 0


def test_a_sure_placement_the_refiner_moves_as_a_whole_is_disputed() -> None:
    # Fresh 9595 #268: a dark 19×19 with 22 stones the lines placed sure
    # (evidence 0.72) a cell off; its stones read as sure there (-0.002) as on
    # the board (-0.003). The refiner moves all four corners 0.8 to 1.4 cells,
    # sure of each (spread 0.02 at most): disputed, then shifted onto them.
    photo = render_photo(seed=photo_seed(9595, 268), difficulty="hard")
    assert photo.board is not None and photo.corners is not None
    found = detect_board(photo.image, size=19)
    assert found and found.details["shifted"] and found.confidence <= FAINT_CONFIDENCE
    cell = np.linalg.norm(np.roll(photo.corners, -1, axis=0) - photo.corners, axis=1).mean() / 18
    assert np.linalg.norm(found.corners - photo.corners, axis=1).max() < 0.5 * cell
    assert points_wrong(read_stones(photo.image, found.grid).board, photo.board) == 0


@pytest.mark.parametrize(("run", "index", "size"), [(777, 157, 13), (2468, 136, 19)])
def test_a_sure_placement_the_refiner_hardly_moves_stays_sure(
    run: int, index: int, size: int
) -> None:
    # Placed right and sure by the lines; the refiner moves their corners 0.14
    # and 0.16 of a cell on average (one 0.45 and 0.52), and on 777 #157 the
    # network sees the board a cell away (heat 0.86): no dispute.
    photo = render_photo(seed=photo_seed(run, index), difficulty="hard")
    assert photo.board is not None
    found = detect_board(photo.image, size=size)
    assert found and found.details["evidence"] >= SURE_EVIDENCE
    assert "refined_elsewhere" not in found.details and "disputed" not in found.details
    assert points_wrong(read_stones(photo.image, found.grid).board, photo.board) == 0


@pytest.mark.parametrize(("index", "size"), [(11, 9), (63, 19)])
def test_a_sure_empty_board_the_network_sees_there_stays_sure(index: int, size: int) -> None:
    # Dev 2468 #11 and #63: empty boards the lines place sure; the network sees
    # their corners within 0.1 of a cell of the placement's, so nothing changes.
    photo = render_photo(seed=photo_seed(2468, index), difficulty="hard")
    assert photo.board is not None and photo.corners is not None
    found = detect_board(photo.image, size=size)
    assert found and found.confidence == 1.0 and "elsewhere" not in found.details
    assert found.details["evidence"] >= SURE_EVIDENCE
    assert points_wrong(read_stones(photo.image, found.grid).board, photo.board) == 0


def test_a_crowded_board_its_outline_places_a_row_off_is_disputed() -> None:
    # Fresh 8484 #222: a crowded printed 19×19 no line search places; its
    # outline's grid lies a row off, its stones standing out from half a cell
    # off (0.106) but reading -0.035. Reported at 0.30, not 1.0, it goes to the
    # dispute, and the refiner, sure of the corners it moves, places it.
    photo = render_photo(seed=photo_seed(8484, 222), difficulty="hard")
    assert photo.board is not None and photo.corners is not None
    found = detect_board(photo.image, size=19)
    assert found and found.details["shifted"] and "outline" not in found.details
    cell = np.linalg.norm(np.roll(photo.corners, -1, axis=0) - photo.corners, axis=1).mean() / 18
    assert np.linalg.norm(found.corners - photo.corners, axis=1).max() < 0.5 * cell
    assert points_wrong(read_stones(photo.image, found.grid).board, photo.board) <= 2


def test_an_outline_placement_is_no_surer_than_its_stones_read() -> None:
    # Dev 2222 #289: placed by its outline, 9 points read wrong (stones -0.048);
    # once reported at 0.93, now at what its stones' reading allows.
    photo = render_photo(seed=photo_seed(2222, 289), difficulty="hard")
    assert photo.board is not None
    found = detect_board(photo.image, size=len(photo.board))
    assert found and found.details["outline"]
    assert found.confidence <= 1.0 + found.details["certainty"] / UNSURE_READING < 0.1


@pytest.mark.skipif(
    importlib.util.find_spec("torch") is not None, reason="checks the error without torch"
)
@pytest.mark.parametrize("kind", ["corners", "refiner"])
def test_training_without_torch_names_the_extra(
    kind: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["train", kind, "--out", "unused.onnx"]) == 2
    assert "pip install -e '.[train]'" in capsys.readouterr().err


@pytest.mark.parametrize("network", ["corners", "refiner"])
def test_an_unreadable_model_is_named(network: str, tmp_path: Path) -> None:
    bad = tmp_path / f"{network}.onnx"
    bad.write_bytes(b"not an onnx file")
    image = np.full((120, 160, 3), 90, dtype=np.uint8)
    corners = np.array([[20.0, 20.0], [140.0, 20.0], [140.0, 100.0], [20.0, 100.0]])
    with pytest.raises(VisionError, match=str(bad)):
        if network == "corners":
            find_corners(image, path=bad)
        else:
            refine_corners(image, corners, 19, path=bad)


def test_a_network_that_is_not_a_refiner_is_named() -> None:
    # The corner network given as the refiner: it cannot run on 40-pixel patches.
    image = np.full((120, 160, 3), 90, dtype=np.uint8)
    corners = np.array([[20.0, 20.0], [140.0, 20.0], [140.0, 100.0], [20.0, 100.0]])
    with pytest.raises(VisionError, match=f"the corner refiner {MODEL_PATH} cannot run"):
        refine_corners(image, corners, 19, path=MODEL_PATH)


@pytest.mark.parametrize(
    ("run", "index", "size", "wrong"),
    [
        # A 19×19 with 337 stones placed by its lines 0.77 of a cell off at a
        # corner, at 0: the refiner moves the corners to 0.19 off at most, less
        # sure of them than the other ways ask (spread up to 0.17), and the
        # stones read 0.022 surer there; 5 points read wrong (361 where misplaced).
        (5858, 258, 19, 5),
        # A 9×9 with 76 stones placed by its outline 0.62 of a cell off at a
        # corner, at 0.47: moved to 0.09 off (spread up to 0.08), 0.007 surer;
        # every point read right.
        (6969, 136, 9, 0),
    ],
)
def test_a_nearly_full_board_is_polished_where_its_stones_read_surer_on_the_refined_corners(
    monkeypatch: pytest.MonkeyPatch, run: int, index: int, size: int, wrong: int
) -> None:
    photo = render_photo(seed=photo_seed(run, index), difficulty="hard")
    assert photo.board is not None and photo.corners is not None
    cell = np.linalg.norm(np.roll(photo.corners, -1, axis=0) - photo.corners, axis=1).mean()
    cell /= size - 1
    found = detect_board(photo.image, size=size)
    assert found and found.details["polished_surer"] >= POLISHED_CELLS
    assert not {"polished", "polished_corner", "shifted", "doubted"} & found.details.keys()
    assert _farthest_corner(found.corners, photo.corners) < 0.25 * cell
    assert points_wrong(read_stones(photo.image, found.grid).board, photo.board) <= wrong
    # Without it, the placement stands more than half a cell off: misplaced.
    monkeypatch.setattr(vision.detect, "_surer_polished", lambda *args, **kwargs: None)
    unpolished = detect_board(photo.image, size=size)
    assert _farthest_corner(unpolished.corners, photo.corners) > 0.5 * cell


def test_corners_the_stones_read_only_a_hair_surer_on_are_not_polished() -> None:
    # Dev 2468 #134, a 19×19 placed right at 0.76 (0.03 of a cell off): the
    # refiner would move a corner 0.2 of a cell off, and the stones read only
    # 0.0012 surer there, under POLISHED_SURER; the placement stands.
    photo = render_photo(seed=photo_seed(2468, 134), difficulty="hard")
    assert photo.board is not None and photo.corners is not None
    found = detect_board(photo.image, size=19)
    assert found and "polished_surer" not in found.details
    cell = np.linalg.norm(np.roll(photo.corners, -1, axis=0) - photo.corners, axis=1).mean() / 18
    assert _farthest_corner(found.corners, photo.corners) < 0.1 * cell
    own = refine_corners(photo.image, found.grid.corners, 19)
    assert _farthest_corner(own, photo.corners) > 0.15 * cell
    moved = grid_from_corners(own, size=19, image_shape=found.grid.image_shape)
    gain = certainty(photo.image, moved) - certainty(photo.image, found.grid)
    assert 0.0 < gain < POLISHED_SURER


def _farthest_corner(found: np.ndarray, truth: np.ndarray) -> float:
    """Pixels from the truth to the farthest of four found corners, in whichever order."""
    return min(
        float(np.linalg.norm(np.roll(found, turns, axis=0) - truth, axis=1).max())
        for turns in range(4)
    )


@pytest.mark.parametrize(("run", "index"), [(65537, 57), (31337, 127)])
def test_a_board_the_refiner_moves_off_the_networks_corners_is_placed_on_the_networks(
    run: int, index: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Dev 65537 #57, a dark 19×19 of 8-pixel cells in a 640×480 photo (missed),
    # and 31337 #127, a dark 19×19 of 14-pixel cells (misplaced, a corner 0.66
    # of a cell off): the refiner moves the network's corners off the grid, to
    # where the stones read 0.07 and 0.024 less sure than on the network's own.
    photo = render_photo(seed=photo_seed(run, index), difficulty="hard")
    assert photo.board is not None and photo.corners is not None
    found = detect_board(photo.image, size=19)
    assert found and found.details.get("unrefined") and "refined" not in found.details
    assert "guessed" not in found.details and "spread" not in found.details
    assert found.confidence <= GUESSED_CONFIDENCE  # the refiner disagrees: a guess
    assert farthest_corner_cells(found.corners, photo.corners, 19) < 0.5
    monkeypatch.setattr(vision.detect, "UNREFINED_SURER", np.inf)
    refined = detect_board(photo.image, size=19)
    assert not refined or farthest_corner_cells(refined.corners, photo.corners, 19) > 0.5


def test_a_doubted_placement_is_completed_on_the_lines_where_it_reads_as_sure() -> None:
    # Dev 31337 #46, a dark 19×19 its lines place 1.5 cells off at 0.3: the
    # refiner, sure of three of its corners, moves them to the board's, and is
    # unsure of the fourth (0.52 of a cell off, under stones). That corner
    # sought on the lines lands 0.04 of a cell off, and the stones read a
    # little surer there (-0.0194) than on the placement (-0.0217), by more
    # than COMPLETED_SURER (dev 1357 #172, placed right, reads 0.0001 surer
    # with a corner moved 0.92 of a cell, and stands:
    # test_a_doubted_placement_whose_stones_pass_the_floors_stands).
    photo = render_photo(seed=photo_seed(31337, 46), difficulty="hard")
    assert photo.board is not None and photo.corners is not None
    found = detect_board(photo.image, size=19)
    assert found and found.details.get("completed") and "doubted" not in found.details
    assert found.confidence <= DOUBTED_CONFIDENCE
    assert farthest_corner_cells(found.corners, photo.corners, 19) < 0.1
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(vision.detect, "COMPLETED_SURER", np.inf)
        doubted = detect_board(photo.image, size=19)
    assert doubted.details.get("doubted")
    assert farthest_corner_cells(doubted.corners, photo.corners, 19) > 1.0


@pytest.mark.parametrize(
    ("run", "index", "within", "before"),
    [
        # Fresh 20202 #278 (round 66, misplaced when benched), a pale 19×19
        # of 10-pixel cells its lines place 1.6 cells off at 0.15: the
        # refiner, sure of three of its corners (spread 0.012), puts them on
        # the board's, and is unsure of the fourth (0.23). Sought on the
        # lines, that corner lands 0.38 of a cell off, but the stones read
        # less sure there (-0.076) than on the placement (-0.043); laid on
        # the board, as the dispute lays its candidates, the grid reads
        # -0.038 and stays 0.39 of a cell off.
        (20202, 278, 0.5, 1.0),
        # Dev 1357 #172, placed right (0.38 of a cell off) and doubted: its
        # completed grid read 0.0001 surer, too little; laid on the board it
        # reads -0.01127 against -0.01248 (COMPLETED_SURER is 0.001), and
        # lies 0.18 off.
        (1357, 172, 0.25, 0.3),
    ],
)
def test_a_doubted_placement_is_completed_on_the_lines_laid_on_the_board(
    run: int, index: int, within: float, before: float
) -> None:
    photo = render_photo(seed=photo_seed(run, index), difficulty="hard")
    assert photo.board is not None and photo.corners is not None
    found = detect_board(photo.image, size=19)
    assert found and found.details.get("completed") and "doubted" not in found.details
    assert found.confidence <= DOUBTED_CONFIDENCE
    assert farthest_corner_cells(found.corners, photo.corners, 19) < within
    sought = vision.detect._sought_on_lines
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(vision.detect, "_sought_on_lines", lambda *args, laid=False: sought(*args))
        doubted = detect_board(photo.image, size=19)
    assert doubted.details.get("doubted")
    assert farthest_corner_cells(doubted.corners, photo.corners, 19) > before


@pytest.mark.parametrize(
    ("run", "index", "doubted"),
    [
        # Fresh 80808 #30 (round 63, taken at 0.3 when benched): a floor of
        # small square tiles, two bowls and loose stones. The refiner moves a
        # corner of the grid more than a cell: doubted.
        (80808, 30, True),
        # Fresh 60606 #173 (round 64, taken at 0.5 when benched): a floor of
        # square tiles, a bowl, a card. The refiner leaves the grid's corners
        # under a cell from where the lines put them: not doubted.
        (60606, 173, False),
    ],
)
def test_a_grid_laid_on_tiles_at_half_their_spacing_is_no_board(
    run: int, index: int, doubted: bool
) -> None:
    # No board: the lines place a 19×19 on the tiles at half their spacing,
    # reading as a nearly empty board; but every other line crosses the
    # middle of a tile.
    photo = render_photo(seed=photo_seed(run, index), difficulty="hard")
    assert photo.board is None
    found = detect_board(photo.image, size=19)
    assert not found and "every other line of it lies across bare floor" in found.reason
    assert ("the refiner sees its corners elsewhere" in found.reason) == doubted
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(vision.detect, "_on_tiles", lambda *args: None)
        taken = detect_board(photo.image, size=19)
    assert taken and bool(taken.details.get("doubted")) == doubted
    assert taken.confidence >= DOUBTED_CONFIDENCE  # taken as sure as a doubted board, or surer
    assert np.all(lines_alternate(photo.image, taken.grid) < ALTERNATE_LINES)


def test_a_grid_laid_on_large_tiles_at_a_fraction_of_their_spacing_is_no_board() -> None:
    # Fresh 64646 #216 (round 64, taken at 0.3 when benched): a floor of large
    # square tiles. The lines place a 19×19 with about five lines to a tile,
    # only every fifth on a joint: parity reads one way 0.00 and the other not
    # at all, so the half-spacing check passed it.
    photo = render_photo(seed=photo_seed(64646, 216), difficulty="hard")
    assert photo.board is None
    found = detect_board(photo.image, size=19)
    assert not found and "its dark lines stand apart, bare lines between them" in found.reason
    assert "the refiner sees its corners elsewhere" in found.reason
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(vision.detect, "_on_tiles", lambda *args: None)
        taken = detect_board(photo.image, size=19)
    assert taken and taken.details.get("doubted")
    assert taken.confidence == DOUBTED_CONFIDENCE
    assert np.all(lone_lines(photo.image, taken.grid) >= LONE_LINES)
    assert not np.all(lines_alternate(photo.image, taken.grid) < ALTERNATE_LINES)


def test_a_doubted_empty_grid_gives_way_to_the_board_both_looks_see_elsewhere(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Dev 90210 #230: a blurred 9×9 nearly full of stones, cells of 14
    # pixels, on a floor of square tiles. The lines lay a 9×9 on the tiles
    # (three points read as stones, certainty -0.020), doubted at 0.3; the
    # board itself reads less sure on its true grid (-0.031), so no grid that
    # must read surer wins. The network sees its corners (heat 0.59) and the
    # refiner is sure of each. Since round 67 the dispute takes it first by
    # the lines: the tiles' grid shows none (-0.006), the network's refined
    # corners' grid, laid on the board, shows them (0.50).
    photo = render_photo(seed=photo_seed(90210, 230), difficulty="hard")
    assert photo.board is not None and photo.corners is not None
    lined = detect_board(photo.image, size=9)
    assert lined and lined.details.get("disputed") and "elsewhere" not in lined.details
    assert farthest_corner_cells(lined.corners, photo.corners, 9) < 0.4
    monkeypatch.setattr(vision.detect, "_lined_not_placed", lambda *_: False)
    found = detect_board(photo.image, size=9)
    assert found and found.details.get("elsewhere", 0.0) > ELSEWHERE_CELLS
    assert found.details.get("disputed") and found.confidence <= FAINT_CONFIDENCE
    assert farthest_corner_cells(found.corners, photo.corners, 9) < 0.4
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(vision.detect, "_empty_and_elsewhere", lambda *args: None)
        doubted = detect_board(photo.image, size=9)
    assert doubted.details.get("doubted")
    assert farthest_corner_cells(doubted.corners, photo.corners, 9) > 2.0


def test_an_empty_board_both_looks_see_elsewhere_is_laid_uncentred() -> None:
    # Fresh 13131 #17 (round 65): an empty kaya 19×19, cells of 14 pixels. The
    # lines placed a grid 4.8 cells off, doubted at 0.3. The network sees the
    # board's corners (heat 0.87) and the refiner is sure of each. With no
    # stones to centre on, centring moves the board's grid half a cell, between
    # its lines, where its empty points read surer than on them.
    photo = render_photo(seed=photo_seed(13131, 17), difficulty="hard")
    assert photo.board is not None and photo.corners is not None
    assert all(set(row) == {"."} for row in photo.board)
    guess = find_corners(photo.image)
    assert guess is not None and guess.heat >= AGREED_HEAT
    refined = refine_corners(photo.image, guess.corners, 19)
    assert corner_spread(photo.image, refined, 19).max() <= SHIFTED_SPREAD
    on_corners = grid_from_corners(refined, size=19, image_shape=photo.image.shape[:2])
    centred, _ = centre_on_stones(photo.image, on_corners)
    assert farthest_corner_cells(centred.corners, photo.corners, 19) > 0.4
    assert certainty(photo.image, centred) > certainty(photo.image, on_corners)

    found = detect_board(photo.image, size=19)
    assert found and found.details.get("elsewhere", 0.0) > ELSEWHERE_CELLS
    assert found.details.get("disputed") and "centred" not in found.details
    assert found.confidence <= FAINT_CONFIDENCE
    assert farthest_corner_cells(found.corners, photo.corners, 19) < 0.1
