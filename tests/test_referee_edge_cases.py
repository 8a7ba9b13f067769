"""Situations at a real table that once fooled the referee (found in review).

Each test plays a short 9×9 sequence on a ``Table``: stones are put down and
taken off by hand, and ``look`` is the camera's still observation.
"""

from __future__ import annotations

from typing import Any

from engine import Color, Point
from engine.referee import Declaration, EndEvent, Event, Observation, Referee

SIZE = 9


class Table:
    """The physical board and a referee watching it."""

    def __init__(self, **referee: Any) -> None:
        self.referee = Referee(SIZE, **referee)
        self.stones: dict[Point, Color] = {}
        self.t = 0.0

    def put(self, vertex: str, color: Color) -> Table:
        self.stones[Point.from_gtp(vertex, SIZE)] = color
        return self

    def take(self, vertex: str) -> Table:
        del self.stones[Point.from_gtp(vertex, SIZE)]
        return self

    def look(self, *, unsure: tuple[str, ...] = ()) -> list[Event]:
        """The camera's still observation; ``unsure`` points read with confidence 0.2."""
        self.t += 1
        rows = [["."] * SIZE for _ in range(SIZE)]
        for point, color in self.stones.items():
            rows[point.row][point.col] = color.char
        confidence = None
        if unsure:
            grid = [[1.0] * SIZE for _ in range(SIZE)]
            for vertex in unsure:
                point = Point.from_gtp(vertex, SIZE)
                grid[point.row][point.col] = 0.2
            confidence = tuple(tuple(row) for row in grid)
        board = tuple("".join(row) for row in rows)
        return self.referee.observe(Observation(self.t, board, confidence))

    def play(self, *moves: str) -> None:
        """Moves like "B E5" seen one at a time, each expected to be a plain move."""
        for text in moves:
            color, vertex = text.split()
            events = self.put(vertex, Color.parse(color)).look()
            assert [e.to_json()["type"] for e in events] == ["move"], events


B, W = Color.BLACK, Color.WHITE


def kinds(events: list[Event]) -> list[str]:
    """Each event as its type, an alert as its kind."""
    data = [e.to_json() for e in events]
    return [d["kind"] if d["type"] == "alert" else d["type"] for d in data]


def played(events: list[Event]) -> list[str]:
    data = [e.to_json() for e in events]
    return [f"{d['color']} {d['point']}" for d in data if d["type"] == "move"]


def test_an_unsure_capturing_stone_is_no_evidence_of_an_illegal_capture() -> None:
    table = Table()
    table.play("B B9", "W A9", "B E5", "W F4")
    # Black captures A9 with A8, but the camera is unsure of A8 for a moment.
    assert table.put("A8", B).take("A9").look(unsure=("A8",)) == []
    assert played(table.look()) == ["B A8"]
    assert table.referee.warnings == {B: 0, W: 0}


def test_a_stone_played_back_on_a_just_captured_point_is_a_move() -> None:
    """Black captures A9 and B9; White plays at A9 before the camera sees it empty."""
    table = Table()
    table.play("B C9", "W A9", "B A8", "W B9", "B F4", "W G3")
    assert played(table.put("B8", B).look()) == ["B B8"]  # stones still on: pending
    assert table.take("B9").look() == []  # B9 off; A9 now holds White's new stone
    events = table.put("E5", B).look()
    assert played(events) == ["W A9", "B E5"]
    assert kinds(events) == ["move", "move"]
    assert played(table.put("D6", W).look()) == ["W D6"]


def test_a_capture_and_the_reply_inside_seen_at_once() -> None:
    table = Table()
    table.play("B C9", "W A9", "B A8", "W B9", "B F4", "W G3")
    assert played(table.put("B8", B).look()) == ["B B8"]
    events = table.take("B9").put("E5", B).look()
    assert played(events) == ["W A9", "B E5"]
    assert table.referee.warnings == {B: 0, W: 0}


def test_a_legal_move_and_a_nudged_stone_seen_at_once() -> None:
    table = Table()
    table.play("B C7", "W G3", "B G7")
    events = table.put("E5", W).take("C7").put("C6", B).look()
    assert played(events) == ["W E5"]
    assert kinds(events) == ["move", "displaced_stone"]
    assert kinds(table.take("C6").put("C7", B).look()) == ["resolved"]
    assert played(table.put("D4", B).look()) == ["B D4"]


def test_a_double_move_that_captures() -> None:
    table = Table()
    table.play("B B9", "W A9", "B G3")
    (alert,) = table.put("A8", B).take("A9").look()
    data = alert.to_json()
    assert (data["kind"], data["color"], data["points"], data["warning"]) == (
        "double_move",
        "B",
        ["A9", "A8"],
        True,
    )


def test_dead_stones_taken_off_over_several_observations() -> None:
    table = Table()
    table.play("B E5", "W A9", "B F5", "W J9", "B F4")
    table.referee.declare(Declaration(10, "pass", W))
    table.referee.declare(Declaration(11, "pass", B))
    # A9 off: J9, dead too, still shares the empty area with Black: no count yet.
    assert table.take("A9").look() == []
    (end,) = table.take("J9").look()
    assert isinstance(end, EndEvent)
    assert end.dead == ("A9", "J9")
    assert end.result == "B+73.5"
    assert table.referee.ended is end


def test_dismissing_the_loss_itself_withdraws_it() -> None:
    table = Table()
    table.play("B E5")
    assert kinds(table.put("C7", B).look()) == ["double_move"]
    table.take("C7").look()
    assert kinds(table.put("D6", B).look()) == ["double_move", "loss_by_warnings"]
    loss = next(a for a in table.referee.open_alerts if a.kind == "loss_by_warnings")
    assert kinds(table.referee.dismiss(loss.id, 20)) == ["dismissed"]
    assert table.referee.losses == {}


def test_dismissing_a_confirmed_loss_s_warning_withdraws_the_loss() -> None:
    table = Table()
    table.play("B E5")
    table.put("C7", B).look()
    table.take("C7").look()
    table.put("D6", B).look()
    open_ = {a.kind: a.id for a in table.referee.open_alerts}
    table.referee.confirm(open_["loss_by_warnings"], 20)
    table.referee.dismiss(open_["double_move"], 21)
    assert table.referee.warnings == {B: 1, W: 0}
    assert table.referee.losses == {}


def test_dismissing_a_suicide_never_writes_a_chain_without_liberties() -> None:
    table = Table()
    table.play("B B9", "W F4", "B A8", "W G3", "B E5")
    events = table.put("A9", W).look()
    assert kinds(events) == ["move", "suicide"]
    table.referee.dismiss(events[1].to_json()["id"], 20)
    table.referee.game.board.check_consistency()
    assert table.referee.game.board[Point.from_gtp("A9", SIZE)] is None
    assert played(table.put("D4", W).look()) == []  # still Black's turn: White lost it
    assert table.referee.game.to_move is B


def test_handicap_stones_may_be_straightened_before_whites_first_move() -> None:
    table = Table(handicap=2)
    assert table.put("C7", B).put("F3", B).look() == []
    assert table.take("F3").put("G3", B).look() == []
    assert played(table.put("G7", W).look()) == ["W G7"]
    assert table.referee.record().setup == ((Point(2, 2), B), (Point(6, 6), B))


def test_handicap_stones_and_whites_first_move_seen_at_once() -> None:
    table = Table(handicap=2)
    assert played(table.put("C7", B).put("G3", B).put("G7", W).look()) == ["W G7"]
