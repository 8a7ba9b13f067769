"""Points, colours and moves: the one coordinate convention and its text forms."""

from __future__ import annotations

import pytest
from sgfmill import common

from engine import Color, CoordinateError, Move, Point, all_points
from engine.point import GTP_COLUMNS, check_size

SIZES = range(5, 26)


@pytest.mark.parametrize(
    ("point", "size", "gtp", "sgf"),
    [
        (Point(0, 0), 19, "A19", "aa"),
        (Point(18, 0), 19, "A1", "as"),
        (Point(18, 18), 19, "T1", "ss"),
        (Point(15, 3), 19, "D4", "dp"),
        (Point(3, 15), 19, "Q16", "pd"),
        (Point(0, 8), 9, "J9", "ia"),
        (Point(4, 4), 9, "E5", "ee"),
        (Point(24, 24), 25, "Z1", "yy"),
    ],
)
def test_text_forms_of_known_points(point: Point, size: int, gtp: str, sgf: str) -> None:
    assert point.gtp(size) == gtp
    assert point.sgf() == sgf
    assert Point.from_gtp(gtp, size) == point
    assert Point.from_sgf(sgf, size) == point


@pytest.mark.parametrize("size", SIZES)
def test_every_point_round_trips_through_gtp_and_sgf(size: int) -> None:
    points = all_points(size)
    assert len(points) == size * size
    assert len(set(points)) == size * size
    gtp = [p.gtp(size) for p in points]
    sgf = [p.sgf() for p in points]
    assert len(set(gtp)) == len(set(sgf)) == size * size
    assert not any("I" in vertex for vertex in gtp)
    assert [Point.from_gtp(v, size) for v in gtp] == points
    assert [Point.from_gtp(v.lower(), size) for v in gtp] == points
    assert [Point.from_sgf(s, size) for s in sgf] == points


@pytest.mark.parametrize("size", [5, 9, 13, 19, 25])
def test_gtp_vertices_agree_with_sgfmill(size: int) -> None:
    """sgfmill counts rows from the bottom: its (row, col) is (size - 1 - row, col)."""
    for point in all_points(size):
        sgfmill_vertex = common.format_vertex((size - 1 - point.row, point.col))
        assert point.gtp(size) == sgfmill_vertex


def test_top_left_is_row_zero() -> None:
    """Row 0 is the top edge as an image shows it; GTP counts the same row as the highest."""
    assert Point.from_gtp("A19", 19) == Point(0, 0)
    assert Point.from_gtp("A1", 19) == Point(18, 0)
    assert Point.from_gtp("T19", 19) == Point(0, 18)


@pytest.mark.parametrize(
    ("text", "size"),
    [
        ("I5", 19),  # GTP skips the letter I
        ("J10", 9),  # past the right edge
        ("A0", 9),
        ("A10", 9),
        ("D", 19),
        ("4D", 19),
        ("", 19),
        ("Z1", 19),
    ],
)
def test_bad_gtp_vertices_are_refused_quoting_the_text(text: str, size: int) -> None:
    with pytest.raises(CoordinateError, match=repr(text)):
        Point.from_gtp(text, size)


@pytest.mark.parametrize(("text", "size"), [("tt", 19), ("ja", 9), ("a", 9), ("abc", 9)])
def test_bad_sgf_points_are_refused_quoting_the_text(text: str, size: int) -> None:
    with pytest.raises(CoordinateError, match=repr(text)):
        Point.from_sgf(text, size)


@pytest.mark.parametrize("point", [Point(-1, 0), Point(0, 9), Point(9, 9)])
def test_off_board_point_has_no_gtp_vertex(point: Point) -> None:
    with pytest.raises(CoordinateError, match="off a 9x9 board"):
        point.gtp(9)


@pytest.mark.parametrize("size", [4, 26, 0, -19])
def test_unsupported_sizes_are_refused(size: int) -> None:
    with pytest.raises(CoordinateError, match=f"board size {size}"):
        check_size(size)


def test_supported_sizes_run_from_5_to_25() -> None:
    assert [check_size(s) for s in SIZES] == list(SIZES)
    assert len(GTP_COLUMNS) == 25


@pytest.mark.parametrize(
    ("point", "size", "expected"),
    [
        (Point(0, 0), 9, {Point(0, 1), Point(1, 0)}),
        (Point(0, 4), 9, {Point(0, 3), Point(0, 5), Point(1, 4)}),
        (Point(8, 8), 9, {Point(7, 8), Point(8, 7)}),
        (Point(4, 4), 9, {Point(3, 4), Point(5, 4), Point(4, 3), Point(4, 5)}),
    ],
)
def test_neighbours_stay_on_the_board(point: Point, size: int, expected: set[Point]) -> None:
    assert set(point.neighbours(size)) == expected


@pytest.mark.parametrize(
    ("text", "color"),
    [
        ("B", Color.BLACK),
        ("black", Color.BLACK),
        ("x", Color.BLACK),
        ("W", Color.WHITE),
        (" White ", Color.WHITE),
        ("o", Color.WHITE),
    ],
)
def test_colours_parse_from_their_usual_names(text: str, color: Color) -> None:
    assert Color.parse(text) is color


def test_colour_opponent_and_characters() -> None:
    assert Color.BLACK.opponent is Color.WHITE
    assert Color.WHITE.opponent is Color.BLACK
    assert (Color.BLACK.char, Color.WHITE.char) == ("X", "O")
    with pytest.raises(CoordinateError, match="'red'"):
        Color.parse("red")


@pytest.mark.parametrize("size", [9, 13, 19])
def test_every_move_round_trips_through_its_gtp_text(size: int) -> None:
    for color in Color:
        moves = [Move.play(color, p) for p in all_points(size)] + [Move.pass_(color)]
        for move in moves:
            assert Move.from_gtp(move.gtp(size), size) == move


def test_move_text_and_repr() -> None:
    move = Move.play(Color.BLACK, (15, 3))
    assert move.gtp(19) == "B D4"
    assert move.point == Point(15, 3)
    assert not move.is_pass
    assert Move.pass_(Color.WHITE).gtp(19) == "W pass"
    assert Move.from_gtp("w PASS", 19).is_pass
    assert eval(repr(move)) == move
    assert eval(repr(Move.pass_(Color.WHITE))) == Move.pass_(Color.WHITE)


@pytest.mark.parametrize("text", ["B", "B D4 extra", "R D4", "B I4"])
def test_bad_move_text_is_refused(text: str) -> None:
    with pytest.raises(CoordinateError):
        Move.from_gtp(text, 19)
