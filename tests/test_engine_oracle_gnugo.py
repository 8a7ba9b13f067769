"""Oracle: GNU Go over GTP (``gnugo --mode gtp --chinese-rules``) agrees with the engine.

Positions come from a sample of the real game records and from seeded random games
on 5x5 to 13x13, where kos and suicide points are common. In each sampled position
GNU Go's ``is_legal`` and Kifu's ``why_illegal`` must agree on every point of the
board for the player to move, and after plays ``showboard``, ``list_stones`` and
``captures`` must show what Kifu's board shows.

GNU Go applies the simple ko rule only, so Kifu is compared under ``ko=simple``;
under the Chinese rules (positional superko) the legal points may only be fewer,
each refused as a repetition.
"""

from __future__ import annotations

import random
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from engine import Color, Game, KoRule, Move, Point, Rules, all_points
from engine.sgf import read_sgf

SIMPLE = Rules(ko=KoRule.SIMPLE)
CHINESE = Rules.chinese()
RECORDS = "sgf/pro-and-ai-games"


class GtpError(Exception):
    """GNU Go answered a command with '?'."""


class Gtp:
    """A GTP session with a GNU Go process."""

    def __init__(self, binary: str) -> None:
        self.process = subprocess.Popen(
            [binary, "--mode", "gtp", "--chinese-rules"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )

    def _reply(self) -> tuple[bool, str]:
        assert self.process.stdout is not None
        lines: list[str] = []
        while True:
            line = self.process.stdout.readline()
            if not line:
                raise GtpError("GNU Go closed the connection")
            if line == "\n" and lines:
                break
            if line != "\n":
                lines.append(line.rstrip("\n"))
        text = "\n".join(lines)
        return text.startswith("="), text[1:].strip()

    def many(self, commands: list[str]) -> list[tuple[bool, str]]:
        """Send a batch of commands, then read the replies: (succeeded, text) each."""
        assert self.process.stdin is not None
        self.process.stdin.write("".join(f"{c}\n" for c in commands))
        self.process.stdin.flush()
        return [self._reply() for _ in commands]

    def __call__(self, command: str) -> str:
        ok, text = self.many([command])[0]
        if not ok:
            raise GtpError(f"{command!r}: {text}")
        return text

    def new_game(self, size: int) -> None:
        self(f"boardsize {size}")
        self("clear_board")

    def close(self) -> None:
        """Say goodbye and close both pipes."""
        self.process.communicate("quit\n", timeout=10)


@pytest.fixture(scope="module")
def gtp(gnugo: str) -> Iterator[Gtp]:
    session = Gtp(gnugo)
    assert session("name") == "GNU Go"
    yield session
    session.close()


@dataclass
class Tally:
    """What the comparisons covered, so the test can tell it saw ko and suicide cases."""

    positions: int = 0
    points: int = 0
    reasons: dict[str, int] = field(default_factory=dict)
    repetitions: int = 0


def showboard_rows(text: str, size: int) -> list[str]:
    """GNU Go's ``showboard`` diagram in Kifu's text form, top row first."""
    rows = []
    for line in text.splitlines():
        parts = line.split()
        if parts and parts[0].isdigit() and len(parts) >= size + 2:
            cells = parts[1 : size + 1]
            rows.append("".join("." if cell in ".+" else cell for cell in cells))
    assert len(rows) == size, text
    return rows


def compare_legality(gtp: Gtp, game: Game, chinese: Game, tally: Tally) -> None:
    """GNU Go and Kifu agree on every point for the player to move."""
    size, color = game.size, game.to_move
    points = all_points(size)
    replies = gtp.many([f"is_legal {color.value} {p.gtp(size)}" for p in points])
    for point, (ok, answer) in zip(points, replies, strict=True):
        assert ok, answer
        error = game.why_illegal(Move(color, point))
        assert (answer == "1") == (error is None), (game.board.diagram(), point, error)
        if error is not None:
            tally.reasons[error.reason] = tally.reasons.get(error.reason, 0) + 1
        strict = chinese.why_illegal(Move(color, point))
        if strict is not None and error is None:
            assert strict.reason == "repetition"
            tally.repetitions += 1
    tally.positions += 1
    tally.points += len(points)


def took_one(game: Game) -> bool:
    """Whether the last move captured one stone: a ko may be on, so check every point."""
    return bool(game.history) and len(game.history[-1].captures) == 1


def compare_board(gtp: Gtp, game: Game) -> None:
    size = game.size
    assert showboard_rows(gtp("showboard"), size) == game.board.rows()
    for color in Color:
        listed = {Point.from_gtp(v, size) for v in gtp(f"list_stones {color.name}").split()}
        assert listed == {p for p, _ in game.board.stones(color)}
        assert int(gtp(f"captures {color.name}")) == game.captures[color]


def play_both(gtp: Gtp, game: Game, chinese: Game, move: Move) -> None:
    gtp(f"play {move.gtp(game.size)}")
    game.play(move)
    chinese.play(move)


def test_real_games_agree_with_gnugo(gtp: Gtp, shared_datasets: Path) -> None:
    """Every 40th record: legality every 30 moves and after single captures, stones always."""
    files = sorted((shared_datasets / RECORDS).glob("*.sgf"))[::40]
    tally = Tally()
    for path in files:
        record = read_sgf(path.read_bytes(), name=path.name)
        gtp.new_game(record.size)
        game, chinese = record.new_game(SIMPLE), record.new_game(CHINESE)
        for number, move in enumerate(record.moves, 1):
            if move.color is not game.to_move:
                game.to_move = chinese.to_move = move.color
            if number % 30 == 0 or took_one(game):
                compare_legality(gtp, game, chinese, tally)
            play_both(gtp, game, chinese, move)
            stones = {c: set(gtp(f"list_stones {c.name}").split()) for c in Color}
            for color in Color:
                assert stones[color] == {p.gtp(19) for p, _ in game.board.stones(color)}
        compare_board(gtp, game)
    assert tally.positions >= 100
    assert tally.reasons["occupied"] > 0
    assert tally.reasons["ko"] > 0


def random_game_positions(
    gtp: Gtp, size: int, rng: random.Random, tally: Tally, *, every: int
) -> None:
    """Play one random game, biased towards retakes; compare as it goes and after captures."""
    gtp.new_game(size)
    game, chinese = Game(size, rules=SIMPLE), Game(size, rules=CHINESE)
    for number in range(1, 3 * size * size):
        if number % every == 0 or took_one(game):
            compare_legality(gtp, game, chinese, tally)
        legal = [m for m in game.legal_moves() if m.point is None or chinese.is_legal(m)]
        retakes = [m for m in legal if m.point is not None and m.point in _last_capture(game)]
        if len(legal) == 1 or game.is_over:
            break
        move = rng.choice(retakes) if retakes and rng.random() < 0.5 else rng.choice(legal[:-1])
        play_both(gtp, game, chinese, move)
    compare_board(gtp, game)


def _last_capture(game: Game) -> frozenset[Point]:
    """The stones the last move took, where a ko or a snapback may be retaken."""
    if not game.history:
        return frozenset()
    before = game.history[-2].captures if len(game.history) > 1 else frozenset()
    return game.history[-1].captures | before


@pytest.mark.parametrize(
    ("size", "games", "every"), [(5, 12, 3), (7, 8, 5), (9, 6, 7), (13, 3, 11)]
)
def test_random_games_agree_with_gnugo_on_every_point(
    gtp: Gtp, size: int, games: int, every: int
) -> None:
    rng = random.Random(size)
    tally = Tally()
    for _ in range(games):
        random_game_positions(gtp, size, rng, tally, every=every)
    assert tally.positions >= 30
    assert tally.reasons.get("ko", 0) > 0, tally
    assert tally.reasons.get("suicide", 0) > 0, tally
    assert tally.reasons.get("occupied", 0) > 0, tally


def test_gnugo_refuses_what_kifu_refuses(gtp: Gtp) -> None:
    """The ko, suicide and occupied cases named by hand, with GNU Go's own words."""
    gtp.new_game(5)
    game = Game(5, rules=SIMPLE)
    for text in ["B B5", "W C5", "B A4", "W B4", "B B3", "W D4", "B E1", "W C3", "B C4"]:
        gtp(f"play {text}")
        game.play(Move.from_gtp(text, 5))
    cases = {"W B4": "ko", "W A5": "suicide", "W C4": "occupied"}
    for text, why in cases.items():
        error = game.why_illegal(Move.from_gtp(text, 5))
        assert error is not None and error.reason == why
        ok, answer = gtp.many([f"play {text}"])[0]
        assert (ok, answer) == (False, "illegal move")
    compare_board(gtp, game)


@pytest.mark.parametrize("size", range(5, 20))
def test_every_point_means_the_same_to_gnugo(gtp: Gtp, size: int) -> None:
    """A stone Kifu puts at (row, col) shows in GNU Go's diagram at that row and column."""
    gtp(f"boardsize {size}")
    commands = []
    for point in all_points(size):
        commands += ["clear_board", f"play B {point.gtp(size)}", "showboard"]
    replies = gtp.many(commands)
    assert all(ok for ok, _ in replies)
    for k, point in enumerate(all_points(size)):
        rows = showboard_rows(replies[3 * k + 2][1], size)
        [(row, col)] = [
            (r, c) for r, line in enumerate(rows) for c, ch in enumerate(line) if ch == "X"
        ]
        assert Point(row, col) == point
