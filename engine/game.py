"""A game: turns, passes, ko and whole-board repetition, the end and the result.

:class:`Game` sits on a :class:`~engine.board.Board` the way KataGo's
``BoardHistory`` does. :meth:`Game.play` is the strict path: it refuses any
move the rules forbid with an :class:`~engine.errors.IllegalMoveError` whose
``reason`` says why (``occupied``, ``suicide``, ``ko``, ``repetition``,
``wrong turn``, ``game over``). Tolerant paths for moves that came from a camera
live in the referee, not here.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Iterable, Mapping
from typing import NamedTuple

from engine.board import Board
from engine.errors import IllegalMoveError
from engine.point import Color, Move, Point
from engine.rules import KoRule, Rules
from engine.scoring import Score, count, default_komi

_CODE = {Color.BLACK: 1, Color.WHITE: 2}
_OPPONENT = {Color.BLACK: Color.WHITE, Color.WHITE: Color.BLACK}
_NOTHING: frozenset[Point] = frozenset()
#: Keys XORed into the position hash for the player to move (situational superko).
_TO_MOVE_KEY = {
    Color.BLACK: random.Random(0xB1).getrandbits(64),
    Color.WHITE: random.Random(0x3E).getrandbits(64),
}


class PlayedMove(NamedTuple):
    """A move as it happened: what it captured.

    ``lost_turn`` marks a pass that the player did not declare: a void move under
    the referee (Art. 18.3, 19, 20) costs the turn. It never counts towards the
    two passes that end the game.
    """

    move: Move
    captures: frozenset[Point]
    lost_turn: bool = False


class _Undo(NamedTuple):
    at: int | None
    captured: list[int]
    ko: int | None
    key: int


class Game:
    """A game in progress under some :class:`Rules`.

    >>> game = Game(9)
    >>> game.play(Move.play(Color.BLACK, Point(4, 4))).captures
    frozenset()
    >>> game.to_move
    Color.WHITE
    """

    def __init__(
        self,
        size: int = 19,
        *,
        rules: Rules | None = None,
        komi: float | None = None,
        handicap: int = 0,
        setup: Iterable[tuple[Point, Color]] | Mapping[Point, Color] = (),
        to_move: Color | None = None,
    ) -> None:
        self.rules = rules or Rules.chinese()
        self._superko = self.rules.ko is not KoRule.SIMPLE
        self._situational = self.rules.ko is KoRule.SITUATIONAL
        self.board = Board(size)
        stones = setup.items() if isinstance(setup, Mapping) else setup
        for point, color in stones:
            self.board.place(color, point)
        self.handicap = handicap
        #: Komi in points; a handicap game's Black gives back half the handicap
        #: stones instead, so its komi defaults to zero.
        self.komi = default_komi(self.rules, handicap) if komi is None else komi
        self.to_move = to_move or (Color.WHITE if handicap >= 2 else Color.BLACK)
        self.history: list[PlayedMove] = []
        self.captures = {Color.BLACK: 0, Color.WHITE: 0}
        self.resigned: Color | None = None
        #: Changes made by :meth:`edit`, each with the number of moves before it.
        self.edits: list[tuple[int, dict[Point, Color | None]]] = []
        self._resumed_at = 0
        self._ko: int | None = None
        self._undo: list[_Undo] = []
        self._seen: dict[int, int] = {self._key(self.to_move): 1}

    @property
    def size(self) -> int:
        return self.board.size

    def _key(self, to_move: Color) -> int:
        """The position's key for repetition: with the player to move if situational."""
        if self._situational:
            return self.board.hash ^ _TO_MOVE_KEY[to_move]
        return self.board.hash

    # -- state ----------------------------------------------------------------------

    @property
    def moves(self) -> list[Move]:
        return [played.move for played in self.history]

    @property
    def is_over(self) -> bool:
        """Over by resignation or two consecutive passes (Art. 7.3)."""
        if self.resigned is not None:
            return True
        history = self.history
        if len(history) - self._resumed_at < 2 or history[-1].move.point is not None:
            return False  # the usual case, answered without a scan: the last move was a stone
        return all(played.move.is_pass and not played.lost_turn for played in history[-2:])

    @property
    def ko_point(self) -> Point | None:
        """The point the player to move may not retake at once (simple ko), if any."""
        return None if self._ko is None else self.board.point(self._ko)

    # -- legality ---------------------------------------------------------------------

    def why_illegal(self, move: Move) -> IllegalMoveError | None:
        """The error :meth:`play` would raise for ``move``, or None if it is legal."""
        try:
            self._apply(move, commit=False)
        except IllegalMoveError as error:
            return error
        return None

    def is_legal(self, move: Move) -> bool:
        return self.why_illegal(move) is None

    def legal_moves(self) -> list[Move]:
        """Every legal move of the player to move, the pass last."""
        if self.is_over:
            return []
        color = self.to_move
        moves = []
        for r in range(self.size):
            for c in range(self.size):
                point = Point(r, c)
                if self.board[point] is None and self.is_legal(Move(color, point)):
                    moves.append(Move(color, point))
        moves.append(Move.pass_(color))
        return moves

    # -- changing -----------------------------------------------------------------------

    def play(self, move: Move) -> PlayedMove:
        """Play ``move`` for the player to move; raise IllegalMoveError if forbidden."""
        played = self._apply(move, commit=True)
        assert played is not None
        return played

    def lose_turn(self, color: Color) -> PlayedMove:
        """Record that ``color`` loses the turn (a void move): a pass that ends nothing."""
        move = Move.pass_(color)
        self._apply(move, commit=False)
        self._record(move, None, [], frozenset(), lost_turn=True)
        return self.history[-1]

    def edit(self, changes: Mapping[Point, Color | None]) -> None:
        """Change stones by decision rather than by a move (setup, an arbiter's ruling).

        Tolerant: no captures and no legality checks; the position after it counts
        for repetition, and any simple-ko restriction is lifted. Moves before an edit
        can no longer be taken back.
        """
        board = self.board
        for point, color in changes.items():
            if board[point] is not None:
                board.remove(point)
            if color is not None:
                board.place(color, point)
        self._ko = None
        self._undo.clear()
        self.edits.append((len(self.history), dict(changes)))
        key = self._key(self.to_move)
        self._seen[key] = self._seen.get(key, 0) + 1

    def resume(self) -> None:
        """Go on playing after two passes (the players did not agree the game was over,
        or a record continues); the passes so far no longer end the game."""
        self._resumed_at = len(self.history)

    def resign(self, color: Color) -> None:
        if self.is_over:
            raise IllegalMoveError(
                f"{color.name_text} cannot resign: the game is over", reason="game over"
            )
        self.resigned = color

    def undo(self) -> PlayedMove:
        """Take back the last move and return it; a resignation is withdrawn too."""
        if not self._undo:
            raise IllegalMoveError("no move to take back", reason="no move")
        self.resigned = None
        played = self.history.pop()
        self._resumed_at = min(self._resumed_at, len(self.history))
        step = self._undo.pop()
        self._seen[step.key] -= 1
        if not self._seen[step.key]:
            del self._seen[step.key]
        if step.at is not None:
            self.board.undo_index(step.at, _CODE[played.move.color], step.captured)
            if step.at not in step.captured:
                self.captures[played.move.color] -= len(step.captured)
            else:
                self.captures[played.move.color.opponent] -= len(step.captured)
        self._ko = step.ko
        self.to_move = played.move.color
        return played

    def _apply(self, move: Move, *, commit: bool) -> PlayedMove | None:
        color = move.color
        board = self.board
        if self.is_over:
            raise IllegalMoveError(f"{self._text(move)}: the game is over", reason="game over")
        if color is not self.to_move:
            raise IllegalMoveError(
                f"{self._text(move)}: it is {self.to_move.name_text}'s turn", reason="wrong turn"
            )
        if move.point is None:
            if commit:
                self._record(move, None, [], frozenset())
            return PlayedMove(move, _NOTHING) if commit else None
        try:
            i = board.index(move.point)
        except ValueError:
            raise IllegalMoveError(
                f"{self._text(move)}: off the board", reason="off board"
            ) from None
        if self._ko == i:
            raise IllegalMoveError(f"{self._text(move)}: retakes the ko at once", reason="ko")
        code = _CODE[color]
        try:
            captured = board.play_index(i, code, allow_suicide=self.rules.suicide)
        except IllegalMoveError as error:
            why = "the point is occupied" if error.reason == "occupied" else "a forbidden point"
            raise IllegalMoveError(f"{self._text(move)}: {why}", reason=error.reason) from None
        opponent = _OPPONENT[color]
        key = self._key(opponent)
        if self._superko and key in self._seen:
            board.undo_index(i, code, captured)
            raise IllegalMoveError(
                f"{self._text(move)}: repeats an earlier whole-board position",
                reason="repetition",
            )
        if not commit:
            board.undo_index(i, code, captured)
            return None
        points = frozenset(board.point(s) for s in captured) if captured else _NOTHING
        self._record(move, i, captured, points, key=key)
        return self.history[-1]

    def _text(self, move: Move) -> str:
        """The move as "B D4" for messages; an off-board point shows as it was given."""
        try:
            return move.gtp(self.size)
        except ValueError:
            return f"{move.color.value} {move.point!r}"

    def _record(
        self,
        move: Move,
        index: int | None,
        captured: list[int],
        points: frozenset[Point],
        *,
        lost_turn: bool = False,
        key: int | None = None,
    ) -> None:
        """Enter a move; ``key`` is the new position's repetition key, if known."""
        color = move.color
        prior_ko = self._ko
        self._ko = None
        if index is not None and captured:
            if index in captured:
                self.captures[color.opponent] += len(captured)
            else:
                self.captures[color] += len(captured)
                if len(captured) == 1 and self.board.is_lone_in_atari(index):
                    self._ko = captured[0]
        self.to_move = _OPPONENT[color]
        if key is None:
            key = self._key(self.to_move)
        self._seen[key] = self._seen.get(key, 0) + 1
        self._undo.append(_Undo(index, captured, prior_ko, key))
        self.history.append(PlayedMove(move, points, lost_turn))

    # -- copying and counting -------------------------------------------------------------

    def copy(self) -> Game:
        game = Game.__new__(Game)
        game.rules, game.handicap, game.komi = self.rules, self.handicap, self.komi
        game._superko, game._situational = self._superko, self._situational
        game.board = self.board.copy()
        game.to_move = self.to_move
        game.history = self.history.copy()
        game.captures = dict(self.captures)
        game.resigned = self.resigned
        game.edits = self.edits.copy()
        game._resumed_at = self._resumed_at
        game._ko = self._ko
        game._undo = self._undo.copy()
        game._seen = dict(self._seen)
        return game

    def score(
        self,
        *,
        dead: Collection[Point] = (),
        penalties: Mapping[Color, int] | None = None,
    ) -> Score:
        """Count the position with ``dead`` stones removed, under the game's rules."""
        return count(
            self.board,
            self.rules,
            dead=dead,
            komi=self.komi,
            handicap=self.handicap,
            prisoners=self.captures,
            penalties=penalties,
        )

    @property
    def result(self) -> str | None:
        """ "B+R"/"W+R" after a resignation; otherwise None (count with :meth:`score`)."""
        if self.resigned is None:
            return None
        return f"{self.resigned.opponent.value}+R"
