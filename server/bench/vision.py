"""``kifu bench vision``: accuracy and speed of reading real or synthetic photos.

Per folder of ``../shared/datasets/photos``: photos read entirely right, share of
intersections right, and median milliseconds for (a) the whole detection (grid
and stones) on the photo scaled to the pixel count of a 1920×1080 frame, its
shape kept (squashing a 4:3 or portrait photo into 16:9 would change the board's
geometry), and (b) reading the stones on a
known grid (the camera's per-frame path).

With ``--synthetic DIR`` (a folder written by ``kifu synth photos``), per board
look: boards found in the right place, photos entirely right, share of
intersections right counting missed boards as all wrong, no-board photos refused,
boards missed and boards misplaced (with the confidence each misplaced one was
given: a wrong board reported sure misleads an arbiter more than a missed one),
and the median milliseconds of the whole detection, overall and per path it
took (``PATHS``). Progress goes to stderr.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt

from datasets.real import photo_cases
from vision import BoardDetection, BoardSampler, detect_board, read_image, read_stones

FloatArray = npt.NDArray[np.float64]

#: Where the team's shared photos live, relative to this checkout.
DEFAULT_PHOTOS = Path(__file__).resolve().parents[2].parent / "shared" / "datasets" / "photos"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--photos", type=Path, default=DEFAULT_PHOTOS, help="photos folder")
    parser.add_argument("--repeat", type=int, default=5, help="timed stone reads per photo")
    parser.add_argument(
        "--synthetic",
        type=Path,
        metavar="DIR",
        help="score synthetic photos (from 'kifu synth photos') instead of the real ones",
    )
    parser.add_argument(
        "--table", metavar="OUT.png", help="also draw the accuracy table as an image"
    )


def _ms(start: float) -> float:
    return (time.perf_counter() - start) * 1000.0


def full_hd(image: npt.NDArray[np.uint8]) -> npt.NDArray[np.uint8]:
    """The photo scaled to as many pixels as a 1920×1080 frame, its shape kept."""
    height, width = image.shape[:2]
    scale = float(np.sqrt(1920 * 1080 / (height * width)))
    size = (round(width * scale), round(height * scale))
    return np.asarray(cv2.resize(image, size, interpolation=cv2.INTER_LINEAR), np.uint8)


def draw_table(rows: list[list[str]], path: Path) -> None:
    """Render a table (first row the header) as a PNG, columns aligned."""
    font, scale, thick = cv2.FONT_HERSHEY_SIMPLEX, 0.55, 1
    widths = [
        max(cv2.getTextSize(row[k], font, scale, thick)[0][0] for row in rows)
        for k in range(len(rows[0]))
    ]
    starts = np.concatenate([[10], 10 + np.cumsum([w + 24 for w in widths])])
    canvas = np.full((26 * len(rows) + 20, int(starts[-1]), 3), 255, np.uint8)
    for i, row in enumerate(rows):
        colour = (120, 60, 0) if i == 0 else (0, 0, 0)
        for k, text in enumerate(row):
            width = cv2.getTextSize(text, font, scale, thick)[0][0]
            x = int(starts[k]) if k == 0 else int(starts[k] + widths[k] - width)
            cv2.putText(canvas, text, (x, 28 + 26 * i), font, scale, colour, thick, cv2.LINE_AA)
    if not cv2.imwrite(str(path), canvas):
        raise OSError(f"cannot write table image {str(path)!r}")


def run(args: argparse.Namespace) -> int:
    if args.synthetic is not None:
        return run_synthetic(args.synthetic, table=args.table)
    return run_real(args)


def run_real(args: argparse.Namespace) -> int:
    """The real photos' table (see the module docstring)."""
    cases = photo_cases(args.photos)
    right: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    points: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    full_ms: dict[str, list[float]] = defaultdict(list)
    read_ms: dict[str, list[float]] = defaultdict(list)
    for number, case in enumerate(cases, start=1):
        print(f"[{number}/{len(cases)}] {case.name}", file=sys.stderr, flush=True)
        image = case.load().image
        detection = detect_board(image, size=case.size)
        right[case.folder][1] += 1
        points[case.folder][1] += case.size * case.size
        if detection.grid is not None:
            sampler = BoardSampler.for_grid(detection.grid)
            reading = read_stones(image, sampler)
            wrong = sum(
                a != b
                for row, truth in zip(reading.board, case.board, strict=True)
                for a, b in zip(row, truth, strict=True)
            )
            right[case.folder][0] += wrong == 0
            points[case.folder][0] += case.size * case.size - wrong
            for _ in range(args.repeat):
                start = time.perf_counter()
                read_stones(image, sampler)
                read_ms[case.folder].append(_ms(start))
        hd = full_hd(image)
        start = time.perf_counter()
        found = detect_board(hd, size=case.size)
        if found.grid is not None:
            read_stones(hd, found.grid)
        full_ms[case.folder].append(_ms(start))
    table = [["dataset", "photos right", "points right", "(a) ms", "(b) ms"]]
    for folder in sorted(right):
        ok, total = right[folder]
        good, count = points[folder]
        a = statistics.median(full_ms[folder])
        b = statistics.median(read_ms[folder]) if read_ms[folder] else float("nan")
        table.append(
            [folder, f"{ok}/{total}", f"{100 * good / count:.3f}%", f"{a:.0f}", f"{b:.1f}"]
        )
    ok = sum(v[0] for v in right.values())
    total = sum(v[1] for v in right.values())
    good = sum(v[0] for v in points.values())
    count = sum(v[1] for v in points.values())
    all_a = statistics.median([v for vs in full_ms.values() for v in vs])
    all_b = statistics.median([v for vs in read_ms.values() for v in vs])
    table.append(
        ["all", f"{ok}/{total}", f"{100 * good / count:.3f}%", f"{all_a:.0f}", f"{all_b:.1f}"]
    )
    lines = [f"{row[0]:28} {row[1]:>12} {row[2]:>13} {row[3]:>8} {row[4]:>8}" for row in table]
    print("\n".join(lines))
    print(
        "(a) grid + stones on the photo scaled to 1920x1080's pixel count, shape kept;"
        " (b) stones on a known grid"
    )
    if args.table:
        draw_table(table, Path(args.table))
    return 0


def aligned_board(
    board: npt.NDArray[np.str_], found: FloatArray, truth: FloatArray
) -> npt.NDArray[np.str_] | None:
    """A board read on the ``found`` corners, relabelled as the truth's corners are.

    None when the found corners are not the truth's within half a cell (misplaced).

    The corner order's convention (``board[0][0]`` nearest the image's top-left)
    is ambiguous for a board turned about 45 degrees: two corners are about as
    near, and a pixel decides. The reading is scored on the physical points, so
    the found board is turned to the truth's labelling when its corners match
    the truth's within half a cell.
    """
    side = float(np.mean(np.linalg.norm(truth - np.roll(truth, -1, axis=0), axis=1)))
    cell = side / (len(board) - 1)
    for turns in range(4):
        error = np.linalg.norm(np.roll(found, turns, axis=0) - truth, axis=1).max()
        if error <= 0.5 * cell:
            return np.rot90(board, -turns)
    return None


#: The paths a detection takes, in the order the synthetic table prints them:
#: placed by lines that leave no doubt (the search stops there); placed, then
#: checked against the stones, the outlines and the lines nearby; no board found
#: after every search.
PATHS = ("lines sure", "checked further", "no board found")


def _path_taken(detection: BoardDetection) -> str:
    """Which of ``PATHS`` a detection took (an unsure placement reports its certainty)."""
    if detection.grid is None:
        return PATHS[2]
    return PATHS[1] if "certainty" in detection.details else PATHS[0]


def run_synthetic(folder: Path, *, table: str | None) -> int:
    """The synthetic photos' table, per board look (see the module docstring)."""
    files = sorted(folder.glob("*.json"))
    if not files:
        raise OSError(f"no synthetic photos (*.json truth) in {str(folder)!r}")
    # Per look: boards, placed right, read entirely right, points, points right.
    stats: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0, 0])
    blank = [0, 0]
    missed = 0
    misplaced: list[float] = []  # the confidence each misplaced board was given
    times: list[float] = []
    # Per path the detection took: why the median photo costs what it does.
    by_path: dict[str, list[float]] = defaultdict(list)
    for number, path in enumerate(files, start=1):
        print(f"[{number}/{len(files)}] {path.stem}", file=sys.stderr, flush=True)
        truth = json.loads(path.read_text())
        image = read_image(path.with_suffix(".jpg"))
        size = int(truth["board_size"] or 19)
        start = time.perf_counter()
        detection = detect_board(image, size=size)
        reading = read_stones(image, detection.grid) if detection.grid is not None else None
        times.append(_ms(start))
        by_path[_path_taken(detection)].append(times[-1])
        if truth["board"] is None:
            blank[0] += 1
            blank[1] += not detection
            continue
        look = str(truth["params"]["board_look"]["style"])
        row = stats[look]
        row[0] += 1
        row[3] += size * size
        if reading is None or detection.grid is None:
            missed += 1
            continue
        seen = aligned_board(
            np.array([list(r) for r in reading.board]),
            detection.grid.corners,
            np.asarray(truth["corners"], dtype=np.float64),
        )
        if seen is None:
            misplaced.append(detection.confidence)
            continue
        row[1] += 1
        expected = np.array([list(r) for r in truth["board"]])
        wrong = int(np.count_nonzero(seen != expected))
        row[2] += wrong == 0
        row[4] += size * size - wrong
    rows = [["board look", "boards", "placed right", "all right", "points right"]]
    for look in sorted(stats):
        boards, placed, right, points, good = stats[look]
        rows.append([look, str(boards), str(placed), str(right), f"{100 * good / points:.2f}%"])
    totals = [sum(v[k] for v in stats.values()) for k in range(5)]
    rows.append(
        [
            "all",
            str(totals[0]),
            str(totals[1]),
            str(totals[2]),
            f"{100 * totals[4] / max(totals[3], 1):.2f}%",
        ]
    )
    lines = [f"{r[0]:12} {r[1]:>8} {r[2]:>14} {r[3]:>10} {r[4]:>14}" for r in rows]
    print("\n".join(lines))
    print(f"no-board photos refused: {blank[1]}/{blank[0]}")
    # A misplaced board is worse than a missed one where it is given confidence:
    # how far the confidence can be trusted, for an arbiter.
    given = " ".join(f"{c:.2f}" for c in sorted(misplaced))
    print(
        f"boards missed: {missed}; misplaced: {len(misplaced)}"
        + (f" (their confidence: {given})" if misplaced else "")
    )
    print(f"median ms per photo (grid + stones, as stored): {statistics.median(times):.0f}")
    paths = "; ".join(
        f"{name} {statistics.median(by_path[name]):.0f} ({len(by_path[name])} photos)"
        for name in PATHS
        if by_path[name]
    )
    print(f"median ms by path: {paths}")
    print("points right counts every point of a missed or misplaced board as wrong")
    if table:
        draw_table(rows, Path(table))
    return 0
