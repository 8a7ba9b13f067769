"""Counting a finished position (Chinese rules Art. 9 and 11; territory as an option).

Area counting (Art. 9): each player's stones plus the empty points they alone
surround; empty points touching both colours (shared points between living groups,
seki) are split half and half. The board's N²/2 points plus half the komi is what
Black needs (on 19×19 with komi 3¾ stones: 184¼). A handicap game's Black gives
back half the handicap stones. Each warning (Art. 24) costs the offender one stone.

A margin of one stone is two points of difference between the players, so the
result is given both ways: ``"B+1.5"`` and ``"Black wins by ¾ stone"``.

Territory counting (an option, komi 6.5) counts surrounded points plus prisoners
and dead stones; it does not recognise seki, so an eye inside a seki counts as
territory where Japanese rules would give it to no one.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass
from fractions import Fraction

from engine.board import Board
from engine.point import Color, Point
from engine.rules import Rules, Scoring


@dataclass(frozen=True, slots=True)
class Regions:
    """Empty points split by who surrounds them."""

    black: frozenset[Point]
    white: frozenset[Point]
    shared: frozenset[Point]


def empty_regions(board: Board) -> Regions:
    """Classify every empty point by the colours that border its empty region."""
    size = board.size
    owner: dict[Point, str] = {}
    for r in range(size):
        for c in range(size):
            start = Point(r, c)
            if start in owner or board[start] is not None:
                continue
            region = [start]
            seen = {start}
            borders: set[Color] = set()
            k = 0
            while k < len(region):
                p = region[k]
                k += 1
                for n in p.neighbours(size):
                    stone = board[n]
                    if stone is None:
                        if n not in seen:
                            seen.add(n)
                            region.append(n)
                    else:
                        borders.add(stone)
            label = "shared" if len(borders) != 1 else next(iter(borders)).value
            for p in region:
                owner[p] = label
    return Regions(
        black=frozenset(p for p, o in owner.items() if o == "B"),
        white=frozenset(p for p, o in owner.items() if o == "W"),
        shared=frozenset(p for p, o in owner.items() if o == "shared"),
    )


def _quarters(value: Fraction) -> str:
    """Write a non-negative multiple of ¼ the Chinese way: 1¼, ¾, 2."""
    whole, part = divmod(value, 1)
    glyph = {Fraction(0): "", Fraction(1, 4): "¼", Fraction(1, 2): "½", Fraction(3, 4): "¾"}
    tail = glyph.get(part, f"+{float(part):g}")
    return f"{int(whole)}{tail}" if whole else (tail or "0")


@dataclass(frozen=True, slots=True)
class Score:
    """A counted game; ``margin`` is in points, positive when Black wins."""

    scoring: Scoring
    size: int
    black: float
    white: float
    black_stones: int
    white_stones: int
    black_territory: int
    white_territory: int
    shared: int
    komi: float
    handicap: int
    penalties: tuple[int, int]
    margin: float

    @property
    def winner(self) -> Color | None:
        if self.margin > 0:
            return Color.BLACK
        if self.margin < 0:
            return Color.WHITE
        return None

    @property
    def result(self) -> str:
        """The SGF RE value: "B+2.5", "W+0.5" or "Draw"."""
        if self.winner is None:
            return "Draw"
        return f"{self.winner.value}+{abs(self.margin):g}"

    @property
    def margin_stones(self) -> Fraction:
        """The margin in stones (Chinese practice): half the margin in points."""
        return Fraction(self.margin).limit_denominator(8) / 2

    def stones_text(self) -> str:
        """E.g. "Black wins by 1¼ stones" (the way Art. 11 states results)."""
        if self.winner is None:
            return "Draw"
        amount = abs(self.margin_stones)
        unit = "stone" if amount <= 1 else "stones"
        return f"{self.winner.name_text} wins by {_quarters(amount)} {unit}"

    def as_dict(self) -> dict[str, object]:
        return {
            "scoring": self.scoring.value,
            "black": self.black,
            "white": self.white,
            "komi": self.komi,
            "handicap": self.handicap,
            "penalties": {"B": self.penalties[0], "W": self.penalties[1]},
            "margin": self.margin,
            "result": self.result,
            "stones": self.stones_text(),
        }


def default_komi(rules: Rules, handicap: int = 0) -> float:
    """The rules' komi in an even game; none in a handicap game, where Black gives
    back half the handicap stones instead."""
    return rules.komi if handicap < 2 else 0.0


def count(
    board: Board,
    rules: Rules,
    *,
    dead: Collection[Point] = (),
    komi: float | None = None,
    handicap: int = 0,
    prisoners: Mapping[Color, int] | None = None,
    penalties: Mapping[Color, int] | None = None,
) -> Score:
    """Count ``board`` after the ``dead`` stones are taken off (Art. 8–9).

    ``prisoners`` (stones each colour captured) matter only for territory scoring.
    ``penalties`` are warnings per player (Art. 24), one stone each.
    """
    komi = default_komi(rules, handicap) if komi is None else komi
    final = board.copy()
    dead_by = {Color.BLACK: 0, Color.WHITE: 0}
    for point in dead:
        dead_by[final.remove(point)] += 1
    regions = empty_regions(final)
    b_stones, w_stones = final.count(Color.BLACK), final.count(Color.WHITE)
    b_terr, w_terr, shared = len(regions.black), len(regions.white), len(regions.shared)
    pen = {Color.BLACK: 0, Color.WHITE: 0, **(penalties or {})}
    caught = {Color.BLACK: 0, Color.WHITE: 0, **(prisoners or {})}
    if rules.scoring is Scoring.AREA:
        # Handicap stones are placed two or more at once; "HA[1]" gives none back.
        given_back = handicap / 2 if handicap >= 2 else 0.0
        black = b_stones + b_terr + shared / 2 - given_back - pen[Color.BLACK]
        white = w_stones + w_terr + shared / 2 + given_back - pen[Color.WHITE]
        # Black's count against the fixed threshold N²/2 + komi/2: a stone of
        # penalty moves the margin by one stone (two points), whoever incurs it.
        black_count = black + pen[Color.WHITE]
        margin = 2 * (black_count - board.size**2 / 2 - komi / 2)
    else:
        black = b_terr + caught[Color.BLACK] + dead_by[Color.WHITE] - pen[Color.BLACK]
        white = w_terr + caught[Color.WHITE] + dead_by[Color.BLACK] - pen[Color.WHITE]
        margin = black - white - komi
    return Score(
        scoring=rules.scoring,
        size=board.size,
        black=black,
        white=white,
        black_stones=b_stones,
        white_stones=w_stones,
        black_territory=b_terr,
        white_territory=w_terr,
        shared=shared,
        komi=komi,
        handicap=handicap,
        penalties=(pen[Color.BLACK], pen[Color.WHITE]),
        margin=margin,
    )
