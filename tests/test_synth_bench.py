"""``kifu bench synth`` runs and prints its figures (speed itself is never asserted)."""

from __future__ import annotations

import re

import pytest

from server.cli import main


def test_the_synth_benchmark_prints_photos_and_frames_per_second(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["bench", "synth", "--photos", "1", "--moves", "1"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"^peer: .* median [\d.]+ ms$", out, re.M)
    for difficulty in ("easy", "medium", "hard"):
        assert re.search(rf"^photos: {difficulty} +[\d.]+ +[\d.]+ +\(1\)$", out, re.M)
    assert len(re.findall(r"^video: \d+x\d+ \d+ frames .* [\d.]+ frames/s$", out, re.M)) == 2
