"""Kifu's rules engine: pure Go logic under the Chinese Weiqi Rules (2002).

No OpenCV, no network, no files it was not handed. The layers import one way:
``point`` → ``board`` → ``rules``/``scoring`` → ``game`` → ``sgf``.
"""

from engine.board import Board
from engine.errors import CoordinateError, IllegalMoveError, KifuError, SgfError
from engine.game import Game, PlayedMove
from engine.point import Color, Move, Point, all_points
from engine.rules import KoRule, Rules, Scoring
from engine.scoring import Score, count

__all__ = [
    "Board",
    "Color",
    "CoordinateError",
    "Game",
    "IllegalMoveError",
    "KifuError",
    "KoRule",
    "Move",
    "PlayedMove",
    "Point",
    "Rules",
    "Score",
    "Scoring",
    "SgfError",
    "all_points",
    "count",
]
