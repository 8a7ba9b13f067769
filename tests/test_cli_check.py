"""``kifu check``: one JSON line per record, illegal moves reported, bad input as one line."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from server.cli import main

ROOT = Path(__file__).resolve().parent.parent
DEMO = ROOT / "datasets" / "bundled" / "demo.sgf"


def check(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, list[Any], str]:
    """Run ``kifu check ARGS``; return the exit status, the JSON lines and stderr."""
    status = main(["check", *args])
    out, err = capsys.readouterr()
    return status, [json.loads(line) for line in out.splitlines()], err


def write(tmp_path: Path, name: str, data: bytes) -> str:
    path = tmp_path / name
    path.write_bytes(data)
    return str(path)


def test_a_clean_record(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    sgf = write(
        tmp_path, "clean.sgf", b"(;SZ[9]KM[7.5]RE[B+R];B[ee];W[de];B[dd];W[aa];B[df];W[bb];B[ce])"
    )
    status, [line], err = check(capsys, sgf)
    assert (status, err) == (0, "")
    assert line["file"] == sgf
    assert line["moves"] == 7
    assert line["board"] == [
        "O........",
        ".O.......",
        ".........",
        "...X.....",
        "..X.X....",
        "...X.....",
        ".........",
        ".........",
        ".........",
    ]
    assert line["captures"] == {"B": 1, "W": 0}
    assert line["illegal"] == []
    score = line["score"]
    assert score["rules"] == "chinese"
    assert score["recorded"] == "B+R"
    # 4 stones and the point where White's stone was; the other 74 points touch both
    assert (score["black"], score["white"]) == (4 + 1 + 37, 2 + 37)
    assert score["result"] == "W+4.5"
    assert score["stones"] == "White wins by 2¼ stones"


def test_the_bundled_demo_game(capsys: pytest.CaptureFixture[str]) -> None:
    status, [line], _ = check(capsys, str(DEMO))
    assert status == 0
    assert line["illegal"] == []
    assert line["moves"] > 100
    assert len(line["board"]) == 19
    assert all(len(row) == 19 and set(row) <= set(".XO") for row in line["board"])


def test_0895_is_illegal_at_move_242(
    capsys: pytest.CaptureFixture[str], shared_datasets: Path
) -> None:
    path = shared_datasets / "sgf" / "pro-and-ai-games" / "0895.sgf"
    status, [line], err = check(capsys, str(path))
    assert (status, err) == (0, "")
    assert line["moves"] == 241
    [illegal] = line["illegal"]
    assert {k: illegal[k] for k in ("move", "color", "point", "reason")} == {
        "move": 242,
        "color": "W",
        "point": "G16",
        "reason": "occupied",
    }
    assert illegal["message"] == "W G16: the point is occupied"
    assert line["board"][3][6] != "."  # G16 is row 3, column 6 from the top-left


def test_an_occupied_point_stops_the_replay(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    sgf = write(tmp_path, "occupied.sgf", b"(;SZ[9];B[ee];W[dd];B[dd];W[cc])")
    status, [line], _ = check(capsys, sgf)
    assert status == 0
    assert line["moves"] == 2
    assert line["illegal"] == [
        {
            "move": 3,
            "color": "B",
            "point": "D6",
            "reason": "occupied",
            "message": "B D6: the point is occupied",
        }
    ]


def test_a_suicide_is_reported_with_its_reason(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    sgf = write(tmp_path, "suicide.sgf", b"(;SZ[9];B[ba];W[ee];B[ab];W[aa])")
    _, [line], _ = check(capsys, sgf)
    assert [(i["move"], i["point"], i["reason"]) for i in line["illegal"]] == [(4, "A9", "suicide")]
    _, [line], _ = check(capsys, sgf, "--rules", "ko=simple,suicide=allowed")
    assert line["illegal"] == []
    assert line["captures"] == {"B": 1, "W": 0}


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"this is not SGF", "not a readable SGF record"),
        (b"(;SZ[4];B[aa])", "board size 4 not supported (5-25)"),
        (b"(;SZ[9];B[ee];W[zz])", "move 2: W[zz] is not a point on a 9x9 board"),
    ],
    ids=["garbage", "wrong size", "off board"],
)
def test_unreadable_records_are_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, data: bytes, message: str
) -> None:
    sgf = write(tmp_path, "bad.sgf", data)
    status, [line], err = check(capsys, sgf)
    assert status == 2
    assert line == {
        "file": sgf,
        "error": f"{sgf}: {message}" if "SGF" not in message else line["error"],
    }
    assert line["error"].startswith(f"{sgf}: {message}")
    assert err == f"kifu check: {line['error']}\n"


def test_a_missing_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    missing = str(tmp_path / "missing.sgf")
    status, [line], err = check(capsys, missing)
    assert status == 2
    assert line == {"file": missing, "error": f"{missing}: No such file or directory"}
    assert err.count("\n") == 1


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda p: p.mkdir(), "Is a directory"),
        (lambda p: p.write_bytes(b""), "not a readable SGF record"),
        (lambda p: p.write_bytes(bytes(range(256))), "not a readable SGF record"),
    ],
    ids=["directory", "empty", "binary"],
)
def test_other_unreadable_paths(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, make: Callable[[Path], object], message: str
) -> None:
    path = tmp_path / "odd.sgf"
    make(path)
    status, [line], err = check(capsys, str(path))
    assert status == 2
    assert line["error"].startswith(f"{path}: {message}")
    assert err.count("\n") == 1


def test_every_file_is_checked_and_any_failure_sets_the_status(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    good = write(tmp_path, "good.sgf", b"(;SZ[9];B[ee])")
    bad = write(tmp_path, "bad.sgf", b"(;SZ[9];B[ee")
    status, lines, err = check(capsys, good, bad, good)
    assert status == 2
    assert [line["file"] for line in lines] == [good, bad, good]
    assert ["error" in line for line in lines] == [False, True, False]
    assert err.count("\n") == 1


def test_rules_option(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    sgf = write(tmp_path, "game.sgf", b"(;SZ[9];B[ee])")
    _, [line], _ = check(capsys, sgf, "--rules", "japanese")
    assert line["score"]["rules"] == "japanese"
    assert line["score"]["scoring"] == "territory"
    assert line["score"]["komi"] == 6.5
    with pytest.raises(SystemExit) as caught:
        main(["check", sgf, "--rules", "snooker"])
    assert caught.value.code == 2
    assert "--rules" in capsys.readouterr().err


def test_as_a_real_process(tmp_path: Path) -> None:
    """The command line as a user runs it: JSON on stdout, one line on stderr, status 2."""
    good = write(tmp_path, "good.sgf", b"(;SZ[13];B[gg];W[dd])")
    missing = str(tmp_path / "missing.sgf")
    done = subprocess.run(
        [sys.executable, "-m", "server.cli", "check", good, missing],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2
    first, second = (json.loads(line) for line in done.stdout.splitlines())
    assert first["moves"] == 2
    assert len(first["board"]) == 13
    assert second["error"] == f"{missing}: No such file or directory"
    assert done.stderr == f"kifu check: {missing}: No such file or directory\n"
    assert "Traceback" not in done.stderr


def strict_json(line: str) -> Any:
    """Parse a line as standard JSON: NaN and Infinity are not JSON."""

    def refuse(constant: str) -> None:
        raise ValueError(f"not JSON: {constant}")

    return json.loads(line, parse_constant=refuse)


SPLICES = [b";B[aa]", b";W[tt]", b"AB[aa]", b"AW[aa]", b"AE[dd]", b"(;W[cc])", b"SZ[7]"]
SPLICES += [b"KM[nan]", b"HA[-2]", b"C[\\]", b"BL[x]", b"SZ[30]", b";B[zz]", b"\n"]


def mutations(data: bytes, rng: random.Random) -> bytes:
    """``data`` with a few bytes replaced, cut out or spliced in."""
    out = bytearray(data)
    for _ in range(rng.randint(1, 5)):
        i = rng.randrange(len(out))
        roll = rng.random()
        if roll < 0.4:
            out[i] = rng.choice(b"[];()abcdefghijklmnopqrstuvwxyzAB\\:0123456789 ")
        elif roll < 0.7:
            del out[i : i + rng.randint(1, 20)]
        else:
            out[i:i] = rng.choice(SPLICES)
    return bytes(out)


def test_mangled_records_never_crash(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """Seeded mutations of a real record: status 0 or 2, valid JSON, at most one error line."""
    rng = random.Random(2002)
    original = DEMO.read_bytes()
    path = tmp_path / "mangled.sgf"
    statuses = set()
    for _ in range(300):
        path.write_bytes(mutations(original, rng))
        status = main(["check", str(path)])
        out, err = capsys.readouterr()
        statuses.add(status)
        [line] = [strict_json(text) for text in out.splitlines()]
        assert ("error" in line) == (status == 2)
        assert err.count("\n") == (status == 2)
        assert "Traceback" not in err
    assert statuses == {0, 2}
