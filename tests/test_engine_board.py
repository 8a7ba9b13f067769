"""The board: stones, chains, liberties and captures, written as ASCII diagrams.

In the move tables a ``*`` marks where the stone is played; the diagram after
the move shows what is left once captures are made.
"""

from __future__ import annotations

import pytest

from engine import Board, Color, CoordinateError, IllegalMoveError, Point

B, W = Color.BLACK, Color.WHITE


def marked(diagram: str) -> tuple[Board, Point]:
    """The board drawn in ``diagram`` and the point marked ``*`` on it (left empty)."""
    rows = [row.replace(" ", "") for row in diagram.strip().splitlines()]
    [point] = [Point(r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == "*"]
    return Board.from_diagram([row.replace("*", ".") for row in rows]), point


def rows_of(diagram: str) -> list[str]:
    return [row.replace(" ", "") for row in diagram.strip().splitlines()]


#: A white chain and a black stone whose only liberty is the same point.
ART_4_2_SHARED = """
    X O * O X
    X O X O X
    X O O O X
    X X X X X
    . . . . .
    """

CAPTURES = {
    "corner": (
        B,
        """
        O X . . .
        * . . . .
        . . . . .
        . . . . .
        . . . . .
        """,
        """
        . X . . .
        X . . . .
        . . . . .
        . . . . .
        . . . . .
        """,
    ),
    "corner two stones": (
        W,
        """
        X X O . .
        O * . . .
        . . . . .
        . . . . .
        . . . . .
        """,
        """
        . . O . .
        O O . . .
        . . . . .
        . . . . .
        . . . . .
        """,
    ),
    "edge": (
        B,
        """
        . X O X .
        . . * . .
        . . . . .
        . . . . .
        . . . . .
        """,
        """
        . X . X .
        . . X . .
        . . . . .
        . . . . .
        . . . . .
        """,
    ),
    "edge chain of three": (
        W,
        """
        . . . . .
        . . . . O
        . . . O X
        . . . O X
        . . . * X
        """,
        """
        . . . . .
        . . . . O
        . . . O .
        . . . O .
        . . . O .
        """,
    ),
    "centre": (
        B,
        """
        . . . . .
        . . X . .
        . X O * .
        . . X . .
        . . . . .
        """,
        """
        . . . . .
        . . X . .
        . X . X .
        . . X . .
        . . . . .
        """,
    ),
    "two chains at once": (
        B,
        """
        . X O X .
        X O * O X
        . X . X .
        . . . . .
        . . . . .
        """,
        """
        . X . X .
        X . X . X
        . X . X .
        . . . . .
        . . . . .
        """,
    ),
    "three chains at once": (
        W,
        """
        . O X O .
        O X * X O
        . O X O .
        . . O . .
        . . . . .
        """,
        """
        . O . O .
        O . O . O
        . O . O .
        . . O . .
        . . . . .
        """,
    ),
    "Art. 4.2: no liberty of its own, but captures first": (
        B,
        """
        * O X . .
        O X . . .
        X . . . .
        . . . . .
        . . . . .
        """,
        """
        X . X . .
        . X . . .
        X . . . .
        . . . . .
        . . . . .
        """,
    ),
    "Art. 4.2: both left without liberties, White's move captures": (
        W,
        ART_4_2_SHARED,
        """
        X O O O X
        X O . O X
        X O O O X
        X X X X X
        . . . . .
        """,
    ),
    "Art. 4.2: both left without liberties, Black's move captures": (
        B,
        ART_4_2_SHARED,
        """
        X . X . X
        X . X . X
        X . . . X
        X X X X X
        . . . . .
        """,
    ),
    "no capture: the chain keeps a liberty": (
        B,
        """
        . X O O .
        . X O . .
        . * X . .
        . . . . .
        . . . . .
        """,
        """
        . X O O .
        . X O . .
        . X X . .
        . . . . .
        . . . . .
        """,
    ),
}


@pytest.mark.parametrize(("color", "before", "after"), CAPTURES.values(), ids=list(CAPTURES))
def test_captures(color: Color, before: str, after: str) -> None:
    board, point = marked(before)
    expected = Board.from_diagram(after)
    captured = board.play(color, point)
    assert board.rows() == expected.rows()
    opponent_before = Board.from_diagram(before.replace("*", ".")).count(color.opponent)
    assert len(captured) == opponent_before - board.count(color.opponent)
    assert all(board[p] is None for p in captured)
    assert board.hash == expected.hash
    board.check_consistency()


def test_art_4_2_the_mover_captures_whichever_side_moves() -> None:
    """Whoever fills the shared last liberty takes the other's stones off first."""
    board, point = marked(ART_4_2_SHARED)
    assert board.play(W, point) == {Point(1, 2)}
    board, point = marked(ART_4_2_SHARED)
    assert len(board.play(B, point)) == 7
    board, point = marked(CAPTURES["Art. 4.2: no liberty of its own, but captures first"][1])
    assert board.play(B, point) == {Point(0, 1), Point(1, 0)}


SUICIDES = {
    "one stone in the corner": (
        W,
        """
        * X . . .
        X . . . .
        . . . . .
        . . . . .
        . . . . .
        """,
        """
        . X . . .
        X . . . .
        . . . . .
        . . . . .
        . . . . .
        """,
    ),
    "one stone in the centre": (
        B,
        """
        . . . . .
        . . O . .
        . O * O .
        . . O . .
        . . . . .
        """,
        """
        . . . . .
        . . O . .
        . O . O .
        . . O . .
        . . . . .
        """,
    ),
    "three stones": (
        B,
        """
        X X * O .
        O O O O .
        . . . . .
        . . . . .
        . . . . .
        """,
        """
        . . . O .
        O O O O .
        . . . . .
        . . . . .
        . . . . .
        """,
    ),
    "several stones filling their own eye": (
        W,
        """
        . . . . .
        X X X X .
        X O O X .
        X O * X .
        X X X X .
        """,
        """
        . . . . .
        X X X X .
        X . . X .
        X . . X .
        X X X X .
        """,
    ),
}


@pytest.mark.parametrize(("color", "before", "after"), SUICIDES.values(), ids=list(SUICIDES))
def test_suicide_is_refused_and_leaves_the_board_as_it_was(
    color: Color, before: str, after: str
) -> None:
    board, point = marked(before)
    unchanged = board.copy()
    with pytest.raises(IllegalMoveError, match="suicide") as caught:
        board.play(color, point)
    assert caught.value.reason == "suicide"
    assert board == unchanged
    assert board.hash == unchanged.hash
    board.check_consistency()


@pytest.mark.parametrize(("color", "before", "after"), SUICIDES.values(), ids=list(SUICIDES))
def test_suicide_when_allowed_takes_the_players_own_chain(
    color: Color, before: str, after: str
) -> None:
    board, point = marked(before)
    own_before = board.count(color)
    removed = board.play(color, point, allow_suicide=True)
    assert board.rows() == rows_of(after)
    assert point in removed
    assert len(removed) == own_before + 1 - board.count(color)
    assert board.hash == Board.from_diagram(after).hash
    board.check_consistency()


def test_snapback() -> None:
    """Black throws in a stone; White takes it and is taken back, five stones."""
    board = Board.from_diagram(
        """
        . . . . .
        . . . . .
        X X X X .
        O O O X .
        . . O X .
        """
    )
    assert board.play(B, Point(4, 1)) == frozenset()
    assert board.liberties(Point(4, 1)) == {Point(4, 0)}
    assert board.play(W, Point(4, 0)) == {Point(4, 1)}
    assert board.liberties(Point(4, 0)) == {Point(4, 1)}
    captured = board.play(B, Point(4, 1))
    assert captured == {Point(3, 0), Point(3, 1), Point(3, 2), Point(4, 2), Point(4, 0)}
    assert board.rows() == rows_of(
        """
        . . . . .
        . . . . .
        X X X X .
        . . . X .
        . X . X .
        """
    )
    board.check_consistency()


def test_chains_and_liberties() -> None:
    board = Board.from_diagram(
        """
        X X . . .
        X O O . .
        . O X . .
        . . . . .
        . . . . X
        """
    )
    assert board.chain(Point(0, 0)) == {Point(0, 0), Point(0, 1), Point(1, 0)}
    assert board.liberties(Point(0, 0)) == {Point(0, 2), Point(2, 0)}
    assert board.chain(Point(1, 1)) == {Point(1, 1), Point(1, 2), Point(2, 1)}
    assert board.liberties(Point(1, 2)) == {Point(0, 2), Point(1, 3), Point(2, 0), Point(3, 1)}
    assert board.liberties(Point(2, 2)) == {Point(2, 3), Point(3, 2)}
    assert board.chain(Point(3, 3)) == frozenset()
    assert board.liberties(Point(3, 3)) == frozenset()
    assert len(board.chains()) == 4
    assert sorted(len(stones) for _, stones, _ in board.chains()) == [1, 1, 3, 3]


def test_diagram_round_trip_and_repr() -> None:
    rows = ["X.O......", ".........", "....X....", *["........."] * 5, "O.......X"]
    board = Board.from_diagram(rows)
    assert board.rows() == rows
    assert board.diagram() == "\n".join(rows)
    assert eval(repr(board)) == board
    assert Board.from_diagram("\n".join(" ".join(row) for row in rows)) == board
    assert dict(board.stones()) == {
        Point(0, 0): B,
        Point(0, 2): W,
        Point(2, 4): B,
        Point(8, 0): W,
        Point(8, 8): B,
    }
    assert [p for p, _ in board.stones(W)] == [Point(0, 2), Point(8, 0)]
    assert (board.count(B), board.count(W)) == (3, 2)


@pytest.mark.parametrize(
    ("diagram", "message"),
    [
        ("X....\n.....\n...\n.....\n.....", "row 2 is '...'"),
        ("X....\n.....\n..#..\n.....\n.....", "'#' at column 2"),
        ("X...\n....\n....\n....", "board size 4"),
    ],
)
def test_bad_diagrams_are_refused(diagram: str, message: str) -> None:
    with pytest.raises(CoordinateError, match=message):
        Board.from_diagram(diagram)


def test_zobrist_hash_depends_only_on_the_stones() -> None:
    empty = Board(9)
    assert empty.hash == 0
    assert empty.is_empty()
    one = Board(9)
    one.play(B, Point(2, 2))
    one.play(W, Point(6, 6))
    other = Board(9)
    other.place(W, Point(6, 6))
    other.place(B, Point(2, 2))
    assert one == other
    assert one.hash == other.hash != 0
    swapped = Board(9)
    swapped.place(B, Point(6, 6))
    swapped.place(W, Point(2, 2))
    assert swapped.hash != one.hash
    one.remove(Point(2, 2))
    one.remove(Point(6, 6))
    assert one.hash == 0
    assert one.is_empty()


def test_copy_is_independent() -> None:
    board = Board(9)
    board.play(B, Point(4, 4))
    copy = board.copy()
    copy.play(W, Point(4, 5))
    assert board[Point(4, 5)] is None
    assert copy[Point(4, 5)] is W
    assert board != copy
    assert board.hash != copy.hash


def test_occupied_and_off_board_points_are_refused() -> None:
    board = Board(9)
    board.play(B, Point(4, 4))
    with pytest.raises(IllegalMoveError, match="occupied") as caught:
        board.play(W, Point(4, 4))
    assert caught.value.reason == "occupied"
    with pytest.raises(IllegalMoveError, match="occupied"):
        board.place(W, Point(4, 4))
    for point in (Point(9, 0), Point(0, -1), Point(-1, -1)):
        with pytest.raises(CoordinateError, match="off the 9x9 board"):
            board.play(B, point)
    with pytest.raises(CoordinateError, match="no stone"):
        board.remove(Point(0, 0))
    board.check_consistency()


def test_setup_places_stones_without_capturing() -> None:
    """Setup (handicap, AB/AW) puts stones down as they are: no captures, no suicide check."""
    board = Board(5)
    for point in (Point(0, 1), Point(1, 0)):
        board.place(B, point)
    board.place(W, Point(0, 0))
    assert board[Point(0, 0)] is W
    with pytest.raises(AssertionError, match="no liberty"):
        board.check_consistency()


def test_consistency_check_catches_a_stale_hash() -> None:
    board = Board(9)
    board.play(B, Point(3, 3))
    board.hash ^= 1
    with pytest.raises(AssertionError, match="Zobrist"):
        board.check_consistency()
