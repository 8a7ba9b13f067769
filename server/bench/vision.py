"""``kifu bench vision``: accuracy and speed of reading real photos.

Per folder of ``../shared/datasets/photos``: photos read entirely right, share of
intersections right, and median milliseconds for (a) the whole detection (grid
and stones) on the photo scaled to 1920×1080 and (b) reading the stones on a
known grid (the camera's per-frame path). Progress goes to stderr.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path

import cv2
import numpy as np

from datasets.real import photo_cases
from vision import BoardSampler, detect_board, read_stones

#: Where the team's shared photos live, relative to this checkout.
DEFAULT_PHOTOS = Path(__file__).resolve().parents[2].parent / "shared" / "datasets" / "photos"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--photos", type=Path, default=DEFAULT_PHOTOS, help="photos folder")
    parser.add_argument("--repeat", type=int, default=5, help="timed stone reads per photo")
    parser.add_argument(
        "--table", metavar="OUT.png", help="also draw the accuracy table as an image"
    )


def _ms(start: float) -> float:
    return (time.perf_counter() - start) * 1000.0


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
        hd = np.asarray(cv2.resize(image, (1920, 1080), interpolation=cv2.INTER_LINEAR), np.uint8)
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
    print("(a) grid + stones on the photo scaled to 1920x1080; (b) stones on a known grid")
    if args.table:
        draw_table(table, Path(args.table))
    return 0
