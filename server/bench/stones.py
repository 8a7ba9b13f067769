"""``kifu bench stones``: the stone readers compared, on synthetic and real photos.

On a folder of synthetic photos (``kifu synth photos DIR --seed S --difficulty
hard``; use a seed the model was not trained on) every board is read on its TRUE
grid, so that grid-finding errors do not mix in, by the classical reader alone,
the learned model alone and their combination (what ``read_stones`` does); the
table gives intersections right, and boards entirely right, per board look and
overall; a line says how many points the combination misread at a confidence of
a half or more (what would mislead a referee) and how many it read under a half.
The same three on the real photos, on the grid ``detect_board`` finds
there (no true grid is known), with the median milliseconds per read on a known
grid. ``--without-second-look`` reads with the stone model alone, as before the
stone net (:func:`vision.learned.second_look`). Progress goes to stderr.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

import numpy as np
import numpy.typing as npt

from datasets.real import photo_cases
from datasets.stone_patches import folder_cases
from server.bench.vision import DEFAULT_PHOTOS
from vision import BoardSampler, detect_board, grid_from_corners, read_stones
from vision.stones import EVEN_ODDS, READERS, StoneReading


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--photos", type=Path, required=True, help="folder of synthetic photos with truth"
    )
    parser.add_argument(
        "--real", type=Path, default=DEFAULT_PHOTOS, help="folder of real photos with truth"
    )
    parser.add_argument("--no-real", action="store_true", help="skip the real photos")
    parser.add_argument("--repeat", type=int, default=3, help="timed reads per real photo")
    parser.add_argument(
        "--without-second-look",
        action="store_true",
        help="read with the stone model alone, as before the stone net (look_again=False)",
    )


class Tally:
    """Intersections and boards right per group and reader."""

    def __init__(self) -> None:
        self.points: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0])
        self.boards: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0])

    def add(self, group: str, reader: str, read: Iterable[str], truth: Iterable[str]) -> None:
        wrong = sum(
            a != b
            for row, want in zip(read, truth, strict=True)
            for a, b in zip(row, want, strict=True)
        )
        for key in ((group, reader), ("all", reader)):
            self.points[key][0] += self.count(truth) - wrong
            self.points[key][1] += self.count(truth)
            self.boards[key][0] += wrong == 0
            self.boards[key][1] += 1

    @staticmethod
    def count(truth: Iterable[str]) -> int:
        return sum(len(row) for row in truth)

    def table(self, title: str) -> str:
        groups = [*sorted({group for group, _ in self.points} - {"all"}), "all"]
        head = f"{title:28}" + "".join(
            f"{reader + ' points':>20}{'boards':>10}" for reader in READERS
        )
        lines = [head]
        for group in groups:
            cells = []
            for reader in READERS:
                good, total = self.points[group, reader]
                ok, boards = self.boards[group, reader]
                cells.append(f"{100 * good / total:19.3f}%{ok:>5}/{boards:<4}")
            lines.append(f"{group:28}" + "".join(cells))
        return "\n".join(lines)


@dataclass
class Trust:
    """How far the default reader's confidence can be trusted: a point read under
    ``SURE`` is unknown to the referee, so a misread point above it is what misleads."""

    SURE: ClassVar[float] = EVEN_ODDS
    #: Points misread, and of them those read at ``SURE`` or more.
    wrong: int = 0
    wrong_sure: int = 0
    #: Points read under ``SURE``, and of them those read right.
    unsure: int = 0
    unsure_right: int = 0

    def add(self, reading: StoneReading, truth: Iterable[str]) -> None:
        read = np.array([list(row) for row in reading.board])
        right = read == np.array([list(row) for row in truth])
        sure = reading.confidence >= self.SURE
        self.wrong += int((~right).sum())
        self.wrong_sure += int((~right & sure).sum())
        self.unsure += int((~sure).sum())
        self.unsure_right += int((right & ~sure).sum())

    def line(self) -> str:
        return (
            f"{READERS[0]}: {self.wrong_sure} of {self.wrong} points misread were read at "
            f"a confidence of {self.SURE} or more; {self.unsure} points read under it, "
            f"{self.unsure_right} of them right"
        )


def _synthetic(folder: Path, look_again: bool) -> tuple[Tally, Trust]:
    tally, trust = Tally(), Trust()
    for number, case in enumerate(folder_cases(folder), start=1):
        print(f"\rsynthetic {number}: {case.name}", end="", file=sys.stderr, flush=True)
        n = len(case.board)
        grid = grid_from_corners(case.corners, size=n, image_shape=case.image.shape[:2])
        sampler = BoardSampler.for_grid(grid)
        for reader in READERS:
            reading = read_stones(case.image, sampler, reader=reader, look_again=look_again)
            tally.add(case.look, reader, reading.board, case.board)
            if reader == READERS[0]:
                trust.add(reading, case.board)
    print(file=sys.stderr)
    return tally, trust


def _real(folder: Path, repeat: int, look_again: bool) -> tuple[Tally, dict[str, list[float]]]:
    tally = Tally()
    timings: dict[str, list[float]] = defaultdict(list)
    cases = photo_cases(folder)
    for number, case in enumerate(cases, start=1):
        print(f"\rreal {number}/{len(cases)}: {case.name}", end="", file=sys.stderr, flush=True)
        image: npt.NDArray[np.uint8] = case.load().image
        detection = detect_board(image, size=case.size)
        if detection.grid is None:
            for reader in READERS:
                tally.add(case.folder, reader, ["?" * case.size] * case.size, case.board)
            continue
        sampler = BoardSampler.for_grid(detection.grid)
        for reader in READERS:
            reading = read_stones(image, sampler, reader=reader, look_again=look_again)
            tally.add(case.folder, reader, reading.board, case.board)
        for _ in range(repeat):  # in turn, so that no reader alone pays for a busy moment
            for reader in READERS:
                start = time.perf_counter()
                read_stones(image, sampler, reader=reader, look_again=look_again)
                timings[reader].append((time.perf_counter() - start) * 1000.0)
    print(file=sys.stderr)
    return tally, timings


def run(args: argparse.Namespace) -> int:
    look_again = not args.without_second_look
    print(
        "the learned reader: the stone model, and the stone net's second look where it is unsure"
        if look_again
        else "the learned reader: the stone model alone, without the stone net's second look"
    )
    tally, trust = _synthetic(args.photos, look_again)
    print(tally.table(f"synthetic, truth grid ({args.photos.name})"))
    print(trust.line())
    if not args.no_real:
        real, timings = _real(args.real, args.repeat, look_again)
        print()
        print(real.table("real, found grid"))
        print(
            "median ms per read on a known grid: "
            + ", ".join(f"{r} {statistics.median(timings[r]):.1f}" for r in READERS if timings[r])
        )
    return 0
