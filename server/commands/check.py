"""``kifu check GAME.sgf ...``: replay records under the rules and report what is wrong."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from engine import Color, Rules
from engine.errors import KifuError
from engine.sgf import GameRecord, read_sgf
from server import args as args_
from server.output import emit


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "check",
        help="replay game records under the rules; one JSON line per file",
        description=(
            "Replay each SGF record under the chosen rules and print one JSON line per "
            "file: moves replayed, final board, captures, the first illegal move (the "
            "replay stops there) and the count of the final position as the stones lie. "
            "Exit status 2 if any file could not be read."
        ),
    )
    parser.add_argument("files", nargs="+", type=Path, metavar="GAME.sgf")
    parser.add_argument(
        "--rules",
        default="chinese",
        type=args_.rules,
        help="chinese (default), japanese, korean, or key=value list",
    )
    parser.set_defaults(func=run)


def check_record(record: GameRecord, rules: Rules) -> dict[str, Any]:
    """Replay ``record`` and describe the outcome as a JSON-ready dict."""
    game, number, error = record.replay(rules)
    illegal = []
    if error is not None and number is not None:
        move = record.moves[number - 1]
        where = "pass" if move.point is None else _vertex(move.point, record.size)
        illegal.append(
            {
                "move": number,
                "color": move.color.value,
                "point": where,
                "reason": error.reason,
                "message": str(error),
            }
        )
    score = game.score()
    report: dict[str, Any] = {
        "moves": len(game.history),
        "board": game.board.rows(),
        "captures": {"B": game.captures[Color.BLACK], "W": game.captures[Color.WHITE]},
        "illegal": illegal,
        "score": {
            "rules": rules.text(),
            "counted": "as the stones lie, no dead stones removed",
            **score.as_dict(),
            "recorded": record.headers.get("RE"),
        },
    }
    if record.warnings:
        report["warnings"] = list(record.warnings)
    return report


def _vertex(point: Any, size: int) -> str:
    try:
        return str(point.gtp(size))
    except ValueError:
        return f"{point!r}"


def run(args: Any) -> int:
    status = 0
    for path in args.files:
        line: dict[str, Any] = {"file": str(path)}
        try:
            record = read_sgf(path.read_bytes(), name=str(path))
            line.update(check_record(record, args.rules))
        except (KifuError, OSError) as error:
            message = str(error) if isinstance(error, KifuError) else f"{path}: {error.strerror}"
            line["error"] = message
            print(f"kifu check: {message}", file=sys.stderr)
            status = 2
        emit(line)
    return status
