"""``kifu bench synth``: how fast synthetic photos and video frames are rendered here.

Prints the median seconds per photo (and photos per second) for each difficulty, and
frames per second for a short video, beside a peer measured in the same run (a
Gaussian blur of a 1280×720 picture) so that figures from different machines can be
compared.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

import cv2
import numpy as np

from datasets.synth.photos import DIFFICULTIES, photo_seed, render_photo
from datasets.synth.video import video_from_sgf

DEMO = Path(__file__).resolve().parent.parent.parent / "datasets" / "bundled" / "demo.sgf"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--photos", type=int, default=6, help="photos per difficulty (default 6)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the photos (default 0)")
    parser.add_argument(
        "--moves", type=int, default=6, help="moves of the demo game in the video (default 6)"
    )
    parser.add_argument(
        "--games", type=Path, default=None, help="folder of .sgf records for photo positions"
    )


def run(args: argparse.Namespace) -> int:
    print(f"peer: 1280x720 GaussianBlur(sigma 2) median {_peer() * 1000:.1f} ms")
    print("photos: difficulty  median s/photo  photos/s  (n)")
    for difficulty in DIFFICULTIES:
        times = []
        for index in range(args.photos):
            start = time.perf_counter()
            render_photo(seed=photo_seed(args.seed, index), difficulty=difficulty, games=args.games)
            times.append(time.perf_counter() - start)
            print(f"\r{difficulty} {index + 1}/{args.photos}", end="", file=sys.stderr, flush=True)
        print(file=sys.stderr)
        median = statistics.median(times)
        print(f"photos: {difficulty:<10} {median:14.2f}  {1 / median:8.2f}  ({args.photos})")
    for width, height in ((640, 480), (960, 540)):
        with tempfile.TemporaryDirectory() as folder:
            start = time.perf_counter()
            truth = video_from_sgf(
                DEMO,
                Path(folder) / "bench.mp4",
                fps=10.0,
                max_moves=args.moves,
                seed=args.seed,
                size=(width, height),
            )
            elapsed = time.perf_counter() - start
        frames = truth["frame_count"]
        print(
            f"video: {width}x{height} {frames} frames ({len(truth['boards'])} board states) "
            f"in {elapsed:.1f} s: {frames / elapsed:.1f} frames/s"
        )
    return 0


def _peer() -> float:
    """Median time of a fixed image operation, as a yardstick for this machine."""
    image = np.random.default_rng(0).integers(0, 256, (720, 1280, 3), dtype=np.uint8)
    times = []
    for _ in range(15):
        start = time.perf_counter()
        cv2.GaussianBlur(image, (0, 0), 2.0)
        times.append(time.perf_counter() - start)
    return statistics.median(times)
