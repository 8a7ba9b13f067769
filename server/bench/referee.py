"""``kifu bench referee``: how fast the referee follows whole games, beside Game.play.

The recorder will call the referee live, once per still board; it must never be
the bottleneck. For each of the first ``--games`` real records, the observation
stream a camera would give (:func:`datasets.observations.observation_stream`,
fixed seed per game) is built before any timing. Then, per game:

* the referee takes the whole stream (every observation and declaration, the end
  included): observations per second, and the time of each single call;
* the peer: ``Game.play`` replays the same game's moves, nothing else
  (moves per second).

Figures are medians over the games (and percentiles over every single call);
progress goes to stderr.
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from datasets.observations import ObservationStream, observation_stream
from engine.errors import KifuError
from engine.referee import Referee
from engine.sgf import GameRecord, read_sgf

#: The team's 1,000 real game records, relative to this checkout.
DEFAULT_RECORDS = (
    Path(__file__).resolve().parents[2].parent / "shared" / "datasets" / "sgf" / "pro-and-ai-games"
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--dir", type=Path, default=DEFAULT_RECORDS, help="folder of .sgf records to play out"
    )
    parser.add_argument(
        "--games", type=int, default=100, metavar="N", help="the first N records (100)"
    )


@dataclass(frozen=True)
class Played:
    """One record and the observation stream of it, ready to time."""

    name: str
    record: GameRecord
    stream: ObservationStream


def load(folder: Path, games: int) -> list[Played]:
    """The first ``games`` records of ``folder`` with their streams (a malformed record
    is played up to its first illegal move)."""
    paths = sorted(folder.glob("*.sgf"))[:games]
    if not paths:
        raise FileNotFoundError(f"no .sgf records in {str(folder)!r}")
    out = []
    for index, path in enumerate(paths):
        record = read_sgf(path.read_bytes(), name=str(path))
        _, illegal, _ = record.replay()
        stream = observation_stream(
            record,
            rng=np.random.default_rng(index),
            max_moves=None if illegal is None else illegal - 1,
        )
        out.append(Played(path.name, record, stream))
    return out


def referee_game(played: Played) -> tuple[float, list[float]]:
    """Seconds for the whole stream, and for each single call."""
    record = played.record
    referee = Referee(
        record.size, komi=record.komi, handicap=record.handicap, to_move=record.new_game().to_move
    )
    calls = []
    clock = time.perf_counter
    start = clock()
    for item in played.stream.items:
        before = clock()
        referee.feed(item)
        calls.append(clock() - before)
    if played.stream.items:
        referee.finish(played.stream.items[-1].t)
    return clock() - start, calls


def replay_game(played: Played) -> float:
    """Seconds for Game.play to replay the stream's moves."""
    game = played.record.new_game()
    play = game.play
    start = time.perf_counter()
    for move in played.stream.moves:
        play(move)
    return time.perf_counter() - start


def run(args: argparse.Namespace) -> int:
    if args.games < 1:
        raise KifuError(f"--games must be at least 1, not {args.games!r}")
    start = time.perf_counter()
    games = load(args.dir, args.games)
    # The preloaded streams would not exist live: keep them out of the collector's
    # full sweeps, which would otherwise land on some unlucky single call.
    gc.collect()
    gc.freeze()
    print(
        f"built {len(games)} observation streams in {time.perf_counter() - start:.1f} s",
        file=sys.stderr,
        flush=True,
    )
    referee_rates, replay_rates, calls = [], [], []
    for k, played in enumerate(games, start=1):
        seconds, each = referee_game(played)
        referee_rates.append(len(played.stream.items) / seconds)
        calls += each
        if played.stream.moves:
            replay_rates.append(len(played.stream.moves) / replay_game(played))
        if k % 10 == 0 or k == len(games):
            print(f"[{k}/{len(games)}] {played.name}", file=sys.stderr, flush=True)
    observations = sum(len(p.stream.items) for p in games)
    moves = sum(len(p.stream.moves) for p in games)
    referee_rate = statistics.median(referee_rates)
    replay_rate = statistics.median(replay_rates)
    quantiles = statistics.quantiles(calls, n=100)
    print(f"{len(games)} games, {observations} observations and declarations, {moves} moves")
    print(f"{'referee, whole games':<36} {referee_rate:>10,.0f} observations/s (median of games)")
    print(f"{'Game.play, same moves':<36} {replay_rate:>10,.0f} moves/s (median of games)")
    print(f"{'referee per observation':<36} {1e6 / referee_rate:>10,.0f} µs")
    print(f"{'Game.play per move':<36} {1e6 / replay_rate:>10,.0f} µs")
    print(f"{'ratio':<36} {replay_rate / referee_rate:>10.1f}x Game.play's cost")
    print(
        f"{'single calls':<36} median {statistics.median(calls) * 1e3:.2f} ms, "
        f"99th percentile {quantiles[98] * 1e3:.2f} ms, worst {max(calls) * 1e3:.2f} ms"
    )
    return 0
