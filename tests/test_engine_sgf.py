"""SGF (FF[4]) through sgfmill: what we write reads back the same, here and in sgfmill."""

from __future__ import annotations

import pytest
from sgfmill import sgf

from engine import Color, Game, Move, Point, SgfError
from engine.sgf import GameRecord, NodeInfo, read_sgf, write_sgf

B, W = Color.BLACK, Color.WHITE

HEADERS = {
    "PB": "Ke Jie",
    "PW": "AlphaGo Master",
    "BR": "9p",
    "WR": "-",
    "EV": "Future of Go Summit",
    "RO": "Game 1",
    "DT": "2017-05-23",
    "PC": "Wuzhen, China",
    "RU": "Chinese",
    "RE": "W+0.5",
    "TM": "10800",
    "OT": "3x60 byo-yomi",
}

#: A two-stone handicap game on 13x13 with passes, comments, time left and an edit.
HANDICAP_GAME = GameRecord(
    size=13,
    moves=(
        Move.play(W, (2, 2)),
        Move.play(B, (2, 9)),
        Move.pass_(W),
        Move.play(B, (6, 6)),
        Move.play(W, (12, 0)),
        Move.pass_(B),
        Move.pass_(W),
    ),
    setup=((Point(3, 9), B), (Point(9, 3), B), (Point(0, 0), W)),
    komi=0.5,
    handicap=2,
    headers=HEADERS,
    root_comment="Setup: two handicap stones and a white stone in the corner.",
    notes=(
        NodeInfo(comment="Opening in the 3-3 point", time_left=3590.5),
        NodeInfo(time_left=3571.0),
        NodeInfo(comment="White passes early — 早い", time_left=3400.0),
        NodeInfo(),
        NodeInfo(time_left=3000.0),
        NodeInfo(comment="Black is done"),
        NodeInfo(comment="Both passed"),
    ),
    edits=((4, ((Point(6, 6), None), (Point(7, 7), B))),),
)


def test_round_trip_keeps_every_part_of_the_record() -> None:
    data = write_sgf(HANDICAP_GAME)
    again = read_sgf(data, name="handicap.sgf")
    assert again.size == 13
    assert again.moves == HANDICAP_GAME.moves
    assert set(again.setup) == set(HANDICAP_GAME.setup)
    assert (again.komi, again.handicap) == (0.5, 2)
    assert dict(again.headers) == HEADERS
    assert again.root_comment == HANDICAP_GAME.root_comment
    assert again.notes == HANDICAP_GAME.notes
    assert again.edits == HANDICAP_GAME.edits
    assert again.warnings == ()
    assert write_sgf(again) == data


def test_sgfmill_reads_what_we_write() -> None:
    game = sgf.Sgf_game.from_bytes(write_sgf(HANDICAP_GAME))
    root = game.get_root()
    assert game.get_size() == 13
    assert game.get_komi() == 0.5
    assert game.get_handicap() == 2
    for ident, value in HEADERS.items():
        assert root.get(ident) == (float(value) if ident == "TM" else value)
    black, white, empty = root.get_setup_stones()
    # sgfmill counts rows from the bottom: Point(3, 9) is its (9, 9)
    assert black == {(9, 9), (3, 3)}
    assert white == {(12, 0)}
    assert empty == set()
    nodes = game.get_main_sequence()[1:]
    moves = [node.get_move() for node in nodes if node.get_move()[0] is not None]
    assert moves == [
        ("w", (10, 2)),
        ("b", (10, 9)),
        ("w", None),
        ("b", (6, 6)),
        ("w", (0, 0)),
        ("b", None),
        ("w", None),
    ]
    assert nodes[0].get("C") == "Opening in the 3-3 point"
    assert nodes[0].get("WL") == 3590.5
    assert nodes[2].get("C") == "White passes early — 早い"
    edit = nodes[4]
    assert edit.get_move() == (None, None)
    assert edit.get_setup_stones() == ({(5, 7)}, set(), {(6, 6)})


def test_replaying_the_handicap_game() -> None:
    game, number, error = HANDICAP_GAME.replay()
    assert (number, error) == (None, None)
    assert game.komi == 0.5
    assert game.handicap == 2
    assert game.is_over
    assert game.board[Point(6, 6)] is None  # taken off by the edit
    assert game.board[Point(7, 7)] is B
    assert game.board[Point(0, 0)] is W  # set up at the start
    assert game.score().handicap == 2


def test_a_handicap_record_starts_with_white_and_no_komi() -> None:
    data = b"(;GM[1]FF[4]SZ[19]HA[2]AB[dp][pd];W[dd];B[pp])"
    record = read_sgf(data)
    assert record.handicap == 2
    assert record.komi is None
    game = record.new_game()
    assert game.to_move is W
    assert game.komi == 0
    assert {p for p, _ in game.board.stones(B)} == {Point(15, 3), Point(3, 15)}


@pytest.mark.parametrize(
    ("data", "moves"),
    [
        (b"(;SZ[19];B[];W[tt])", [Move.pass_(B), Move.pass_(W)]),
        (b"(;SZ[9];B[aa];W[ii])", [Move.play(B, (0, 0)), Move.play(W, (8, 8))]),
        (b"(;SZ[25];B[yy];W[ay])", [Move.play(B, (24, 24)), Move.play(W, (24, 0))]),
        (b"(;SZ[19];B[pd];B[dp])", [Move.play(B, (3, 15)), Move.play(B, (15, 3))]),
    ],
    ids=["passes", "9x9 corners", "25x25 corners", "black twice"],
)
def test_moves_read_in_kifu_coordinates(data: bytes, moves: list[Move]) -> None:
    record = read_sgf(data)
    assert list(record.moves) == moves
    game, number, error = record.replay()
    assert (number, error) == (None, None)
    assert game.moves == moves


def test_a_record_that_breaks_the_rules_stops_at_the_illegal_move() -> None:
    record = read_sgf(b"(;SZ[9];B[ee];W[dd];B[ee];W[cc])", name="bad.sgf")
    game, number, error = record.replay()
    assert number == 3
    assert error is not None
    assert error.reason == "occupied"
    assert str(error) == "B E5: the point is occupied"
    assert len(game.history) == 2


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"not an sgf file", r"^broken\.sgf: not a readable SGF record"),
        (b"(;SZ[9];B[ee]", r"^broken\.sgf: not a readable SGF record"),
        (b"(;SZ[4];B[aa])", r"^broken\.sgf: board size 4 not supported \(5-25\)"),
        (b"(;SZ[26];B[aa])", r"^broken\.sgf: board size 26 not supported"),
        (b"(;SZ[9];B[ee];W[zz])", r"^broken\.sgf: move 2: W\[zz\] is not a point on a 9x9 board"),
        (b"(;SZ[9];B[ee];W[jj])", r"^broken\.sgf: move 2: W\[jj\] is not a point"),
        (b"(;SZ[9]AB[zz];B[ee])", r"^broken\.sgf: bad setup stones"),
        (b"(;SZ[9];B[ee];W[z\nz])", r"^broken\.sgf: move 2: W\[z\\nz\] is not a point"),
        (b"(;CA[U\nTF-8]SZ[9];B[ee])", r"^broken\.sgf: not a readable .* U\\nTF-8"),
    ],
    ids=[
        *("not sgf", "unclosed", "too small", "too big", "off board", "just off"),
        *("setup", "line break in a move", "line break in the charset"),
    ],
)
def test_unreadable_records_name_the_file_and_move(data: bytes, message: str) -> None:
    with pytest.raises(SgfError, match=message) as caught:
        read_sgf(data, name="broken.sgf")
    assert "\n" not in str(caught.value)


def test_malformed_headers_that_touch_no_move_are_warnings() -> None:
    record = read_sgf(b"(;SZ[9]KM[seven]HA[two];B[ee])")
    assert record.komi is None
    assert record.handicap == 0
    assert record.warnings == (
        "KM[seven] is malformed; ignored",
        "HA[two] is malformed; ignored",
    )
    assert list(record.moves) == [Move.play(B, (4, 4))]


def test_a_malformed_time_left_is_a_warning_too() -> None:
    record = read_sgf(b"(;SZ[9];B[ee]BL[soon];W[dd]WL[12.5])")
    assert record.warnings == ("move 1: BL value is malformed; ignored",)
    assert [note.time_left for note in record.notes] == [None, 12.5]


def test_a_game_written_from_play_reads_back_to_the_same_board() -> None:
    game = Game(9)
    for text in ["B E5", "W D5", "B D4", "W A1", "B C5", "W pass", "B D6"]:
        game.play(Move.from_gtp(text, 9))
    assert game.captures == {B: 1, W: 0}
    record = GameRecord(size=9, moves=tuple(game.moves), komi=7.5)
    again, number, _ = read_sgf(write_sgf(record)).replay()
    assert number is None
    assert again.board == game.board
    assert again.captures == game.captures


def test_a_move_in_the_root_node_is_kept() -> None:
    """Some programs put the first move beside the game info; it is still a move."""
    record = read_sgf(b"(;SZ[9]AB[cc]C[start]B[ee];W[dd])")
    assert record.moves == (Move.play(B, (4, 4)), Move.play(W, (3, 3)))
    assert record.setup == ((Point(2, 2), B),)
    assert record.root_comment == "start"
    again = read_sgf(write_sgf(record))
    assert (again.moves, again.setup) == (record.moves, record.setup)


@pytest.mark.parametrize(
    ("header", "warning"),
    [
        (b"KM[nan]", "KM[nan] is more than the board holds; ignored"),
        (b"KM[1e400]", "KM[inf] is more than the board holds; ignored"),
        (b"KM[750]", "KM[750] is more than the board holds; ignored"),
        (b"HA[-3]", "HA[-3] is not a number of stones on this board; ignored"),
        (b"HA[99999999999]", "HA[99999999999] is not a number of stones on this board; ignored"),
    ],
)
def test_impossible_komi_and_handicap_are_ignored_with_a_warning(
    header: bytes, warning: str
) -> None:
    """A NaN komi would make the count a draw and the JSON of `kifu check` invalid."""
    record = read_sgf(b"(;SZ[9]" + header + b";B[ee])")
    assert record.warnings == (warning,)
    assert (record.komi, record.handicap) == (None, 0)
    score = record.replay()[0].score()
    assert (score.komi, score.handicap, score.result) == (7.5, 0, "B+73.5")


def test_setup_stones_of_both_colours_on_one_point_name_the_file() -> None:
    with pytest.raises(SgfError, match=r"^both\.sgf: setup stones of both colours on aa, cc$"):
        read_sgf(b"(;SZ[9]AB[aa][cc][dd]AW[cc][aa];B[ee])", name="both.sgf")
