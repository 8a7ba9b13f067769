"""The game: turns, passes, ko, superko, the end, undo and the legal moves."""

from __future__ import annotations

import pytest

from engine import Board, Color, Game, IllegalMoveError, KoRule, Move, Point, Rules

B, W = Color.BLACK, Color.WHITE
SIMPLE = Rules(ko=KoRule.SIMPLE)
POSITIONAL = Rules.chinese()
SITUATIONAL = Rules(ko=KoRule.SITUATIONAL)


def game_from(diagram: str, *, to_move: Color = B, rules: Rules | None = None) -> Game:
    """A game whose start position is ``diagram`` (stones set up, not played)."""
    board = Board.from_diagram(diagram)
    return Game(board.size, rules=rules, setup=board.stones(), to_move=to_move)


def play_all(game: Game, *moves: tuple[Color, tuple[int, int] | None]) -> None:
    for color, point in moves:
        game.play(Move(color, None if point is None else Point(*point)))


def reason(game: Game, color: Color, point: tuple[int, int] | None) -> str | None:
    """Why ``game`` refuses the move, or None when it is legal."""
    error = game.why_illegal(Move(color, None if point is None else Point(*point)))
    return None if error is None else error.reason


#: Black takes the white stone at (1, 1) by playing (1, 2); White may not take back at once.
KO = """
    . X O . .
    X O . O .
    . X O . .
    . . . . .
    . . . . .
    """

#: Black sends two: a stone at (0, 0) leaves two stones in atari. White takes them
#: at (0, 2); Black returns one by taking that stone from (0, 1), and the board is
#: the start position again.
SENDING_TWO_RETURNING_ONE = """
    . X . X .
    O O X . .
    . . . . .
    . . . . .
    . . . . .
    """

#: Three kos: White holds the top and bottom ones, Black the middle one.
TRIPLE_KO = """
    . . . X O . . . .
    . . X O . O . . .
    . . . X O . . . .
    . . . X O . . . .
    . . X . X O . . .
    . . . X O . . . .
    . . . X O . . . .
    . . X O . O . . .
    . . . X O . . . .
    """
TRIPLE_KO_CYCLE = [
    (B, (1, 4)),  # takes the top ko
    (W, (4, 3)),  # takes the middle ko
    (B, (7, 4)),  # takes the bottom ko
    (W, (1, 3)),  # takes the top ko back
    (B, (4, 4)),  # takes the middle ko back
]
TRIPLE_KO_CLOSE = (W, (7, 3))  # would take the bottom ko back: the start position again


def test_simple_ko_forbids_the_immediate_retake() -> None:
    game = game_from(KO)
    assert game.play(Move.play(B, (1, 2))).captures == {Point(1, 1)}
    assert game.ko_point == Point(1, 1)
    for rules in (SIMPLE, POSITIONAL, SITUATIONAL):
        game = game_from(KO, rules=rules)
        play_all(game, (B, (1, 2)))
        assert reason(game, W, (1, 1)) == "ko"
        with pytest.raises(IllegalMoveError, match=r"W B4: retakes the ko") as caught:
            game.play(Move.play(W, (1, 1)))
        assert caught.value.reason == "ko"


def test_ko_may_be_retaken_after_a_threat_and_an_answer() -> None:
    game = game_from(KO)
    play_all(game, (B, (1, 2)), (W, (4, 4)), (B, (4, 3)))
    assert game.ko_point is None
    assert game.play(Move.play(W, (1, 1))).captures == {Point(1, 2)}
    assert game.ko_point == Point(1, 2)


def test_a_pass_also_lifts_the_simple_ko_ban() -> None:
    game = game_from(KO, rules=SIMPLE)
    play_all(game, (B, (1, 2)), (W, None), (B, (4, 4)))
    assert game.ko_point is None
    assert reason(game, W, (1, 1)) is None


def test_snapback_is_not_a_ko() -> None:
    game = game_from(
        """
        . . . . .
        . . . . .
        X X X X .
        O O O X .
        . . O X .
        """
    )
    play_all(game, (B, (4, 1)), (W, (4, 0)))
    assert game.ko_point is None
    assert len(game.play(Move.play(B, (4, 1))).captures) == 5
    assert game.captures == {B: 5, W: 1}


@pytest.mark.parametrize(
    ("rules", "expected"),
    [(SIMPLE, None), (POSITIONAL, "repetition"), (SITUATIONAL, None)],
    ids=["simple", "positional", "situational"],
)
def test_sending_two_returning_one(rules: Rules, expected: str | None) -> None:
    """Black's recapture recreates the start position with White to move.

    Simple ko sees no ko (two stones were taken); positional superko forbids
    the repetition; situational superko allows it, as the player to move differs.
    """
    game = game_from(SENDING_TWO_RETURNING_ONE, rules=rules)
    start = game.board.copy()
    assert game.play(Move.play(B, (0, 0))).captures == frozenset()
    assert game.play(Move.play(W, (0, 2))).captures == {Point(0, 0), Point(0, 1)}
    assert reason(game, B, (0, 1)) == expected
    if expected is None:
        assert game.play(Move.play(B, (0, 1))).captures == {Point(0, 2)}
        assert game.board == start
    else:
        with pytest.raises(IllegalMoveError, match="repeats an earlier whole-board position"):
            game.play(Move.play(B, (0, 1)))
        assert game.board.rows()[0] == "..OX."


def test_situational_superko_forbids_the_same_position_with_the_same_player_to_move() -> None:
    """After the cycle above and a pass, Black's throw-in would recreate a seen situation."""
    game = game_from(SENDING_TWO_RETURNING_ONE, rules=SITUATIONAL)
    play_all(game, (B, (0, 0)), (W, (0, 2)), (B, (0, 1)), (W, None))
    assert reason(game, B, (0, 0)) == "repetition"
    assert reason(game, B, (3, 3)) is None


@pytest.mark.parametrize(
    ("rules", "expected"),
    [(SIMPLE, None), (POSITIONAL, "repetition"), (SITUATIONAL, "repetition")],
    ids=["simple", "positional", "situational"],
)
def test_triple_ko_cycle(rules: Rules, expected: str | None) -> None:
    """Each take is legal under simple ko; the sixth recreates the start position."""
    game = game_from(TRIPLE_KO, rules=rules)
    start = game.board.copy()
    for color, point in TRIPLE_KO_CYCLE:
        assert len(game.play(Move.play(color, point)).captures) == 1
        assert game.board != start
    color, point = TRIPLE_KO_CLOSE
    assert reason(game, color, point) == expected
    if expected is None:
        game.play(Move.play(color, point))
        assert game.board == start
        assert game.board.hash == start.hash


def test_two_passes_end_the_game() -> None:
    game = Game(9)
    play_all(game, (B, (2, 2)), (W, None))
    assert not game.is_over
    play_all(game, (B, (6, 6)), (W, None))
    assert not game.is_over
    play_all(game, (B, None))
    assert game.is_over
    assert game.result is None
    assert game.legal_moves() == []
    assert reason(game, W, (4, 4)) == "game over"
    assert reason(game, W, None) == "game over"
    assert [m.is_pass for m in game.moves] == [False, True, False, True, True]


def test_resignation_ends_the_game() -> None:
    game = Game(19)
    play_all(game, (B, (3, 3)))
    game.resign(W)
    assert game.is_over
    assert game.result == "B+R"
    assert reason(game, W, (15, 15)) == "game over"
    with pytest.raises(IllegalMoveError, match="cannot resign") as caught:
        game.resign(B)
    assert caught.value.reason == "game over"


ILLEGAL = {
    "occupied": (KO, B, (0, 1), "occupied", "B B5: the point is occupied"),
    "wrong turn": (KO, W, (1, 2), "wrong turn", "W C4: it is Black's turn"),
    "suicide for white": (
        """
        . X . . .
        X . . . .
        . . . . .
        . . . . .
        . . . . .
        """,
        W,
        (0, 0),
        "suicide",
        "W A5: a forbidden point",
    ),
    "several stones' suicide": (
        """
        X X . O .
        O O O O .
        . . . . .
        . . . . .
        . . . . .
        """,
        B,
        (0, 2),
        "suicide",
        "B C5: a forbidden point",
    ),
    "off board": (KO, B, (5, 0), "off board", r"B Point\(row=5, col=0\): off the board"),
    "off board, negative": (KO, B, (0, -1), "off board", "off the board"),
}


@pytest.mark.parametrize(
    ("diagram", "color", "point", "why", "message"), ILLEGAL.values(), ids=list(ILLEGAL)
)
def test_illegal_moves_say_why_and_change_nothing(
    diagram: str, color: Color, point: tuple[int, int], why: str, message: str
) -> None:
    to_move = color if why != "wrong turn" else color.opponent
    game = game_from(diagram, to_move=to_move)
    before = game.board.copy()
    with pytest.raises(IllegalMoveError, match=message) as caught:
        game.play(Move.play(color, point))
    assert caught.value.reason == why
    assert why in IllegalMoveError.REASONS
    assert game.board == before
    assert game.board.hash == before.hash
    assert game.to_move is to_move
    assert game.history == []
    assert not game.is_legal(Move.play(color, point))
    game.board.check_consistency()


def test_suicide_is_legal_under_rules_that_allow_it() -> None:
    """A several-stone suicide removes the player's own stones and counts for the opponent."""
    game = game_from(ILLEGAL["several stones' suicide"][0], rules=Rules(suicide=True))
    played = game.play(Move.play(B, (0, 2)))
    assert played.captures == {Point(0, 0), Point(0, 1), Point(0, 2)}
    assert game.board.rows()[0] == "...O."
    assert game.captures == {B: 0, W: 3}
    assert game.to_move is W


def test_single_stone_suicide_is_a_repetition_under_positional_superko() -> None:
    """With suicide allowed, a lone stone's suicide leaves the board as it was."""
    diagram = ILLEGAL["suicide for white"][0]
    game = game_from(diagram, rules=Rules(suicide=True), to_move=W)
    assert reason(game, W, (0, 0)) == "repetition"
    simple = game_from(diagram, rules=Rules(suicide=True, ko=KoRule.SIMPLE), to_move=W)
    assert simple.play(Move.play(W, (0, 0))).captures == {Point(0, 0)}


def test_turns_alternate_and_handicap_games_start_with_white() -> None:
    game = Game(9)
    assert game.to_move is B
    play_all(game, (B, (4, 4)))
    assert game.to_move is W
    assert reason(game, B, (3, 3)) == "wrong turn"
    handicap = Game(19, handicap=2, setup=[(Point(3, 15), B), (Point(15, 3), B)])
    assert handicap.to_move is W
    assert handicap.komi == 0
    assert Game(19).komi == 7.5
    assert Game(19, rules=Rules.japanese()).komi == 6.5


def test_undo_restores_board_captures_turn_and_ko() -> None:
    game = game_from(KO)
    start = game.board.copy()
    play_all(game, (B, (1, 2)))
    assert game.captures[B] == 1
    undone = game.undo()
    assert undone.move == Move.play(B, (1, 2))
    assert game.board == start
    assert game.board.hash == start.hash
    assert game.captures == {B: 0, W: 0}
    assert game.to_move is B
    assert game.ko_point is None
    play_all(game, (B, (1, 2)), (W, (4, 4)))
    game.undo()
    assert game.ko_point == Point(1, 1)
    assert reason(game, W, (1, 1)) == "ko"
    game.undo()
    assert game.history == []
    with pytest.raises(IllegalMoveError, match="no move to take back"):
        game.undo()


def test_undo_forgets_positions_so_they_may_be_reached_again() -> None:
    game = game_from(SENDING_TWO_RETURNING_ONE)
    play_all(game, (B, (0, 0)), (W, (0, 2)))
    assert reason(game, B, (0, 1)) == "repetition"
    game.undo()
    game.undo()
    assert reason(game, B, (0, 0)) is None
    play_all(game, (B, (0, 0)))
    game.resign(W)
    assert game.undo().move == Move.play(B, (0, 0))
    assert game.resigned is None
    assert game.history == []
    assert not game.is_over


def test_undo_of_a_suicide_puts_the_stones_back() -> None:
    diagram = ILLEGAL["several stones' suicide"][0]
    game = game_from(diagram, rules=Rules(suicide=True))
    start = game.board.copy()
    play_all(game, (B, (0, 2)))
    game.undo()
    assert game.board == start
    assert game.board.hash == start.hash
    assert game.captures == {B: 0, W: 0}


def test_legal_moves_leave_out_occupied_suicide_and_ko_points() -> None:
    game = game_from(KO)
    play_all(game, (B, (1, 2)))
    legal = game.legal_moves()
    assert legal[-1] == Move.pass_(W)
    points = {m.point for m in legal[:-1]}
    stones = {p for p, _ in game.board.stones()}
    assert Point(1, 1) not in points  # ko
    assert points.isdisjoint(stones)
    empty = {Point(r, c) for r in range(5) for c in range(5)} - stones
    assert points == empty - {Point(1, 1), Point(0, 0)}  # the ko; a suicide in the corner
    assert all(m.color is W for m in legal)


def test_copy_is_independent() -> None:
    game = game_from(KO)
    copy = game.copy()
    play_all(copy, (B, (1, 2)))
    assert game.history == []
    assert game.board != copy.board
    assert reason(game, B, (1, 2)) is None
    assert reason(copy, W, (1, 1)) == "ko"


def test_a_lost_turn_is_a_pass_that_never_ends_the_game() -> None:
    game = Game(9)
    play_all(game, (B, None))
    lost = game.lose_turn(W)
    assert lost.lost_turn
    assert lost.move == Move.pass_(W)
    assert not game.is_over
    assert game.to_move is B
    play_all(game, (B, None))
    assert not game.is_over
    play_all(game, (W, None))
    assert game.is_over
    with pytest.raises(IllegalMoveError, match="game is over"):
        game.lose_turn(B)


def test_an_edit_changes_stones_lifts_the_ko_and_cannot_be_undone() -> None:
    game = game_from(KO)
    play_all(game, (B, (1, 2)))
    assert game.ko_point == Point(1, 1)
    game.edit({Point(4, 4): W, Point(4, 0): B})
    game.edit({Point(4, 0): None})
    assert game.board[Point(4, 4)] is W
    assert game.board[Point(4, 0)] is None
    assert game.ko_point is None
    assert game.to_move is W
    assert game.edits == [(1, {Point(4, 4): W, Point(4, 0): B}), (1, {Point(4, 0): None})]
    assert game.play(Move.play(W, (1, 1))).captures == {Point(1, 2)}
    game.undo()
    with pytest.raises(IllegalMoveError, match="no move to take back"):
        game.undo()
    game.board.check_consistency()
