"""Observations: what vision saw on a still board, and what was declared.

The referee's input, one JSON object per line of an observation log::

    {"t": 12.5, "board": ["...", ...], "confidence": [[0.99, ...], ...]}
    {"t": 14.0, "event": "pass", "color": "W"}

``Observation.from_json(o.to_json()) == o`` and likewise for declarations.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from engine.errors import KifuError
from engine.point import Color, Point, check_size

_CHARS = {".": None, "X": Color.BLACK, "O": Color.WHITE}
EVENTS = ("pass", "resign", "end")


class LogError(KifuError):
    """An observation-log line that cannot be understood."""


@dataclass(frozen=True, slots=True)
class Observation:
    """What vision saw on a still board: rows of '.', 'X', 'O', and how sure it is."""

    t: float
    board: tuple[str, ...]
    confidence: tuple[tuple[float, ...], ...] | None = None

    @property
    def size(self) -> int:
        return len(self.board)

    def stones(self, min_confidence: float) -> SeenBoard:
        """What is on each point vision is sure enough of (a lazy mapping)."""
        return SeenBoard(self, min_confidence)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"t": self.t, "board": list(self.board)}
        if self.confidence is not None:
            data["confidence"] = [list(row) for row in self.confidence]
        return data


class SeenBoard(Mapping[Point, Color | None]):
    """An observation as ``{point: colour or None}``, holding only the known points.

    Lazy: the referee asks about a handful of points per observation, and finds
    what changed by comparing row strings, so nothing is done for the other 350.
    """

    __slots__ = ("_confidence", "_min", "_rows")

    def __init__(self, observation: Observation, min_confidence: float) -> None:
        self._rows = observation.board
        self._confidence = observation.confidence
        self._min = min_confidence

    def _known(self, row: int, col: int) -> bool:
        return self._confidence is None or self._confidence[row][col] >= self._min

    def __contains__(self, point: object) -> bool:
        if not isinstance(point, tuple) or len(point) != 2:
            return False
        row, col = point
        size = len(self._rows)
        return 0 <= row < size and 0 <= col < size and self._known(row, col)

    def __getitem__(self, point: Point) -> Color | None:
        if point not in self:
            raise KeyError(point)
        return _CHARS[self._rows[point[0]][point[1]]]

    def __iter__(self) -> Iterator[Point]:
        size = len(self._rows)
        return (Point(r, c) for r in range(size) for c in range(size) if self._known(r, c))

    def __len__(self) -> int:
        return sum(1 for _ in self)

    def differences(self, expected: Sequence[str]) -> Iterator[tuple[Point, Color | None]]:
        """Known points whose content differs from ``expected`` rows."""
        for r, (row, want) in enumerate(zip(self._rows, expected, strict=True)):
            if row != want:
                for c, (char, other) in enumerate(zip(row, want, strict=True)):
                    if char != other and self._known(r, c):
                        yield Point(r, c), _CHARS[char]


@dataclass(frozen=True, slots=True)
class Declaration:
    """Something said rather than seen: a pass, a resignation, or the agreed end."""

    t: float
    event: Literal["pass", "resign", "end"]
    color: Color | None = None

    def __post_init__(self) -> None:
        if self.event not in EVENTS:
            raise LogError(f"unknown event {self.event!r} (pass, resign or end)")
        if self.event != "end" and not isinstance(self.color, Color):
            raise LogError(f"{self.event!r} needs a colour, got {self.color!r}")

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"t": self.t, "event": self.event}
        if self.color is not None:
            data["color"] = self.color.value
        return data


def parse_line(line: str, *, size: int | None = None) -> Observation | Declaration:
    """Read one observation-log line (JSON); raise LogError saying what is wrong."""
    try:
        data = json.loads(line)
    except json.JSONDecodeError as error:
        raise LogError(f"not JSON ({error.msg} at column {error.colno})") from None
    except RecursionError:
        raise LogError("not JSON (nested too deeply)") from None
    if not isinstance(data, dict):
        raise LogError(f"expected a JSON object, got {line.strip()[:40]!r}")
    return from_json(data, size=size)


def from_json(data: Mapping[str, Any], *, size: int | None = None) -> Observation | Declaration:
    """Build an observation or a declaration from its JSON object; the inverse of
    their ``to_json``. ``size``, if given, is the game's board size."""
    t = data.get("t")
    if isinstance(t, bool) or not isinstance(t, int | float) or not 0 <= t < math.inf:
        raise LogError(f"'t' must be seconds from the start, got {t!r}")
    if "event" in data:
        event = data["event"]
        if event not in EVENTS:
            raise LogError(f"unknown event {event!r} (pass, resign or end)")
        color = data.get("color")
        if event != "end" and color not in ("B", "W"):
            raise LogError(f"{event!r} needs 'color' 'B' or 'W', got {color!r}")
        return Declaration(float(t), event, Color(color) if color in ("B", "W") else None)
    rows = data.get("board")
    if not isinstance(rows, list) or not all(isinstance(row, str) for row in rows):
        raise LogError("expected 'board': a list of row strings, or an 'event'")
    try:
        check_size(len(rows))
    except KifuError:
        raise LogError(f"board has {len(rows)} rows; sizes 5-25 are supported") from None
    if size is not None and len(rows) != size:
        raise LogError(f"board has {len(rows)} rows, the game is {size}x{size}")
    for r, row in enumerate(rows):
        if len(row) != len(rows) or set(row) - set(_CHARS):
            raise LogError(f"board row {r} is {row!r}: need {len(rows)} of '.', 'X', 'O'")
    confidence = data.get("confidence")
    conf: tuple[tuple[float, ...], ...] | None = None
    if confidence is not None:
        try:
            conf = tuple(tuple(float(v) for v in row) for row in confidence)
        except (TypeError, ValueError):
            raise LogError("'confidence' must be rows of numbers") from None
        if len(conf) != len(rows) or any(len(row) != len(rows) for row in conf):
            raise LogError(f"'confidence' must be {len(rows)} rows of {len(rows)} numbers")
        if not all(0.0 <= v <= 1.0 for row in conf for v in row):
            raise LogError("'confidence' values must lie in 0..1")
    return Observation(float(t), tuple(rows), conf)
