"""The ``kifu`` command: a thin dispatcher over the subcommand modules.

Every domain error (a ``ValueError`` subclass from the engine, vision or datasets)
becomes one clear line on stderr and exit status 2, never a traceback; set
``KIFU_DEBUG=1`` to see the traceback instead.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence

#: Subcommand modules under ``server.commands``, in the order ``kifu --help`` lists them.
COMMANDS: tuple[str, ...] = (
    "check",
    "referee",
    "bench",
    "synth",
    "detect",
    "train",
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="kifu",
        description="Camera recorder and referee for over-the-board Go (Chinese rules, 2002).",
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name in COMMANDS:
        module = importlib.import_module(f"server.commands.{name}")
        module.register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        status: int = args.func(args)
    except BrokenPipeError:  # the reader went away (``| head``): stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except (ValueError, OSError) as error:
        if os.environ.get("KIFU_DEBUG"):
            raise  # a developer wants the traceback
        print(f"kifu {args.command}: error: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"kifu {args.command}: interrupted", file=sys.stderr)
        return 130
    return status


if __name__ == "__main__":
    sys.exit(main())
