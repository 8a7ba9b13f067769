"""Observation logs made from game records, with violations injected on request.

What a referee needs for testing at scale: the stream of still-board observations
a camera would give while a recorded game is played, with the truth beside it (the
record the referee must write and the alerts it must raise, with their times).

Captured stones are taken off the way people do it: often with the move, sometimes
over two or three observations, sometimes one observation late, always before the
opponent's next stone. Each injected violation is followed by the arbiter's
correction (the board put right), so the game then goes on as recorded.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np

from engine import Board, Color, Game, Move, Point
from engine.observation import Declaration, Observation
from engine.referee import ALERT_KINDS
from engine.sgf import GameRecord

#: Violations that can be injected into a real game's stream.
INJECTABLE = (
    "illegal_capture",
    "missed_capture",
    "ko_violation",
    "suicide",
    "double_move",
    "retracted_move",
    "displaced_stone",
    "board_disturbed",
)
MOVE_INTERVAL = 2.0
STEP = 0.25


@dataclass(frozen=True, slots=True)
class ExpectedAlert:
    """An alert the referee must raise: its kind, the offender and the time."""

    kind: str
    color: Color | None
    t: float


@dataclass
class ObservationStream:
    """The observations and declarations, and the truth a referee must reproduce."""

    items: list[Observation | Declaration] = field(default_factory=list)
    moves: list[Move] = field(default_factory=list)
    alerts: list[ExpectedAlert] = field(default_factory=list)
    resolved_at: list[float] = field(default_factory=list)
    injected: list[tuple[int, str]] = field(default_factory=list)


class _Writer:
    """Builds a stream: keeps the clock and the table as a player would see it."""

    def __init__(self, size: int, rng: np.random.Generator) -> None:
        self.table = Board(size)
        self.rng = rng
        self.t = 0.0
        self.out = ObservationStream()

    def observe(self, *, unsure: Collection[Point] = ()) -> float:
        """Record what the camera sees now; ``unsure`` points are read with confidence 0.2."""
        self.t = round(self.t + STEP, 2)
        confidence = None
        if unsure:
            size = self.table.size
            confidence = tuple(
                tuple(0.2 if Point(r, c) in unsure else 1.0 for c in range(size))
                for r in range(size)
            )
        self.out.items.append(Observation(self.t, tuple(self.table.rows()), confidence))
        return self.t

    def next_move_time(self) -> None:
        self.t = round(max(self.t + STEP, (int(self.t / MOVE_INTERVAL) + 1) * MOVE_INTERVAL), 2)

    def declare(self, event: str, color: Color) -> None:
        self.t = round(self.t + STEP, 2)
        self.out.items.append(Declaration(self.t, event, color))  # type: ignore[arg-type]

    def set(self, point: Point, color: Color | None) -> None:
        if self.table[point] is not None:
            self.table.remove(point)
        if color is not None:
            self.table.place(color, point)

    def take_off(self, points: Iterable[Point], *, spread: bool) -> None:
        """Remove stones, in one go or over two or three observations."""
        remaining = sorted(points)
        self.rng.shuffle(remaining)
        while remaining:
            batch = len(remaining)
            if spread and len(remaining) > 1:
                batch = int(self.rng.integers(1, len(remaining) + 1))
            for point in remaining[:batch]:
                self.set(point, None)
            remaining = remaining[batch:]
            self.observe()


def observation_stream(
    record: GameRecord,
    *,
    rng: np.random.Generator,
    violations: Sequence[str] = (),
    max_moves: int | None = None,
    dead: Collection[Point] = (),
    merged: float = 0.0,
    late: float = 0.0,
) -> ObservationStream:
    """The observation log of ``record`` played on a table, with ``violations`` injected.

    When the record ends with two passes, the players then take ``dead`` stones off
    and the counted position is observed once more. Camera trouble on quiet moves:
    with probability ``merged`` a move is not seen until the next one is (both in one
    observation); with probability ``late`` the new stone is read unsure (confidence
    0.2) in its own observation.

    Each violation goes at a random move where it can happen (a ko violation needs a
    ko, a missed capture needs a capture); one that finds no such move is skipped and
    left out of ``injected``.
    """
    unknown = set(violations) - set(INJECTABLE)
    if unknown:
        raise ValueError(f"cannot inject {sorted(unknown)!r}; choose from {INJECTABLE}")
    game = record.new_game()
    writer = _Writer(record.size, rng)
    for point, color in record.setup:
        writer.set(point, color)
    if record.setup:
        writer.observe()
    moves = list(record.moves if max_moves is None else record.moves[:max_moves])
    plan = _plan(record, moves, list(violations), rng)
    out = writer.out
    for k, move in enumerate(moves):
        writer.next_move_time()
        if move.color is not game.to_move:
            break  # records that skip a turn cannot be played out on a table
        kind = plan.get(k)
        if kind in ("ko_violation", "suicide") and _inject_void(writer, game, kind):
            out.injected.append((k, kind))
            writer.next_move_time()
        if move.point is None:
            writer.declare("pass", move.color)
            game.play(move)
            out.moves.append(move)
            continue
        played = game.play(move)
        out.moves.append(move)
        writer.set(move.point, move.color)
        captured = sorted(played.captures)
        quiet = not captured and not any(k + d in plan for d in (-1, 0, 1, 2))
        if quiet and k + 1 < len(moves) and _quiet(game, moves[k + 1]):
            if merged and rng.random() < merged:
                # Seen only with the next stone; never two in a row, or the order
                # of one player's stones could not be told from the table.
                plan[k + 1] = "_seen"
                continue
            if late and rng.random() < late:
                plan[k + 1] = "_seen"
                writer.observe(unsure=(move.point,))
                continue
        if kind == "missed_capture" and captured and k + 1 < len(moves):
            writer.observe()
            out.injected.append((k, kind))
            plan[k + 1] = "_owed:" + ",".join(p.sgf() for p in captured)
            continue
        owed = plan.get(k, "") or ""
        if owed.startswith("_owed:"):
            for point in captured:
                writer.set(point, None)
            t = writer.observe()
            out.alerts.append(ExpectedAlert("missed_capture", move.color.opponent, t))
            writer.take_off(
                [Point.from_sgf(s, record.size) for s in owed[6:].split(",")], spread=False
            )
            out.resolved_at.append(writer.t)
        elif not captured or rng.random() < 0.6:
            for point in captured:
                writer.set(point, None)
            writer.observe()
        else:
            writer.observe()  # the capture is seen late: stones still on
            writer.take_off(captured, spread=True)
        if kind in (
            "illegal_capture",
            "double_move",
            "retracted_move",
            "displaced_stone",
            "board_disturbed",
        ) and _inject_after(writer, game, kind):
            out.injected.append((k, kind))
    if game.is_over and len(out.moves) >= len(moves):
        writer.next_move_time()
        writer.take_off(dead, spread=False)
    elif record.headers.get("RE", "").upper().endswith("+R") and len(out.moves) == len(moves):
        loser = Color.WHITE if record.headers["RE"].upper().startswith("B") else Color.BLACK
        writer.declare("resign", loser)
    _add_losses(out.alerts)
    return out


def _quiet(game: Game, move: Move) -> bool:
    """Whether ``move`` is a stone that captures nothing (so it can be seen late)."""
    if move.point is None or not game.is_legal(move):
        return False
    return not game.copy().play(move).captures


def _add_losses(alerts: list[ExpectedAlert]) -> None:
    """A player's second warning also raises loss_by_warnings at the same time (Art. 24.2)."""
    warnings = {Color.BLACK: 0, Color.WHITE: 0}
    for alert in list(alerts):
        if alert.color is not None and ALERT_KINDS[alert.kind][1]:
            warnings[alert.color] += 1
            if warnings[alert.color] == 2:
                at = alerts.index(alert) + 1
                alerts.insert(at, ExpectedAlert("loss_by_warnings", alert.color, alert.t))


def _plan(
    record: GameRecord, moves: list[Move], violations: list[str], rng: np.random.Generator
) -> dict[int, str]:
    """Choose, for each violation, a move index where it can happen."""
    game = record.new_game()
    ko_at: list[int] = []
    suicide_at: list[int] = []
    capture_at: list[int] = []
    quiet_at: list[int] = []
    for k, move in enumerate(moves):
        if move.color is not game.to_move:
            break
        if k > 0 and move.point is not None:
            if game.ko_point is not None:
                ko_at.append(k)
            if "suicide" in violations and k % 7 == 0 and _suicide_point(game) is not None:
                suicide_at.append(k)
        played = game.play(move)
        following = moves[k + 1].point if k + 1 < len(moves) else None
        if played.captures and following is not None and following not in played.captures:
            capture_at.append(k)
        if move.point is not None and not played.captures and k > 4:
            quiet_at.append(k)
    where = {"ko_violation": ko_at, "suicide": suicide_at, "missed_capture": capture_at}
    plan: dict[int, str] = {}
    for kind in violations:
        candidates = [
            k for k in where.get(kind, quiet_at) if all(abs(k - other) > 3 for other in plan)
        ]
        if candidates:
            plan[int(rng.choice(candidates))] = kind
    return plan


def _suicide_point(game: Game) -> Point | None:
    color = game.to_move
    for r in range(game.size):
        for c in range(game.size):
            point = Point(r, c)
            if game.board[point] is None:
                error = game.why_illegal(Move(color, point))
                if error is not None and error.reason == "suicide":
                    return point
    return None


def _inject_void(writer: _Writer, game: Game, kind: str) -> bool:
    """The player to move makes a void move (ko retaken, suicide), then puts it right.

    The void move costs that player the turn; the opponent then passes so the game
    can go on as recorded.
    """
    color = game.to_move
    point = game.ko_point if kind == "ko_violation" else _suicide_point(game)
    if point is None:
        return False
    board = game.board.copy()
    taken = frozenset() if kind == "suicide" else board.play(color, point, allow_suicide=True)
    writer.set(point, color)
    for p in taken:
        writer.set(p, None)
    t = writer.observe()
    writer.out.alerts.append(ExpectedAlert(kind, color, t))
    game.lose_turn(color)
    writer.out.moves.append(Move.pass_(color))
    writer.set(point, None)
    for p in taken:
        writer.set(p, game.board[p])
    writer.observe()
    writer.out.resolved_at.append(writer.t)
    writer.declare("pass", color.opponent)
    game.play(Move.pass_(color.opponent))
    writer.out.moves.append(Move.pass_(color.opponent))
    return True


def _inject_after(writer: _Writer, game: Game, kind: str) -> bool:
    """A violation right after a move, then the board put right."""
    rng, table, board = writer.rng, writer.table, game.board
    last = game.history[-1].move
    assert last.point is not None
    mover = last.color
    empty = [p for p in _points(board.size) if board[p] is None and table[p] is None]
    restore: list[tuple[Point, Color | None]] = []
    offender: Color | None = mover
    if kind == "illegal_capture":
        victims = [p for p, c in board.stones(mover.opponent)]
        if not victims:
            return False
        point = victims[int(rng.integers(len(victims)))]
        restore = [(point, mover.opponent)]
        writer.set(point, None)
    elif kind == "double_move":
        point = empty[int(rng.integers(len(empty)))]
        restore = [(point, None)]
        writer.set(point, mover)
    elif kind == "retracted_move":
        near = [p for p in last.point.neighbours(board.size) if p in empty]
        if not near:
            return False
        point = near[int(rng.integers(len(near)))]
        restore = [(last.point, mover), (point, None)]
        writer.set(last.point, None)
        writer.set(point, mover)
    elif kind == "displaced_stone":
        options = [
            (p, n)
            for p, c in board.stones()
            if p != last.point
            for n in p.neighbours(board.size)
            if n in empty
        ]
        if not options:
            return False
        old, new = options[int(rng.integers(len(options)))]
        offender = board[old]
        restore = [(old, offender), (new, None)]
        writer.set(old, None)
        writer.set(new, offender)
    else:  # board_disturbed: a sleeve sweeps across several stones
        stones = [p for p, _ in board.stones()]
        if len(stones) < 6:
            return False
        picked = [stones[int(i)] for i in rng.choice(len(stones), size=4, replace=False)]
        if len({board[p] for p in picked}) < 2:
            return False
        spots = [empty[int(i)] for i in rng.choice(len(empty), size=2, replace=False)]
        restore = [(p, board[p]) for p in picked] + [(p, None) for p in spots]
        for p in picked:
            writer.set(p, None)
        writer.set(spots[0], Color.BLACK)
        writer.set(spots[1], Color.WHITE)
        offender = None
    t = writer.observe()
    writer.out.alerts.append(ExpectedAlert(kind, offender, t))
    for point, color in restore:
        writer.set(point, color)
    writer.observe()
    writer.out.resolved_at.append(writer.t)
    return True


def _points(size: int) -> list[Point]:
    return [Point(r, c) for r in range(size) for c in range(size)]


def log_lines(stream: ObservationStream) -> list[str]:
    """The stream as observation-log lines (JSON), as ``kifu referee`` reads them."""
    return [json.dumps(item.to_json(), separators=(",", ":")) for item in stream.items]
