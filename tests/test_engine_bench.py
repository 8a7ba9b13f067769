"""``kifu bench engine`` runs end to end on a small folder (its speed is not asserted)."""

from __future__ import annotations

from pathlib import Path

import pytest

from server.cli import main

RECORDS = {
    "short.sgf": b"(;SZ[9];B[ee];W[de];B[dd];W[aa];B[df];W[bb];B[ce];W[])",
    "illegal.sgf": b"(;SZ[19];B[pd];W[dp];B[pd];W[dd])",
}


def test_bench_engine_prints_the_three_rates(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    for name, data in RECORDS.items():
        (tmp_path / name).write_bytes(data)
    assert main(["bench", "engine", "--dir", str(tmp_path), "--repeat", "2"]) == 0
    out, err = capsys.readouterr()
    lines = out.splitlines()
    # 8 moves of the short game (7 stones and a pass), 2 before the illegal one
    assert lines[0] == "2 records, 10 moves (9 stones), median CPU seconds of 2 repeats"
    assert [line.split("  ")[0] for line in lines[1:4]] == [
        "Kifu Game.play (all rules, positional superko)",
        "Kifu Board.play (captures, suicide check)",
        "sgfmill Board.play (captures only)",
    ]
    assert all(line.endswith("moves/s") for line in lines[1:4])
    assert all(line.endswith("x sgfmill's rate") for line in lines[4:6])
    assert "[2/2]" in err


def test_bench_engine_refuses_an_empty_folder_and_a_zero_repeat(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    assert main(["bench", "engine", "--dir", str(tmp_path)]) == 2
    assert capsys.readouterr().err == f"kifu bench: error: no .sgf records in {str(tmp_path)!r}\n"
    (tmp_path / "a.sgf").write_bytes(RECORDS["short.sgf"])
    assert main(["bench", "engine", "--dir", str(tmp_path), "--repeat", "0"]) == 2
    assert "--repeat must be at least 1, not 0" in capsys.readouterr().err
