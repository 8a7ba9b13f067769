"""The referee, scenario by scenario: what the table showed, what the arbiter hears.

Every scenario is a 7x7 game. :func:`watched` plays a diagram's stones out on the
table one observation at a time (the opening, known good); each step after it is a
full diagram of the table as the camera saw it, at a fixed time ``t`` from 100 on.
Columns are A-G, rows 7 (top) to 1 (bottom), as the alerts name them.
"""

from __future__ import annotations

from typing import Any

import pytest

from engine import Color
from engine.referee import (
    ALERT_KINDS,
    AlertEvent,
    AlertUpdate,
    Declaration,
    EndEvent,
    Event,
    MoveEvent,
    Observation,
    Referee,
)

SIZE = 7
KOMI = 7.5

#: The public alert kinds (issue 3): the article each cites and whether it costs a warning.
KINDS = {
    "illegal_capture": ("18.1", True),
    "missed_capture": ("18.2", True),
    "ko_violation": ("18.3", True),
    "repetition": ("20.2", False),
    "suicide": ("19", False),
    "double_move": ("17.2", True),
    "retracted_move": ("17.3", True),
    "displaced_stone": ("17.5", False),
    "board_disturbed": ("17.6", False),
    "loss_by_warnings": ("24.2", False),
}


def rows(diagram: str) -> tuple[str, ...]:
    """Board rows from a diagram written with a space between points."""
    return tuple(line.replace(" ", "") for line in diagram.strip().splitlines())


def seen(t: float, diagram: str, *, unsure: dict[str, float] | None = None) -> Observation:
    """What the camera saw at ``t``; ``unsure`` gives a low confidence to some points."""
    board = rows(diagram)
    if unsure is None:
        return Observation(t, board)
    columns = "ABCDEFG"
    confidence = [[1.0] * SIZE for _ in range(SIZE)]
    for name, value in unsure.items():
        confidence[SIZE - int(name[1:])][columns.index(name[0])] = value
    return Observation(t, board, tuple(tuple(row) for row in confidence))


def watched(diagram: str, *, handicap: int = 0) -> Referee:
    """A referee that watched the diagram's stones played one at a time.

    Black's and White's stones go down alternately, each in reading order, Black
    first; a player with no stone left passes. With a handicap, Black's first
    stones are the handicap stones and White plays first. The diagram must have no
    chain without liberties, so no stone is captured on the way.
    """
    referee = Referee(SIZE, komi=None if handicap else KOMI, handicap=handicap)
    final = rows(diagram)
    stones = {
        color: [(r, c) for r, row in enumerate(final) for c, char in enumerate(row) if char == ch]
        for color, ch in ((Color.BLACK, "X"), (Color.WHITE, "O"))
    }
    table = [["."] * SIZE for _ in range(SIZE)]
    t = 0.0
    for r, c in stones[Color.BLACK][:handicap]:
        t += 1
        table[r][c] = "X"
        assert referee.observe(Observation(t, tuple("".join(row) for row in table))) == []
    del stones[Color.BLACK][:handicap]
    order = (Color.WHITE, Color.BLACK) if handicap else (Color.BLACK, Color.WHITE)
    while stones[Color.BLACK] or stones[Color.WHITE]:
        for color in order:
            if not (stones[Color.BLACK] or stones[Color.WHITE]):
                break
            t += 1
            if stones[color]:
                r, c = stones[color].pop(0)
                table[r][c] = color.char
                events = referee.observe(Observation(t, tuple("".join(row) for row in table)))
            else:
                events = referee.declare(Declaration(t, "pass", color))
            assert [type(e) for e in events] == [MoveEvent], events
    assert referee.game.board.rows() == list(final)
    return referee


def alerts(events: list[Event]) -> list[dict[str, Any]]:
    return [e.to_json() for e in events if isinstance(e, AlertEvent)]


def moves(events: list[Event]) -> list[str]:
    """The moves as "B D4" (a lost turn as "W pass lost")."""
    out = []
    for e in events:
        if isinstance(e, MoveEvent):
            out.append(f"{e.color.value} {e.point}" + (" lost" if e.lost_turn else ""))
    return out


def closed(events: list[Event]) -> list[tuple[str, str]]:
    return [(e.type, e.alert) for e in events if isinstance(e, AlertUpdate)]


def check_alert(
    alert: dict[str, Any], kind: str, color: str | None, points: list[str], t: float
) -> None:
    """The alert's JSON says what happened, to whom, where, when and under which article."""
    assert alert["type"] == "alert"
    assert alert["kind"] == kind
    assert alert["article"] == KINDS[kind][0]
    assert alert["warning"] is KINDS[kind][1]
    assert alert["color"] == color
    assert alert["points"] == points
    assert alert["t"] == t
    assert isinstance(alert["message"], str) and alert["message"].strip()
    assert isinstance(alert["id"], str) and alert["id"]


def test_alert_kinds_are_the_public_ones() -> None:
    assert ALERT_KINDS == KINDS


def test_watched_opening_is_plain_moves() -> None:
    referee = watched(
        """
        . . . . . . .
        . . . . . . .
        . . X . . . .
        . . O . . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
        """
    )
    assert [m.gtp(SIZE) for m in referee.game.moves] == ["B C5", "W C4"]
    assert referee.game.to_move is Color.BLACK


# -- one scenario per alert kind ------------------------------------------------------


def test_illegal_capture_stone_with_liberties_taken_off() -> None:
    referee = watched(
        """
        . . . . . . .
        . . . . . . .
        . . X . . . .
        . . O . . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
        """
    )
    events = referee.observe(
        seen(
            100,
            """
            . . . . . . .
            . . . . . . .
            . . X . . . .
            . . . . . . .
            . . . . . . .
            . . . . . . .
            . . . . . . .
            """,
        )
    )
    (alert,) = alerts(events)
    check_alert(alert, "illegal_capture", "B", ["C4"], 100)
    assert moves(events) == []
    assert referee.warnings == {Color.BLACK: 1, Color.WHITE: 0}

    # Black plays on while the stone is still off: the move counts, no second alert.
    events = referee.observe(
        seen(
            101,
            """
            . . . . . . .
            . . . . . . .
            . . X . . . .
            . . . . . . .
            . . . . X . .
            . . . . . . .
            . . . . . . .
            """,
        )
    )
    assert moves(events) == ["B E3"]
    assert alerts(events) == []

    events = referee.observe(
        seen(
            102,
            """
            . . . . . . .
            . . . . . . .
            . . X . . . .
            . . O . . . .
            . . . . X . .
            . . . . . . .
            . . . . . . .
            """,
        )
    )
    assert closed(events) == [("resolved", alert["id"])]
    assert referee.open_alerts == []
    assert referee.game.board[(3, 2)] is Color.WHITE


def test_illegal_capture_with_a_move() -> None:
    referee = watched(
        """
        . . . . . . .
        . . . . . . .
        . . X . . . .
        . X O . . . .
        . . . . . . .
        . . . . . . .
        . . . . . . O
        """
    )
    # Black plays D4, which leaves C4 a liberty at C3, and takes C4 off with it.
    events = referee.observe(
        seen(
            100,
            """
            . . . . . . .
            . . . . . . .
            . . X . . . .
            . X . X . . .
            . . . . . . .
            . . . . . . .
            . . . . . . O
            """,
        )
    )
    assert [e.to_json()["captures"] for e in events if isinstance(e, MoveEvent)] == [[]]
    assert moves(events) == ["B D4"]
    (alert,) = alerts(events)
    check_alert(alert, "illegal_capture", "B", ["C4"], 100)
    events = referee.observe(
        seen(
            101,
            """
            . . . . . . .
            . . . . . . .
            . . X . . . .
            . X O X . . .
            . . . . . . .
            . . . . . . .
            . . . . . . O
            """,
        )
    )
    assert closed(events) == [("resolved", alert["id"])]
    assert referee.game.board[(3, 2)] is Color.WHITE


def test_illegal_capture_beside_a_legal_one() -> None:
    referee = watched(
        """
        . . . . . . O
        . . . . . . .
        . . X . . . .
        . X O . . . .
        . . X . . . .
        . . . . . . .
        . . . . . O O
        """
    )
    # Black D4 captures C4 rightly, and F1 comes off with it wrongly.
    events = referee.observe(
        seen(
            100,
            """
            . . . . . . O
            . . . . . . .
            . . X . . . .
            . X . X . . .
            . . X . . . .
            . . . . . . .
            . . . . . . O
            """,
        )
    )
    assert [e.to_json()["captures"] for e in events if isinstance(e, MoveEvent)] == [["C4"]]
    (alert,) = alerts(events)
    check_alert(alert, "illegal_capture", "B", ["F1"], 100)


def test_missed_capture_all_left_on() -> None:
    referee = watched(
        """
        . . . . . . O
        . . . . . . .
        . . X . . . .
        . X O . . . .
        . . X . . . .
        . . . . . . .
        . . . . . . O
        """
    )
    # Black captures C4 with D4; the stone stays on while White thinks.
    events = referee.observe(
        seen(
            100,
            """
            . . . . . . O
            . . . . . . .
            . . X . . . .
            . X O X . . .
            . . X . . . .
            . . . . . . .
            . . . . . . O
            """,
        )
    )
    assert [e.to_json() for e in events] == [
        {"type": "move", "number": 7, "color": "B", "point": "D4", "captures": ["C4"], "t": 100}
    ]
    assert referee.pending == {(3, 2): Color.WHITE}
    # White's next stone appears with C4 still on: Black missed the capture.
    events = referee.observe(
        seen(
            101,
            """
            . . . . . . O
            . . . . . . .
            . . X . . . .
            . X O X . . .
            . . X . . . .
            . . . . O . .
            . . . . . . O
            """,
        )
    )
    assert moves(events) == ["W E2"]
    (alert,) = alerts(events)
    check_alert(alert, "missed_capture", "B", ["C4"], 101)
    assert referee.warnings == {Color.BLACK: 1, Color.WHITE: 0}
    # The game goes on as if it had been taken off.
    assert referee.game.board[(3, 2)] is None
    events = referee.observe(
        seen(
            102,
            """
            . . . . . . O
            . . . . . . .
            . . X . . . .
            . X . X . . .
            . . X . . . .
            . . . . O . .
            . . . . . . O
            """,
        )
    )
    assert closed(events) == [("resolved", alert["id"])]
    assert alerts(events) == []


def test_missed_capture_partly_taken_off() -> None:
    referee = watched(
        """
        O . . . . . O
        . . . . . . .
        . . X X . . .
        . X O O . . .
        . . X X . . .
        . . . . . . .
        O . . . . . O
        """
    )
    # Black captures C4 and D4 with E4 and takes only D4 off.
    events = referee.observe(
        seen(
            100,
            """
            O . . . . . O
            . . . . . . .
            . . X X . . .
            . X O . X . .
            . . X X . . .
            . . . . . . .
            O . . . . . O
            """,
        )
    )
    assert [e.to_json()["captures"] for e in events] == [["C4", "D4"]]
    events = referee.observe(
        seen(
            101,
            """
            O . . . . . O
            . . . . . . .
            . . X X . . .
            . X O . X . .
            . . X X . . .
            . . . . . O .
            O . . . . . O
            """,
        )
    )
    assert moves(events) == ["W F2"]
    (alert,) = alerts(events)
    check_alert(alert, "missed_capture", "B", ["C4"], 101)


def test_captured_stones_are_owed_to_the_capturer_across_a_pass() -> None:
    referee = watched(
        """
        . . . . . . O
        . . . . . . .
        . . X . . . .
        . X O . . . .
        . . X . . . .
        . . . . . . .
        . . . . . . O
        """
    )
    # Black D4 captures C4, left on; White passes; Black plays B1 with C4 still on.
    events = referee.observe(
        seen(
            100,
            """
            . . . . . . O
            . . . . . . .
            . . X . . . .
            . X O X . . .
            . . X . . . .
            . . . . . . .
            . . . . . . O
            """,
        )
    )
    events += referee.declare(Declaration(101, "pass", Color.WHITE))
    events += referee.observe(
        seen(
            102,
            """
            . . . . . . O
            . . . . . . .
            . . X . . . .
            . X O X . . .
            . . X . . . .
            . . . . . . .
            . X . . . . O
            """,
        )
    )
    assert moves(events) == ["B D4", "W pass", "B B1"]
    # Not yet an alert: White's next stone has not appeared. When it does, the
    # capture Black left undone is Black's, not White's.
    assert alerts(events) == []
    events = referee.observe(
        seen(
            103,
            """
            . . . . . . O
            . . . . . . .
            . . X . . . .
            . X O X . . .
            . . X . . . .
            . . . . . O .
            . X . . . . O
            """,
        )
    )
    assert moves(events) == ["W F2"]
    (alert,) = alerts(events)
    check_alert(alert, "missed_capture", "B", ["C4"], 103)
    assert referee.warnings == {Color.BLACK: 1, Color.WHITE: 0}


KO = """
    . . . . . . .
    . . X O . . .
    . X O . O . .
    . . X O . . .
    . . . . . . .
    . . . . . X .
    . . . . . . .
    """


def test_ko_violation_retaken_at_once() -> None:
    referee = watched(KO)
    events = referee.observe(
        seen(
            100,
            """
            . . . . . . .
            . . X O . . .
            . X . X O . .
            . . X O . . .
            . . . . . . .
            . . . . . X .
            . . . . . . .
            """,
        )
    )
    assert [e.to_json()["captures"] for e in events] == [["C5"]]
    # White retakes at once: void, the turn is lost, a warning.
    events = referee.observe(
        seen(
            101,
            """
            . . . . . . .
            . . X O . . .
            . X O . O . .
            . . X O . . .
            . . . . . . .
            . . . . . X .
            . . . . . . .
            """,
        )
    )
    assert moves(events) == ["W pass lost"]
    assert events[0].to_json()["lost_turn"] is True
    (alert,) = alerts(events)
    check_alert(alert, "ko_violation", "W", ["C5", "D5"], 101)
    assert referee.warnings == {Color.BLACK: 0, Color.WHITE: 1}
    assert referee.game.history[-1].lost_turn
    assert referee.game.to_move is Color.BLACK
    note = referee.record().notes[len(referee.game.history) - 1].comment
    assert note is not None and "Art. 18.3" in note and "turn lost" in note
    # The board is put back: Black's stone on D5 again, White's off C5.
    events = referee.observe(
        seen(
            102,
            """
            . . . . . . .
            . . X O . . .
            . X . X O . .
            . . X O . . .
            . . . . . . .
            . . . . . X .
            . . . . . . .
            """,
        )
    )
    assert closed(events) == [("resolved", alert["id"])]
    assert referee.open_alerts == []
    # The game goes on: Black plays elsewhere, and now White may retake.
    referee.observe(
        seen(
            103,
            """
            . . . . . . .
            . . X O . . .
            . X . X O . .
            . . X O . . .
            . . . . . . .
            . . . . . X X
            . . . . . . .
            """,
        )
    )
    events = referee.observe(
        seen(
            104,
            """
            . . . . . . .
            . . X O . . .
            . X O . O . .
            . . X O . . .
            . . . . . . .
            . . . . . X X
            . . . . . . .
            """,
        )
    )
    assert [e.to_json() for e in events] == [
        {"type": "move", "number": 12, "color": "W", "point": "C5", "captures": ["D5"], "t": 104}
    ]


def test_repetition_sending_two_returning_one() -> None:
    referee = watched(
        """
        . . . . . . .
        . . . . . X .
        . . . . . . .
        . . . . . . .
        . . . . . . .
        . O O X . . .
        O X . O X . .
        """
    )
    # Black C1 takes D1 (one stone, but no ko: C1 joins B1).
    referee.observe(
        seen(
            100,
            """
            . . . . . . .
            . . . . . X .
            . . . . . . .
            . . . . . . .
            . . . . . . .
            . O O X . . .
            O X X . X . .
            """,
        )
    )
    # White D1 takes the two stones B1 and C1.
    events = referee.observe(
        seen(
            101,
            """
            . . . . . . .
            . . . . . X .
            . . . . . . .
            . . . . . . .
            . . . . . . .
            . O O X . . .
            O . . O X . .
            """,
        )
    )
    assert [e.to_json()["captures"] for e in events] == [["B1", "C1"]]
    assert referee.game.ko_point is None
    # Black B1 would bring back the position before C1: not a ko, a repetition.
    events = referee.observe(
        seen(
            102,
            """
            . . . . . . .
            . . . . . X .
            . . . . . . .
            . . . . . . .
            . . . . . . .
            . O O X . . .
            O X . O X . .
            """,
        )
    )
    assert moves(events) == ["B pass lost"]
    (alert,) = alerts(events)
    check_alert(alert, "repetition", "B", ["B1"], 102)
    assert referee.warnings == {Color.BLACK: 0, Color.WHITE: 0}
    events = referee.observe(
        seen(
            103,
            """
            . . . . . . .
            . . . . . X .
            . . . . . . .
            . . . . . . .
            . . . . . . .
            . O O X . . .
            O . . O X . .
            """,
        )
    )
    assert closed(events) == [("resolved", alert["id"])]


def test_repetition_triple_ko() -> None:
    # Three kos: Black may take the top one (B7) and the right one (G3), White the
    # bottom one (B1). Taking and retaking in turn brings the start back after six moves.
    referee = watched(
        """
        X O . O . . .
        . X O . . . .
        . . . . . . X
        . . X . . X O
        . . . . . O .
        . X O . . . O
        X . X O . . .
        """
    )
    steps = [
        """
        X . X O . . .
        . X O . . . .
        . . . . . . X
        . . X . . X O
        . . . . . O .
        . X O . . . O
        X . X O . . .
        """,
        """
        X . X O . . .
        . X O . . . .
        . . . . . . X
        . . X . . X O
        . . . . . O .
        . X O . . . O
        X O . O . . .
        """,
        """
        X . X O . . .
        . X O . . . .
        . . . . . . X
        . . X . . X .
        . . . . . O X
        . X O . . . O
        X O . O . . .
        """,
        """
        X O . O . . .
        . X O . . . .
        . . . . . . X
        . . X . . X .
        . . . . . O X
        . X O . . . O
        X O . O . . .
        """,
        """
        X O . O . . .
        . X O . . . .
        . . . . . . X
        . . X . . X .
        . . . . . O X
        . X O . . . O
        X . X O . . .
        """,
    ]
    events = [e for k, diagram in enumerate(steps) for e in referee.observe(seen(100 + k, diagram))]
    assert moves(events) == ["B C7", "W B1", "B G3", "W B7", "B C1"]
    assert alerts(events) == []
    # White retakes on the right: the very position before Black's C7.
    events = referee.observe(
        seen(
            105,
            """
            X O . O . . .
            . X O . . . .
            . . . . . . X
            . . X . . X O
            . . . . . O .
            . X O . . . O
            X . X O . . .
            """,
        )
    )
    assert moves(events) == ["W pass lost"]
    (alert,) = alerts(events)
    check_alert(alert, "repetition", "W", ["G4", "G3"], 105)


def test_suicide_one_stone() -> None:
    referee = watched(
        """
        O . . . . . O
        . . . . . . .
        . . . X . . .
        . . X . X . .
        . . . X . . .
        . . . . . . .
        O . . . . . .
        """
    )
    events = referee.observe(
        seen(
            100,
            """
            O . . . . . O
            . . . . . . .
            . . . X . . .
            . . X O X . .
            . . . X . . .
            . . . . . . .
            O . . . . . .
            """,
        )
    )
    assert moves(events) == ["W pass lost"]
    (alert,) = alerts(events)
    check_alert(alert, "suicide", "W", ["D4"], 100)
    assert referee.warnings == {Color.BLACK: 0, Color.WHITE: 0}
    assert referee.game.to_move is Color.BLACK


def test_suicide_of_several_stones() -> None:
    referee = watched(
        """
        O . . . . . O
        . . . . . . .
        . . . X X . .
        . . X O . X .
        . . . X X . .
        . . . . . . .
        O . . . . . O
        """
    )
    # White E4 would leave D4 and E4 with no liberty and captures nothing.
    events = referee.observe(
        seen(
            100,
            """
            O . . . . . O
            . . . . . . .
            . . . X X . .
            . . X O O X .
            . . . X X . .
            . . . . . . .
            O . . . . . O
            """,
        )
    )
    assert moves(events) == ["W pass lost"]
    (alert,) = alerts(events)
    check_alert(alert, "suicide", "W", ["D4", "E4"], 100)
    assert referee.warnings == {Color.BLACK: 0, Color.WHITE: 0}
    events = referee.observe(
        seen(
            101,
            """
            O . . . . . O
            . . . . . . .
            . . . X X . .
            . . X O . X .
            . . . X X . .
            . . . . . . .
            O . . . . . O
            """,
        )
    )
    assert closed(events) == [("resolved", alert["id"])]


OPENING = """
    . . . . . . .
    . . . . . . .
    . . X . . . .
    . . O . . . .
    . . . . . . .
    . . . . . . .
    . . . . . . .
    """


def test_double_move() -> None:
    referee = watched(OPENING)
    referee.observe(
        seen(
            100,
            """
            . . . . . . .
            . . . . . . .
            . . X . X . .
            . . O . . . .
            . . . . . . .
            . . . . . . .
            . . . . . . .
            """,
        )
    )
    # Black's second stone in a row, White has not played.
    events = referee.observe(
        seen(
            101,
            """
            . . . . . . .
            . . . . . . .
            . . X . X . .
            . . O . . . .
            . . X . . . .
            . . . . . . .
            . . . . . . .
            """,
        )
    )
    assert moves(events) == []
    (alert,) = alerts(events)
    check_alert(alert, "double_move", "B", ["C3"], 101)
    assert referee.warnings == {Color.BLACK: 1, Color.WHITE: 0}
    assert referee.game.to_move is Color.WHITE
    # White replies before the void stone is taken back: a move, nothing new.
    events = referee.observe(
        seen(
            102,
            """
            . . . . . . .
            . . . . . . .
            . . X . X . .
            . . O . . . .
            . . X . . . .
            . . . . . O .
            . . . . . . .
            """,
        )
    )
    assert moves(events) == ["W F2"]
    assert alerts(events) == []
    events = referee.observe(
        seen(
            103,
            """
            . . . . . . .
            . . . . . . .
            . . X . X . .
            . . O . . . .
            . . . . . . .
            . . . . . O .
            . . . . . . .
            """,
        )
    )
    assert closed(events) == [("resolved", alert["id"])]
    assert [m.gtp(SIZE) for m in referee.game.moves] == ["B C5", "W C4", "B E5", "W F2"]


def test_retracted_move() -> None:
    referee = watched(OPENING)
    referee.observe(
        seen(
            100,
            """
            . . . . . . .
            . . . . . . .
            . . X . X . .
            . . O . . . .
            . . . . . . .
            . . . . . . .
            . . . . . . .
            """,
        )
    )
    # Before White replies, Black picks E5 up and plays E4 instead.
    events = referee.observe(
        seen(
            101,
            """
            . . . . . . .
            . . . . . . .
            . . X . . . .
            . . O . X . .
            . . . . . . .
            . . . . . . .
            . . . . . . .
            """,
        )
    )
    assert moves(events) == []
    (alert,) = alerts(events)
    check_alert(alert, "retracted_move", "B", ["E5", "E4"], 101)
    assert referee.warnings == {Color.BLACK: 1, Color.WHITE: 0}
    assert referee.game.board[(2, 4)] is Color.BLACK
    events = referee.observe(
        seen(
            102,
            """
            . . . . . . .
            . . . . . . .
            . . X . X . .
            . . O . . . .
            . . . . . . .
            . . . . . . .
            . . . . . . .
            """,
        )
    )
    assert closed(events) == [("resolved", alert["id"])]


def test_displaced_stone() -> None:
    referee = watched(OPENING)
    referee.observe(
        seen(
            100,
            """
            . . . . . . .
            . . . . . . .
            . . X . X . .
            . . O . . . .
            . . . . . . .
            . . . . . . .
            . . . . . . .
            """,
        )
    )
    # Black's older stone on C5 is knocked up to C6 (White to play).
    events = referee.observe(
        seen(
            101,
            """
            . . . . . . .
            . . X . . . .
            . . . . X . .
            . . O . . . .
            . . . . . . .
            . . . . . . .
            . . . . . . .
            """,
        )
    )
    (alert,) = alerts(events)
    check_alert(alert, "displaced_stone", "B", ["C6", "C5"], 101)
    assert referee.warnings == {Color.BLACK: 0, Color.WHITE: 0}
    # White plays while it is still displaced: the move counts, no second alert.
    events = referee.observe(
        seen(
            102,
            """
            . . . . . . .
            . . X . . . .
            . . . . X . .
            . . O . . . .
            . . . . . . .
            . . . O . . .
            . . . . . . .
            """,
        )
    )
    assert moves(events) == ["W D2"]
    assert alerts(events) == []
    events = referee.observe(
        seen(
            103,
            """
            . . . . . . .
            . . . . . . .
            . . X . X . .
            . . O . . . .
            . . . . . . .
            . . . O . . .
            . . . . . . .
            """,
        )
    )
    assert closed(events) == [("resolved", alert["id"])]


def test_board_disturbed() -> None:
    referee = watched(
        """
        . . . . . . .
        . . X . O . .
        . . X . O . .
        . . X . O . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
        """
    )
    # A sleeve sweeps C5, E5 and E4 away and leaves two stones where none were played.
    events = referee.observe(
        seen(
            100,
            """
            . . . . . . .
            . . X . O . .
            . . . X . . .
            . . X . . O .
            . . . . . . .
            . . . . . . .
            . . . . . . .
            """,
        )
    )
    assert moves(events) == []
    (alert,) = alerts(events)
    check_alert(alert, "board_disturbed", None, ["C5", "D5", "E5", "E4", "F4"], 100)
    assert referee.warnings == {Color.BLACK: 0, Color.WHITE: 0}
    # A partial clean-up is the same disturbance: nothing new.
    events = referee.observe(
        seen(
            101,
            """
            . . . . . . .
            . . X . O . .
            . . X . . . .
            . . X . . O .
            . . . . . . .
            . . . . . . .
            . . . . . . .
            """,
        )
    )
    assert events == []
    events = referee.observe(
        seen(
            102,
            """
            . . . . . . .
            . . X . O . .
            . . X . O . .
            . . X . O . .
            . . . . . . .
            . . . . . . .
            . . . . . . .
            """,
        )
    )
    assert closed(events) == [("resolved", alert["id"])]
    assert referee.game.board.rows() == list(
        rows(
            """
            . . . . . . .
            . . X . O . .
            . . X . O . .
            . . X . O . .
            . . . . . . .
            . . . . . . .
            . . . . . . .
            """
        )
    )


def test_loss_by_warnings_comes_with_the_second_warning() -> None:
    referee = watched(OPENING)
    referee.observe(
        seen(
            100,
            """
            . . . . . . .
            . . . . . . .
            . . X . X . .
            . . O . . . .
            . . . . . . .
            . . . . . . .
            . . . . . . .
            """,
        )
    )
    first = referee.observe(
        seen(
            101,
            """
            . . . . . . .
            . . . . . . .
            . . X . X . .
            . . O . . . .
            . . X . . . .
            . . . . . . .
            . . . . . . .
            """,
        )
    )
    assert [a["kind"] for a in alerts(first)] == ["double_move"]
    referee.observe(
        seen(
            102,
            """
            . . . . . . .
            . . . . . . .
            . . X . X . .
            . . O . . . .
            . . . . . . .
            . . . . . . .
            . . . . . . .
            """,
        )
    )
    referee.observe(
        seen(
            103,
            """
            . . . . . . .
            . . . . . . .
            . . X . X . .
            . . O . O . .
            . . . . . . .
            . . . . . . .
            . . . . . . .
            """,
        )
    )
    # Black's second warning: White's C4 taken off with liberties.
    events = referee.observe(
        seen(
            104,
            """
            . . . . . . .
            . . . . . . .
            . . X . X . .
            . . . . O . .
            . . . . . . .
            . . . . . . .
            . . . . . . .
            """,
        )
    )
    cause, loss = alerts(events)
    check_alert(cause, "illegal_capture", "B", ["C4"], 104)
    check_alert(loss, "loss_by_warnings", "B", [], 104)
    assert referee.warnings == {Color.BLACK: 2, Color.WHITE: 0}
    # Once is enough: Black plays on, then twice in a row; a third warning, no second loss.
    events = referee.observe(
        seen(
            105,
            """
            . . . . . . .
            . . . . . . .
            . . X . X . .
            . . . . O . .
            . . . . . . .
            . . . . . . X
            . . . . . . .
            """,
        )
    )
    assert moves(events) == ["B G2"]
    events = referee.observe(
        seen(
            106,
            """
            . . . . . . .
            . . . . . . .
            . . X . X . .
            . . . . O . .
            . . . . . . .
            X . . . . . X
            . . . . . . .
            """,
        )
    )
    assert [a["kind"] for a in alerts(events)] == ["double_move"]
    assert referee.warnings == {Color.BLACK: 3, Color.WHITE: 0}
    assert loss["id"] in [a.id for a in referee.open_alerts]


def test_one_warning_each_is_no_loss() -> None:
    referee = watched(OPENING)
    steps = [
        # Black A1, then Black G1 as well: a double move.
        """
        . . . . . . .
        . . . . . . .
        . . X . . . .
        . . O . . . .
        . . . . . . .
        . . . . . . .
        X . . . . . .
        """,
        """
        . . . . . . .
        . . . . . . .
        . . X . . . .
        . . O . . . .
        . . . . . . .
        . . . . . . .
        X . . . . . X
        """,
        # G1 taken back; White plays there, then White A2 as well.
        """
        . . . . . . .
        . . . . . . .
        . . X . . . .
        . . O . . . .
        . . . . . . .
        . . . . . . .
        X . . . . . .
        """,
        """
        . . . . . . .
        . . . . . . .
        . . X . . . .
        . . O . . . .
        . . . . . . .
        . . . . . . .
        X . . . . . O
        """,
        """
        . . . . . . .
        . . . . . . .
        . . X . . . .
        . . O . . . .
        . . . . . . .
        O . . . . . .
        X . . . . . O
        """,
    ]
    kinds = [
        [a["kind"] for a in alerts(referee.observe(seen(100 + k, diagram)))]
        for k, diagram in enumerate(steps)
    ]
    assert kinds == [[], ["double_move"], [], [], ["double_move"]]
    assert referee.warnings == {Color.BLACK: 1, Color.WHITE: 1}
    assert [a.kind for a in referee.open_alerts] == ["double_move"]


# -- clean play: nothing to report ----------------------------------------------------


def test_slow_removal_of_captured_stones() -> None:
    referee = watched(
        """
        O . . . . . O
        . . . . . . .
        . . X X X . .
        . X O O O . .
        . . X X X . .
        . . . . . . .
        O . . . . . O
        """
    )
    steps = [
        # Black F4 captures three; they come off over three observations.
        """
        O . . . . . O
        . . . . . . .
        . . X X X . .
        . X O O O X .
        . . X X X . .
        . . . . . . .
        O . . . . . O
        """,
        """
        O . . . . . O
        . . . . . . .
        . . X X X . .
        . X O . O X .
        . . X X X . .
        . . . . . . .
        O . . . . . O
        """,
        """
        O . . . . . O
        . . . . . . .
        . . X X X . .
        . X . . O X .
        . . X X X . .
        . . . . . . .
        O . . . . . O
        """,
        """
        O . . . . . O
        . . . . . . .
        . . X X X . .
        . X . . . X .
        . . X X X . .
        . . . . . . .
        O . . . . . O
        """,
        # White's reply comes after the last one is off.
        """
        O . . . . . O
        . O . . . . .
        . . X X X . .
        . X . . . X .
        . . X X X . .
        . . . . . . .
        O . . . . . O
        """,
    ]
    events = [e for k, diagram in enumerate(steps) for e in referee.observe(seen(100 + k, diagram))]
    assert [e.to_json() for e in events] == [
        {
            "type": "move",
            "number": 15,
            "color": "B",
            "point": "F4",
            "captures": ["C4", "D4", "E4"],
            "t": 100,
        },
        {"type": "move", "number": 16, "color": "W", "point": "B6", "captures": [], "t": 104},
    ]
    assert referee.pending == {}
    assert referee.warnings == {Color.BLACK: 0, Color.WHITE: 0}


def test_ko_retaken_after_a_threat() -> None:
    referee = watched(KO)
    steps = [
        # Black D5 takes the ko.
        """
        . . . . . . .
        . . X O . . .
        . X . X O . .
        . . X O . . .
        . . . . . . .
        . . . . . X .
        . . . . . . .
        """,
        # White threatens at F3, Black answers at F4.
        """
        . . . . . . .
        . . X O . . .
        . X . X O . .
        . . X O . . .
        . . . . . O .
        . . . . . X .
        . . . . . . .
        """,
        """
        . . . . . . .
        . . X O . . .
        . X . X O . .
        . . X O . X .
        . . . . . O .
        . . . . . X .
        . . . . . . .
        """,
        # White retakes: legal now.
        """
        . . . . . . .
        . . X O . . .
        . X O . O . .
        . . X O . X .
        . . . . . O .
        . . . . . X .
        . . . . . . .
        """,
    ]
    events = [e for k, diagram in enumerate(steps) for e in referee.observe(seen(100 + k, diagram))]
    assert moves(events) == ["B D5", "W F3", "B F4", "W C5"]
    assert [e.captures for e in events if isinstance(e, MoveEvent)] == [("C5",), (), (), ("D5",)]
    assert alerts(events) == []


def test_art_4_2_a_move_without_liberties_that_captures_first() -> None:
    referee = watched(
        """
        . . . . . . O
        . . . . . . .
        . . . . . . .
        . . . . . . .
        X . . . . . .
        O X . . . . .
        . O X . . . .
        """
    )
    # Black A1 has no liberty until it takes A2 and B1 off.
    events = referee.observe(
        seen(
            100,
            """
            . . . . . . O
            . . . . . . .
            . . . . . . .
            . . . . . . .
            X . . . . . .
            . X . . . . .
            X . X . . . .
            """,
        )
    )
    assert [e.to_json() for e in events] == [
        {
            "type": "move",
            "number": 7,
            "color": "B",
            "point": "A1",
            "captures": ["A2", "B1"],
            "t": 100,
        }
    ]


def test_declared_pass_then_two_stones_of_one_colour() -> None:
    referee = watched(OPENING)
    events = referee.observe(
        seen(
            100,
            """
            . . . . . . .
            . . . . . . .
            . . X . X . .
            . . O . . . .
            . . . . . . .
            . . . . . . .
            . . . . . . .
            """,
        )
    )
    events += referee.declare(Declaration(101, "pass", Color.WHITE))
    events += referee.observe(
        seen(
            102,
            """
            . . . . . . .
            . . . . . . .
            . . X . X . .
            . . O . . . .
            . . X . . . .
            . . . . . . .
            . . . . . . .
            """,
        )
    )
    assert moves(events) == ["B E5", "W pass", "B C3"]
    assert alerts(events) == []
    assert not referee.game.is_over


def test_a_quick_exchange_seen_in_one_observation() -> None:
    referee = watched(OPENING)
    events = referee.observe(
        seen(
            100,
            """
            . . . . . . .
            . . . . . . .
            . . X . X . .
            . . O . . . .
            . . . . . . .
            . . . . . O .
            . . . . . . .
            """,
        )
    )
    assert moves(events) == ["B E5", "W F2"]
    assert alerts(events) == []


def test_identical_observations_change_nothing() -> None:
    referee = watched(OPENING)
    table = """
        . . . . . . .
        . . . . . . .
        . . X . X . .
        . . O . . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
        """
    assert moves(referee.observe(seen(100, table))) == ["B E5"]
    assert referee.observe(seen(101, table)) == []
    assert referee.observe(seen(150, table)) == []
    assert len(referee.game.history) == 3


def test_low_confidence_points_are_unknown_not_evidence() -> None:
    referee = watched(OPENING)
    steps = [
        # C5 flickers off, a ghost stone on E3: both read with confidence 0.2.
        seen(
            100,
            """
            . . . . . . .
            . . . . . . .
            . . . . . . .
            . . O . . . .
            . . . . O . .
            . . . . . . .
            . . . . . . .
            """,
            unsure={"C5": 0.2, "E3": 0.2},
        ),
        seen(
            101,
            """
            . . . . . . .
            . . . . . . .
            . . X . . . .
            . . O . . . .
            . . . . . . .
            . . . . . . .
            . . . . . . .
            """,
        ),
        # Black's stone on E5 while vision is unsure of it: not yet a move...
        seen(
            102,
            """
            . . . . . . .
            . . . . . . .
            . . X . X . .
            . . O . . . .
            . . . . . . .
            . . . . . . .
            . . . . . . .
            """,
            unsure={"E5": 0.2},
        ),
    ]
    assert [referee.observe(observation) for observation in steps] == [[], [], []]
    # ... until it is sure; C4 flickering meanwhile changes nothing.
    events = referee.observe(
        seen(
            103,
            """
            . . . . . . .
            . . . . . . .
            . . X . X . .
            . . . . . . .
            . . . . . . .
            . . . . . . .
            . . . . . . .
            """,
            unsure={"C4": 0.2},
        )
    )
    assert moves(events) == ["B E5"]
    assert alerts(events) == []
    assert referee.game.board[(3, 2)] is Color.WHITE


def test_an_unsure_captured_stone_is_no_evidence_of_a_missed_capture() -> None:
    referee = watched(
        """
        . . . . . . O
        . . . . . . .
        . . X . . . .
        . X O . . . .
        . . X . . . .
        . . . . . . .
        . . . . . . O
        """
    )
    steps = [
        # Black D4 captures C4, still on the table.
        seen(
            100,
            """
            . . . . . . O
            . . . . . . .
            . . X . . . .
            . X O X . . .
            . . X . . . .
            . . . . . . .
            . . . . . . O
            """,
        ),
        # White E2 appears; vision cannot tell whether C4 is still there.
        seen(
            101,
            """
            . . . . . . O
            . . . . . . .
            . . X . . . .
            . X . X . . .
            . . X . . . .
            . . . . O . .
            . . . . . . O
            """,
            unsure={"C4": 0.2},
        ),
        # Sure again: C4 is off.
        seen(
            102,
            """
            . . . . . . O
            . . . . . . .
            . . X . . . .
            . X . X . . .
            . . X . . . .
            . . . . O . .
            . . . . . . O
            """,
        ),
    ]
    events = [e for observation in steps for e in referee.observe(observation)]
    assert moves(events) == ["B D4", "W E2"]
    assert alerts(events) == []
    assert referee.warnings == {Color.BLACK: 0, Color.WHITE: 0}


# -- the arbiter ---------------------------------------------------------------------

STONE_TAKEN = """
    . . . . . . .
    . . . . . . .
    . . X . . . .
    . . . . . . .
    . . . . . . .
    . . . . . . .
    . . . . . . .
    """


def test_dismiss_accepts_the_board_as_seen() -> None:
    referee = watched(OPENING)
    (alert,) = alerts(referee.observe(seen(100, STONE_TAKEN)))
    assert alert["kind"] == "illegal_capture"
    events = referee.dismiss(alert["id"], 101)
    assert [e.to_json() for e in events] == [
        {"type": "dismissed", "alert": alert["id"], "kind": "illegal_capture", "t": 101}
    ]
    assert referee.warnings == {Color.BLACK: 0, Color.WHITE: 0}
    assert referee.open_alerts == []
    assert referee.game.board.rows() == list(rows(STONE_TAKEN))
    # The game continues from the position seen: Black to play, nothing owed.
    events = referee.observe(
        seen(
            102,
            """
            . . . . . . .
            . . . . . . .
            . . X . . . .
            . . . . . . .
            . . . . X . .
            . . . . . . .
            . . . . . . .
            """,
        )
    )
    assert moves(events) == ["B E3"]
    assert alerts(events) == []


def test_dismissing_the_second_warning_withdraws_the_loss() -> None:
    referee = watched(OPENING)
    steps = [
        """
        . . . . . . .
        . . . . . . .
        . . X . X . .
        . . O . . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
        """,
        """
        . . . . . . .
        . . . . . . .
        . . X . X . .
        . . O . . . .
        . . X . . . .
        . . . . . . .
        . . . . . . .
        """,
        """
        . . . . . . .
        . . . . . . .
        . . X . X . .
        . . O . . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
        """,
        """
        . . . . . . .
        . . . . . . .
        . . X . X . .
        . . O . O . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
        """,
        """
        . . . . . . .
        . . . . . . .
        . . X . X . .
        . . . . O . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
        """,
    ]
    events = [e for k, diagram in enumerate(steps) for e in referee.observe(seen(100 + k, diagram))]
    raised = alerts(events)
    assert [a["kind"] for a in raised] == ["double_move", "illegal_capture", "loss_by_warnings"]
    _, cause, loss = raised
    events = referee.dismiss(cause["id"], 110)
    assert closed(events) == [("dismissed", cause["id"]), ("dismissed", loss["id"])]
    assert referee.warnings == {Color.BLACK: 1, Color.WHITE: 0}
    assert referee.open_alerts == []


def test_confirm_keeps_the_alert_open_until_the_board_is_put_right() -> None:
    referee = watched(OPENING)
    (alert,) = alerts(
        referee.observe(
            seen(
                100,
                """
                . . . . . . .
                . . . . . . .
                . . . X . . .
                . . O . . . .
                . . . . . . .
                . . . . . . .
                . . . . . . .
                """,
            )
        )
    )
    assert alert["kind"] == "displaced_stone"
    events = referee.confirm(alert["id"], 101)
    assert [e.to_json() for e in events] == [
        {"type": "confirmed", "alert": alert["id"], "kind": "displaced_stone", "t": 101}
    ]
    assert [a.id for a in referee.open_alerts] == [alert["id"]]
    events = referee.observe(seen(102, OPENING))
    assert closed(events) == [("resolved", alert["id"])]


def test_dismissed_missed_capture_still_lets_play_go_on() -> None:
    referee = watched(
        """
        . . . . . . O
        . . . . . . .
        . . X . . . .
        . X O . . . .
        . . X . . . .
        . . . . . . .
        . . . . . . O
        """
    )
    steps = [
        # Black D4 captures C4, left on; White E2 appears: missed capture.
        """
        . . . . . . O
        . . . . . . .
        . . X . . . .
        . X O X . . .
        . . X . . . .
        . . . . . . .
        . . . . . . O
        """,
        """
        . . . . . . O
        . . . . . . .
        . . X . . . .
        . X O X . . .
        . . X . . . .
        . . . . O . .
        . . . . . . O
        """,
    ]
    events = [e for k, diagram in enumerate(steps) for e in referee.observe(seen(100 + k, diagram))]
    (alert,) = alerts(events)
    assert alert["kind"] == "missed_capture"
    assert closed(referee.dismiss(alert["id"], 102)) == [("dismissed", alert["id"])]
    assert referee.warnings == {Color.BLACK: 0, Color.WHITE: 0}
    # The arbiter waived the warning; C4 is captured all the same, and Black plays on.
    events = referee.observe(
        seen(
            103,
            """
            . . . . . . O
            . . . . . . .
            . . X . . . .
            . X O X . . .
            . . X . . . .
            . . . . O . .
            . . . . . X O
            """,
        )
    )
    assert moves(events) == ["B F1"]
    assert alerts(events) == []
    assert referee.game.board[(3, 2)] is None


def test_unknown_alert_id_is_an_error() -> None:
    referee = watched(OPENING)
    with pytest.raises(ValueError, match="'a99'"):
        referee.dismiss("a99", 100)
    with pytest.raises(ValueError, match="'a99'"):
        referee.confirm("a99", 100)


# -- the end -------------------------------------------------------------------------

WALLS = """
    . . . X O . .
    . . . X O . .
    . . . X O . .
    . . . X O . .
    . . . X O . .
    . . . X O . .
    . . . X O . .
    """
#: Black A1, then White invades at B4 (a stone that will be dead).
INVADED = """
    . . . X O . .
    . . . X O . .
    . . . X O . .
    . O . X O . .
    . . . X O . .
    . . . X O . .
    X . . X O . .
    """
COUNTED = """
    . . . X O . .
    . . . X O . .
    . . . X O . .
    . . . X O . .
    . . . X O . .
    . . . X O . .
    X . . X O . .
    """


def invaded() -> Referee:
    referee = watched(WALLS)
    referee.observe(seen(100, COUNTED))
    referee.observe(seen(101, INVADED))
    assert [m.gtp(SIZE) for m in referee.game.moves[-2:]] == ["B A1", "W B4"]
    return referee


def test_two_passes_then_the_counted_position() -> None:
    referee = invaded()
    # White plays twice (a warning), puts it right; then both pass.
    double = """
        . . . X O . .
        . . . X O . .
        . . . X O . .
        . O . X O . .
        . . . X O . .
        . . . X O O .
        X . . X O . .
        """
    assert [a["kind"] for a in alerts(referee.observe(seen(102, double)))] == ["double_move"]
    referee.observe(seen(103, INVADED))
    events = referee.declare(Declaration(104, "pass", Color.BLACK))
    events += referee.declare(Declaration(105, "pass", Color.WHITE))
    assert moves(events) == ["B pass", "W pass"]
    assert referee.game.is_over
    # The counted position: White's dead stone on B4 taken off.
    (end,) = referee.observe(seen(106, COUNTED))
    assert isinstance(end, EndEvent)
    data = end.to_json()
    assert data["type"] == "end" and data["t"] == 106
    assert data["dead"] == ["B4"]
    # Black 28 points (A-D), White 21 (E-G) less one stone for the warning; komi 7.5.
    assert data["result"] == "B+1.5"
    score = data["score"]
    assert (score["black"], score["white"], score["komi"]) == (28, 20, 7.5)
    assert score["penalties"] == {"B": 0, "W": 1}
    # The players put B4 back (they no longer agree it is dead): the count is corrected.
    (again,) = referee.observe(seen(107, INVADED))
    assert isinstance(again, EndEvent)
    assert (again.dead, again.t) == ((), 107)
    # Clearing the board afterwards takes live stones off too: that is no count.
    assert referee.observe(seen(108, "\n".join([". . . . . . ."] * SIZE))) == []
    assert referee.ended is again


def test_a_game_lost_by_warnings_ends_as_a_forfeit() -> None:
    referee = invaded()
    c1 = INVADED.replace("X . . X O . .", "X . X X O . .")
    steps = [
        c1,  # Black C1
        c1.replace("X . X X O . .", "X X X X O . ."),  # and B1 too: a double move
        c1,  # put right
        c1.replace(". O . X O . .", ". . . X O . ."),  # B4 taken off: an illegal capture
        c1,  # put back
    ]
    kinds = [
        a["kind"] for k, d in enumerate(steps) for a in alerts(referee.observe(seen(102 + k, d)))
    ]
    assert kinds == ["double_move", "illegal_capture", "loss_by_warnings"]
    referee.declare(Declaration(110, "pass", Color.WHITE))
    referee.declare(Declaration(111, "pass", Color.BLACK))
    (end,) = referee.finish(112)
    assert isinstance(end, EndEvent)
    assert end.result == "W+F"
    assert end.score is not None and end.score.penalties == (2, 0)


def test_agreed_end_then_the_counted_position() -> None:
    referee = invaded()
    assert referee.declare(Declaration(102, "end")) == []
    (end,) = referee.observe(seen(103, COUNTED))
    assert isinstance(end, EndEvent)
    assert end.to_json()["result"] == "W+0.5"
    assert end.dead == ("B4",)


def test_handicap_stones_are_no_moves_and_count_half_a_stone_each() -> None:
    # Two handicap stones on D7 and D6, then White first; the walls go up.
    referee = watched(WALLS, handicap=2)
    assert referee.game.moves[0].gtp(SIZE) == "W E7"
    assert referee.game.komi == 0
    record = referee.record()
    assert [(p.gtp(SIZE), c) for p, c in record.setup] == [("D7", Color.BLACK), ("D6", Color.BLACK)]
    assert (record.handicap, record.edits) == (2, ())
    events = referee.declare(Declaration(100, "pass", Color.BLACK))
    events += referee.declare(Declaration(101, "pass", Color.WHITE))
    (end,) = referee.finish(102)
    assert isinstance(end, EndEvent)
    # Black 28 less 1 for the handicap, White 21 plus 1; no komi: Black by 5 points.
    assert end.to_json()["result"] == "B+5"
    assert end.to_json()["score"]["handicap"] == 2
    assert alerts(events) == []


@pytest.mark.parametrize(("loser", "result"), [(Color.BLACK, "W+R"), (Color.WHITE, "B+R")])
def test_resignation(loser: Color, result: str) -> None:
    referee = watched(OPENING)
    (end,) = referee.declare(Declaration(100, "resign", loser))
    assert end.to_json() == {"type": "end", "result": result, "score": None, "dead": [], "t": 100}
    assert referee.game.result == result
