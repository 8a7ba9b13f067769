"""``kifu synth``: make synthetic board photos and game videos with exact truth."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

import numpy as np

from datasets.observations import INJECTABLE, log_lines, observation_stream
from datasets.synth.errors import SynthError
from datasets.synth.photos import DIFFICULTIES, write_photos
from datasets.synth.video import SIZES, VIOLATIONS, video_from_sgf
from engine import Point
from engine.sgf import read_sgf
from server import args as args_


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser("synth", help="make synthetic photos and videos with truth")
    kinds = parser.add_subparsers(dest="kind", metavar="KIND", required=True)
    photos = kinds.add_parser("photos", help="board photos, a JSON truth beside each")
    photos.add_argument("outdir", type=Path, help="folder to write NNNNN.jpg and NNNNN.json")
    photos.add_argument("--n", type=int, default=10, help="number of photos (default 10)")
    photos.add_argument("--seed", type=int, default=0, help="seed of the run (default 0)")
    photos.add_argument(
        "--difficulty",
        default="medium",
        help=f"range of camera, light and looks: {', '.join(DIFFICULTIES)} (default medium)",
    )
    photos.add_argument(
        "--games",
        type=Path,
        default=None,
        help="folder of .sgf game records to take positions from (default: random play)",
    )
    photos.add_argument(
        "--hands",
        type=args_.unit,
        default=0.0,
        help="share of the photos with a hand over the board (default 0)",
    )
    photos.set_defaults(func=_photos)

    video = kinds.add_parser("video", help="a game played by hands, with per-frame truth")
    video.add_argument("game", type=Path, help="game record (.sgf) to play")
    video.add_argument("out", type=Path, help="video to write (.mp4); truth goes to OUT.json")
    video.add_argument("--fps", type=float, default=30.0, help="frames per second (default 30)")
    video.add_argument(
        "--violations",
        default="",
        help=f"comma-separated kinds to inject, each corrected after: {', '.join(VIOLATIONS)}",
    )
    video.add_argument("--seed", type=int, default=0, help="seed (default 0)")
    video.add_argument(
        "--size",
        default="960x540",
        help=f"frame size: {', '.join(f'{w}x{h}' for w, h in SIZES)} (default 960x540)",
    )
    video.add_argument(
        "--max-moves", type=int, default=None, help="play only the first N moves (default all)"
    )
    video.set_defaults(func=_video)

    log = kinds.add_parser(
        "log", help="the observation log a camera would give of a game, for kifu referee"
    )
    log.add_argument("game", type=Path, help="game record (.sgf) to play")
    log.add_argument("out", type=Path, help="observation log to write (.jsonl)")
    log.add_argument(
        "--violations",
        default="",
        help=f"comma-separated kinds to inject, each corrected after: {', '.join(INJECTABLE)}",
    )
    log.add_argument("--seed", type=int, default=0, help="seed (default 0)")
    log.add_argument(
        "--dead",
        default="",
        help="after two passes, the dead stones taken off before counting (e.g. N18,M17)",
    )
    log.add_argument(
        "--merged", type=args_.unit, default=0.0, help="share of quiet moves seen late"
    )
    log.add_argument(
        "--late", type=args_.unit, default=0.0, help="share of new stones first read unsure"
    )
    log.set_defaults(func=_log)


def _photos(args: argparse.Namespace) -> int:
    def progress(done: int) -> None:
        print(f"\r{done}/{args.n} photos", end="", file=sys.stderr, flush=True)

    written = write_photos(
        args.outdir,
        n=args.n,
        seed=args.seed,
        difficulty=args.difficulty,
        games=args.games,
        hands=args.hands,
        progress=progress,
    )
    print(file=sys.stderr)
    print(f"wrote {len(written)} photos with truth to {args.outdir}")
    return 0


def _video(args: argparse.Namespace) -> int:
    sizes = {f"{w}x{h}": (w, h) for w, h in SIZES}
    if args.size not in sizes:
        raise SynthError(f"unknown frame size {args.size!r}; expected one of {', '.join(sizes)}")
    if args.max_moves is not None and args.max_moves < 1:
        raise SynthError(f"--max-moves must be at least 1, got {args.max_moves!r}")
    violations = [v.strip() for v in args.violations.split(",") if v.strip()]

    def progress(done: int, total: int) -> None:
        if done % 50 == 0 or done == total:
            print(f"\r{done}/{total} frames", end="", file=sys.stderr, flush=True)

    truth = video_from_sgf(
        args.game,
        args.out,
        fps=args.fps,
        violations=violations,
        seed=args.seed,
        max_moves=args.max_moves,
        size=sizes[args.size],
        progress=progress,
    )
    print(file=sys.stderr)
    print(
        f"wrote {args.out} ({truth['frame_count']} frames, {len(truth['moves'])} moves, "
        f"{len(truth['alerts'])} alerts) and {args.out.with_suffix('.json')}"
    )
    return 0


def _log(args: argparse.Namespace) -> int:
    record = read_sgf(args.game.read_bytes(), name=str(args.game))
    dead = [Point.from_gtp(v.strip(), record.size) for v in args.dead.split(",") if v.strip()]
    stream = observation_stream(
        record,
        rng=np.random.default_rng(args.seed),
        violations=[v.strip() for v in args.violations.split(",") if v.strip()],
        dead=dead,
        merged=args.merged,
        late=args.late,
    )
    args.out.write_text("".join(line + "\n" for line in log_lines(stream)), encoding="utf-8")
    injected = ", ".join(f"{kind} at move {k + 1}" for k, kind in stream.injected) or "none"
    print(f"wrote {len(stream.items)} lines to {args.out}; injected: {injected}")
    return 0
