"""The board: stones, chains, liberties and captures, and nothing else.

Like KataGo's ``Board``, it does not know whose turn it is, nor any ko or
repetition rule: that is :class:`engine.game.Game`'s work. It does refuse a
stone on an occupied point and, unless told otherwise, a suicide (Art. 5),
and it captures the opponent first (Art. 4.2).

Internally the board is a flat list with a one-point border, so that the four
neighbours of index ``i`` are ``i - stride``, ``i - 1``, ``i + 1`` and
``i + stride`` with no bounds checks; a Zobrist hash of the stones is kept up to
date on every change.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator

from engine.errors import CoordinateError, IllegalMoveError
from engine.point import Color, Point, check_size

EMPTY = 0
BLACK = 1
WHITE = 2
BORDER = 3

_CODE = {Color.BLACK: BLACK, Color.WHITE: WHITE}
_COLOR = {BLACK: Color.BLACK, WHITE: Color.WHITE}
_ROW_TABLE = bytes.maketrans(bytes([EMPTY, BLACK, WHITE, BORDER]), b".XO#")
_FROM_CHAR = {".": EMPTY, "+": EMPTY, "X": BLACK, "x": BLACK, "O": WHITE, "o": WHITE}

_ZOBRIST_CACHE: dict[int, tuple[list[int], list[int]]] = {}


def _zobrist(stride: int) -> tuple[list[int], list[int]]:
    """Fixed pseudo-random 64-bit keys per index, one table per colour."""
    if stride not in _ZOBRIST_CACHE:
        rng = random.Random(0x6B696675 + stride)
        cells = stride * stride
        black = [rng.getrandbits(64) for _ in range(cells)]
        white = [rng.getrandbits(64) for _ in range(cells)]
        _ZOBRIST_CACHE[stride] = (black, white)
    return _ZOBRIST_CACHE[stride]


class Board:
    """A square Go board of any size from 5 to 25.

    >>> board = Board(9)
    >>> board.play(Color.BLACK, Point(0, 1))
    frozenset()
    >>> board[Point(0, 1)]
    Color.BLACK
    """

    __slots__ = ("_cells", "_keys", "hash", "size", "stride")

    def __init__(self, size: int = 19) -> None:
        self.size = check_size(size)
        self.stride = size + 2
        cells = [BORDER] * (self.stride * self.stride)
        for row in range(size):
            start = (row + 1) * self.stride + 1
            cells[start : start + size] = [EMPTY] * size
        self._cells = cells
        self._keys = _zobrist(self.stride)
        #: Zobrist hash of the stones on the board (0 for the empty board).
        self.hash = 0

    # -- construction and text form -------------------------------------------------

    @classmethod
    def from_diagram(cls, diagram: str | Iterable[str]) -> Board:
        """Build a board from rows of '.', 'X' (black), 'O' (white), top row first.

        Spaces inside a row are ignored, so ``"X . O"`` and ``"X.O"`` both work.
        Stones are set up as they are, without captures.
        """
        text_rows = diagram.strip().splitlines() if isinstance(diagram, str) else list(diagram)
        rows = [row.replace(" ", "") for row in text_rows if row.strip()]
        board = cls(len(rows))
        for r, row in enumerate(rows):
            if len(row) != board.size:
                raise CoordinateError(
                    f"diagram row {r} is {row!r}: {len(row)} points, expected {board.size}"
                )
            for c, char in enumerate(row):
                if char not in _FROM_CHAR:
                    raise CoordinateError(f"diagram row {r} has {char!r} at column {c}")
                code = _FROM_CHAR[char]
                if code != EMPTY:
                    board.place(_COLOR[code], Point(r, c))
        return board

    def rows(self) -> list[str]:
        """The board as rows of '.', 'X', 'O', top row first (Kifu's text form)."""
        text = bytes(self._cells).translate(_ROW_TABLE).decode("ascii")
        stride, size = self.stride, self.size
        return [text[(r + 1) * stride + 1 : (r + 1) * stride + 1 + size] for r in range(size)]

    def diagram(self) -> str:
        return "\n".join(self.rows())

    def __str__(self) -> str:
        return self.diagram()

    def __repr__(self) -> str:
        return f"Board.from_diagram({self.rows()!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Board) and self._cells == other._cells

    __hash__ = None  # type: ignore[assignment]  # mutable

    def copy(self) -> Board:
        board = Board.__new__(Board)
        board.size, board.stride, board._keys = self.size, self.stride, self._keys
        board._cells = self._cells.copy()
        board.hash = self.hash
        return board

    # -- reading --------------------------------------------------------------------

    def index(self, point: Point | tuple[int, int]) -> int:
        row, col = point
        if not (0 <= row < self.size and 0 <= col < self.size):
            raise CoordinateError(f"{Point(row, col)!r} is off the {self.size}x{self.size} board")
        return (row + 1) * self.stride + col + 1

    def point(self, index: int) -> Point:
        row, col = divmod(index, self.stride)
        return Point(row - 1, col - 1)

    def __getitem__(self, point: Point | tuple[int, int]) -> Color | None:
        return _COLOR.get(self._cells[self.index(point)])

    def stones(self, color: Color | None = None) -> Iterator[tuple[Point, Color]]:
        """Every stone as ``(point, colour)``, row by row; only ``color``'s if given."""
        wanted = None if color is None else _CODE[color]
        for i, code in enumerate(self._cells):
            if code in (BLACK, WHITE) and (wanted is None or code == wanted):
                yield self.point(i), _COLOR[code]

    def count(self, color: Color) -> int:
        return self._cells.count(_CODE[color])

    def is_empty(self) -> bool:
        return self.hash == 0 and BLACK not in self._cells and WHITE not in self._cells

    def chain(self, point: Point | tuple[int, int]) -> frozenset[Point]:
        """The stones connected to the stone at ``point`` (empty if there is none)."""
        i = self.index(point)
        if self._cells[i] not in (BLACK, WHITE):
            return frozenset()
        stones, _ = self._chain(i)
        return frozenset(self.point(s) for s in stones)

    def liberties(self, point: Point | tuple[int, int]) -> frozenset[Point]:
        """The empty points next to the chain at ``point``."""
        i = self.index(point)
        if self._cells[i] not in (BLACK, WHITE):
            return frozenset()
        _, libs = self._chain(i)
        return frozenset(self.point(s) for s in libs)

    def chains(self) -> list[tuple[Color, frozenset[Point], frozenset[Point]]]:
        """Every chain on the board as ``(colour, stones, liberties)``."""
        seen: set[int] = set()
        result = []
        for i, code in enumerate(self._cells):
            if code in (BLACK, WHITE) and i not in seen:
                stones, libs = self._chain(i)
                seen.update(stones)
                result.append(
                    (
                        _COLOR[code],
                        frozenset(self.point(s) for s in stones),
                        frozenset(self.point(s) for s in libs),
                    )
                )
        return result

    def _chain(self, start: int) -> tuple[list[int], set[int]]:
        cells, stride = self._cells, self.stride
        code = cells[start]
        stones = [start]
        seen = {start}
        libs: set[int] = set()
        k = 0
        while k < len(stones):
            i = stones[k]
            k += 1
            for n in (i - stride, i - 1, i + 1, i + stride):
                v = cells[n]
                if v == code:
                    if n not in seen:
                        seen.add(n)
                        stones.append(n)
                elif v == EMPTY:
                    libs.add(n)
        return stones, libs

    def _captive(self, start: int) -> list[int] | None:
        """The chain at ``start`` if it has no liberty, else None (stops at the first one)."""
        cells, stride = self._cells, self.stride
        code = cells[start]
        stones = [start]
        seen = {start}
        k = 0
        while k < len(stones):
            i = stones[k]
            k += 1
            for n in (i - stride, i - 1, i + 1, i + stride):
                v = cells[n]
                if v == EMPTY:
                    return None
                if v == code and n not in seen:
                    seen.add(n)
                    stones.append(n)
        return stones

    # -- changing -------------------------------------------------------------------

    def place(self, color: Color, point: Point | tuple[int, int]) -> None:
        """Put a stone down as setup (handicap, AB/AW): no captures, no checks but emptiness."""
        i = self.index(point)
        if self._cells[i] != EMPTY:
            raise IllegalMoveError(f"{Point(*point)!r} is already occupied", reason="occupied")
        code = _CODE[color]
        self._cells[i] = code
        self.hash ^= self._keys[code - 1][i]

    def remove(self, point: Point | tuple[int, int]) -> Color:
        """Take the stone at ``point`` off the board (dead stones, setup); return its colour."""
        i = self.index(point)
        code = self._cells[i]
        if code not in (BLACK, WHITE):
            raise CoordinateError(f"no stone at {Point(*point)!r} to remove")
        self._cells[i] = EMPTY
        self.hash ^= self._keys[code - 1][i]
        return _COLOR[code]

    def play(
        self, color: Color, point: Point | tuple[int, int], *, allow_suicide: bool = False
    ) -> frozenset[Point]:
        """Play a stone and make the captures it causes; return the captured points.

        The opponent's chains left without liberties are taken off first (Art. 4.2);
        then, if the new stone's own chain has no liberty, the move is a suicide:
        refused with :class:`IllegalMoveError` (the board is left unchanged), or, with
        ``allow_suicide``, the chain is taken off (territory rulesets that permit it).
        Doesn't enforce turn order or any ko rule.
        """
        i = self.index(point)
        captured = self.play_index(i, _CODE[color], allow_suicide=allow_suicide)
        return frozenset(self.point(s) for s in captured)

    def play_index(self, i: int, code: int, *, allow_suicide: bool = False) -> list[int]:
        """:meth:`play` on a flat index and colour code; returns captured indices.

        With ``allow_suicide`` a suicided chain is returned too (its stones are the
        player's own).
        """
        cells = self._cells
        if cells[i] != EMPTY:
            raise IllegalMoveError(f"{self.point(i)!r} is occupied", reason="occupied")
        stride = self.stride
        other = 3 - code
        keys = self._keys
        cells[i] = code
        h = self.hash ^ keys[code - 1][i]
        captured: list[int] = []
        other_keys = keys[other - 1]
        for n in (i - stride, i - 1, i + 1, i + stride):
            if cells[n] == other:
                dead = self._captive(n)
                if dead is not None:
                    for s in dead:
                        cells[s] = EMPTY
                        h ^= other_keys[s]
                    captured.extend(dead)
        if not captured:
            own = self._captive(i)
            if own is not None:
                if not allow_suicide:
                    cells[i] = EMPTY
                    raise IllegalMoveError(
                        f"{self.point(i)!r} is a forbidden point (suicide)", reason="suicide"
                    )
                own_keys = keys[code - 1]
                for s in own:
                    cells[s] = EMPTY
                    h ^= own_keys[s]
                self.hash = h
                return own
        self.hash = h
        return captured

    def undo_index(self, i: int, code: int, captured: list[int]) -> None:
        """Reverse :meth:`play_index`: lift the stone at ``i``, put ``captured`` back.

        ``captured`` is what ``play_index`` returned; a suicided chain (own colour)
        is recognised because it contains ``i``.
        """
        cells, keys = self._cells, self._keys
        if i in captured:  # self-capture: the player's own chain comes back
            for s in captured:
                if s != i:
                    cells[s] = code
                    self.hash ^= keys[code - 1][s]
            return
        cells[i] = EMPTY
        self.hash ^= keys[code - 1][i]
        other = 3 - code
        other_keys = keys[other - 1]
        for s in captured:
            cells[s] = other
            self.hash ^= other_keys[s]

    def is_lone_in_atari(self, i: int) -> bool:
        """True if the stone at index ``i`` has no friendly neighbour and one liberty.

        After a capture of exactly one stone this is the simple-ko shape.
        """
        cells, stride = self._cells, self.stride
        code = cells[i]
        liberties = 0
        for n in (i - stride, i - 1, i + 1, i + stride):
            v = cells[n]
            if v == code:
                return False
            if v == EMPTY:
                liberties += 1
        return liberties == 1

    def check_consistency(self) -> None:
        """Recompute everything from scratch and raise AssertionError on a mismatch.

        Every chain must have a liberty (captures are never left on the board) and
        the Zobrist hash must match the stones.
        """
        cells, stride = self._cells, self.stride
        h = 0
        for i, code in enumerate(cells):
            row, col = divmod(i, stride)
            inside = 1 <= row <= self.size and 1 <= col <= self.size
            if not inside:
                if code != BORDER:
                    raise AssertionError(f"border cell {i} holds {code}")
                continue
            if code == BORDER:
                raise AssertionError(f"{self.point(i)!r} marked as border")
            if code in (BLACK, WHITE):
                h ^= self._keys[code - 1][i]
        if h != self.hash:
            raise AssertionError("Zobrist hash out of date")
        seen: set[int] = set()
        for i, code in enumerate(cells):
            if code in (BLACK, WHITE) and i not in seen:
                stones, libs = self._chain(i)
                seen.update(stones)
                if not libs:
                    points = sorted(self.point(s) for s in stones)
                    raise AssertionError(f"{_COLOR[code].name_text} chain {points} has no liberty")
