"""Centring an unsure grid on its stones: the offset at which the stones read surest.

On a crowded board the lines hide under the stones, and what the line search
sees instead are the dark seams where touching stones meet. Those run half a
cell off the grid, a lattice of their own, so a grid placed on a crowded board
can sit up to half a cell off its intersections; the stones then read as
anything but sure, and often as empty.

Stones sit on intersections. The stone model (:mod:`vision.learned`) is surest of
its reading on patches centred on them, and least sure at quarter cells off.
Straighten the board once, shift it by every eighth of a cell up to half a cell
each way, and read every point at every shift; then fit the offset, a smooth
(affine) field over the board so that it can also correct the grid's scale and
tilt, at which the whole board reads surest. The grid moves by that field only
when it makes the board clearly surer (``SURER``).

A grid half a cell off is as near the windows either side of it; the stones read
as sure in both, one line over. The stones settle it: of the two, the board is
the window that takes in a line of stones rather than a line of bare margin
(``LINE_SHARE``).

A window lines off a crowded board reads sure too (stones are stones); the
lines of stones it leaves outside tell (:func:`take_in_stones`).

Applied only to placements the lines leave unsure: where crossings are plainly
seen, they fix the intersections better than stones, which sit a little off
them on a real board.
"""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from vision.errors import VisionError
from vision.features import MARGIN, board_numbers
from vision.geometry import apply_homography, fit_homography
from vision.grid import Grid, line_ridges
from vision.kept import once_per_photo
from vision.learned import (
    DOWNSAMPLE,
    board_inputs,
    half_size_lab,
    load_model,
    small_channels,
)
from vision.robust import median, medians
from vision.stones import read_stones, straightened

__all__ = [
    "BEYOND",
    "BEYOND_SHARE",
    "CERTAIN",
    "LINE_SHARE",
    "MIXED",
    "OFFSETS",
    "SURER",
    "centre_on_stones",
    "certainty",
    "certainty_maps",
    "fit_offset_field",
    "half_cell_contrast",
    "take_in_line_ends",
    "take_in_stones",
]

FloatArray = npt.NDArray[np.float64]

#: Offsets (cells, per axis) at which the straightened board is read: eighths of a
#: cell up to half a cell each way (the surest reading falls off within a quarter).
OFFSETS = np.arange(-4, 5, dtype=np.float64) / 8.0
#: Gain in the mean log-probability of the model's readings (per point) that moves
#: the grid. Dev photos (seed 777): unsure grids placed right gained 0.0055 at most
#: (but one, read better a quarter cell over), grids half a cell off 0.02 to 0.1;
#: the real photos' two unsure grids gain 0 and 0.016 (an eighth of a cell, read
#: the same).
SURER = 0.01
#: Log-probability given to a point whose offset leaves the range read.
OUTSIDE = -5.0
#: The most a reading's mean log-probability can be (every point read with
#: probability 1; :func:`certainty` adds 1e-6 before the log).
CERTAIN = float(np.log(1.0 + 1e-6))
#: Steps (cells) of the offset field's coordinate ascent, coarse to fine.
ASCENT_STEPS = (0.125, 0.0625, 0.03125)
#: Share of the line beyond the window that must hold sure stones to move the
#: window a line that way, if the line it gives up holds a third as many at most:
#: a crowded board's edge line against the bare margin beyond it (15 to 19 of 19
#: against 0 on dev photos). A real photo's table beyond a board placed right read
#: as 4 sure stones (gomrade/1/11).
LINE_SHARE = 0.5
#: Move (cells, along an axis) from which the window a line back is weighed: about
#: half a cell, between two windows. A grid moved less was near its window already.
HALF_MOVE = 0.25
#: Reader's confidence for a stone to count on those lines.
SURE_STONE = 0.9
#: Lines read beyond each side of a window for stones left outside it.
BEYOND = 3
#: Share of a line beyond the window that must hold sure stones, ``MIXED`` of
#: each colour at least, for the window to take it in, where the line it gives
#: up on the other side holds next to none (``SPILL``). A board's rim or a dark table
#: beyond a board placed right reads as a row of one colour (dev 777 #168: 19
#: black), a bowl as a few of one colour; a crowded board's edge line holds
#: both. Dev photos (367 unsure placements): from 0.2 to 0.5 with 1 to 3 of
#: each colour, the same two misplaced crowded boards move, and none placed right.
BEYOND_SHARE = 0.3
MIXED = 2
#: Sure stones the lines given up may hold, at most, as a share of those the
#: lines taken in hold. A crowded board's edge stones spill into the margin
#: beyond them, where a window a line off reads a few of them as sure: dev 2468
#: #35 and 1357 #220, a line off, gave up 2 and 3 sure stones for 11 and 14.
#: Where the lines given up could hold no sure stone, those two stayed
#: misplaced (and no photo of the two seeds changed); at a quarter, they alone
#: changed, and no photo of seeds 333, 555 or the held-out seeds.
SPILL = 0.25


def _log_probability(probabilities: npt.NDArray[np.float32], size: int) -> FloatArray:
    """(N, N): the log-probability of the model's reading of each point, from its (N*N, 3)."""
    return np.asarray(np.log(probabilities.max(axis=1) + 1e-6), dtype=np.float64).reshape(
        size, size
    )


def certainty(image: npt.NDArray[np.uint8], grid: Grid) -> float:
    """Mean log-probability of the model's reading of every point on ``grid``.

    Worked out once per grid within :func:`vision.kept.photo_kept` for ``image``
    (a grid is the same only where its numbers are): one detection weighs the
    same grid many times, and on dev photos a fifth of the readings repeated one.
    """
    key = ("certainty", grid.image_shape, grid.homography.tobytes(), grid.intersections.tobytes())
    return once_per_photo(image, key, lambda: _certainty(image, grid))


def _certainty(image: npt.NDArray[np.uint8], grid: Grid) -> float:
    """:func:`certainty`, worked out (from the board straightened, kept for reading its stones)."""
    probabilities = straightened(image, grid).probabilities
    return float(_log_probability(probabilities, grid.size).mean())


def half_cell_contrast(image: npt.NDArray[np.uint8], grid: Grid) -> float:
    """How much surer the board reads on ``grid`` than half a cell off it (the least of three).

    Stones read surest centred on their points, so a board's reading falls off half
    a cell along either axis or both; a table, a book or a floor reads about as
    sure anywhere.
    """
    on = certainty(image, grid)
    off = max(
        certainty(image, _moved(grid, np.array([du, 0.0, 0.0, dv, 0.0, 0.0])))
        for du, dv in ((0.5, 0.0), (0.0, 0.5), (0.5, 0.5))
    )
    return on - off


def certainty_maps(image: npt.NDArray[np.uint8], grid: Grid) -> FloatArray:
    """The model's log-probability of its reading of every point at every offset.

    Returns
    -------
    ndarray of shape (K, K, N, N), float64
        ``[a, b, row, col]``: point ``(row, col)`` read with the grid moved by
        ``OFFSETS[a]`` cells along its columns' axis (u) and ``OFFSETS[b]`` along
        its rows' (v).

    Every offset is a whole, even number of the straightened board's pixels, so
    each moved board is a crop of one board image padded by half a cell (edge
    pixels repeated, as a move would), and its Lab conversions are crops of that
    image's. The board is warped and converted once, not once per offset, and
    the features of all the moved boards are taken together, exactly as one
    board's would be. The board straightened is the one its certainty was read
    from, kept (:func:`vision.stones.straightened`).
    """
    n = grid.size
    warped = straightened(image, grid).warped
    side = warped.shape[0]
    shifts = OFFSETS * (side // (n + 2 * MARGIN))
    pad = int(np.max(np.abs(shifts)))
    if not np.all(shifts % DOWNSAMPLE == 0) or pad % DOWNSAMPLE:
        raise VisionError(f"offsets of {shifts.tolist()} pixels are not whole half-size pixels")
    padded = np.asarray(
        cv2.copyMakeBorder(warped, pad, pad, pad, pad, cv2.BORDER_REPLICATE), dtype=np.uint8
    )
    lab = np.asarray(cv2.cvtColor(padded, cv2.COLOR_BGR2LAB), dtype=np.uint8)
    light, chroma = small_channels(half_size_lab(padded))
    # Views of every moved board at once, [a, b] moved by OFFSETS[a] cells along u
    # (columns) and OFFSETS[b] along v (rows): point (u, v) of the grid moved by
    # (du, dv) pixels is (u + du, v + dv) of this one, that far into the padding.
    first = pad + int(shifts[0])
    step = int(shifts[1] - shifts[0])
    k = len(OFFSETS)
    moved = _moved_views(lab[first:, first:], step, k, side)
    dark, board = board_numbers(moved, n)
    small_first, small_step = first // DOWNSAMPLE, step // DOWNSAMPLE
    small_side = side // DOWNSAMPLE
    inputs = board_inputs(
        _moved_views(light[small_first:, small_first:], small_step, k, small_side),
        _moved_views(chroma[small_first:, small_first:], small_step, k, small_side),
        board,
        dark,
    )
    model = load_model()
    probabilities = model.probabilities(inputs.reshape(k * k * n * n, -1))
    logs = np.log(probabilities.max(axis=-1) + 1e-6)
    return np.asarray(logs, dtype=np.float64).reshape(k, k, n, n)


def _moved_views(image: npt.NDArray[Any], step: int, count: int, side: int) -> npt.NDArray[Any]:
    """``count``² square views of ``image``, ``side`` pixels wide, moved ``step`` pixels apart.

    Shape (count, count, side, side, ...): view ``[a, b]`` starts ``a * step``
    pixels along the columns and ``b * step`` down the rows.
    """
    rows, cols = image.strides[:2]
    return np.lib.stride_tricks.as_strided(
        image,
        shape=(count, count, side, side, *image.shape[2:]),
        strides=(step * cols, step * rows, rows, cols, *image.strides[2:]),
        writeable=False,
    )


def _field(params: FloatArray, n: int) -> tuple[FloatArray, FloatArray]:
    """The offset ``(du, dv)`` at every point of an affine field ``params`` (6 numbers).

    ``du = p0 + p1 x + p2 y`` and ``dv = p3 + p4 x + p5 y``, with ``x, y`` the
    point's column and row scaled to -1..1 across the board.
    """
    rows, cols = np.indices((n, n), dtype=np.float64)
    half = (n - 1) / 2.0
    x, y = (cols - half) / half, (rows - half) / half
    return params[0] + params[1] * x + params[2] * y, params[3] + params[4] * x + params[5] * y


def _mean_certainty(maps: FloatArray, du: FloatArray, dv: FloatArray) -> float:
    """Mean over the points of ``maps`` read at each point's offset (bilinear)."""
    k, n = maps.shape[0], maps.shape[2]
    step = OFFSETS[1] - OFFSETS[0]
    x = np.clip((du - OFFSETS[0]) / step, 0.0, k - 1 - 1e-9)
    y = np.clip((dv - OFFSETS[0]) / step, 0.0, k - 1 - 1e-9)
    x0, y0 = np.floor(x).astype(np.intp), np.floor(y).astype(np.intp)
    fx, fy = x - x0, y - y0
    rows, cols = np.indices((n, n))
    value = (
        maps[x0, y0, rows, cols] * (1 - fx) * (1 - fy)
        + maps[x0 + 1, y0, rows, cols] * fx * (1 - fy)
        + maps[x0, y0 + 1, rows, cols] * (1 - fx) * fy
        + maps[x0 + 1, y0 + 1, rows, cols] * fx * fy
    )
    limit = float(OFFSETS[-1])
    outside = (np.abs(du) > limit) | (np.abs(dv) > limit)
    return float(np.where(outside, OUTSIDE, value).mean())


def fit_offset_field(maps: FloatArray) -> tuple[FloatArray, float]:
    """The affine offset field at which the board reads surest, and that mean certainty.

    Starts from the best single offset for the whole board and climbs, one
    coefficient at a time, in steps from an eighth to a thirty-second of a cell.
    """
    n = maps.shape[2]
    whole = maps.mean(axis=(2, 3))
    a, b = np.unravel_index(int(np.argmax(whole)), whole.shape)
    params = np.array([OFFSETS[a], 0.0, 0.0, OFFSETS[b], 0.0, 0.0])
    best = _mean_certainty(maps, *_field(params, n))
    for step in ASCENT_STEPS:
        moved = True
        while moved:
            moved = False
            for index in range(6):
                for sign in (1.0, -1.0):
                    trial = params.copy()
                    trial[index] += sign * step
                    value = _mean_certainty(maps, *_field(trial, n))
                    if value > best + 1e-9:
                        best, params, moved = value, trial, True
    return params, best


def _moved(grid: Grid, params: FloatArray) -> Grid:
    """The grid's lattice moved by the offset field ``params``, as a plain homography.

    The line search's bends (its lens-distortion fit) are dropped: they were fitted
    to lines that the stones have just shown were not the grid's (on dev photos,
    keeping them left corners up to 0.6 cells off where the homography alone was
    within 0.35).
    """
    n = grid.size
    uv = np.stack(np.meshgrid(np.arange(n, dtype=np.float64), np.arange(n, dtype=np.float64)), -1)
    du, dv = _field(params, n)
    target = apply_homography(grid.homography, uv + np.stack([du, dv], axis=-1))
    homography = fit_homography(uv.reshape(-1, 2), target.reshape(-1, 2))
    if homography is None:  # pragma: no cover - an affine move of a valid grid
        return grid
    return Grid(
        size=n,
        homography=homography,
        intersections=target,
        image_shape=grid.image_shape,
    )


def centre_on_stones(image: npt.NDArray[np.uint8], grid: Grid) -> tuple[Grid, float]:
    """The grid moved to where its stones read surest, and the certainty it gained.

    The line search's bends (its lens-distortion fit) are dropped first where the
    plain homography reads surer: on a crowded board they are fitted to the seams
    between stones (up to two cells on dev photos). Then the grid moves by the
    offset field that makes the board read surer by more than ``SURER`` per point,
    if one does. Returns the grid unchanged with gain 0 when neither helps.

    Parameters
    ----------
    image : ndarray of shape (H, W, 3), uint8
        The BGR photo the grid was found in.
    grid : Grid
    """
    now = certainty(image, grid)
    plain = _moved(grid, np.zeros(6))
    plain_now = certainty(image, plain)
    start, start_now = (plain, plain_now) if plain_now > now else (grid, now)
    if start_now + SURER >= CERTAIN:
        # Reading near certain already, no offset can read surer by SURER.
        return (plain, plain_now - now) if start is plain else (grid, 0.0)
    params, best = fit_offset_field(certainty_maps(image, start))
    if best - start_now > SURER:
        return _settle_window(image, start, params), best - now
    if start is plain:
        return plain, plain_now - now
    return grid, 0.0


def take_in_stones(
    image: npt.NDArray[np.uint8], grid: Grid, *, rounds: int = 2
) -> tuple[Grid, tuple[int, int]]:
    """The window moved whole lines toward lines of stones left outside it, and the move.

    On a crowded board the line search may settle on a window lines off, over
    the bare margin or the table on one side, with lines of stones left outside
    on the other; the stones then still read sure, being stones. The lattice is
    read ``BEYOND`` lines further each way: the window takes in lines beyond it
    that hold sure stones of both colours (``BEYOND_SHARE``, ``MIXED``) where as
    many lines on its other side hold next to none (``SPILL``). Returns ``(grid,
    (columns, rows))``, the grid unchanged and ``(0, 0)`` where nothing calls for
    a move.
    """
    n, k = grid.size, BEYOND
    total = np.zeros(2, dtype=np.int64)
    for _ in range(rounds):
        reading = read_stones(image, grid.shifted(-k, -k, n + 2 * k), look_again=False)
        board = np.array([list(row) for row in reading.board])
        sure = reading.confidence >= SURE_STONE
        marks = ((board == "X") & sure, (board == "O") & sure)
        move = np.zeros(2, dtype=np.int64)
        for axis in (0, 1):  # columns, then rows
            black, white = ((m if axis == 0 else m.T)[k : k + n].sum(axis=0) for m in marks)
            stones = black + white
            holds = (black >= MIXED) & (white >= MIXED) & (stones >= BEYOND_SHARE * n)
            for d in range(1, k + 1):
                ahead, behind = stones[k + n : k + n + d].sum(), stones[k - d : k].sum()
                if holds[k + n : k + n + d].all() and stones[k : k + d].sum() <= SPILL * ahead:
                    move[axis] = d
                if holds[k - d : k].all() and stones[k + n - d : k + n].sum() <= SPILL * behind:
                    move[axis] = -d
        if not move.any():
            break
        grid = grid.shifted(float(move[0]), float(move[1]))
        total += move
    return grid, (int(total[0]), int(total[1]))


def _sure_stones(image: npt.NDArray[np.uint8], grid: Grid) -> npt.NDArray[np.bool_]:
    """(N, N): where the reader sees a stone with confidence ``SURE_STONE`` or more."""
    reading = read_stones(image, grid, look_again=False)
    stones = np.array([list(row) for row in reading.board]) != "."
    return np.asarray(stones & (reading.confidence >= SURE_STONE), dtype=np.bool_)


def _settle_window(image: npt.NDArray[np.uint8], grid: Grid, params: FloatArray) -> Grid:
    """The grid moved by ``params``, or a line over where the stones say so.

    Along each axis, the other window is a line back against the offset (for a
    move of half a cell, the window on the other side of where the grid was): it
    takes in one line beyond the chosen window and gives up the last line on the
    other side.
    """
    chosen = _moved(grid, params)
    stones = _sure_stones(image, chosen)
    for index, axis in ((0, 1), (3, 0)):
        if abs(params[index]) < HALF_MOVE:
            continue
        back = 1.0 if params[index] >= 0 else -1.0
        trial = params.copy()
        trial[index] -= back
        other = _moved(grid, trial)
        other_stones = _sure_stones(image, other)
        # Moved back a line, the other's first line is new and the chosen's last
        # is given up (or, moved forward, its last and the chosen's first).
        first, last = (0, -1) if back > 0 else (-1, 0)
        taken = int(np.take(other_stones, first, axis=axis).sum())
        given = int(np.take(stones, last, axis=axis).sum())
        if taken >= LINE_SHARE * grid.size and given * 3 <= taken:
            params, chosen, stones = trial, other, other_stones
    return chosen


#: Ridge (grey levels) of the window's median gap under which its lines are too
#: faint for :func:`take_in_line_ends` to tell where they end. Dev 1357 #53, a
#: sparse dark board placed a column off, reads 2.9 there; at 3.0 it stayed
#: misplaced, at 2.0 it reads right and no other photo of the dev seeds changed.
ENDS_FLOOR = 2.0
#: Share of the window's own gaps that must show the lines crossing them (over
#: ``GAP_SHOWN`` of the median gap) for it to be read so: where stones crowd the
#: board or glare washes it, the gaps' ridges say little. Dev photos (seed 2468):
#: the windows a line off that it mends, 0.89 or more; three right windows it
#: would move a line off, 0.58 to 0.62.
LINED_GAPS = 0.8
#: A gap is bare under ``GAP_BARE`` of the median gap's ridge, and shows lines
#: over ``GAP_SHOWN`` of it. Dev photos (seed 2468, 421 axes of boards placed
#: right whose gaps are read): the gaps just outside read 0.38 of the median at
#: most (5 of their first or last gaps read under 0.4); the windows a line off
#: that it mends, a bare end of -0.22 to 0.39 and the gap beyond the other end
#: 0.70 to 1.16.
GAP_BARE = 0.4
GAP_SHOWN = 0.5
#: Share of its points read as stones from which the line a window would give up
#: is a board's edge line, not its margin: stones along a crowded board's edge
#: hide the lines of its last gap. Dev photos (hard synthetic, seeds 1357, 2468,
#: 333): the lines given up by the five moves that read a misplaced board right
#: hold no stone; the two that would misplace a crowded board, 11 of 13 and 17
#: of 19. A margin or a rim beside a right window can read a stray stone or three.
EDGE_STONES = 1 / 3


def take_in_line_ends(
    image: npt.NDArray[np.uint8], grid: Grid, *, rounds: int = 2
) -> tuple[Grid, tuple[int, int]]:
    """The window moved a line where the board's lines end a line beyond it, and the move.

    A board's lines stop at its outer lines. A window a line off puts one outer
    line on the margin or the board's rim, which may pass for a line in the
    crossings the search counts; but the lines crossing it do not reach it
    there, and they run on a gap beyond its other side. Along each axis, each
    gap between two lattice lines, from the one before the window to the one
    after it, gets the median over the crossing lines of their ridge in it
    (:func:`vision.grid.line_ridges`). Where the window's gaps show their lines
    (``LINED_GAPS``, ``ENDS_FLOOR``), its first gap is bare and the gap after
    its last shows lines (``GAP_BARE``, ``GAP_SHOWN``), it moves a line on,
    unless the line it would give up is a line of stones (``EDGE_STONES``); and
    so the other way. On a crowded board, stones along the edge hide the lines
    of its last gap, and their shadows ridge the margin. Returns ``(grid,
    (columns, rows))``, the grid unchanged and ``(0, 0)`` where nothing calls
    for a move.
    """
    gray = np.asarray(
        image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), dtype=np.float32
    )
    n = grid.size
    gaps = np.arange(-1, n, dtype=np.float64)  # gap j lies between lines j and j + 1
    along = (gaps[:, None] + np.array([0.3, 0.5, 0.7])).ravel()
    crossing = np.arange(n, dtype=np.float64)
    total = np.zeros(2, dtype=np.int64)
    for _ in range(rounds):
        move = np.zeros(2, dtype=np.int64)
        for axis in (0, 1):  # columns (their gaps lie along the rows), then rows
            ridges = line_ridges(gray, grid.homography, crossing, along, axis=axis)
            gap = medians(ridges.reshape(n, n + 1, 3).mean(axis=2).T)
            before, inside, after = gap[0], gap[1:n], gap[n]
            typical = median(inside)
            if typical < ENDS_FLOOR or np.mean(inside > GAP_SHOWN * typical) < LINED_GAPS:
                continue
            share = inside / typical
            if share[0] < GAP_BARE and after > GAP_SHOWN * typical:
                move[axis] = 1
            elif share[-1] < GAP_BARE and before > GAP_SHOWN * typical:
                move[axis] = -1
        if move.any():
            board = read_stones(image, grid, look_again=False).board
            stones = np.array([list(row) for row in board]) != "."
            for index, held in ((0, stones.mean(axis=0)), (1, stones.mean(axis=1))):
                given_up = 0 if move[index] > 0 else n - 1
                if move[index] and held[given_up] >= EDGE_STONES:
                    move[index] = 0
        if not move.any():
            break
        grid = grid.shifted(float(move[0]), float(move[1]))
        total += move
    return grid, (int(total[0]), int(total[1]))
