"""Writing JSON lines to stdout so that a reader going away loses no work."""

from __future__ import annotations

import json
import os
import sys
from typing import Any


def emit(data: dict[str, Any]) -> None:
    """Print one JSON line now; if the reader has gone (``| head``), keep working
    quietly so that what is still to be written (an SGF, a report) is written."""
    try:
        print(json.dumps(data), flush=True)
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
