"""``kifu bench engine``: replay speed of the rules engine against sgfmill's plain board.

Every record in the folder is parsed once, before any timing. Then, per repeat,
the same moves are replayed three ways:

* Kifu ``Game.play`` under the Chinese rules: turn, occupied point, suicide, simple
  ko and positional superko checked on every move (what ``kifu check`` does);
* Kifu ``Board.play``: captures and the suicide check only;
* sgfmill ``boards.Board.play``: captures only, no rule checked.

A record is replayed up to its first illegal move (0895.sgf has one), so all three
play the same stones (``Game.play`` also plays the records' few passes). The three
take turns record by record and each is timed in CPU seconds of this process, so
other work on a shared machine slows none of them more than the others. Figures
are medians over the repeats; progress goes to stderr.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from sgfmill import boards

from engine import Board, Rules
from engine.errors import KifuError
from engine.sgf import GameRecord, read_sgf

#: The team's 1,000 real game records, relative to this checkout.
DEFAULT_RECORDS = (
    Path(__file__).resolve().parents[2].parent / "shared" / "datasets" / "sgf" / "pro-and-ai-games"
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--dir", type=Path, default=DEFAULT_RECORDS, help="folder of .sgf records to replay"
    )
    parser.add_argument("--repeat", type=int, default=5, help="timed passes over all records")


@dataclass(frozen=True)
class Replay:
    """One record, parsed, with its moves up to the first illegal one."""

    record: GameRecord
    moves: int
    #: The stone moves as (colour code 1/2, Kifu board index) and as sgfmill arguments.
    board_moves: tuple[tuple[int, int], ...]
    sgfmill_moves: tuple[tuple[int, int, str], ...]


def load(folder: Path) -> list[Replay]:
    """Parse every record in ``folder``; raise if there is none."""
    paths = sorted(folder.glob("*.sgf"))
    if not paths:
        raise FileNotFoundError(f"no .sgf records in {str(folder)!r}")
    replays = []
    for path in paths:
        record = read_sgf(path.read_bytes(), name=str(path))
        game, _, _ = record.replay(Rules.chinese())
        played = [p.move for p in game.history]
        size, board = record.size, Board(record.size)
        stones = [m for m in played if m.point is not None]
        replays.append(
            Replay(
                record=record,
                moves=len(played),
                board_moves=tuple(
                    (1 if m.color.value == "B" else 2, board.index(m.point))
                    for m in stones
                    if m.point is not None
                ),
                sgfmill_moves=tuple(
                    (size - 1 - m.point.row, m.point.col, m.color.value.lower())
                    for m in stones
                    if m.point is not None
                ),
            )
        )
    return replays


def kifu_game(replay: Replay) -> int:
    game, _, _ = replay.record.replay(Rules.chinese())
    return len(game.history)


def kifu_board(replay: Replay) -> int:
    play = Board(replay.record.size).play_index
    for code, index in replay.board_moves:
        play(index, code)
    return len(replay.board_moves)


def sgfmill_board(replay: Replay) -> int:
    play = boards.Board(replay.record.size).play
    for row, col, colour in replay.sgfmill_moves:
        play(row, col, colour)
    return len(replay.sgfmill_moves)


RUNNERS: dict[str, Callable[[Replay], int]] = {
    "Kifu Game.play (all rules, positional superko)": kifu_game,
    "Kifu Board.play (captures, suicide check)": kifu_board,
    "sgfmill Board.play (captures only)": sgfmill_board,
}


def run(args: argparse.Namespace) -> int:
    if args.repeat < 1:
        raise KifuError(f"--repeat must be at least 1, not {args.repeat!r}")
    start = time.perf_counter()
    replays = load(args.dir)
    print(
        f"parsed {len(replays)} records in {time.perf_counter() - start:.1f} s",
        file=sys.stderr,
        flush=True,
    )
    seconds: dict[str, list[float]] = {name: [] for name in RUNNERS}
    counts = dict.fromkeys(RUNNERS, 0)
    clock = time.process_time
    for repeat in range(1, args.repeat + 1):
        print(f"[{repeat}/{args.repeat}]", file=sys.stderr, flush=True)
        spent = dict.fromkeys(RUNNERS, 0.0)
        counts = dict.fromkeys(RUNNERS, 0)
        for replay in replays:
            for name, runner in RUNNERS.items():
                start = clock()
                counts[name] += runner(replay)
                spent[name] += clock() - start
        for name in RUNNERS:
            seconds[name].append(spent[name])
    stones = sum(len(r.board_moves) for r in replays)
    print(
        f"{len(replays)} records, {sum(r.moves for r in replays)} moves "
        f"({stones} stones), median CPU seconds of {args.repeat} repeats"
    )
    rates = {name: counts[name] / statistics.median(seconds[name]) for name in RUNNERS}
    for name in RUNNERS:
        median = statistics.median(seconds[name])
        print(f"{name:<48} {median:7.3f} s  {rates[name]:>10,.0f} moves/s")
    baseline = rates["sgfmill Board.play (captures only)"]
    for name in list(RUNNERS)[:2]:
        print(f"{name:<48} {rates[name] / baseline:.2f}x sgfmill's rate")
    return 0
