"""Centring an unsure grid on its stones (crowded boards whose lines are hidden)."""

from __future__ import annotations

import functools

import cv2
import numpy as np
import numpy.typing as npt
import pytest

import vision.stones
from datasets.synth import SynthPhoto, render_photo
from datasets.synth.positions import edge_case
from vision import Grid, detect_board, grid_from_corners, read_stones
from vision.centring import (
    CERTAIN,
    OFFSETS,
    SURER,
    _field,
    _log_probability,
    _moved,
    centre_on_stones,
    certainty,
    certainty_maps,
    fit_offset_field,
)
from vision.features import BoardSampler, StoneFeatures, stone_features
from vision.grid import find_grid
from vision.kept import photo_kept
from vision.learned import load_model, patch_inputs

FloatArray = npt.NDArray[np.float64]


def log_certainty(warped: npt.NDArray[np.uint8], size: int) -> FloatArray:
    """(N, N): the model's log-probability of its reading of one straightened board alone."""
    features = stone_features(warped, size)
    return _log_probability(load_model().probabilities(patch_inputs(warped, features)), size)


@functools.cache
def crowded_photo(seed: int) -> SynthPhoto:
    """A rendered photo of a nearly full 19×19 board (medium difficulty)."""
    position = edge_case("nearly_full", 19, rng=np.random.default_rng(seed))
    return render_photo(seed=seed, difficulty="medium", position=position)


def true_grid(photo: SynthPhoto) -> Grid:
    assert photo.corners is not None
    return grid_from_corners(photo.corners, size=19, image_shape=photo.image.shape[:2])


def cells_off(grid: Grid, truth: Grid, *, corners: bool = False) -> float:
    """Largest distance, in cells, of a grid's intersections (or corners) from the truth's."""
    cell = float(np.linalg.norm(truth.intersections[0, 1] - truth.intersections[0, 0]))
    if corners:
        return float(np.linalg.norm(grid.corners - truth.corners, axis=-1).max() / cell)
    return float(np.linalg.norm(grid.intersections - truth.intersections, axis=-1).max() / cell)


def test_the_offset_field_is_found_where_the_certainty_peaks() -> None:
    # Every point's certainty peaks at its own offset: a shift of 0.3 cells and a
    # small stretch along u, a shift of -0.2 along v.
    n = 19
    du, dv = _field(np.array([0.3, 0.1, 0.0, -0.2, 0.0, 0.0]), n)
    a, b = OFFSETS[:, None, None, None], OFFSETS[None, :, None, None]
    maps = -((a - du) ** 2 + (b - dv) ** 2)
    params, best = fit_offset_field(maps)
    # Read between samples an eighth of a cell apart: to within half of that.
    np.testing.assert_allclose(params, [0.3, 0.1, 0.0, -0.2, 0.0, 0.0], atol=1 / 16)
    assert best > float(maps[4, 4].mean())


def test_a_grid_half_a_cell_off_a_crowded_board_is_moved_onto_its_stones() -> None:
    photo = crowded_photo(12)
    truth = true_grid(photo)
    off = _moved(truth, np.array([0.45, 0.0, 0.0, -0.4, 0.0, 0.0]))
    assert cells_off(off, truth) > 0.55

    centred, gain = centre_on_stones(photo.image, off)

    assert gain > 0.02
    assert cells_off(centred, truth) < 0.2
    assert read_stones(photo.image, centred).board == photo.board


def test_a_grid_on_its_stones_stays_where_it_is() -> None:
    photo = crowded_photo(12)
    truth = true_grid(photo)
    centred, gain = centre_on_stones(photo.image, truth)
    assert gain == 0.0
    assert centred is truth


def test_a_grid_read_near_certain_is_kept_without_reading_its_offsets(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    photo = crowded_photo(12)
    truth = true_grid(photo)
    now = float(log_certainty(BoardSampler.for_grid(truth).warp(photo.image), 19).mean())
    assert now + SURER >= CERTAIN  # no offset could read surer by SURER
    _, best = fit_offset_field(certainty_maps(photo.image, truth))
    assert best - now <= SURER  # and indeed none does

    def unread(*_: object) -> FloatArray:
        raise AssertionError("the offsets were read")

    monkeypatch.setattr("vision.centring.certainty_maps", unread)
    centred, gain = centre_on_stones(photo.image, truth)
    assert gain == 0.0
    assert centred is truth


@pytest.mark.parametrize(
    "seed",
    [
        12,  # half a cell off both ways: centring alone puts it right
        14,  # centring lands a line short: the line of stones beyond settles it
        4,  # the line search's bends, fitted to the seams, would leave corners off
        15,  # placed by its stones, but bent up to two cells: the homography reads right
    ],
)
def test_a_crowded_board_the_lines_misplace_is_read_right(seed: int) -> None:
    # The dark seams between touching stones are a lattice half a cell off the
    # grid: the line search lands there, and the stones read as anything but sure.
    photo = crowded_photo(seed)
    truth = true_grid(photo)
    by_lines = find_grid(photo.image, size=19)
    assert by_lines.grid is not None and cells_off(by_lines.grid, truth) > 0.5

    found = detect_board(photo.image, size=19)

    assert found.grid is not None and found.details["centred"] > 0.0
    assert cells_off(found.grid, truth, corners=True) < 0.5  # as kifu bench counts it
    assert read_stones(photo.image, found.grid).board == photo.board


def test_every_offsets_reading_is_that_of_the_board_moved_on_its_own() -> None:
    # The maps are read from one padded board image, not one warp per offset;
    # each must be what reading the board moved by that offset gives. Exactly,
    # on the machines of rounds up to 50; on an AVX2-only one (round 51) the
    # model's float32 products, batched otherwise, differ in the sixth digit.
    photo = crowded_photo(12)
    grid = _moved(true_grid(photo), np.array([0.2, 0.0, 0.0, -0.3, 0.0, 0.0]))
    maps = certainty_maps(photo.image, grid)
    sampler = BoardSampler.for_grid(grid)
    warped = sampler.warp(photo.image)
    side = warped.shape[0]
    for a, b in ((0, 0), (4, 4), (8, 0), (2, 7), (6, 5)):
        move = np.array(
            [[1.0, 0.0, OFFSETS[a] * sampler.cell], [0.0, 1.0, OFFSETS[b] * sampler.cell]],
            dtype=np.float32,
        )
        moved = cv2.warpAffine(
            warped,
            move,
            (side, side),
            flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
            borderMode=cv2.BORDER_REPLICATE,
        )
        np.testing.assert_allclose(maps[a, b], log_certainty(moved, 19), rtol=1e-5, atol=1e-7)


def test_within_photo_kept_a_grid_is_read_once_and_reads_the_same(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    photo = crowded_photo(12)
    truth = true_grid(photo)
    off = _moved(truth, np.array([0.45, 0.0, 0.0, -0.4, 0.0, 0.0]))
    alone = [certainty(photo.image, grid) for grid in (truth, off)]
    reads: list[npt.NDArray[np.uint8]] = []
    read = vision.stones.stone_features

    def counted(warped: npt.NDArray[np.uint8], size: int) -> StoneFeatures:
        reads.append(warped)
        return read(warped, size)

    monkeypatch.setattr("vision.stones.stone_features", counted)
    with photo_kept(photo.image):
        kept = [certainty(photo.image, grid) for grid in (truth, off, truth, off)]
        # The same numbers are the same grid; another photo is read afresh.
        again = true_grid(photo)
        assert certainty(photo.image, again) == alone[0]
        assert len(reads) == 2
        certainty(photo.image.copy(), truth)
        assert len(reads) == 3
    assert kept == alone + alone
    certainty(photo.image, truth)  # kept no longer
    assert len(reads) == 4
