"""``kifu bench vision``: accuracy and speed of reading real or synthetic photos.

Per folder of ``../shared/datasets/photos``: photos read entirely right, share of
intersections right, and median milliseconds for (a) the whole detection (grid
and stones) on the photo scaled to the pixel count of a 1920×1080 frame, its
shape kept (squashing a 4:3 or portrait photo into 16:9 would change the board's
geometry), and (b) reading the stones on a
known grid (the camera's per-frame path).

With ``--synthetic DIR`` (a folder written by ``kifu synth photos``), per board
look: boards found in the right place, photos entirely right, share of intersections
right counting missed boards as all wrong, no-board photos refused, boards missed
and boards misplaced (with the confidence each misplaced one was given: a wrong
board reported sure misleads an arbiter more than a missed one), boards placed right
per band of the confidence given (:func:`placed_by_confidence`), boards placed right
and points right per band of the board's cell size in pixels
(:func:`points_by_cell`: where the points are lost), and the median milliseconds of
the whole detection, overall and per path it took (``PATHS``). Progress goes to
stderr. ``--records OUT.jsonl`` also writes each photo's outcome
(:class:`PhotoRecord`), and ``--against OLD.jsonl`` names the photos whose outcome
changed since a run that wrote OLD: a change to the search is judged by the boards
it gains and loses, not by the totals alone, and by each photo's time over its
peer's against that run's.

Both print peers timed on the same photos in the same run, so that figures from
machines (or days) of different speed can be compared by their ratio: for (a),
the classical first step of a board finder, Canny edges and probabilistic Hough
lines (:func:`hough_peer_ms`); for (b), the board straightened and one mean grey
per point, the least any reader of a known grid does (:func:`mean_peer_ms`).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import defaultdict
from dataclasses import asdict, dataclass
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt

from datasets.real import photo_cases
from vision import (
    BoardDetection,
    BoardSampler,
    detect_board,
    read_board,
    read_image,
    read_stones,
)

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
    parser.add_argument(
        "--records",
        type=Path,
        metavar="OUT.jsonl",
        help="with --synthetic: write each photo's outcome, a JSON line each",
    )
    parser.add_argument(
        "--against",
        type=Path,
        metavar="OLD.jsonl",
        help="with --synthetic: name the photos whose outcome changed since OLD (from --records)",
    )


def _ms(start: float) -> float:
    return (time.perf_counter() - start) * 1000.0


def full_hd(image: npt.NDArray[np.uint8]) -> npt.NDArray[np.uint8]:
    """The photo scaled to as many pixels as a 1920×1080 frame, its shape kept."""
    height, width = image.shape[:2]
    scale = float(np.sqrt(1920 * 1080 / (height * width)))
    size = (round(width * scale), round(height * scale))
    return np.asarray(cv2.resize(image, size, interpolation=cv2.INTER_LINEAR), np.uint8)


def hough_peer_ms(image: npt.NDArray[np.uint8]) -> float:
    """Milliseconds of Canny edges and probabilistic Hough lines on ``image``: (a)'s peer.

    The step most board finders (imago among them) begin with, at their usual
    settings: segments a thirtieth of the photo's longer side or longer.
    """
    start = time.perf_counter()
    grey = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    edges = cv2.Canny(grey, 50, 150)
    cv2.HoughLinesP(
        edges, 1.0, np.pi / 180.0, 80, minLineLength=max(grey.shape) / 30, maxLineGap=10
    )
    return _ms(start)


def mean_peer_ms(image: npt.NDArray[np.uint8], sampler: BoardSampler) -> float:
    """Milliseconds to straighten the board and take one mean grey per point: (b)'s peer."""
    start = time.perf_counter()
    grey = cv2.cvtColor(sampler.warp(image), cv2.COLOR_BGR2GRAY)
    cells = grey.shape[0] // sampler.cell
    cv2.resize(grey, (cells, cells), interpolation=cv2.INTER_AREA)
    return _ms(start)


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
        return run_synthetic(
            args.synthetic, table=args.table, records=args.records, against=args.against
        )
    if args.records is not None or args.against is not None:
        raise ValueError("--records and --against go with --synthetic DIR")
    return run_real(args)


def run_real(args: argparse.Namespace) -> int:
    """The real photos' table (see the module docstring)."""
    cases = photo_cases(args.photos)
    right: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    points: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    full_ms: dict[str, list[float]] = defaultdict(list)
    read_ms: dict[str, list[float]] = defaultdict(list)
    peer_a: list[float] = []
    peer_b: list[float] = []
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
                peer_b.append(mean_peer_ms(image, sampler))
        hd = full_hd(image)
        start = time.perf_counter()
        read_board(hd, size=case.size)
        full_ms[case.folder].append(_ms(start))
        peer_a.append(hough_peer_ms(hd))
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
    print(_peer_line("(a)", all_a, peer_a, "Canny + Hough lines on the same photo"))
    if peer_b:
        print(_peer_line("(b)", all_b, peer_b, "the board straightened, a mean grey per point"))
    if args.table:
        draw_table(table, Path(args.table))
    return 0


def _peer_line(label: str, ours: float, peer: list[float], what: str) -> str:
    """``peer for (a): <what> median X ms; (a) takes R times it``."""
    median = statistics.median(peer)
    return (
        f"peer for {label}: {what}, median {median:.1f} ms; "
        f"{label} takes {ours / median:.1f} times it"
    )


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


@dataclass(frozen=True)
class PhotoRecord:
    """One synthetic photo's outcome: what the benchmark counted, for comparing runs."""

    photo: str
    #: The board's look (``params.board_look.style``); None for a photo with no board.
    look: str | None
    size: int
    #: ``placed`` (the board found in its place), ``misplaced``, ``missed``;
    #: for a photo with no board, ``refused`` or ``taken``.
    status: str
    #: Points read wrong on a board placed right (every point where misplaced or missed).
    wrong: int
    confidence: float
    ms: float
    path: str
    #: :func:`hough_peer_ms` on the same photo, right after; None in older records.
    peer_ms: float | None = None
    #: The board's cell in pixels (:func:`cell_pixels` of its true corners); None for
    #: a photo with no board, and in older records.
    cell: float | None = None

    def to_json(self) -> str:
        """The record as one JSON line (without its newline); :meth:`from_json` reads it back."""
        return json.dumps(asdict(self))

    @classmethod
    def from_json(cls, line: str) -> PhotoRecord:
        """Parse a line :meth:`to_json` wrote; ``ValueError`` naming what is wrong otherwise."""
        try:
            fields = json.loads(line)
            look = fields["look"]
            return cls(
                photo=str(fields["photo"]),
                look=None if look is None else str(look),
                size=int(fields["size"]),
                status=str(fields["status"]),
                wrong=int(fields["wrong"]),
                confidence=float(fields["confidence"]),
                ms=float(fields["ms"]),
                path=str(fields["path"]),
                peer_ms=None if fields.get("peer_ms") is None else float(fields["peer_ms"]),
                cell=None if fields.get("cell") is None else float(fields["cell"]),
            )
        except (json.JSONDecodeError, KeyError, TypeError, ValueError) as error:
            raise ValueError(f"not a photo record: {line.strip()[:80]!r} ({error})") from None

    def outcome(self) -> str:
        """The status, with the points wrong where a board was placed right."""
        return f"{self.status} {self.wrong}" if self.status == "placed" else self.status


#: Confidence bands for :func:`placed_by_confidence`: each from its bound up to the one before.
CONFIDENCE_BANDS = (0.9, 0.7, 0.5, 0.0)


def placed_by_confidence(records: list[PhotoRecord]) -> list[tuple[float, int, int]]:
    """Per band of the confidence a found board was given: (lower bound, placed right, found).

    What the confidence tells an arbiter: where every board given 0.5 or more is
    placed right, a board under it is the one to check. Found boards are those
    placed right or misplaced (``CONFIDENCE_BANDS``, highest first).
    """
    found = [r for r in records if r.status in ("placed", "misplaced")]
    bands = []
    upper = float("inf")
    for lower in CONFIDENCE_BANDS:
        given = [r for r in found if lower <= r.confidence < upper]
        bands.append((lower, sum(r.status == "placed" for r in given), len(given)))
        upper = lower
    return bands


def cell_pixels(corners: npt.ArrayLike, size: int) -> float:
    """A board's cell in pixels: the shortest side of its corner quadrilateral over ``size - 1``.

    The shortest side, so that a board seen at a slant counts by its most
    foreshortened cells, which are the hardest to read.
    """
    quad = np.asarray(corners, dtype=np.float64).reshape(4, 2)
    sides = np.linalg.norm(quad - np.roll(quad, -1, axis=0), axis=1)
    return float(sides.min()) / (size - 1)


#: Cell-size bands (pixels) for :func:`points_by_cell`: each from its bound up to the one before.
CELL_BANDS = (12.0, 8.0, 0.0)


def points_by_cell(records: list[PhotoRecord]) -> list[tuple[float, int, int, int, int]]:
    """Per band of board cell size: (lower bound, boards, placed right, points, points right).

    Where the points are lost: a far board, its cells a few pixels wide, shows
    lines a pixel thin or none at all. Boards of records with no cell size
    (written before it was kept) are left out (``CELL_BANDS``, largest first).
    """
    bands = []
    upper = float("inf")
    for lower in CELL_BANDS:
        boards = [
            r
            for r in records
            if r.look is not None and r.cell is not None and lower <= r.cell < upper
        ]
        points = sum(r.size * r.size for r in boards)
        bands.append(
            (
                lower,
                len(boards),
                sum(r.status == "placed" for r in boards),
                points,
                points - sum(r.wrong for r in boards),
            )
        )
        upper = lower
    return bands


def _band_names(lowers: list[float], spec: str) -> list[str]:
    """Names of bands by their lower bounds, highest first: ``0.9+``, ``0.7-0.9``, ``under 0.5``."""
    names = []
    for k, lower in enumerate(lowers):
        if k == 0:
            names.append(f"{lower:{spec}}+")
        else:
            upper = lowers[k - 1]
            names.append(f"{lower:{spec}}-{upper:{spec}}" if lower else f"under {upper:{spec}}")
    return names


def read_records(path: Path) -> dict[str, PhotoRecord]:
    """A ``--records`` file, by photo; ``ValueError`` naming the line at fault."""
    records = {}
    for number, line in enumerate(path.read_text().splitlines(), start=1):
        if not line.strip():
            continue
        try:
            record = PhotoRecord.from_json(line)
        except ValueError as error:
            raise ValueError(f"{path}:{number}: {error}") from None
        records[record.photo] = record
    return records


def changes(old: dict[str, PhotoRecord], new: list[PhotoRecord]) -> list[str]:
    """A line for each photo in both runs whose outcome changed: old -> new, with confidences."""
    return [
        f"{r.photo}: {old[r.photo].outcome()} ({old[r.photo].confidence:.2f}) -> "
        f"{r.outcome()} ({r.confidence:.2f})"
        for r in new
        if r.photo in old and old[r.photo].outcome() != r.outcome()
    ]


def _outcome(path: Path, number: int, count: int) -> PhotoRecord:
    """Detect and read one synthetic photo (``path``, its truth) and score it."""
    print(f"[{number}/{count}] {path.stem}", file=sys.stderr, flush=True)
    truth = json.loads(path.read_text())
    image = read_image(path.with_suffix(".jpg"))
    size = int(truth["board_size"] or 19)
    start = time.perf_counter()
    detection, reading = read_board(image, size=size)
    ms = _ms(start)
    peer = hough_peer_ms(image)
    look = None if truth["board"] is None else str(truth["params"]["board_look"]["style"])
    cell = None if look is None else cell_pixels(truth["corners"], size)
    status, wrong = "placed", size * size
    if look is None:
        status, wrong = ("taken" if detection else "refused"), 0
    elif reading is None or detection.grid is None:
        status = "missed"
    else:
        seen = aligned_board(
            np.array([list(r) for r in reading.board]),
            detection.grid.corners,
            np.asarray(truth["corners"], dtype=np.float64),
        )
        if seen is None:
            status = "misplaced"
        else:
            wrong = int(np.count_nonzero(seen != np.array([list(r) for r in truth["board"]])))
    return PhotoRecord(
        photo=path.stem,
        look=look,
        size=size,
        status=status,
        wrong=wrong,
        confidence=round(detection.confidence, 4),
        ms=round(ms, 1),
        path=_path_taken(detection),
        peer_ms=round(peer, 2),
        cell=None if cell is None else round(cell, 2),
    )


def run_synthetic(
    folder: Path,
    *,
    table: str | None,
    records: Path | None = None,
    against: Path | None = None,
) -> int:
    """The synthetic photos' table, per board look (see the module docstring)."""
    files = sorted(folder.glob("*.json"))
    if not files:
        raise OSError(f"no synthetic photos (*.json truth) in {str(folder)!r}")
    # Read and checked before the run, so a bad path is named at once, not after it.
    old = read_records(against) if against is not None else None
    if records is not None and not records.parent.is_dir():
        raise OSError(f"cannot write records to {str(records)!r}: no such folder")
    outcomes = [_outcome(path, number, len(files)) for number, path in enumerate(files, start=1)]
    # Per look: boards, placed right, read entirely right, points, points right.
    stats: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0, 0])
    for r in outcomes:
        if r.look is None:
            continue
        row = stats[r.look]
        in_place = r.status == "placed"
        row[0] += 1
        row[1] += in_place
        row[2] += in_place and r.wrong == 0
        row[3] += r.size * r.size
        row[4] += r.size * r.size - r.wrong
    blank = [sum(r.look is None for r in outcomes), sum(r.status == "refused" for r in outcomes)]
    missed = sum(r.status == "missed" for r in outcomes)
    # The confidence each misplaced board was given.
    misplaced = [r.confidence for r in outcomes if r.status == "misplaced"]
    times = [r.ms for r in outcomes]
    # Per path the detection took: why the median photo costs what it does.
    by_path: dict[str, list[float]] = defaultdict(list)
    for r in outcomes:
        by_path[r.path].append(r.ms)
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
    by_confidence = placed_by_confidence(outcomes)
    names = _band_names([lower for lower, *_ in by_confidence], ".1f")
    bands = [
        f"{name} {placed}/{found}"
        for name, (_, placed, found) in zip(names, by_confidence, strict=True)
    ]
    print(f"boards placed right by the confidence given: {'; '.join(bands)}")
    by_cell = points_by_cell(outcomes)
    names = _band_names([lower for lower, *_ in by_cell], ".0f")
    sizes = [
        f"{name} px {placed}/{boards} placed right, "
        + (f"{100 * good / points:.2f}% of points" if points else "no points")
        for name, (_, boards, placed, points, good) in zip(names, by_cell, strict=True)
    ]
    print(f"boards by cell size: {'; '.join(sizes)}")
    print(f"median ms per photo (grid + stones, as stored): {statistics.median(times):.0f}")
    paths = "; ".join(
        f"{name} {statistics.median(by_path[name]):.0f} ({len(by_path[name])} photos)"
        for name in PATHS
        if by_path[name]
    )
    print(f"median ms by path: {paths}")
    peers = [r.peer_ms for r in outcomes if r.peer_ms is not None]
    print(
        _peer_line(
            "the median photo", statistics.median(times), peers, "Canny + Hough lines on each photo"
        )
    )
    print("points right counts every point of a missed or misplaced board as wrong")
    if table:
        draw_table(rows, Path(table))
    if records is not None:
        records.write_text("".join(r.to_json() + "\n" for r in outcomes))
    if old is not None:
        changed = changes(old, outcomes)
        print(f"against {against}: {len(changed)} photos changed")
        for line in changed:
            print(line)
        print(_against_peer(old, outcomes, against))
    return 0


def _against_peer(old: dict[str, PhotoRecord], new: list[PhotoRecord], against: Path | None) -> str:
    """Each photo's time over its peer's, now and in the run that wrote ``against``.

    The ratio of medians is the change's cost or saving with the machine's speed
    that day taken out, where both runs timed the peer.
    """
    both = [(r, old[r.photo]) for r in new if r.photo in old and r.peer_ms and old[r.photo].peer_ms]
    if not both:
        return f"per photo, time over the peer's: no photo timed beside the peer in {against}"
    now = statistics.median(r.ms / r.peer_ms for r, _ in both if r.peer_ms)
    then = statistics.median(o.ms / o.peer_ms for _, o in both if o.peer_ms)
    return (
        f"per photo, time over the peer's: median {now:.1f}, against {then:.1f} in {against}"
        f" ({now / then:.2f} times, {len(both)} photos)"
    )
