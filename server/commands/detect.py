"""``kifu detect IMAGE...``: read a board from each photo, one JSON line per image.

Success: ``{"image", "size", "board", "corners", "confidence"}`` (corners are
image ``[x, y]`` of board[0][0], board[0][N-1], board[N-1][N-1], board[N-1][0]).
Failure: ``{"image", "error"}``. Exit status 2 if any image failed.
A grid no search placed but the learned corners, given as a guess, says so
first among its ``"suspicions"``.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision import SIZES, VisionError, read_board, read_image
from vision.draw import draw_reading
from vision.stones import EVEN_ODDS

#: The suspicion a guessed grid carries (:data:`vision.detect.GUESSED_CONFIDENCE`).
GUESSED = (
    "the grid is a guess: no search placed the board, only the learned corners;"
    " check it (--draw) or give --corners"
)


class CornersError(ValueError):
    """``--corners`` is not eight comma-separated numbers."""


def parse_corners(text: str) -> np.ndarray[Any, np.dtype[np.float64]]:
    """``"x,y,x,y,x,y,x,y"`` → array of shape (4, 2).

    >>> parse_corners("0,0,10,0,10,10,0,10").tolist()[2]
    [10.0, 10.0]
    """
    try:
        values = [float(v) for v in text.split(",")]
    except ValueError as error:
        raise CornersError(f"--corners must be numbers x,y,x,y,x,y,x,y, got {text!r}") from error
    if len(values) != 8:
        raise CornersError(f"--corners needs 8 numbers (4 points), got {len(values)} in {text!r}")
    return np.array(values, dtype=np.float64).reshape(4, 2)


def _draw_path(base: Path, index: int, count: int) -> Path:
    """``OUT.png`` for one image; ``OUT-1.png``, ``OUT-2.png``... for several."""
    if count == 1:
        return base
    return base.with_name(f"{base.stem}-{index + 1}{base.suffix}")


def detect_one(
    path: str,
    *,
    size: int,
    corners: np.ndarray[Any, np.dtype[np.float64]] | None,
    draw: Path | None,
) -> dict[str, Any]:
    """The JSON object for one image (never raises for a bad image)."""
    try:
        image = read_image(path)
    except VisionError as error:
        return {"image": path, "error": str(error)}
    detection, reading = read_board(image, size=size, corners=corners)
    if detection.grid is None or reading is None:
        return {"image": path, "error": detection.reason}
    if draw is not None:
        picture = draw_reading(
            image, detection.grid, board=reading.board, unsure=reading.confidence < EVEN_ODDS
        )
        if not cv2.imwrite(str(draw), picture):
            raise OSError(f"cannot write drawing to {str(draw)!r}")
    result: dict[str, Any] = {
        "image": path,
        "size": size,
        "board": list(reading.board),
        "corners": np.round(detection.corners, 2).tolist(),
        "confidence": round(detection.confidence * float(reading.confidence.min()), 3),
    }
    suspicions = list(reading.suspicions)
    if {"guessed", "unrefined"} & detection.details.keys():
        suspicions.insert(0, GUESSED)
    if suspicions:
        result["suspicions"] = suspicions
    return result


def run(args: argparse.Namespace) -> int:
    corners = parse_corners(args.corners) if args.corners else None
    failed = False
    for index, path in enumerate(args.images):
        draw = None if args.draw is None else _draw_path(Path(args.draw), index, len(args.images))
        result = detect_one(path, size=args.size, corners=corners, draw=draw)
        failed |= "error" in result
        print(json.dumps(result), flush=True)
    if failed:
        print("kifu detect: some images failed (see their JSON lines)", file=sys.stderr)
    return 2 if failed else 0


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "detect",
        help="read the board in photos, one JSON line per image",
        description=(
            "Find the grid (no clicks needed) and read black, white and empty at every "
            "intersection. Prints one JSON line per image; exit status 2 if any failed."
        ),
    )
    parser.add_argument("images", nargs="+", metavar="IMAGE", help="photo files")
    parser.add_argument("--size", type=int, choices=SIZES, default=19, help="board size")
    parser.add_argument(
        "--corners",
        metavar="x,y,x,y,x,y,x,y",
        help="corner intersections board[0][0], [0][N-1], [N-1][N-1], [N-1][0] in pixels",
    )
    parser.add_argument(
        "--draw",
        metavar="OUT.png",
        help="write the photo with the found grid and stones (OUT-1.png... for several)",
    )
    parser.set_defaults(func=run)
