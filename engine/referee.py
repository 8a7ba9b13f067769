"""The referee: still-board observations in, moves and arbiter alerts out.

Vision hands the referee one :class:`~engine.observation.Observation` each time
the board has been still with no hand over it. The referee reconciles it with the
game so far, the tolerant way: it never raises on a player's mistake, it turns it
into an :class:`AlertEvent` naming the article of the Chinese Weiqi Rules (2002,
chapter 3) that punishes it.

Four pictures of the table are kept apart:

* the *expected* position, :attr:`Referee.game`'s board: the game as the rules
  say it stands, captures taken off and void moves left out;
* *pending* captures: stones a move captured that are still on the table. Taking
  them off takes time, so they raise nothing until the victim's side next puts a
  stone down (then Art. 18.2);
* open alerts' *scopes*: points where the table differs because of something
  already reported. The same discrepancy is never reported twice, and the alert
  is resolved once the table matches the expected position there;
* *leftovers*: table states the arbiter let stand, or that nobody could see when
  they would have counted. They raise nothing until the table matches again.

A point read with low confidence is unknown, not evidence: no alert rests on it.
"""

from __future__ import annotations

import enum
import itertools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from engine.board import Board
from engine.errors import KifuError
from engine.game import Game
from engine.observation import Declaration, LogError, Observation, SeenBoard, parse_line
from engine.point import Color, Move, Point
from engine.rules import Rules
from engine.scoring import Score, empty_regions
from engine.sgf import GameRecord, NodeInfo

__all__ = [
    "ALERT_KINDS",
    "AlertError",
    "AlertEvent",
    "AlertKind",
    "AlertUpdate",
    "Declaration",
    "EndEvent",
    "Event",
    "LogError",
    "MoveEvent",
    "Observation",
    "Referee",
    "parse_line",
    "referee_log",
]


class AlertKind(enum.StrEnum):
    """What the rules punish; the values are a public interface (dashboard, recorders)."""

    ILLEGAL_CAPTURE = "illegal_capture"
    MISSED_CAPTURE = "missed_capture"
    KO_VIOLATION = "ko_violation"
    REPETITION = "repetition"
    SUICIDE = "suicide"
    DOUBLE_MOVE = "double_move"
    RETRACTED_MOVE = "retracted_move"
    DISPLACED_STONE = "displaced_stone"
    BOARD_DISTURBED = "board_disturbed"
    LOSS_BY_WARNINGS = "loss_by_warnings"

    @property
    def article(self) -> str:
        return _ARTICLES[self][0]

    @property
    def warning(self) -> bool:
        """Whether the offender gets a warning (one stone at counting, Art. 24)."""
        return _ARTICLES[self][1]


_ARTICLES: dict[AlertKind, tuple[str, bool]] = {
    AlertKind.ILLEGAL_CAPTURE: ("18.1", True),
    AlertKind.MISSED_CAPTURE: ("18.2", True),
    AlertKind.KO_VIOLATION: ("18.3", True),
    AlertKind.REPETITION: ("20.2", False),
    AlertKind.SUICIDE: ("19", False),
    AlertKind.DOUBLE_MOVE: ("17.2", True),
    AlertKind.RETRACTED_MOVE: ("17.3", True),
    AlertKind.DISPLACED_STONE: ("17.5", False),
    AlertKind.BOARD_DISTURBED: ("17.6", False),
    AlertKind.LOSS_BY_WARNINGS: ("24.2", False),
}
#: The public table: kind -> (article, whether it costs a warning).
ALERT_KINDS: dict[str, tuple[str, bool]] = {kind.value: _ARTICLES[kind] for kind in AlertKind}

#: Why the engine refuses a move -> the void move's alert.
_VOID = {
    "ko": (AlertKind.KO_VIOLATION, "retook the ko with no threat in between"),
    "repetition": (AlertKind.REPETITION, "repeated an earlier whole-board position"),
    "suicide": (AlertKind.SUICIDE, "played on a forbidden point (no liberties)"),
}
#: At most this many new stones in one observation are read as moves played in a row.
MAX_MERGED_MOVES = 4


class AlertError(KifuError):
    """An arbiter's decision about an alert that is not open."""


# -- output --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class MoveEvent:
    """A move entered into the record; a lost turn is a pass with ``lost_turn`` set."""

    number: int
    color: Color
    point: str
    captures: tuple[str, ...]
    t: float
    lost_turn: bool = False

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "type": "move",
            "number": self.number,
            "color": self.color.value,
            "point": self.point,
            "captures": list(self.captures),
            "t": self.t,
        }
        if self.lost_turn:
            data["lost_turn"] = True
        return data


@dataclass(frozen=True, slots=True)
class AlertEvent:
    """Something the rules punish, for the arbiter; ``color`` is the offender."""

    id: str
    kind: AlertKind
    color: Color | None
    points: tuple[str, ...]
    message: str
    t: float

    @property
    def article(self) -> str:
        return self.kind.article

    @property
    def warning(self) -> bool:
        return self.kind.warning

    def to_json(self) -> dict[str, Any]:
        return {
            "type": "alert",
            "id": self.id,
            "kind": self.kind.value,
            "article": self.article,
            "color": None if self.color is None else self.color.value,
            "points": list(self.points),
            "warning": self.warning,
            "message": self.message,
            "t": self.t,
        }


@dataclass(frozen=True, slots=True)
class AlertUpdate:
    """What became of an alert: ``resolved`` (the board was put right), ``dismissed`` or
    ``confirmed`` by the arbiter. A confirmed alert stays open until it is resolved."""

    type: Literal["resolved", "dismissed", "confirmed"]
    alert: str
    kind: AlertKind
    t: float

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, "alert": self.alert, "kind": self.kind.value, "t": self.t}


@dataclass(frozen=True, slots=True)
class EndEvent:
    """The game's result ("B+3.5", "W+R", "B+F" for a loss by warnings).

    While the players take dead stones off over several observations, each count
    that differs from the last is sent again: the last ``end`` is the result.
    """

    result: str
    score: Score | None
    t: float
    dead: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "type": "end",
            "result": self.result,
            "score": None if self.score is None else self.score.as_dict(),
            "dead": list(self.dead),
            "t": self.t,
        }


Event = MoveEvent | AlertEvent | AlertUpdate | EndEvent


@dataclass
class _Open:
    """An open alert and the points whose state on the table it accounts for."""

    event: AlertEvent
    scope: frozenset[Point]
    gave_loss: str | None = None


@dataclass
class _Reading:
    """How the table differs from the expected position, beyond what is accounted for."""

    added: dict[Point, Color] = field(default_factory=dict)
    removed: dict[Point, Color] = field(default_factory=dict)

    def __bool__(self) -> bool:
        return bool(self.added or self.removed)


# -- the referee -----------------------------------------------------------------------


class Referee:
    """Reconciles observations with the game and reports what the rules punish.

    >>> referee = Referee(9)
    >>> board = ["........."] * 4 + ["....X...."] + ["........."] * 4
    >>> [event.to_json()["point"] for event in referee.observe(Observation(1.0, tuple(board)))]
    ['E5']
    """

    def __init__(
        self,
        size: int = 19,
        *,
        rules: Rules | None = None,
        komi: float | None = None,
        handicap: int = 0,
        min_confidence: float = 0.5,
        to_move: Color | None = None,
    ) -> None:
        self.game = Game(size, rules=rules, komi=komi, handicap=handicap, to_move=to_move)
        self.min_confidence = min_confidence
        self.warnings = {Color.BLACK: 0, Color.WHITE: 0}
        self.pending: dict[Point, Color] = {}
        self.leftovers: dict[Point, Color | None] = {}
        self.alerts: dict[str, _Open] = {}
        #: Players who reached two warnings (Art. 24.2), first first, with the alert.
        self.losses: dict[Color, str] = {}
        self.ended: EndEvent | None = None
        self._counting = False
        self._waiting_pass: Declaration | None = None
        self._last: Observation | None = None
        self._seen: Mapping[Point, Color | None] = {}
        self._serial = 0
        self._comments: dict[int, list[str]] = {}

    @property
    def size(self) -> int:
        return self.game.size

    @property
    def handicap(self) -> int:
        return self.game.handicap

    @property
    def open_alerts(self) -> list[AlertEvent]:
        return [entry.event for entry in self.alerts.values()]

    def _gtp(self, points: Iterable[Point]) -> tuple[str, ...]:
        return tuple(p.gtp(self.size) for p in sorted(points))

    # -- input --------------------------------------------------------------------------

    def feed(self, item: Observation | Declaration) -> list[Event]:
        if isinstance(item, Observation):
            return self.observe(item)
        return self.declare(item)

    def declare(self, declaration: Declaration) -> list[Event]:
        """A pass, resignation or agreed end, as declared on the dashboard.

        A pass declared by the player who is not to move is held until that player's
        turn comes: the dashboard is often quicker than the camera's last stone.
        """
        t, color = declaration.t, declaration.color
        if self._counting or (self.ended is not None and self.ended.score is None):
            return []
        if declaration.event == "end":
            self._counting = True
            return []
        assert color is not None
        if declaration.event == "resign":
            self.game.resign(color)
            result = self._forfeit() or f"{color.opponent.value}+R"
            self.ended = EndEvent(result, None, t)
            return [self.ended]
        if color is not self.game.to_move:
            self._waiting_pass = declaration
            return []
        return self._pass(color, t)

    def _pass(self, color: Color, t: float) -> list[Event]:
        self._waiting_pass = None
        self.game.play(Move.pass_(color))
        if self.game.is_over:
            self._counting = True
        return [self._move_event(t)]

    def observe(self, observation: Observation) -> list[Event]:
        """Take one still-board observation; return the events it causes."""
        if observation.size != self.size:
            raise LogError(
                f"observation is {observation.size}x{observation.size}, "
                f"the game is {self.size}x{self.size}"
            )
        last = self._last
        if (self.ended is not None and not self._counting) or (
            last is not None
            and (last.board, last.confidence) == (observation.board, observation.confidence)
        ):
            return []
        self._last = observation
        seen = self._seen = observation.stones(self.min_confidence)
        t = observation.t
        if self._counting:
            return self._count(seen, t)
        board = self.game.board
        for point in [p for p in self.pending if p in seen and seen[p] is None]:
            del self.pending[point]
        for point in [p for p in self.leftovers if p in seen and seen[p] == board[p]]:
            del self.leftovers[point]
        events: list[Event] = []
        reading = self._read(seen)
        if reading:
            events += self._explain(reading, seen, t)
        waiting = self._waiting_pass
        if waiting is not None and waiting.color is self.game.to_move:
            events += self._pass(waiting.color, t)
        events += self._resolve(seen, t)
        return events

    def finish(self, t: float) -> list[Event]:
        """The log has ended: count the game if it is over and not counted yet."""
        if self.ended is None and self._counting:
            return self._count(self._seen, t, final=True)
        return []

    # -- arbiter ------------------------------------------------------------------------

    def dismiss(self, alert_id: str, t: float) -> list[Event]:
        """The arbiter overrules an alert: its warning (or the loss) is withdrawn and
        the board is accepted as seen where that leaves a position the rules allow;
        elsewhere (captures left on, a void stone) the table's state is let stand."""
        entry = self._take(alert_id)
        event = entry.event
        events: list[Event] = [AlertUpdate("dismissed", alert_id, event.kind, t)]
        color = event.color
        if event.kind is AlertKind.LOSS_BY_WARNINGS and color is not None:
            self.losses.pop(color, None)
        elif event.warning and color is not None:
            self.warnings[color] -= 1
            loss = self.losses.pop(color, None) if self.warnings[color] < 2 else None
            if loss is not None and loss in self.alerts:
                del self.alerts[loss]
                events.append(AlertUpdate("dismissed", loss, AlertKind.LOSS_BY_WARNINGS, t))
        board, seen = self.game.board, self._seen
        changes = {p: seen[p] for p in entry.scope if p in seen and seen[p] != board[p]}
        if changes:
            if self._allowed(changes) and event.kind not in (
                AlertKind.MISSED_CAPTURE,
                AlertKind.KO_VIOLATION,
                AlertKind.REPETITION,
                AlertKind.SUICIDE,
            ):
                self.game.edit(changes)
                self.pending = {p: c for p, c in self.pending.items() if p not in changes}
                what = "board accepted as seen"
            else:
                self.leftovers.update(changes)
                what = "table left as it is"
            self._note(f"Arbiter dismissed {event.kind} ({alert_id}): {what}")
        return events

    def confirm(self, alert_id: str, t: float) -> list[Event]:
        """The arbiter upholds the alert; it stays open until the board is put right."""
        if alert_id not in self.alerts:
            raise AlertError(f"no open alert {alert_id!r}")
        entry = self.alerts[alert_id]
        if not entry.scope:
            del self.alerts[alert_id]
        return [AlertUpdate("confirmed", alert_id, entry.event.kind, t)]

    def _take(self, alert_id: str) -> _Open:
        if alert_id not in self.alerts:
            raise AlertError(f"no open alert {alert_id!r}")
        return self.alerts.pop(alert_id)

    def _allowed(self, changes: Mapping[Point, Color | None]) -> bool:
        """Whether the game's position with ``changes`` has a liberty for every chain."""
        board = self.game.board.copy()
        for point, color in changes.items():
            if board[point] is not None:
                board.remove(point)
            if color is not None:
                board.place(color, point)
        return all(liberties for _, _, liberties in board.chains())

    # -- reading the table ----------------------------------------------------------------

    def _read(self, seen: SeenBoard) -> _Reading:
        board = self.game.board
        reading = _Reading()
        tolerated = set(self.pending.items()) | set(self.leftovers.items())
        in_scope: set[Point] = set()
        for entry in self.alerts.values():
            in_scope |= entry.scope
        for point, stone in seen.differences(board.rows()):
            expected = board[point]
            if point in in_scope or (point, stone) in tolerated:
                continue
            if expected is not None:
                reading.removed[point] = expected
            if stone is not None:
                reading.added[point] = stone
        return reading

    def _explain(
        self,
        reading: _Reading,
        seen: SeenBoard,
        t: float,
        *,
        partial: bool = True,
        setup: bool = True,
    ) -> list[Event]:
        """Turn what changed into moves and alerts (``partial``: may read one legal
        move out of a larger change and explain the rest, if that is small;
        ``setup``: may read Black's stones as handicap stones)."""
        added, removed = reading.added, reading.removed
        to_move = self.game.to_move
        if not added:
            return self._removals(removed, seen, t)
        if setup and self._setting_up():
            return self._setup(reading, seen, t)
        if len(added) == 1:
            ((point, color),) = added.items()
            events = self._one_stone(point, color, removed, seen, t)
            if events is not None:
                return events
        else:
            sequence = self._merged_moves(added, removed)
            if sequence is not None:
                return self._play_sequence(sequence, set(removed), seen, t)
        if partial:
            changed = set(added) | set(removed)
            for point, color in added.items():
                move = Move(color, point)
                if color is not to_move or not self.game.is_legal(move):
                    continue
                taken = set(removed) & self._would_capture(move)
                if len(changed - taken - {point}) <= 2:  # e.g. a stone nudged meanwhile
                    events = self._move(point, color, taken, seen, t)
                    rest = self._read(seen)
                    if rest:
                        events += self._explain(rest, seen, t, partial=False, setup=setup)
                    return events
        return self._disturbed(reading, t)

    def _removals(
        self, removed: Mapping[Point, Color], seen: Mapping[Point, Color | None], t: float
    ) -> list[Event]:
        """Stones gone with nothing new: taken off with liberties (Art. 18.1)? Unless a
        stone nobody can see next to them could have captured them."""
        around = {n for p in removed for n in p.neighbours(self.size)}
        if any(n not in seen for n in around):
            return []
        if len(set(removed.values())) != 1:
            return self._disturbed(_Reading({}, dict(removed)), t)
        color = next(iter(removed.values()))
        return self._alert(
            AlertKind.ILLEGAL_CAPTURE,
            color.opponent,
            removed,
            t,
            f"{color.name_text} stones at {', '.join(self._gtp(removed))} were taken off "
            "with liberties left; they must go back",
        )

    def _one_stone(
        self,
        point: Point,
        color: Color,
        removed: Mapping[Point, Color],
        seen: Mapping[Point, Color | None],
        t: float,
    ) -> list[Event] | None:
        """One new stone: a move, or which of Art. 17's mistakes; None if none fits."""
        to_move = self.game.to_move
        own = {p for p, c in removed.items() if c is color}
        theirs = {p for p, c in removed.items() if c is not color}
        where = self._gtp([point])[0]
        if color is to_move and not own:
            return self._move(point, color, theirs, seen, t)
        last = self.game.history[-1] if self.game.history else None
        first = last.move.point if last is not None and last.move.color is color else None
        if color is not to_move and first is not None and own == {first} and not theirs:
            return self._alert(
                AlertKind.RETRACTED_MOVE,
                color,
                {point, first},
                t,
                f"{color.name_text} picked up the stone played at {self._gtp([first])[0]} "
                f"and played at {where}; it goes back to its first point",
            )
        if len(own) == 1 and not theirs:
            (old,) = own
            return self._alert(
                AlertKind.DISPLACED_STONE,
                color,
                {point, old},
                t,
                f"{color.name_text} stone at {self._gtp([old])[0]} was moved to {where}; "
                "it must go back",
            )
        if color is to_move or own:
            return None
        replayed = self._replayed_move(point, color, removed)
        if replayed is not None:
            return self._play_sequence(replayed, set(removed), seen, t)
        if theirs <= self._would_capture(Move(color, point)):
            return self._alert(
                AlertKind.DOUBLE_MOVE,
                color,
                {point} | theirs,
                t,
                f"{color.name_text} played twice in a row at {where}; the second stone is "
                "void" + (" and the stones it took must go back" if theirs else ""),
            )
        return None

    def _replayed_move(
        self, point: Point, color: Color, removed: Mapping[Point, Color]
    ) -> list[Move] | None:
        """The player to move played on a point just captured before the camera saw it
        empty: the stone there looks like a captured one still on. If such a move and
        then ``color``'s stone explain the table, return the two moves."""
        to_move = self.game.to_move
        for spot in sorted(p for p, c in self.pending.items() if c is to_move):
            if spot in self._seen and self._seen[spot] is to_move:
                order = [Move(to_move, spot), Move(color, point)]
                if self._legal_sequence(order, removed):
                    return order
        return None

    def _merged_moves(
        self, added: Mapping[Point, Color], removed: Mapping[Point, Color]
    ) -> list[Move] | None:
        """Several new stones at once (moves seen late): an order of legal moves that
        alternates from the player to move and explains every change, if one exists."""
        if len(added) > MAX_MERGED_MOVES:
            return None
        to_move = self.game.to_move
        mine = [p for p, c in added.items() if c is to_move]
        theirs = [p for p, c in added.items() if c is not to_move]
        if len(mine) - len(theirs) not in (0, 1):
            return None
        for first in itertools.permutations(mine):
            for second in itertools.permutations(theirs):
                order = [p for pair in itertools.zip_longest(first, second) for p in pair if p]
                moves = [Move(added[p], p) for p in order]
                if self._legal_sequence(moves, removed):
                    return moves
        return None

    def _legal_sequence(self, moves: Sequence[Move], removed: Mapping[Point, Color]) -> bool:
        """Whether ``moves`` are legal in turn and capture every removed stone."""
        game = self.game.copy()
        captured: set[Point] = set()
        try:
            for move in moves:
                captured |= game.play(move).captures
        except KifuError:
            return False
        return set(removed) <= captured

    # -- reacting -----------------------------------------------------------------------

    def _play_sequence(
        self,
        moves: Sequence[Move],
        removed: set[Point],
        seen: Mapping[Point, Color | None],
        t: float,
    ) -> list[Event]:
        events: list[Event] = []
        taken_earlier: set[Point] = set()
        for k, move in enumerate(moves):
            assert move.point is not None
            self.pending.pop(move.point, None)
            taken = removed - taken_earlier if k == len(moves) - 1 else set()
            events += self._move(move.point, move.color, taken, seen, t)
            taken_earlier |= self.game.history[-1].captures
        return events

    def _move(
        self,
        point: Point,
        color: Color,
        taken: set[Point],
        seen: Mapping[Point, Color | None],
        t: float,
    ) -> list[Event]:
        """``color`` put a stone on ``point`` and took ``taken`` off."""
        # Stones of the mover's colour still on are owed by the capturer, whose
        # opponent's stone has now appeared (Art. 18.2); unseen ones prove nothing.
        mine = {p: c for p, c in self.pending.items() if c is color}
        owed = {p: c for p, c in mine.items() if p in seen}
        self.leftovers.update({p: c for p, c in mine.items() if p not in seen})
        self.pending = {p: c for p, c in self.pending.items() if c is not color}
        move = Move(color, point)
        error = self.game.why_illegal(move)
        events: list[Event] = []
        if error is None:
            played = self.game.play(move)
            events.append(self._move_event(t))
            victim = color.opponent
            self.pending.update(
                {p: victim for p in played.captures if seen.get(p, victim) is not None}
            )
            wrongly_taken = taken - played.captures
            if wrongly_taken:
                events += self._alert(
                    AlertKind.ILLEGAL_CAPTURE,
                    color,
                    wrongly_taken,
                    t,
                    f"{victim.name_text} stones at {', '.join(self._gtp(wrongly_taken))} "
                    "were taken off with liberties left; they must go back",
                )
        elif error.reason in _VOID:
            kind, what = _VOID[error.reason]
            scope = {point} | taken | self._would_capture(move)
            self.game.lose_turn(color)
            events.append(self._move_event(t))
            where = self._gtp([point])[0]
            self._note(
                f"{color.name_text} {what} at {where}: void, turn lost (Art. {kind.article})"
            )
            events += self._alert(
                kind,
                color,
                scope,
                t,
                f"{color.name_text} {what} at {where}; the move is void and the turn is lost",
            )
        else:
            events += self._disturbed(_Reading({point: color}, {}), t)
        if owed:
            capturer = color.opponent
            events += self._alert(
                AlertKind.MISSED_CAPTURE,
                capturer,
                owed,
                t,
                f"{capturer.name_text} left captured stones on the board at "
                f"{', '.join(self._gtp(owed))} when {color.name_text} played; "
                "the game goes on as if they were taken off",
            )
        return events

    def _would_capture(self, move: Move) -> set[Point]:
        """The stones a move would take off (or its own chain, for a suicide)."""
        assert move.point is not None
        board = self.game.board.copy()
        try:
            return set(board.play(move.color, move.point, allow_suicide=True))
        except KifuError:
            return set()

    def _setting_up(self) -> bool:
        """Before White's first move in a handicap game: Black is placing stones."""
        return self.handicap >= 2 and not self.game.history

    def _setup(self, reading: _Reading, seen: SeenBoard, t: float) -> list[Event]:
        """Black places, moves or takes back handicap stones, up to the handicap; a
        White stone seen at the same time is White's first move."""
        changes: dict[Point, Color | None] = {
            p: None for p, c in reading.removed.items() if c is Color.BLACK
        }
        black = [p for p, c in reading.added.items() if c is Color.BLACK]
        room = self.handicap - self.game.board.count(Color.BLACK) + len(changes)
        changes.update({p: Color.BLACK for p in black[: max(room, 0)]})
        if changes:
            self.game.edit(changes)
        rest = self._read(seen)
        return self._explain(rest, seen, t, setup=False) if rest else []

    def _disturbed(self, reading: _Reading, t: float) -> list[Event]:
        scope = set(reading.removed) | set(reading.added)
        return self._alert(
            AlertKind.BOARD_DISTURBED,
            None,
            scope,
            t,
            f"{len(scope)} points changed at once with no legal reading; restore the "
            "position shown",
        )

    def _alert(
        self,
        kind: AlertKind,
        color: Color | None,
        scope: Iterable[Point],
        t: float,
        message: str,
    ) -> list[Event]:
        self._serial += 1
        points = frozenset(scope)
        event = AlertEvent(f"a{self._serial}", kind, color, self._gtp(points), message, t)
        entry = _Open(event, points)
        self.alerts[event.id] = entry
        self._note(f"{kind} (Art. {event.article}): {message}")
        events: list[Event] = [event]
        if event.warning and color is not None:
            self.warnings[color] += 1
            if self.warnings[color] == 2:
                self._serial += 1
                loss = AlertEvent(
                    f"a{self._serial}",
                    AlertKind.LOSS_BY_WARNINGS,
                    color,
                    (),
                    f"{color.name_text} has a second warning and loses the game",
                    t,
                )
                self.alerts[loss.id] = _Open(loss, frozenset())
                entry.gave_loss = loss.id
                self.losses[color] = loss.id
                self._note(f"{loss.kind} (Art. {loss.article}): {loss.message}")
                events.append(loss)
        return events

    def _resolve(self, seen: Mapping[Point, Color | None], t: float) -> list[Event]:
        board = self.game.board
        events: list[Event] = []
        for alert_id, entry in list(self.alerts.items()):
            if entry.scope and all(p in seen and seen[p] == board[p] for p in entry.scope):
                del self.alerts[alert_id]
                events.append(AlertUpdate("resolved", alert_id, entry.event.kind, t))
        return events

    def _move_event(self, t: float) -> MoveEvent:
        played = self.game.history[-1]
        move = played.move
        return MoveEvent(
            number=len(self.game.history),
            color=move.color,
            point="pass" if move.point is None else move.point.gtp(self.size),
            captures=self._gtp(played.captures),
            t=t,
            lost_turn=played.lost_turn,
        )

    def _note(self, text: str) -> None:
        """A comment for the record, on the latest move (the root before any)."""
        self._comments.setdefault(len(self.game.history), []).append(text)

    # -- the end ------------------------------------------------------------------------

    def _forfeit(self) -> str | None:
        """ "B+F"/"W+F" if a player has lost by warnings (the first to reach two)."""
        if not self.losses:
            return None
        return f"{next(iter(self.losses)).opponent.value}+F"

    def _count(
        self, seen: Mapping[Point, Color | None], t: float, *, final: bool = False
    ) -> list[Event]:
        """Count the position as the players leave it, dead stones off (Art. 8-9).

        Taking dead stones off takes several observations. A count is sent once the
        stones off look like dead stones (each in an area only the opponent
        surrounds), and sent again if that changes; the last one stands. A table
        being cleared or half cleared is no count; at the log's ``final`` end the
        table is counted as it is.
        """
        board = self.game.board
        dead = [p for p, _ in board.stones() if p in seen and seen[p] is None]
        if not final and not _plausibly_dead(board, dead):
            return []
        score = self.game.score(dead=dead, penalties=self.warnings)
        end = EndEvent(self._forfeit() or score.result, score, t, self._gtp(dead))
        if self.ended is not None and (self.ended.result, self.ended.dead) == (
            end.result,
            end.dead,
        ):
            return []
        self.ended = end
        return [end]

    def record(self, headers: Mapping[str, str] | None = None) -> GameRecord:
        """The game as SGF: moves, lost turns and alerts as comments, warnings and result."""
        game = self.game
        notes = []
        for number in range(1, len(game.history) + 1):
            texts = self._comments.get(number, [])
            notes.append(NodeInfo(comment="\n".join(texts) if texts else None))
        info = dict(headers or {})
        info.setdefault("RU", "Chinese" if game.rules == Rules.chinese() else game.rules.text())
        info["GC"] = (
            f"Warnings: Black {self.warnings[Color.BLACK]}, White {self.warnings[Color.WHITE]}"
        )
        if self.ended is not None:
            info["RE"] = self.ended.result
        root = self._comments.get(0)
        # Stones set up before the first move (handicap) belong in the root node.
        setup: dict[Point, Color] = {}
        edits = []
        for after, changes in game.edits:
            if after == 0:
                for p, c in changes.items():
                    if c is None:
                        setup.pop(p, None)
                    else:
                        setup[p] = c
            else:
                edits.append((after, tuple(sorted(changes.items(), key=lambda pc: pc[0]))))
        return GameRecord(
            size=self.size,
            moves=tuple(game.moves),
            setup=tuple(sorted(setup.items())),
            komi=game.komi,
            handicap=self.handicap,
            headers=info,
            root_comment="\n".join(root) if root else None,
            notes=tuple(notes),
            edits=tuple(edits),
        )


def _plausibly_dead(board: Board, dead: Sequence[Point]) -> bool:
    """Whether every stone taken off lies, once they are all off, in an area only its
    opponent surrounds: what dead stones look like, and a cleared board does not."""
    final = board.copy()
    colours = {p: final.remove(p) for p in dead}
    regions = empty_regions(final)
    owned = {Color.BLACK: regions.black, Color.WHITE: regions.white}
    return all(p in owned[colour.opponent] for p, colour in colours.items())


def referee_log(items: Sequence[Observation | Declaration], referee: Referee) -> list[Event]:
    """Feed every item to ``referee`` and return all the events, the end included."""
    events: list[Event] = []
    for item in items:
        events += referee.feed(item)
    if items:
        events += referee.finish(items[-1].t)
    return events
