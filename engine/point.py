"""Colours, points and moves: the engine's small values and their text forms.

The one coordinate convention of Kifu: a point is ``Point(row, col)`` counted from
the top-left corner, like an image array, so ``Point(0, 0)`` is the top-left corner
as the camera sees it. Text forms live only at the edges:

* GTP vertices ("D4"): columns ``A``..``Z`` without ``I``, rows counted from the
  bottom, so on 19×19 ``Point(15, 3)`` is "D4".
* SGF points ("dd"): column letter then row letter, both from the top-left, so
  ``Point(3, 3)`` is "dd" on any board size.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import NamedTuple

from engine.errors import CoordinateError

GTP_COLUMNS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"
SGF_LETTERS = "abcdefghijklmnopqrstuvwxyz"
MIN_SIZE = 5
MAX_SIZE = 25


def check_size(size: int) -> int:
    """Return ``size`` if Kifu supports that square board, else raise."""
    if not isinstance(size, int) or not MIN_SIZE <= size <= MAX_SIZE:
        raise CoordinateError(f"board size {size!r} not supported ({MIN_SIZE}-{MAX_SIZE})")
    return size


class Color(enum.Enum):
    """A player's colour; the value is the SGF/GTP letter."""

    BLACK = "B"
    WHITE = "W"

    @property
    def opponent(self) -> Color:
        return Color.WHITE if self is Color.BLACK else Color.BLACK

    @property
    def char(self) -> str:
        """The diagram character: 'X' for black, 'O' for white."""
        return "X" if self is Color.BLACK else "O"

    @property
    def name_text(self) -> str:
        return "Black" if self is Color.BLACK else "White"

    @classmethod
    def parse(cls, text: str) -> Color:
        """Read "B", "b", "black", "X" (and the white equivalents)."""
        key = text.strip().lower()
        if key in ("b", "black", "x"):
            return cls.BLACK
        if key in ("w", "white", "o"):
            return cls.WHITE
        raise CoordinateError(f"not a colour: {text!r}")

    def __repr__(self) -> str:
        return f"Color.{self.name}"


class Point(NamedTuple):
    """An intersection, ``(row, col)`` from the top-left corner."""

    row: int
    col: int

    def gtp(self, size: int) -> str:
        """The GTP vertex, e.g. ``Point(15, 3).gtp(19) == "D4"``."""
        if not (0 <= self.row < size and 0 <= self.col < size):
            raise CoordinateError(f"{self!r} is off a {size}x{size} board")
        return f"{GTP_COLUMNS[self.col]}{size - self.row}"

    @classmethod
    def from_gtp(cls, text: str, size: int) -> Point:
        """Parse a GTP vertex such as "D4" or "q16" (no "I" column)."""
        vertex = text.strip().upper()
        digits = vertex[1:]
        if (
            len(vertex) < 2
            or vertex[0] not in GTP_COLUMNS[:size]
            or not (digits.isascii() and digits.isdecimal())
        ):
            raise CoordinateError(f"not a point on a {size}x{size} board: {text!r}")
        number = int(vertex[1:])
        if not 1 <= number <= size:
            raise CoordinateError(f"not a point on a {size}x{size} board: {text!r}")
        return cls(size - number, GTP_COLUMNS.index(vertex[0]))

    def sgf(self) -> str:
        """The SGF point, column letter first: ``Point(3, 2).sgf() == "cd"``."""
        if not (0 <= self.row < len(SGF_LETTERS) and 0 <= self.col < len(SGF_LETTERS)):
            raise CoordinateError(f"{self!r} has no SGF name")
        return SGF_LETTERS[self.col] + SGF_LETTERS[self.row]

    @classmethod
    def from_sgf(cls, text: str, size: int) -> Point:
        if len(text) != 2 or text[0] not in SGF_LETTERS[:size] or text[1] not in SGF_LETTERS[:size]:
            raise CoordinateError(f"not an SGF point on a {size}x{size} board: {text!r}")
        return cls(SGF_LETTERS.index(text[1]), SGF_LETTERS.index(text[0]))

    def neighbours(self, size: int) -> list[Point]:
        """The up to four orthogonally adjacent points on the board."""
        row, col = self
        return [
            Point(r, c)
            for r, c in ((row - 1, col), (row, col - 1), (row, col + 1), (row + 1, col))
            if 0 <= r < size and 0 <= c < size
        ]


def all_points(size: int) -> list[Point]:
    """Every point of a ``size`` board, row by row from the top-left."""
    return [Point(r, c) for r in range(size) for c in range(size)]


@dataclass(frozen=True, slots=True)
class Move:
    """A player's turn: a stone on ``point``, or a pass when ``point`` is None."""

    color: Color
    point: Point | None

    @classmethod
    def play(cls, color: Color, point: Point | tuple[int, int]) -> Move:
        return cls(color, Point(*point))

    @classmethod
    def pass_(cls, color: Color) -> Move:
        return cls(color, None)

    @property
    def is_pass(self) -> bool:
        return self.point is None

    def gtp(self, size: int) -> str:
        """Text form "B D4" or "W pass"; :meth:`from_gtp` reads it back."""
        where = "pass" if self.point is None else self.point.gtp(size)
        return f"{self.color.value} {where}"

    @classmethod
    def from_gtp(cls, text: str, size: int) -> Move:
        parts = text.split()
        if len(parts) != 2:
            raise CoordinateError(f"not a move: {text!r} (expected e.g. 'B D4' or 'W pass')")
        color = Color.parse(parts[0])
        if parts[1].lower() == "pass":
            return cls(color, None)
        return cls(color, Point.from_gtp(parts[1], size))

    def __repr__(self) -> str:
        if self.point is None:
            return f"Move.pass_({self.color!r})"
        return f"Move.play({self.color!r}, {self.point!r})"
