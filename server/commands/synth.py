"""``kifu synth``: make synthetic board photos and game videos with exact truth."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from datasets.synth.photos import DIFFICULTIES, write_photos


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
    photos.set_defaults(func=_photos)


def _photos(args: argparse.Namespace) -> int:
    def progress(done: int) -> None:
        print(f"\r{done}/{args.n} photos", end="", file=sys.stderr, flush=True)

    written = write_photos(
        args.outdir,
        n=args.n,
        seed=args.seed,
        difficulty=args.difficulty,
        games=args.games,
        progress=progress,
    )
    print(file=sys.stderr)
    print(f"wrote {len(written)} photos with truth to {args.outdir}")
    return 0
