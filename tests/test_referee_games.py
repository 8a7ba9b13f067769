"""The referee on 1,000 real games played out on a table, as a camera would see them.

Each record in ``sgf/pro-and-ai-games`` becomes an observation stream
(:func:`datasets.observations.observation_stream`: one observation per move,
captured stones sometimes taken off over two or three observations, sometimes one
observation late). Played cleanly, the referee must write exactly the record and
raise nothing; with violations injected, it must raise exactly the injected alerts
(kind, offender, time) and still write the record, as an SGF that replays.
Camera trouble (moves seen late, stones read unsure) must change nothing.

Run with ``-s`` to see the counts.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from datasets.observations import INJECTABLE, ObservationStream, observation_stream
from engine.referee import (
    AlertEvent,
    AlertUpdate,
    Declaration,
    EndEvent,
    Event,
    Referee,
    referee_log,
)
from engine.sgf import GameRecord, read_sgf, write_sgf

#: (file name, record, moves to play: all, or those before a malformed record's illegal move).
Game = tuple[str, GameRecord, int | None]

#: Games for the injected runs: a fixed sample, every 10th game for each kind on its
#: own (a different offset per kind), every 10th for all kinds at once.
EACH_KIND_STEP = 10
ALL_KINDS_STEP = 10


@pytest.fixture(scope="module")
def games(shared_datasets: Path) -> list[Game]:
    folder = shared_datasets / "sgf" / "pro-and-ai-games"
    out: list[Game] = []
    for path in sorted(folder.glob("*.sgf")):
        record = read_sgf(path.read_bytes(), name=str(path))
        _, illegal, _ = record.replay()
        out.append((path.name, record, None if illegal is None else illegal - 1))
    assert len(out) == 1000, f"expected 1,000 records in {folder}, found {len(out)}"
    return out


def referee_for(record: GameRecord) -> Referee:
    """A referee set up as the record says: size, komi, handicap and who plays first."""
    return Referee(
        record.size,
        komi=record.komi,
        handicap=record.handicap,
        to_move=record.new_game().to_move,
    )


def stream_of(
    index: int, game: Game, violations: tuple[str, ...] = (), **trouble: float
) -> ObservationStream:
    _, record, max_moves = game
    return observation_stream(
        record,
        rng=np.random.default_rng(index),
        violations=violations,
        max_moves=max_moves,
        **trouble,
    )


def replays_as_written(referee: Referee) -> bool:
    """The SGF the referee writes reads back (sgfmill) and replays to the same game."""
    record = read_sgf(write_sgf(referee.record()), name="referee.sgf")
    game, illegal, _ = record.replay()
    moves = [m.gtp(record.size) for m in game.moves]
    return (
        illegal is None
        and moves == [m.gtp(record.size) for m in referee.game.moves]
        and (game.board == referee.game.board)
    )


def raised(events: list[Event]) -> list[tuple[str, object, float]]:
    return [(e.kind, e.color, e.t) for e in events if isinstance(e, AlertEvent)]


def test_malformed_record_is_played_up_to_its_illegal_move(games: list[Game]) -> None:
    truncated = {name: moves for name, _, moves in games if moves is not None}
    assert list(truncated) == ["0895.sgf"]
    assert truncated["0895.sgf"] > 100


def test_every_game_gives_the_exact_record_and_no_alert(games: list[Game]) -> None:
    counts: Counter[str] = Counter()
    wrong: list[str] = []
    for index, game in enumerate(games):
        name, record, _ = game
        stream = stream_of(index, game)
        referee = referee_for(record)
        events = referee_log(stream.items, referee)
        counts["games"] += 1
        counts["observations"] += len(stream.items)
        counts["moves"] += len(stream.moves)
        counts["alerts"] += len(raised(events))
        if referee.game.moves != stream.moves or raised(events):
            wrong.append(
                f"{name}: {len(referee.game.moves)} of {len(stream.moves)} moves, "
                f"alerts {raised(events)[:3]}"
            )
            continue
        counts["exact"] += 1
        last = stream.items[-1] if stream.items else None
        if isinstance(last, Declaration) and last.event == "resign":
            counts["resignations"] += 1
            assert isinstance(events[-1], EndEvent)
            assert events[-1].result == record.headers["RE"].upper(), name
    print(f"\nclean streams: {dict(counts)}")
    assert not wrong, f"{len(wrong)} of {counts['games']} games wrong: {wrong[:10]}; {counts}"
    assert counts["alerts"] == 0


def check_injected(
    games: list[Game], indices: list[int], violations: tuple[str, ...]
) -> Counter[str]:
    """Referee the sampled games with ``violations`` injected; return what was injected."""
    injected: Counter[str] = Counter()
    wrong: list[str] = []
    for index in indices:
        game = games[index]
        name, record, _ = game
        stream = stream_of(index, game, violations)
        injected.update(kind for _, kind in stream.injected)
        referee = referee_for(record)
        events = referee_log(stream.items, referee)
        want = [(a.kind, a.color, a.t) for a in stream.alerts]
        got = raised(events)
        injected["loss_by_warnings"] += sum(kind == "loss_by_warnings" for kind, _, _ in want)
        resolved = [e.t for e in events if isinstance(e, AlertUpdate) and e.type == "resolved"]
        if not replays_as_written(referee):
            wrong.append(f"{name}: the written SGF does not replay to the refereed game")
        if got != want or referee.game.moves != stream.moves or resolved != stream.resolved_at:
            wrong.append(
                f"{name}: alerts {got} != {want}"
                if got != want
                else f"{name}: moves equal {referee.game.moves == stream.moves}, "
                f"resolved at {resolved} != {stream.resolved_at}"
            )
    assert not wrong, f"{len(wrong)} of {len(indices)} games wrong: {wrong[:5]}; {injected}"
    return injected


@pytest.mark.parametrize("kind", INJECTABLE)
def test_each_injected_violation_gives_exactly_its_alert(games: list[Game], kind: str) -> None:
    offset = INJECTABLE.index(kind)
    indices = list(range(offset, len(games), EACH_KIND_STEP))
    injected = check_injected(games, indices, (kind,))
    print(f"\n{kind}: injected in {injected[kind]} of {len(indices)} games")
    assert injected[kind] >= 20  # ko_violation, the rarest, finds a ko in ~1 game of 4


def test_camera_trouble_loses_no_move_and_raises_nothing(games: list[Game]) -> None:
    """Quiet moves seen only with the next one (10 %), or first read unsure (10 %)."""
    wrong = []
    for index in range(2, len(games), 4):
        name, record, _ = games[index]
        stream = stream_of(index, games[index], merged=0.1, late=0.1)
        referee = referee_for(record)
        events = referee_log(stream.items, referee)
        if referee.game.moves != stream.moves or raised(events):
            wrong.append(f"{name}: alerts {raised(events)[:3]}")
    assert not wrong, f"{len(wrong)} of 250 games wrong: {wrong[:5]}"


def test_all_violations_in_one_game(games: list[Game]) -> None:
    indices = list(range(9, len(games), ALL_KINDS_STEP))
    injected = check_injected(games, indices, INJECTABLE)
    print(f"\nall kinds at once, {len(indices)} games: {dict(injected)}")
    assert set(INJECTABLE) <= set(injected)
    assert injected["loss_by_warnings"] > 0
