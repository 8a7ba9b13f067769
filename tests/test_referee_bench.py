"""``kifu bench referee`` runs end to end on a few games and prints its figures (no speed
asserted: that is for the benchmark to report)."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from server.bench import referee
from server.commands.bench import TARGETS


def parse(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    referee.add_arguments(parser)
    return parser.parse_args(list(argv))


def test_bench_prints_rates_beside_game_play(
    shared_datasets: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert TARGETS["referee"][0] == "referee"
    folder = shared_datasets / "sgf" / "pro-and-ai-games"
    assert referee.run(parse("--dir", str(folder), "--games", "3")) == 0
    captured = capsys.readouterr()
    lines = captured.out.splitlines()
    assert lines[0].startswith("3 games, ")
    assert any(
        line.startswith("referee, whole games") and "observations/s" in line for line in lines
    )
    assert any(line.startswith("Game.play, same moves") and "moves/s" in line for line in lines)
    assert "[3/3] 0002.sgf" in captured.err


def test_bench_refuses_bad_arguments(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="--games must be at least 1, not 0"):
        referee.run(parse("--games", "0"))
    with pytest.raises(FileNotFoundError, match=r"no \.sgf records"):
        referee.run(parse("--dir", str(tmp_path)))
