"""Counting (Chinese rules Art. 9, 11, 24) and the territory option, as worked examples."""

from __future__ import annotations

from fractions import Fraction

import pytest

from engine import Board, Color, Game, Point, Rules, Scoring, count
from engine.scoring import empty_regions

B, W = Color.BLACK, Color.WHITE
CHINESE = Rules.chinese()


def split_board(widths: list[int], *, dame_row: int | None = None) -> Board:
    """A board cut by two walls: row ``r`` is Black's for its first ``widths[r]`` points.

    Black's wall stone ends each row's area and White's stands next to it; on
    ``dame_row`` an empty point between the walls touches both (a shared point).
    """
    rows = []
    for r, width in enumerate(widths):
        row = "." * (width - 1) + "X" + ("." if r == dame_row else "") + "O"
        rows.append(row + "." * (len(widths) - len(row)))
    return Board.from_diagram(rows)


#: Black's area, the board that gives it, and the result both ways (Art. 11).
ART_11 = {
    "185 points: Black wins by 3/4 stone": (
        185,
        split_board([9] * 5 + [10] * 14),
        "B+1.5",
        "Black wins by ¾ stone",
    ),
    "184 points: Black loses by 1/4 stone": (
        184,
        split_board([9] * 6 + [10] * 13),
        "W+0.5",
        "White wins by ¼ stone",
    ),
    "184.5 points: Black wins by 1/4 stone": (
        184.5,
        split_board([9] * 6 + [10] * 13, dame_row=0),
        "B+0.5",
        "Black wins by ¼ stone",
    ),
}


@pytest.mark.parametrize(("area", "board", "result", "stones"), ART_11.values(), ids=list(ART_11))
def test_art_11_worked_examples(area: float, board: Board, result: str, stones: str) -> None:
    """On 19x19 with komi 3¾ stones Black needs 184¼ points to win."""
    score = count(board, CHINESE)
    assert score.black == area
    assert score.white == 361 - area
    assert score.black_stones + score.black_territory + score.shared / 2 == area
    assert score.komi == 7.5
    assert score.result == result
    assert score.stones_text() == stones


def test_the_184_5_example_has_one_shared_point() -> None:
    score = count(ART_11["184.5 points: Black wins by 1/4 stone"][1], CHINESE)
    assert score.shared == 1
    assert score.margin_stones == Fraction(1, 4)
    assert score.winner is B


#: Black's three stones and White's three stones on the top edge live in seki:
#: neither can fill the two shared liberties at (0, 4) and (1, 4).
SEKI = """
    . . O X . O X . .
    . . O X . O X . .
    . . O X X O X . .
    . . O O O X X . .
    . . . . O X . . .
    . . . . O X . . .
    . . . . O X . . .
    . . . . O X . . .
    . . . . O X . . .
    """


def test_seki_shared_points_are_split_half_and_half() -> None:
    board = Board.from_diagram(SEKI)
    regions = empty_regions(board)
    assert regions.shared == {Point(0, 4), Point(1, 4)}
    assert len(regions.black) == 23
    assert len(regions.white) == 28
    score = count(board, CHINESE)
    assert (score.black_stones, score.black_territory, score.black) == (14, 23, 38)
    assert (score.white_stones, score.white_territory, score.white) == (14, 28, 43)
    assert score.shared == 2
    assert score.result == "W+12.5"
    assert score.stones_text() == "White wins by 6¼ stones"


def test_seki_counts_nothing_for_either_side_under_territory_scoring() -> None:
    score = count(Board.from_diagram(SEKI), Rules.japanese())
    assert score.scoring is Scoring.TERRITORY
    assert (score.black, score.white) == (23, 28)
    assert score.komi == 6.5
    assert score.result == "W+11.5"


def test_a_shared_point_can_make_a_draw() -> None:
    board = split_board([4] * 5 + [5] * 4, dame_row=0)
    assert board.rows()[:2] == ["...X.O...", "...XO...."]
    score = count(board, CHINESE.with_komi(0))
    assert score.shared == 1
    assert score.black == score.white == 40.5
    assert score.winner is None
    assert score.result == "Draw"
    assert score.stones_text() == "Draw"


@pytest.mark.parametrize(
    ("handicap", "result", "stones"),
    [
        (0, "B+9", "Black wins by 4½ stones"),
        (2, "B+7", "Black wins by 3½ stones"),
        (4, "B+5", "Black wins by 2½ stones"),
        (9, "Draw", "Draw"),
    ],
)
def test_handicap_black_gives_back_half_the_handicap_stones(
    handicap: int, result: str, stones: str
) -> None:
    """185 points and no komi: 4½ stones over half the board, less half the handicap."""
    board = ART_11["185 points: Black wins by 3/4 stone"][1]
    score = count(board, CHINESE, komi=0, handicap=handicap)
    assert score.black == 185 - handicap / 2
    assert score.white == 176 + handicap / 2
    assert score.result == result
    assert score.stones_text() == stones


def test_a_one_stone_handicap_gives_nothing_back() -> None:
    """HA[1] in a record means Black simply starts; there are no stones to return."""
    board = ART_11["185 points: Black wins by 3/4 stone"][1]
    assert count(board, CHINESE, komi=0, handicap=1).result == "B+9"


def test_a_handicap_game_counts_without_komi() -> None:
    setup = [(Point(3, 15), B), (Point(15, 3), B), (Point(3, 3), B), (Point(15, 15), B)]
    game = Game(19, handicap=4, setup=setup)
    score = game.score()
    assert (score.komi, score.handicap) == (0, 4)
    assert score.black == 361 - 2
    assert score.result == "B+357"


@pytest.mark.parametrize(
    ("penalties", "result", "stones"),
    [
        ({}, "B+1.5", "Black wins by ¾ stone"),
        ({B: 1}, "W+0.5", "White wins by ¼ stone"),
        ({W: 1}, "B+3.5", "Black wins by 1¾ stones"),
        ({B: 1, W: 1}, "B+1.5", "Black wins by ¾ stone"),
        ({B: 2}, "W+2.5", "White wins by 1¼ stones"),
    ],
)
def test_each_warning_costs_the_offender_one_stone(
    penalties: dict[Color, int], result: str, stones: str
) -> None:
    board = ART_11["185 points: Black wins by 3/4 stone"][1]
    score = count(board, CHINESE, penalties=penalties)
    assert score.result == result
    assert score.stones_text() == stones
    assert score.penalties == (penalties.get(B, 0), penalties.get(W, 0))


def test_dead_stones_are_removed_before_counting() -> None:
    """A dead white stone inside Black's area becomes Black's point (Art. 8-9)."""
    board = ART_11["185 points: Black wins by 3/4 stone"][1].copy()
    board.place(W, Point(10, 2))
    assert count(board, CHINESE).black_territory == 0  # the area touches White now
    score = count(board, CHINESE, dead={Point(10, 2)})
    assert score.black == 185
    assert score.result == "B+1.5"
    assert board[Point(10, 2)] is W  # counting works on a copy


def test_territory_scoring_counts_points_prisoners_and_dead_stones() -> None:
    board = Board.from_diagram(
        """
        . . . X O . . . .
        . . . X O . . . .
        . O . X O . . . .
        . . . X O . . . .
        . . . X O . . . .
        . . . X O . . X .
        . . . X O . . . .
        . . . X O . . . .
        . . . X O . . . .
        """
    )
    dead = {Point(2, 1), Point(5, 7)}
    score = count(board, Rules.japanese(), dead=dead, prisoners={B: 3, W: 1})
    assert (score.black_territory, score.white_territory) == (27, 36)
    assert score.black == 27 + 3 + 1
    assert score.white == 36 + 1 + 1
    assert score.margin == 31 - 38 - 6.5
    assert score.result == "W+13.5"
    area = count(board, CHINESE, dead=dead, prisoners={B: 3, W: 1})
    assert (area.black, area.white) == (36, 45)
    assert area.result == "W+16.5"


def test_score_as_dict_is_ready_for_json() -> None:
    score = count(ART_11["185 points: Black wins by 3/4 stone"][1], CHINESE)
    assert score.as_dict() == {
        "scoring": "area",
        "black": 185,
        "white": 176,
        "komi": 7.5,
        "handicap": 0,
        "penalties": {"B": 0, "W": 0},
        "margin": 1.5,
        "result": "B+1.5",
        "stones": "Black wins by ¾ stone",
    }


def test_an_empty_board_is_shared_and_white_wins_by_komi() -> None:
    score = count(Board(19), CHINESE)
    assert score.shared == 361
    assert score.black == score.white == 180.5
    assert score.result == "W+7.5"
    assert score.stones_text() == "White wins by 3¾ stones"
