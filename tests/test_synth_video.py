"""Synthetic game videos: the truth matches the frames, per seed, and bad requests are refused."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from datasets.synth import SynthError
from datasets.synth.video import render_video, video_from_sgf, video_intersections
from engine import Board, Game, Move
from engine.sgf import read_sgf
from server.cli import main

BUNDLED = Path(__file__).resolve().parent.parent / "datasets" / "bundled"
DEMO = BUNDLED / "demo.sgf"
Video = tuple[Path, dict[str, Any]]


def read_frames(path: Path) -> list[np.ndarray]:
    capture = cv2.VideoCapture(str(path))
    frames = []
    while True:
        ok, frame = capture.read()
        if not ok:
            break
        frames.append(frame)
    capture.release()
    return frames


def replay(moves: list[str], size: int) -> tuple[str, ...]:
    game = Game(size)
    for text in moves:
        move = Move.from_gtp(text, size)
        if move.color is not game.to_move:
            game.to_move = move.color
        game.play(move)
    return tuple(game.board.rows())


@pytest.fixture(scope="module")
def short_video(tmp_path_factory: pytest.TempPathFactory) -> Video:
    out = tmp_path_factory.mktemp("video") / "short.mp4"
    truth = video_from_sgf(DEMO, out, fps=5, max_moves=6, seed=3, size=(640, 480))
    return out, truth


def test_the_video_has_a_truth_row_for_every_frame(short_video: Video) -> None:
    out, truth = short_video
    frames = read_frames(out)
    assert len(frames) == truth["frame_count"] == len(truth["frames"])
    assert frames[0].shape == (480, 640, 3)
    assert json.loads(out.with_suffix(".json").read_text()) == truth


def test_the_table_goes_from_empty_to_the_recorded_position(short_video: Video) -> None:
    _, truth = short_video
    record = read_sgf(DEMO.read_bytes(), name="demo.sgf")
    expected = [m.gtp(19) for m in record.moves[:6]]
    assert truth["moves"] == expected
    boards = truth["boards"]
    first, last = truth["frames"][0], truth["frames"][-1]
    assert Board.from_diagram(boards[first[0]]).is_empty()
    assert tuple(boards[last[0]]) == replay(expected, 19)
    assert truth["observations"][-1]["board"] == boards[last[0]]


def test_hands_come_and_go_and_still_boards_have_none(short_video: Video) -> None:
    _, truth = short_video
    hand = [row[1] for row in truth["frames"]]
    assert any(hand) and not all(hand)
    for seen in truth["observations"]:
        assert hand[seen["frame"]] == 0
        assert truth["boards"][truth["frames"][seen["frame"]][0]] == seen["board"]
    # The board on the table changes only while a hand is over it.
    for k in range(1, len(hand)):
        if truth["frames"][k][0] != truth["frames"][k - 1][0]:
            assert hand[k] or hand[k - 1], k


def test_stones_are_where_the_truth_says_in_still_frames(short_video: Video) -> None:
    out, truth = short_video
    frames = read_frames(out)
    seen = truth["observations"][-1]
    frame = frames[seen["frame"]]
    pose = truth["frames"][seen["frame"]][2]
    flat = video_intersections(truth, pose)
    np.testing.assert_allclose(flat[[0, 0, -1, -1], [0, -1, -1, 0]], truth["corners"][pose])
    # A stone's middle, half its thickness up, is where a tilted camera sees it.
    lifted = video_intersections(truth, pose, height=truth["params"]["stone"]["thickness"] / 2)
    spacing = float(np.median(np.linalg.norm(np.diff(flat, axis=1), axis=-1)))
    half = max(2, round(0.3 * spacing))
    grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY).astype(np.float64)
    blue = frame[..., 0].astype(np.float64)

    def around(channel: np.ndarray, point: np.ndarray) -> float:
        x, y = round(point[0]), round(point[1])
        return float(np.median(channel[y - half : y + half + 1, x - half : x + half + 1]))

    board = seen["board"]
    empty = [(r, c) for r in range(19) for c in range(19) if board[r][c] == "."]
    empty_grey = np.median([around(grey, flat[p]) for p in empty])
    empty_blue = np.median([around(blue, flat[p]) for p in empty])
    # Black is much darker than the wood; white is neutral where wood is yellow.
    for r, row in enumerate(board):
        for c, what in enumerate(row):
            if what == "X":
                assert around(grey, lifted[r, c]) < 0.6 * empty_grey, (r, c)
            elif what == "O":
                assert around(blue, lifted[r, c]) > empty_blue + 40, (r, c)


def test_injected_violations_have_alerts_at_still_frames_then_corrections(tmp_path: Path) -> None:
    record = read_sgf(DEMO.read_bytes(), name="demo.sgf")
    truth = render_video(
        record,
        tmp_path / "v.mp4",
        fps=2,
        violations=["double_move"],
        seed=5,
        max_moves=10,
        size=(640, 480),
    )
    assert [a["kind"] for a in truth["alerts"]] == ["double_move"]
    times = {seen["t"] for seen in truth["observations"]}
    alert = truth["alerts"][0]
    assert alert["t"] in times
    assert len(truth["resolved_at"]) == 1 and truth["resolved_at"][0] > alert["t"]
    # After the arbiter's correction the game goes on as recorded.
    assert truth["observations"][-1]["board"] == list(replay(truth["moves"], 19))


def test_the_same_seed_gives_the_same_video(tmp_path: Path) -> None:
    first = video_from_sgf(DEMO, tmp_path / "a.mp4", fps=2, max_moves=2, seed=9, size=(640, 480))
    again = video_from_sgf(DEMO, tmp_path / "b.mp4", fps=2, max_moves=2, seed=9, size=(640, 480))
    assert {k: v for k, v in first.items() if k != "video"} == {
        k: v for k, v in again.items() if k != "video"
    }
    assert (tmp_path / "a.mp4").read_bytes() == (tmp_path / "b.mp4").read_bytes()


def test_the_bundled_sample_matches_its_truth() -> None:
    video, truth_file = BUNDLED / "sample.mp4", BUNDLED / "sample.json"
    assert video.stat().st_size + truth_file.stat().st_size < 5_000_000
    truth = json.loads(truth_file.read_text())
    assert len(read_frames(video)) == truth["frame_count"]
    assert truth["observations"][-1]["board"] == list(replay(truth["moves"], 19))
    assert {a["kind"] for a in truth["alerts"]} == {"double_move", "displaced_stone"}


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--violations", "cheating"], "unknown violation 'cheating'"),
        (["--size", "100x100"], "unknown frame size '100x100'"),
        (["--fps", "0"], "frame rate must be between 1 and 60, got 0.0"),
        (["--max-moves", "0"], "--max-moves must be at least 1, got 0"),
    ],
)
def test_bad_arguments_give_one_clear_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    status = main(["synth", "video", str(DEMO), str(tmp_path / "v.mp4"), *argv])
    err = capsys.readouterr().err
    assert status == 2
    assert message in err
    assert err.count("\n") == 1
    assert not (tmp_path / "v.mp4").exists()


def test_a_missing_game_record_is_named(tmp_path: Path) -> None:
    with pytest.raises(SynthError, match=r"game record not found: 'no/such\.sgf'"):
        video_from_sgf(Path("no/such.sgf"), tmp_path / "v.mp4")


def test_a_record_that_cannot_be_played_out_is_named(tmp_path: Path, shared_datasets: Path) -> None:
    bad = shared_datasets / "sgf" / "pro-and-ai-games" / "0895.sgf"  # a move onto a stone
    with pytest.raises(SynthError, match=r"cannot play '.*0895\.sgf' on a table: .*occupied"):
        video_from_sgf(bad, tmp_path / "v.mp4", fps=1)
    assert not (tmp_path / "v.mp4").exists()
