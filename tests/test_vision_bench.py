"""``kifu bench vision`` on a folder of one drawn photo: the table and its picture."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from server.cli import main
from tests.vision_synthetic import draw_board

POSITION = ["." * 9] * 4 + ["....X...."] + ["." * 9] * 3 + ["O........"]


def test_bench_vision_prints_the_table_and_draws_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "photos" / "drawn"
    folder.mkdir(parents=True)
    image, _ = draw_board(
        POSITION,
        corners=[(200, 120), (600, 120), (600, 520), (200, 520)],
        rng=np.random.default_rng(6),
    )
    assert cv2.imwrite(str(folder / "one.png"), image)
    truth = "\n".join(" ".join({"X": "B", "O": "W"}.get(c, ".") for c in row) for row in POSITION)
    (folder / "one.txt").write_text(truth + "\n")
    picture = tmp_path / "table.png"
    status = main(
        [
            "bench",
            "vision",
            "--photos",
            str(tmp_path / "photos"),
            "--repeat",
            "2",
            "--table",
            str(picture),
        ]
    )
    out = capsys.readouterr().out.splitlines()
    assert status == 0
    assert out[0].split() == [
        "dataset",
        "photos",
        "right",
        "points",
        "right",
        "(a)",
        "ms",
        "(b)",
        "ms",
    ]
    assert out[1].split()[:3] == ["drawn", "1/1", "100.000%"]
    assert out[2].split()[:3] == ["all", "1/1", "100.000%"]
    table = cv2.imread(str(picture))
    assert table is not None and table.shape[0] > 50
