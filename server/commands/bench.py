"""``kifu bench TARGET``: measure speed and accuracy, print figures."""

from __future__ import annotations

import importlib
from typing import Any

#: Benchmark targets: name -> (module under ``server.bench``, one-line help).
TARGETS: dict[str, tuple[str, str]] = {
    "engine": ("engine", "replay the 1,000 real records: moves/s beside sgfmill's plain board"),
    "vision": ("vision", "read the real photos: accuracy per dataset and timings"),
    "synth": ("synth", "render synthetic photos and video frames: photos/s and frames/s"),
    "referee": ("referee", "referee whole games: observations/s beside Game.play's moves/s"),
    "stones": ("stones", "stone readers compared: classical, learned, combined; synthetic, real"),
}


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser("bench", help="run a benchmark and print its figures")
    targets = parser.add_subparsers(dest="target", metavar="TARGET", required=True)
    for name, (module_name, help_text) in TARGETS.items():
        module = importlib.import_module(f"server.bench.{module_name}")
        sub = targets.add_parser(name, help=help_text)
        module.add_arguments(sub)
        sub.set_defaults(func=module.run)
