"""What happens without a board, or without a readable image: clear refusals."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt
import pytest

from server.cli import main
from tests.vision_synthetic import draw_board
from vision import ImageReadError, VisionError, detect_board, read_image

CORNERS = [(150, 100), (650, 100), (650, 560), (150, 560)]


def write(path: Path, image: npt.NDArray[np.uint8]) -> Path:
    assert cv2.imwrite(str(path), image)
    return path


@pytest.fixture()
def board_png(tmp_path: Path) -> Path:
    image, _ = draw_board(["." * 19] * 19, corners=CORNERS, rng=np.random.default_rng(1))
    return write(tmp_path / "board.png", image)


def test_a_truncated_jpeg_is_refused(tmp_path: Path, board_png: Path) -> None:
    data = cv2.imencode(".jpg", read_image(board_png))[1].tobytes()
    path = tmp_path / "cut.jpg"
    path.write_bytes(data[: len(data) // 2])
    with pytest.raises(
        ImageReadError, match=r"truncated JPEG '.*cut\.jpg': no end-of-image marker"
    ):
        read_image(path)


def test_a_file_that_is_not_an_image_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "notes.jpg"
    path.write_text("not a photo")
    with pytest.raises(ImageReadError, match="not an image OpenCV can decode"):
        read_image(path)


def test_a_missing_file_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ImageReadError, match="cannot read"):
        read_image(tmp_path / "nowhere.png")


def test_a_one_pixel_image_has_no_board() -> None:
    detection = detect_board(np.zeros((1, 1, 3), np.uint8))
    assert not detection
    assert detection.reason == "no board found: image is 1x1, too small to hold a board"


def test_an_all_black_image_has_no_board() -> None:
    detection = detect_board(np.zeros((480, 640, 3), np.uint8))
    assert not detection
    assert detection.reason == "no board found: the image is blank (no contrast at all)"


def test_noise_has_no_board() -> None:
    noise = np.random.default_rng(0).integers(0, 256, (480, 640, 3), dtype=np.uint8)
    detection = detect_board(np.asarray(cv2.GaussianBlur(noise, (0, 0), 2.0), np.uint8))
    assert not detection
    assert detection.reason.startswith("no board found: ")


def test_scattered_lines_are_not_a_board() -> None:
    rng = np.random.default_rng(8)
    image = np.full((600, 800, 3), 200, np.uint8)
    for _ in range(25):
        x1, y1, x2, y2 = (int(v) for v in rng.integers(0, 600, 4))
        cv2.line(image, (x1, y1), (x2 + 100, y2), (40, 40, 40), 2)
    detection = detect_board(image)
    assert not detection
    assert detection.reason.startswith("no board found: ")
    # Every search says why, by name, in the order they ran.
    said = [
        part.split(":")[0] for part in detection.reason.removeprefix("no board found: ").split("; ")
    ]
    assert said == [
        "lines",
        "outline",
        "loose stones",
        "stones' cores",
        "faint lines",
        "blurred lines",
        "stretched outline",
        "combed lines",
        "smeared lines",
        "stones' outline",
        "wide region",
        "learned corners",
        # Two guesses from three of the network's peaks, placing no grid.
        "three corners",
    ]


def test_a_tiled_floor_is_not_a_board() -> None:
    # Tile joints in perspective, a lattice as regular as a board's, filling the
    # picture: a 19×19 window of it has crossings everywhere, but it runs off the
    # image on every side, and a board is seen whole.
    flat = np.full((1400, 1400, 3), 170, np.uint8)
    for k in range(0, 1400, 56):
        cv2.line(flat, (k, 0), (k, 1399), (95, 95, 95), 2)
        cv2.line(flat, (0, k), (1399, k), (95, 95, 95), 2)
    source = np.float32([[0, 0], [1399, 0], [1399, 1399], [0, 1399]])
    target = np.float32([[-300, -200], [1100, -250], [900, 700], [-100, 800]])
    floor = cv2.warpPerspective(flat, cv2.getPerspectiveTransform(source, target), (800, 600))
    detection = detect_board(floor)
    assert not detection
    assert detection.reason.startswith("no board found: ")


def test_a_table_without_a_board_has_no_board(shared_datasets: Path) -> None:
    photo = read_image(shared_datasets / "photos" / "imago-tests" / "t1" / "t1_001.jpg")
    cloth = photo[1000:1536, 0:500]  # the blue cloth below-left of the board
    assert not detect_board(cloth)


def test_a_failed_detection_has_no_corners() -> None:
    detection = detect_board(np.zeros((64, 64, 3), np.uint8))
    with pytest.raises(VisionError, match="no grid: no board found"):
        _ = detection.corners


@pytest.mark.parametrize(
    ("image", "size", "message"),
    [
        (np.zeros((100, 100, 3), np.float32), 19, "image must be a uint8 numpy array"),
        (np.zeros((100, 100, 4), np.uint8), 19, r"image must have shape \(H, W, 3\)"),
        (np.zeros((100, 100, 3), np.uint8), 15, "board size must be one of"),
    ],
)
def test_bad_arguments_raise(image: npt.NDArray[np.uint8], size: int, message: str) -> None:
    with pytest.raises(VisionError, match=message):
        detect_board(image, size=size)


def test_degenerate_corners_raise() -> None:
    with pytest.raises(VisionError, match="corners are degenerate"):
        detect_board(np.zeros((100, 100, 3), np.uint8), corners=np.zeros((4, 2)))


def test_kifu_detect_prints_one_json_line_per_image(
    tmp_path: Path, board_png: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    blank = write(tmp_path / "blank.png", np.zeros((480, 640, 3), np.uint8))
    drawing = tmp_path / "out.png"
    status = main(["detect", str(board_png), str(blank), "--draw", str(drawing)])
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert status == 2
    found, failed = lines
    assert found["image"] == str(board_png) and found["size"] == 19
    assert found["board"] == ["." * 19] * 19
    np.testing.assert_allclose(found["corners"], CORNERS, atol=1.0)
    assert 0.0 <= found["confidence"] <= 1.0
    assert failed == {
        "image": str(blank),
        "error": "no board found: the image is blank (no contrast at all)",
    }
    assert (tmp_path / "out-1.png").is_file() and not (tmp_path / "out-2.png").exists()


def test_kifu_detect_succeeds_with_given_corners(
    board_png: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    corners = ",".join(str(v) for point in CORNERS for v in point)
    assert main(["detect", str(board_png), "--corners", corners]) == 0
    line = json.loads(capsys.readouterr().out)
    assert line["confidence"] > 0.5 and line["corners"] == [list(map(float, p)) for p in CORNERS]


def test_kifu_detect_refuses_bad_corners_in_one_line(
    board_png: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["detect", str(board_png), "--corners", "1,2,3"]) == 2
    err = capsys.readouterr().err
    assert err == "kifu detect: error: --corners needs 8 numbers (4 points), got 3 in '1,2,3'\n"


def test_kifu_detect_reports_a_truncated_jpeg(
    tmp_path: Path, board_png: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = cv2.imencode(".jpg", read_image(board_png))[1].tobytes()
    cut = tmp_path / "cut.jpg"
    cut.write_bytes(data[:1000])
    assert main(["detect", str(cut)]) == 2
    line = json.loads(capsys.readouterr().out)
    assert line == {
        "image": str(cut),
        "error": f"truncated JPEG {str(cut)!r}: no end-of-image marker",
    }
