"""``kifu referee LOG.jsonl``: referee an observation log, print events, write the SGF."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from engine import Rules
from engine.errors import KifuError
from engine.observation import Declaration, Observation, parse_line
from engine.referee import Referee
from engine.sgf import write_sgf
from server import args as args_
from server.output import emit


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "referee",
        help="turn an observation log into moves and arbiter alerts (JSON lines)",
        description=(
            "Read still-board observations (one JSON object per line), print the "
            "events they cause (moves, alerts, resolutions, the end) as JSON lines, "
            "and write the game record. A malformed line stops the run with an error "
            "naming the line; everything before it is still processed and written."
        ),
    )
    parser.add_argument("log", type=Path, metavar="LOG.jsonl")
    parser.add_argument("--sgf", type=Path, metavar="OUT.sgf", help="write the record here")
    parser.add_argument(
        "--komi", type=args_.komi, default=None, help="komi in points (7.5; 0 with handicap)"
    )
    parser.add_argument("--handicap", type=args_.handicap, default=0, metavar="N")
    parser.add_argument(
        "--rules", type=args_.rules, default=Rules.chinese(), help="chinese (default), japanese"
    )
    parser.add_argument(
        "--min-confidence",
        type=args_.unit,
        default=0.5,
        help="points read with less confidence are unknown, not evidence",
    )
    parser.set_defaults(func=run)


def read_log(path: Path) -> tuple[list[tuple[int, Observation | Declaration]], str | None]:
    """The log's items with their line numbers, up to the first bad line, and that
    line's error (or None)."""
    items: list[tuple[int, Observation | Declaration]] = []
    size: int | None = None
    with path.open(encoding="utf-8", errors="replace") as lines:
        for number, line in enumerate(lines, start=1):
            if not line.strip():
                continue
            try:
                item = parse_line(line, size=size)
            except KifuError as error:
                return items, f"{path}: line {number}: {error}"
            if isinstance(item, Observation):
                size = item.size
            items.append((number, item))
    return items, None


def run(args: Any) -> int:
    items, problem = read_log(args.log)
    size = next((item.size for _, item in items if isinstance(item, Observation)), 19)
    referee = Referee(
        size,
        rules=args.rules,
        komi=args.komi,
        handicap=args.handicap,
        min_confidence=args.min_confidence,
    )
    for number, item in items:
        try:
            events = referee.feed(item)
        except KifuError as error:
            problem = f"{args.log}: line {number}: {error}"
            break
        for event in events:
            emit(event.to_json())
    else:
        if problem is None and items:
            for event in referee.finish(items[-1][1].t):
                emit(event.to_json())
    if args.sgf is not None:
        args.sgf.write_bytes(write_sgf(referee.record()))
    if problem is not None:
        print(f"kifu referee: {problem}", file=sys.stderr)
        return 2
    return 0
