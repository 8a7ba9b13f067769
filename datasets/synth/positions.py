"""Positions to photograph: from real game records, random play, and edge cases.

Game records are read and replayed with Kifu's own engine (captures included); every
board comes out in Kifu's text form, top row first.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from datasets.synth.errors import SynthError
from datasets.synth.model import Board
from engine import Board as EngineBoard
from engine import Color, IllegalMoveError, KifuError
from engine.sgf import GameRecord, read_sgf

EDGE_CASES = ("empty", "nearly_full", "first_line")


def read_game(path: Path) -> GameRecord:
    """The game record in ``path``, or an error naming the file."""
    try:
        return read_sgf(path.read_bytes(), name=str(path))
    except KifuError as error:
        raise SynthError(f"cannot read game record {str(path)!r}: {error}") from error


def game_files(folder: Path) -> list[Path]:
    """The ``*.sgf`` files in ``folder``, sorted, or an error naming the folder."""
    if not folder.is_dir():
        raise SynthError(f"game folder not found: {str(folder)!r}")
    files = sorted(folder.glob("*.sgf"))
    if not files:
        raise SynthError(f"no .sgf files in {str(folder)!r}")
    return files


def replay(record: GameRecord, moves: int) -> Board:
    """The position after the record's setup and its first ``moves`` moves.

    Tolerant, as a table is: turn order is not checked, and a move the board refuses
    (onto an occupied point, as in some real records, or a suicide) ends the replay.
    """
    board = EngineBoard(record.size)
    for point, color in record.setup:
        board.place(color, point)
    for move in record.moves[:moves]:
        if move.point is None:
            continue
        try:
            board.play(move.color, move.point)
        except IllegalMoveError:
            break
    return tuple(board.rows())


def from_game(path: Path, *, rng: np.random.Generator) -> tuple[Board, int]:
    """A position part-way through the game in ``path``: (board, moves played)."""
    record = read_game(path)
    played = int(rng.integers(0, len(record.moves) + 1))
    return replay(record, played), played


def random_play(size: int, moves: int, *, rng: np.random.Generator) -> Board:
    """A plausible position from random play that favours the 3rd and 4th lines and contact.

    Used when no game records are at hand. Suicides are skipped.
    """
    board = EngineBoard(size)
    line = np.minimum(np.arange(size), size - 1 - np.arange(size))
    weight_1d = np.where(line == 0, 0.3, np.where(line <= 1, 0.7, np.where(line <= 3, 1.6, 1.0)))
    base = np.outer(weight_1d, weight_1d)
    color = Color.BLACK
    for _ in range(moves):
        occupied = np.array([[ch != "." for ch in row] for row in board.rows()])
        near = np.zeros_like(base)
        if occupied.any():
            padded = np.pad(occupied, 2)
            for dr in range(-2, 3):
                for dc in range(-2, 3):
                    near += padded[2 + dr : 2 + dr + size, 2 + dc : 2 + dc + size]
        weight = base * (1.0 + 0.6 * np.minimum(near, 3)) * ~occupied
        if weight.sum() <= 0:
            break
        flat = rng.choice(size * size, p=(weight / weight.sum()).ravel())
        try:
            board.play(color, divmod(int(flat), size))
        except IllegalMoveError:
            continue
        color = color.opponent
    return tuple(board.rows())


def edge_case(kind: str, size: int, *, rng: np.random.Generator) -> Board:
    """An unusual position: ``empty``, ``nearly_full`` or ``first_line`` stones only."""
    if kind == "empty":
        return tuple("." * size for _ in range(size))
    if kind == "first_line":
        # Played in random order with captures, so every chain keeps a liberty.
        board = EngineBoard(size)
        edge = [
            (r, c)
            for r in range(size)
            for c in range(size)
            if min(r, c, size - 1 - r, size - 1 - c) == 0
        ]
        for k in rng.permutation(len(edge)):
            if rng.uniform() < 0.4 and board[edge[k]] is None:
                color = Color.BLACK if rng.uniform() < 0.5 else Color.WHITE
                board.play(color, edge[k], allow_suicide=True)
        return tuple(board.rows())
    if kind == "nearly_full":
        return _nearly_full(size, rng=rng)
    raise SynthError(f"unknown edge case {kind!r}; expected one of {', '.join(EDGE_CASES)}")


def _nearly_full(size: int, *, rng: np.random.Generator) -> Board:
    """A board with few empty points: big areas of each colour, every chain with a liberty."""
    black = rng.uniform(size=(size, size)) < 0.5
    # Smooth into territories so that groups are big.
    for _ in range(3):
        padded = np.pad(black, 1, mode="edge").astype(np.int32)
        votes = sum(
            padded[1 + dr : 1 + dr + size, 1 + dc : 1 + dc + size]
            for dr in (-1, 0, 1)
            for dc in (-1, 0, 1)
        )
        black = np.asarray(votes >= 5, dtype=bool)
    cells = np.where(black, "X", "O")
    cells[rng.uniform(size=(size, size)) < 0.06] = "."
    # A chain left without a liberty gives up one of its points until none is left.
    while True:
        board = EngineBoard.from_diagram("".join(row) for row in cells)
        dead = [sorted(chain) for _, chain, liberties in board.chains() if not liberties]
        if not dead:
            break
        for chain in dead:
            cells[chain[int(rng.integers(len(chain)))]] = "."
    return tuple(board.rows())
