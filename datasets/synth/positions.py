"""Positions to photograph: from real game records, random play, and edge cases.

Game records are replayed with sgfmill's board (captures included) for now. Every
board is returned in text form, top row first (sgfmill counts rows from the bottom,
so they are flipped here, at the edge).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np
from sgfmill import boards, sgf, sgf_moves

from datasets.synth.errors import SynthError
from datasets.synth.model import Board

Move = tuple[str, tuple[int, int] | None]
"""A move as ('b' or 'w', (row, col) from the top-left, or None for a pass)."""

EDGE_CASES = ("empty", "nearly_full", "first_line")


def read_game(path: Path) -> tuple[int, list[Move]]:
    """Board size and main-line moves of an SGF file, points as (row, col) from the top."""
    try:
        game = sgf.Sgf_game.from_bytes(path.read_bytes())
        size = game.get_size()
        _, raw = sgf_moves.get_setup_and_moves(game)
    except (ValueError, KeyError) as error:
        raise SynthError(f"cannot read game record {str(path)!r}: {error}") from error
    moves: list[Move] = []
    for colour, point in raw:
        if colour is None:
            continue
        moves.append((colour, None if point is None else (size - 1 - point[0], point[1])))
    return size, moves


def game_files(folder: Path) -> list[Path]:
    """The ``*.sgf`` files in ``folder``, sorted, or an error naming the folder."""
    if not folder.is_dir():
        raise SynthError(f"game folder not found: {str(folder)!r}")
    files = sorted(folder.glob("*.sgf"))
    if not files:
        raise SynthError(f"no .sgf files in {str(folder)!r}")
    return files


def replay(size: int, moves: Sequence[Move]) -> Board:
    """The position after ``moves``; a move onto an occupied point ends the replay."""
    board = boards.Board(size)
    for colour, point in moves:
        if point is None:
            continue
        row, col = point
        if board.get(size - 1 - row, col) is not None:
            break
        board.play(size - 1 - row, col, colour)
    return to_text(board, size)


def to_text(board: boards.Board, size: int) -> Board:
    """sgfmill's board in Kifu's text form, top row first."""
    symbol = {None: ".", "b": "X", "w": "O"}
    return tuple(
        "".join(symbol[board.get(size - 1 - r, c)] for c in range(size)) for r in range(size)
    )


def from_game(path: Path, *, rng: np.random.Generator) -> tuple[Board, int]:
    """A position part-way through the game in ``path``: (board, moves played)."""
    size, moves = read_game(path)
    played = int(rng.integers(0, len(moves) + 1))
    return replay(size, moves[:played]), played


def random_play(size: int, moves: int, *, rng: np.random.Generator) -> Board:
    """A plausible position from random play that favours the 3rd and 4th lines and contact.

    Used when no game records are at hand. Illegal suicides are skipped.
    """
    board = boards.Board(size)
    line = np.minimum(np.arange(size), size - 1 - np.arange(size))
    weight_1d = np.where(line == 0, 0.3, np.where(line <= 1, 0.7, np.where(line <= 3, 1.6, 1.0)))
    base = np.outer(weight_1d, weight_1d)
    colour = "b"
    for _ in range(moves):
        grid = np.array([[board.get(r, c) is not None for c in range(size)] for r in range(size)])
        near = np.zeros_like(base)
        if grid.any():
            padded = np.pad(grid, 2)
            for dr in range(-2, 3):
                for dc in range(-2, 3):
                    near += padded[2 + dr : 2 + dr + size, 2 + dc : 2 + dc + size]
        weight = base * (1.0 + 0.6 * np.minimum(near, 3)) * ~grid
        if weight.sum() <= 0:
            break
        flat = rng.choice(size * size, p=(weight / weight.sum()).ravel())
        r, c = divmod(int(flat), size)
        trial = board.copy()
        trial.play(r, c, colour)
        if trial.get(r, c) is None:
            continue
        board = trial
        colour = "w" if colour == "b" else "b"
    return to_text(board, size)


def edge_case(kind: str, size: int, *, rng: np.random.Generator) -> Board:
    """An unusual position: ``empty``, ``nearly_full`` or ``first_line`` stones only."""
    if kind == "empty":
        return tuple("." * size for _ in range(size))
    if kind == "first_line":
        cells = [["."] * size for _ in range(size)]
        for r in range(size):
            for c in range(size):
                if (r in (0, size - 1) or c in (0, size - 1)) and rng.uniform() < 0.4:
                    cells[r][c] = "X" if rng.uniform() < 0.5 else "O"
        return tuple("".join(line) for line in cells)
    if kind == "nearly_full":
        return _nearly_full(size, rng=rng)
    raise SynthError(f"unknown edge case {kind!r}; expected one of {', '.join(EDGE_CASES)}")


def _nearly_full(size: int, *, rng: np.random.Generator) -> Board:
    """A board with few empty points: two walls of colour, each group keeping an eye."""
    cells = np.where(rng.uniform(size=(size, size)) < 0.5, "X", "O")
    # Smooth into territories so that groups are big, as at a game's end.
    for _ in range(3):
        padded = np.pad(cells == "X", 1, mode="edge").astype(np.int32)
        votes = sum(
            padded[1 + dr : 1 + dr + size, 1 + dc : 1 + dc + size]
            for dr in (-1, 0, 1)
            for dc in (-1, 0, 1)
        )
        cells = np.where(votes >= 5, "X", "O")
    empty = rng.uniform(size=(size, size)) < 0.06
    # Playing the points in random order with captures leaves every chain a liberty.
    board = boards.Board(size)
    for flat in rng.permutation(size * size):
        r, c = divmod(int(flat), size)
        if not empty[r, c] and board.get(size - 1 - r, c) is None:
            board.play(size - 1 - r, c, "b" if cells[r, c] == "X" else "w")
    return to_text(board, size)
