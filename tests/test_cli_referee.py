"""``kifu referee LOG.jsonl``: events on stdout, the record in SGF, one line per error.

The logs are 7x7 games written as diagrams; the SGF is read back with sgfmill, not
with our own reader.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sgfmill import sgf

from server.cli import main

ROOT = Path(__file__).resolve().parent.parent

#: Black walls off A-D, White E-G; Black has an eye at A7 (White at G1 is spare).
WALLS = """
    . X . X O . .
    X . . X O . .
    . . . X O . .
    . . . X O . .
    . . . X O . .
    . . . X O . .
    . . . X O . O
    """
#: White plays into the eye: suicide, the turn is lost.
INTO_THE_EYE = """
    O X . X O . .
    X . . X O . .
    . . . X O . .
    . . . X O . .
    . . . X O . .
    . . . X O . .
    . . . X O . O
    """
#: White then plays F3 while it is Black's turn: a double move, a warning.
TWICE = """
    . X . X O . .
    X . . X O . .
    . . . X O . .
    . . . X O . .
    . . . X O O .
    . . . X O . .
    . . . X O . O
    """


def rows(diagram: str) -> list[str]:
    return [line.replace(" ", "") for line in diagram.strip().splitlines()]


def played_out(diagram: str) -> Iterator[list[str]]:
    """The table after each stone of ``diagram``, Black and White alternately, in reading order."""
    final = rows(diagram)
    stones = {
        char: [(r, c) for r, row in enumerate(final) for c, ch in enumerate(row) if ch == char]
        for char in "XO"
    }
    table = [["."] * len(final) for _ in final]
    for k in range(len(stones["X"]) + len(stones["O"])):
        r, c = stones["XO"[k % 2]][k // 2]
        table[r][c] = "XO"[k % 2]
        yield ["".join(row) for row in table]


def good_log() -> list[dict[str, Any]]:
    """The game: the walls go up, White suicides and plays twice, both pass."""
    lines: list[dict[str, Any]] = [
        {"t": float(t), "board": board} for t, board in enumerate(played_out(WALLS), start=1)
    ]
    lines += [
        {"t": 100.0, "board": rows(INTO_THE_EYE)},
        {"t": 101.0, "board": rows(WALLS)},
        {"t": 102.0, "board": rows(TWICE)},
        {"t": 103.0, "board": rows(WALLS)},
        {"t": 104.0, "event": "pass", "color": "B"},
        {"t": 105.0, "event": "pass", "color": "W"},
    ]
    return lines


def write_log(folder: Path, lines: list[str]) -> Path:
    path = folder / "game.jsonl"
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return path


def read_back(path: Path) -> tuple[sgf.Sgf_game, list[tuple[str | None, Any, str]]]:
    """The SGF as sgfmill reads it, and its moves as (colour, (row, col) or None, comment)."""
    game = sgf.Sgf_game.from_bytes(path.read_bytes())
    moves = []
    for node in game.get_main_sequence()[1:]:
        colour, point = node.get_move()
        moves.append((colour, point, node.get("C") if node.has_property("C") else ""))
    return game, moves


def test_good_log_prints_events_and_writes_the_record(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = write_log(tmp_path, [json.dumps(line) for line in good_log()])
    out = tmp_path / "game.sgf"
    assert main(["referee", str(log), "--sgf", str(out)]) == 0
    captured = capsys.readouterr()
    assert captured.err == ""
    events = [json.loads(line) for line in captured.out.splitlines()]
    assert [e["type"] for e in events] == ["move"] * 17 + [
        "move",
        "alert",
        "resolved",
        "alert",
        "resolved",
        "move",
        "move",
        "end",
    ]
    lost, suicide, _, double, _, black_pass, white_pass, end = events[17:]
    assert lost == {
        "type": "move",
        "number": 18,
        "color": "W",
        "point": "pass",
        "captures": [],
        "t": 100.0,
        "lost_turn": True,
    }
    assert (suicide["kind"], suicide["color"], suicide["points"]) == ("suicide", "W", ["A7"])
    assert (double["kind"], double["color"], double["points"]) == ("double_move", "W", ["F3"])
    assert (black_pass["point"], white_pass["point"]) == ("pass", "pass")
    # Black 28 points (A-D), White 21 (E-G) less a stone for the warning; komi 7.5.
    assert end["result"] == "B+1.5"
    assert end["t"] == 105.0

    game, moves = read_back(out)
    root = game.get_root()
    assert game.get_size() == 7
    assert root.get("KM") == 7.5
    assert root.get("RE") == "B+1.5"
    assert root.get("GC") == "Warnings: Black 0, White 1"
    assert len(moves) == 20
    first = moves[:17]
    assert [colour for colour, _, _ in first] == ["b", "w"] * 8 + ["b"]
    assert first[0][1] == (6, 1)  # B7: sgfmill counts rows from the bottom
    colour, point, comment = moves[17]
    assert (colour, point) == ("w", None)
    assert "Art. 19" in comment and "suicide" in comment
    assert "double_move" in comment and "Art. 17.2" in comment
    assert [(c, p) for c, p, _ in moves[18:]] == [("b", None), ("w", None)]


BAD_LINES = {
    "bad JSON": ('{"t": 4.0, "board": [', "not JSON"),
    "short row": (json.dumps({"t": 4.0, "board": ["......", *["......."] * 6]}), "row 0"),
    "row count": (json.dumps({"t": 4.0, "board": ["......."] * 6}), "6 rows"),
    "unknown event": (json.dumps({"t": 4.0, "event": "undo", "color": "B"}), "'undo'"),
    "negative time": (json.dumps({"t": -1, "board": ["......."] * 7}), "-1"),
    "confidence shape": (
        json.dumps({"t": 4.0, "board": ["......."] * 7, "confidence": [[1.0] * 7] * 6}),
        "'confidence'",
    ),
}


@pytest.mark.parametrize("case", BAD_LINES)
def test_malformed_line_stops_with_its_line_number(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], case: str
) -> None:
    bad, says = BAD_LINES[case]
    good = [json.dumps(line) for line in good_log()]
    log = write_log(tmp_path, [*good[:3], bad, *good[3:]])
    out = tmp_path / "game.sgf"
    assert main(["referee", str(log), "--sgf", str(out)]) == 2
    captured = capsys.readouterr()
    # The three lines before it are processed and written.
    assert [json.loads(line)["point"] for line in captured.out.splitlines()] == ["B7", "E7", "D7"]
    assert captured.err.count("\n") == 1
    assert captured.err.startswith(f"kifu referee: {log}: line 4: ")
    assert says in captured.err
    _, moves = read_back(out)
    assert [(c, p) for c, p, _ in moves] == [("b", (6, 1)), ("w", (6, 4)), ("b", (6, 3))]


def test_a_pass_declared_early_waits_for_its_turn(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The dashboard is quicker than the camera: Black's pass, declared before White's
    stone is seen, is entered right after that stone."""
    good = [json.dumps(line) for line in good_log()]
    # After Black B7, White E7, Black D7 it is White's turn, not Black's.
    early = json.dumps({"t": 3.5, "event": "pass", "color": "B"})
    log = write_log(tmp_path, [*good[:3], early, good[3]])
    out = tmp_path / "game.sgf"
    assert main(["referee", str(log), "--sgf", str(out)]) == 0
    events = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [(e["number"], e["color"], e["point"], e["t"]) for e in events[-2:]] == [
        (4, "W", events[-2]["point"], 4.0),
        (5, "B", "pass", 4.0),
    ]
    _, moves = read_back(out)
    assert [colour for colour, _, _ in moves] == ["b", "w", "b", "w", "b"]


def test_as_a_real_process(tmp_path: Path) -> None:
    """As a user runs it: JSON lines on stdout, the SGF written, status 0."""
    log = write_log(tmp_path, [json.dumps(line) for line in good_log()])
    out = tmp_path / "game.sgf"
    done = subprocess.run(
        [sys.executable, "-m", "server.cli", "referee", str(log), "--sgf", str(out)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    events = [json.loads(line) for line in done.stdout.splitlines()]
    assert [e["kind"] for e in events if e["type"] == "alert"] == ["suicide", "double_move"]
    assert events[-1]["type"] == "end" and events[-1]["result"] == "B+1.5"
    game, _ = read_back(out)
    assert game.get_root().get("RE") == "B+1.5"


def test_a_reader_that_goes_away_loses_no_record(tmp_path: Path) -> None:
    """``kifu referee LOG --sgf OUT | head -1``: the whole record is still written."""
    out = tmp_path / "demo.sgf"
    log = ROOT / "datasets" / "bundled" / "demo-observations.jsonl"
    done = subprocess.run(
        f"'{sys.executable}' -m server.cli referee '{log}' --sgf '{out}' | head -1",
        shell=True,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0
    assert done.stderr == ""
    assert len(done.stdout.splitlines()) == 1
    _, moves = read_back(out)
    assert len(moves) == 228
