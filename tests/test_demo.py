"""The main job on the bundled input, checked against GNU Go as a peer.

``make demo`` referees ``datasets/bundled/demo-observations.jsonl``; its count
must be the one GNU Go gives for the same game with its own dead-stone judgement.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from sgfmill import sgf

from engine import Color
from engine.sgf import read_sgf

ROOT = Path(__file__).resolve().parent.parent
BUNDLED = ROOT / "datasets" / "bundled"


def gtp_session(gnugo: str, commands: list[str]) -> list[str]:
    """Run GTP commands through GNU Go and return each answer without its '= '."""
    script = "\n".join([*commands, "quit"]) + "\n"
    done = subprocess.run(
        [gnugo, "--mode", "gtp", "--chinese-rules"],
        input=script,
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    answers = [block.strip() for block in done.stdout.split("\n\n") if block.strip()]
    assert all(a.startswith("=") for a in answers), answers
    return [a[1:].strip() for a in answers][: len(commands)]


def test_demo_referee_count_matches_gnugo(tmp_path: Path, gnugo: str) -> None:
    out = tmp_path / "demo.sgf"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "server.cli",
            "referee",
            str(BUNDLED / "demo-observations.jsonl"),
            "--sgf",
            str(out),
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    events = [json.loads(line) for line in done.stdout.splitlines()]
    alerts = [e["kind"] for e in events if e["type"] == "alert"]
    assert alerts == ["displaced_stone", "retracted_move", "missed_capture"]
    resolved = [e["alert"] for e in events if e["type"] == "resolved"]
    assert resolved == ["a1", "a2", "a3"]
    end = events[-1]
    assert end["type"] == "end"

    record = read_sgf((BUNDLED / "demo.sgf").read_bytes(), name="demo.sgf")
    commands = ["boardsize 19", "clear_board", "komi 7.5"]
    commands += [
        f"play {m.color.name.lower()} {'pass' if m.point is None else m.point.gtp(19)}"
        for m in record.moves
    ]
    commands += ["final_status_list dead", "final_score"]
    answers = gtp_session(gnugo, commands)
    dead, score = answers[-2].split(), answers[-1]
    assert sorted(end["dead"]) == sorted(dead)
    # One warning each (a retracted move by White, a missed capture by Black)
    # costs each player a stone, which leaves the margin as GNU Go counts it.
    assert end["score"]["penalties"] == {"B": 1, "W": 1}
    assert end["result"] == score == "W+26.5"

    written = sgf.Sgf_game.from_bytes(out.read_bytes())
    assert written.get_root().get("RE") == "W+26.5"
    moves = [node.get_move() for node in written.get_main_sequence()[1:]]
    assert len(moves) == len(record.moves)
    assert moves[0][0] == Color.BLACK.value.lower()


def test_the_bundled_log_is_what_kifu_synth_log_makes(tmp_path: Path) -> None:
    """The demo input is reproducible from the repo with the command its README gives."""
    out = tmp_path / "log.jsonl"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "server.cli",
            "synth",
            "log",
            str(BUNDLED / "demo.sgf"),
            str(out),
            "--seed",
            "2",
            "--dead",
            "N18,M17",
            "--violations",
            "missed_capture,retracted_move,displaced_stone",
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert out.read_bytes() == (BUNDLED / "demo-observations.jsonl").read_bytes()
