"""The referee: still-board observations in, moves and arbiter alerts out.

Vision hands the referee one :class:`Observation` each time the board has been
still with no hand over it. The referee reconciles it with the game so far, the
tolerant way: it never raises on a player's mistake, it turns it into an
:class:`AlertEvent` naming the article of the Chinese Weiqi Rules (2002,
chapter 3) that punishes it.

Three pictures of the board are kept apart:

* the *expected* position, :attr:`Referee.game`'s board: the game as the rules
  say it stands, with captures taken off and void moves left out;
* *pending* captures: stones the last move captured that are still on the table.
  Taking them off takes time, so they are no alert until the opponent's next
  stone appears (then Art. 18.2);
* open alerts' *deviations*: where the table differs from the expected position
  because of something already reported. The same discrepancy is never
  reported twice, and an alert is resolved once the table matches again.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from engine.errors import KifuError
from engine.game import Game
from engine.point import Color, Move, Point, check_size
from engine.rules import Rules
from engine.scoring import Score
from engine.sgf import GameRecord, NodeInfo

#: Alert kinds (a public interface): kind -> (article, whether it costs a warning).
ALERT_KINDS: dict[str, tuple[str, bool]] = {
    "illegal_capture": ("18.1", True),
    "missed_capture": ("18.2", True),
    "ko_violation": ("18.3", True),
    "repetition": ("20.2", False),
    "suicide": ("19", False),
    "double_move": ("17.2", True),
    "retracted_move": ("17.3", True),
    "displaced_stone": ("17.5", False),
    "board_disturbed": ("17.6", False),
    "loss_by_warnings": ("24.2", False),
}

_CHARS = {".": None, "X": Color.BLACK, "O": Color.WHITE}
_VOID_REASON = {"ko": "ko_violation", "repetition": "repetition", "suicide": "suicide"}
#: At most this many new stones in one observation are read as moves played in a row.
MAX_MERGED_MOVES = 4


class LogError(KifuError):
    """An observation-log line that cannot be understood."""


# -- input ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Observation:
    """What vision saw on a still board: rows of '.', 'X', 'O', and how sure it is."""

    t: float
    board: tuple[str, ...]
    confidence: tuple[tuple[float, ...], ...] | None = None

    @property
    def size(self) -> int:
        return len(self.board)

    def stones(self, min_confidence: float) -> SeenBoard:
        """What is on each point vision is sure enough of (a lazy mapping)."""
        return SeenBoard(self, min_confidence)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"t": self.t, "board": list(self.board)}
        if self.confidence is not None:
            data["confidence"] = [list(row) for row in self.confidence]
        return data


class SeenBoard(Mapping[Point, Color | None]):
    """An observation as ``{point: colour or None}``, holding only the known points.

    Lazy: the referee asks about a handful of points per observation, and finds
    what changed by comparing row strings, so nothing is done for the other 350.
    """

    __slots__ = ("_confidence", "_min", "_rows")

    def __init__(self, observation: Observation, min_confidence: float) -> None:
        self._rows = observation.board
        self._confidence = observation.confidence
        self._min = min_confidence

    def _known(self, row: int, col: int) -> bool:
        return self._confidence is None or self._confidence[row][col] >= self._min

    def __contains__(self, point: object) -> bool:
        if not isinstance(point, tuple) or len(point) != 2:
            return False
        row, col = point
        size = len(self._rows)
        return 0 <= row < size and 0 <= col < size and self._known(row, col)

    def __getitem__(self, point: Point) -> Color | None:
        if point not in self:
            raise KeyError(point)
        return _CHARS[self._rows[point[0]][point[1]]]

    def __iter__(self) -> Iterator[Point]:
        size = len(self._rows)
        return (Point(r, c) for r in range(size) for c in range(size) if self._known(r, c))

    def __len__(self) -> int:
        return sum(1 for _ in self)

    def differences(self, expected: Sequence[str]) -> Iterator[tuple[Point, Color | None]]:
        """Known points whose content differs from ``expected`` rows."""
        for r, (row, want) in enumerate(zip(self._rows, expected, strict=True)):
            if row != want:
                for c, (char, other) in enumerate(zip(row, want, strict=True)):
                    if char != other and self._known(r, c):
                        yield Point(r, c), _CHARS[char]


@dataclass(frozen=True, slots=True)
class Declaration:
    """Something said rather than seen: a pass, a resignation, or the agreed end."""

    t: float
    event: Literal["pass", "resign", "end"]
    color: Color | None = None

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"t": self.t, "event": self.event}
        if self.color is not None:
            data["color"] = self.color.value
        return data


def parse_line(line: str, *, size: int | None = None) -> Observation | Declaration:
    """Read one observation-log line (JSON); raise LogError saying what is wrong."""
    try:
        data = json.loads(line)
    except json.JSONDecodeError as error:
        raise LogError(f"not JSON ({error.msg} at column {error.colno})") from None
    if not isinstance(data, dict):
        raise LogError(f"expected a JSON object, got {line.strip()[:40]!r}")
    t = data.get("t")
    if isinstance(t, bool) or not isinstance(t, int | float) or t < 0:
        raise LogError(f"'t' must be seconds from the start, got {t!r}")
    if "event" in data:
        event = data["event"]
        if event not in ("pass", "resign", "end"):
            raise LogError(f"unknown event {event!r} (pass, resign or end)")
        color = data.get("color")
        if event != "end" and color not in ("B", "W"):
            raise LogError(f"{event!r} needs 'color' 'B' or 'W', got {color!r}")
        return Declaration(float(t), event, Color(color) if color in ("B", "W") else None)
    rows = data.get("board")
    if not isinstance(rows, list) or not all(isinstance(row, str) for row in rows):
        raise LogError("expected 'board': a list of row strings, or an 'event'")
    try:
        check_size(len(rows))
    except KifuError:
        raise LogError(f"board has {len(rows)} rows; sizes 5-25 are supported") from None
    if size is not None and len(rows) != size:
        raise LogError(f"board has {len(rows)} rows, the game is {size}x{size}")
    for r, row in enumerate(rows):
        if len(row) != len(rows) or set(row) - set(_CHARS):
            raise LogError(f"board row {r} is {row!r}: need {len(rows)} of '.', 'X', 'O'")
    confidence = data.get("confidence")
    conf: tuple[tuple[float, ...], ...] | None = None
    if confidence is not None:
        try:
            conf = tuple(tuple(float(v) for v in row) for row in confidence)
        except (TypeError, ValueError):
            raise LogError("'confidence' must be rows of numbers") from None
        if len(conf) != len(rows) or any(len(row) != len(rows) for row in conf):
            raise LogError(f"'confidence' must be {len(rows)} rows of {len(rows)} numbers")
    return Observation(float(t), tuple(rows), conf)


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
    """Something the rules punish, for the arbiter."""

    id: str
    kind: str
    color: Color | None
    points: tuple[str, ...]
    message: str
    t: float

    @property
    def article(self) -> str:
        return ALERT_KINDS[self.kind][0]

    @property
    def warning(self) -> bool:
        return ALERT_KINDS[self.kind][1]

    def to_json(self) -> dict[str, Any]:
        return {
            "type": "alert",
            "id": self.id,
            "kind": self.kind,
            "article": self.article,
            "color": None if self.color is None else self.color.value,
            "points": list(self.points),
            "warning": self.warning,
            "message": self.message,
            "t": self.t,
        }


@dataclass(frozen=True, slots=True)
class AlertClosed:
    """An alert closed: ``resolved`` (the board was put right), ``dismissed`` or ``confirmed``."""

    type: Literal["resolved", "dismissed", "confirmed"]
    alert: str
    kind: str
    t: float

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, "alert": self.alert, "kind": self.kind, "t": self.t}


@dataclass(frozen=True, slots=True)
class EndEvent:
    """The game's end and its result ("B+3.5", "W+R", "B+F" for loss by warnings)."""

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


Event = MoveEvent | AlertEvent | AlertClosed | EndEvent


@dataclass
class _Open:
    """An open alert and the points whose state on the table it accounts for."""

    event: AlertEvent
    scope: frozenset[Point]
    confirmed: bool = False
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
    >>> rows = ["........."] * 9
    >>> [e.to_json()["point"] for e in referee.observe(Observation(1.0, tuple(rows[:4]
    ...     + ["....X...."] + rows[5:])))]
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
        self.handicap = handicap
        self.min_confidence = min_confidence
        self.warnings = {Color.BLACK: 0, Color.WHITE: 0}
        self.pending: dict[Point, Color] = {}
        #: Captured stones still on the table that raise nothing more: their missed
        #: capture was dismissed, or nobody could see them when it would have counted.
        self.leftovers: dict[Point, Color] = {}
        self.alerts: dict[str, _Open] = {}
        self.ended: EndEvent | None = None
        self._counting = False
        self._last: Observation | None = None
        self._seen: Mapping[Point, Color | None] = {}
        self._serial = 0
        self._comments: dict[int, list[str]] = {}
        #: Players who reached two warnings (Art. 24.2), first first.
        self.losses: list[Color] = []

    @property
    def size(self) -> int:
        return self.game.size

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
        """A pass, resignation or agreed end, as declared on the dashboard."""
        t, color = declaration.t, declaration.color
        if self.ended is not None or self._counting:
            return []
        if declaration.event == "end":
            self._counting = True
            return []
        assert color is not None
        if declaration.event == "resign":
            self.game.resign(color)
            self.ended = EndEvent(f"{color.opponent.value}+R", None, t)
            return [self.ended]
        if color is not self.game.to_move:
            raise LogError(
                f"{color.name_text} passes, but it is {self.game.to_move.name_text}'s turn"
            )
        self.game.play(Move.pass_(color))
        events: list[Event] = [self._move_event(t)]
        if self.game.is_over:
            self._counting = True
        return events

    def observe(self, observation: Observation) -> list[Event]:
        """Take one still-board observation; return the events it causes."""
        if observation.size != self.size:
            raise LogError(
                f"observation is {observation.size}x{observation.size}, "
                f"the game is {self.size}x{self.size}"
            )
        last = self._last
        if self.ended is not None or (
            last is not None
            and (last.board, last.confidence) == (observation.board, observation.confidence)
        ):
            return []
        self._last = observation
        seen = self._seen = observation.stones(self.min_confidence)
        t = observation.t
        if self._counting:
            return self._count(seen, t)
        events: list[Event] = []
        for captured in (self.pending, self.leftovers):
            for point in [p for p in captured if seen.get(p, captured[p]) is None]:
                del captured[point]
        reading = self._read(seen)
        if reading:
            events += self._explain(reading, seen, t)
        events += self._resolve(seen, t)
        return events

    def finish(self, t: float) -> list[Event]:
        """The log has ended: count the game if it was over and not yet counted."""
        if self.ended is None and self._counting:
            return self._count({}, t)
        return []

    # -- arbiter ------------------------------------------------------------------------

    def dismiss(self, alert_id: str, t: float) -> list[Event]:
        """The arbiter accepts the board as seen: the alert and its warning are withdrawn."""
        entry = self._take(alert_id)
        event = entry.event
        events: list[Event] = [AlertClosed("dismissed", alert_id, event.kind, t)]
        if event.warning and event.color is not None:
            self.warnings[event.color] -= 1
            if entry.gave_loss in self.alerts:
                loss = self.alerts.pop(entry.gave_loss)
                self.losses.remove(event.color)
                events.append(AlertClosed("dismissed", loss.event.id, loss.event.kind, t))
        board, seen = self.game.board, self._seen
        changes = {p: seen[p] for p in entry.scope if p in seen and seen[p] != board[p]}
        if event.kind == "missed_capture":
            self.leftovers.update({p: c for p, c in changes.items() if c is not None})
            self._note(f"Arbiter dismissed {event.kind} ({alert_id}): warning withdrawn")
        elif changes:
            self.game.edit(changes)
            self.pending = {p: c for p, c in self.pending.items() if p not in changes}
            self._note(f"Arbiter dismissed {event.kind} ({alert_id}): board accepted as seen")
        return events

    def confirm(self, alert_id: str, t: float) -> list[Event]:
        """The arbiter upholds the alert; it stays open until the board is put right."""
        if alert_id not in self.alerts:
            raise KifuError(f"no open alert {alert_id!r}")
        entry = self.alerts[alert_id]
        entry.confirmed = True
        if not entry.scope:
            del self.alerts[alert_id]
        return [AlertClosed("confirmed", alert_id, entry.event.kind, t)]

    def _take(self, alert_id: str) -> _Open:
        if alert_id not in self.alerts:
            raise KifuError(f"no open alert {alert_id!r}")
        return self.alerts.pop(alert_id)

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
        self, reading: _Reading, seen: Mapping[Point, Color | None], t: float
    ) -> list[Event]:
        added, removed = reading.added, reading.removed
        to_move = self.game.to_move
        if not added:
            if len(set(removed.values())) == 1:
                color = next(iter(removed.values()))
                return self._alert(
                    "illegal_capture",
                    color.opponent,
                    removed,
                    t,
                    f"{color.name_text} stones at {', '.join(self._gtp(removed))} were taken "
                    "off with liberties left; they must go back",
                )
            return self._disturbed(reading, t)
        if self._is_setup(added, removed):
            self.game.edit(dict(added))
            return []
        if len(added) == 1:
            ((point, color),) = added.items()
            own = {p for p, c in removed.items() if c is color}
            theirs = {p for p, c in removed.items() if c is not color}
            last = self.game.history[-1] if self.game.history else None
            if color is to_move and not own:
                return self._move(point, color, theirs, seen, t)
            first = last.move.point if last is not None and last.move.color is color else None
            if color is not to_move and first is not None and own == {first} and not theirs:
                return self._alert(
                    "retracted_move",
                    color,
                    {point, first},
                    t,
                    f"{color.name_text} picked up the stone played at {self._gtp([first])[0]} "
                    f"and played at {self._gtp([point])[0]}; it goes back to its first point",
                )
            if len(own) == 1 and not theirs:
                (old,) = own
                return self._alert(
                    "displaced_stone",
                    color,
                    {point, old},
                    t,
                    f"{color.name_text} stone at {self._gtp([old])[0]} was moved to "
                    f"{self._gtp([point])[0]}; it must go back",
                )
            if color is not to_move and not removed:
                return self._alert(
                    "double_move",
                    color,
                    {point},
                    t,
                    f"{color.name_text} played twice in a row at {self._gtp([point])[0]}; "
                    "the second stone is void",
                )
            return self._disturbed(reading, t)
        sequence = self._merged_moves(added, removed)
        if sequence is None:
            return self._disturbed(reading, t)
        events: list[Event] = []
        taken_earlier: set[Point] = set()
        for k, move in enumerate(sequence):
            assert move.point is not None
            last_move = k == len(sequence) - 1
            taken = set(removed) - taken_earlier if last_move else set()
            events += self._move(move.point, move.color, taken, seen, t)
            taken_earlier |= self.game.history[-1].captures
        return events

    def _is_setup(self, added: Mapping[Point, Color], removed: Mapping[Point, Color]) -> bool:
        """Handicap stones being put down before White's first move."""
        board = self.game.board
        return (
            self.handicap >= 2
            and not self.game.history
            and not removed
            and all(c is Color.BLACK for c in added.values())
            and board.count(Color.BLACK) + len(added) <= self.handicap
        )

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
                game = self.game.copy()
                captured: set[Point] = set()
                try:
                    for p in order:
                        captured |= game.play(Move(added[p], p)).captures
                except KifuError:
                    continue
                if set(removed) <= captured:
                    return [Move(added[p], p) for p in order]
        return None

    # -- reacting -----------------------------------------------------------------------

    def _move(
        self,
        point: Point,
        color: Color,
        taken: set[Point],
        seen: Mapping[Point, Color | None],
        t: float,
    ) -> list[Event]:
        """``color`` put a stone on ``point`` and took ``taken`` off."""
        events: list[Event] = []
        # Stones of the mover's colour still on are owed by the capturer, whose
        # opponent's stone has now appeared (Art. 18.2); unseen ones prove nothing.
        mine = {p: c for p, c in self.pending.items() if c is color}
        owed = {p: c for p, c in mine.items() if p in seen}
        self.leftovers.update({p: c for p, c in mine.items() if p not in seen})
        self.pending = {p: c for p, c in self.pending.items() if c is not color}
        if owed:
            capturer = color.opponent
            events += self._alert(
                "missed_capture",
                capturer,
                owed,
                t,
                f"{capturer.name_text} left captured stones on the board at "
                f"{', '.join(self._gtp(owed))} when {color.name_text} played; "
                "the game goes on as if they were taken off",
            )
        move = Move(color, point)
        error = self.game.why_illegal(move)
        if error is not None:
            kind = _VOID_REASON.get(error.reason)
            if kind is None:
                return events + self._disturbed(_Reading({point: color}, {}), t)
            scope = {point} | taken | self._would_capture(move)
            self.game.lose_turn(color)
            what = {
                "ko_violation": "retook the ko with no threat in between",
                "repetition": "repeated an earlier whole-board position",
                "suicide": "played on a forbidden point (no liberties)",
            }[kind]
            events.append(self._move_event(t))
            self._note(
                f"{color.name_text} {what} at {self._gtp([point])[0]}: "
                f"void, turn lost (Art. {ALERT_KINDS[kind][0]})"
            )
            return events + self._alert(
                kind,
                color,
                scope,
                t,
                f"{color.name_text} {what} at {self._gtp([point])[0]}; the move is void and "
                "the turn is lost",
            )
        played = self.game.play(move)
        events.insert(0, self._move_event(t))
        wrongly_taken = taken - played.captures
        if wrongly_taken:
            victim = color.opponent
            events += self._alert(
                "illegal_capture",
                color,
                wrongly_taken,
                t,
                f"{victim.name_text} stones at {', '.join(self._gtp(wrongly_taken))} were "
                "taken off with liberties left; they must go back",
            )
        victim = color.opponent
        self.pending.update({p: victim for p in played.captures if seen.get(p, victim) is not None})
        return events

    def _would_capture(self, move: Move) -> set[Point]:
        """The stones a (void) move would have taken off, had it been allowed."""
        assert move.point is not None
        board = self.game.board.copy()
        try:
            return set(board.play(move.color, move.point, allow_suicide=True))
        except KifuError:
            return set()

    def _disturbed(self, reading: _Reading, t: float) -> list[Event]:
        scope = set(reading.removed) | set(reading.added)
        return self._alert(
            "board_disturbed",
            None,
            scope,
            t,
            f"{len(scope)} points changed at once with no legal reading; restore the "
            "position shown",
        )

    def _alert(
        self,
        kind: str,
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
                    "loss_by_warnings",
                    color,
                    (),
                    f"{color.name_text} has a second warning and loses the game",
                    t,
                )
                self.alerts[loss.id] = _Open(loss, frozenset())
                entry.gave_loss = loss.id
                self.losses.append(color)
                self._note(f"loss_by_warnings (Art. 24.2): {loss.message}")
                events.append(loss)
        return events

    def _resolve(self, seen: Mapping[Point, Color | None], t: float) -> list[Event]:
        board = self.game.board
        events: list[Event] = []
        for alert_id, entry in list(self.alerts.items()):
            if entry.scope and all(p in seen and seen[p] == board[p] for p in entry.scope):
                del self.alerts[alert_id]
                events.append(AlertClosed("resolved", alert_id, entry.event.kind, t))
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
        self._comments.setdefault(len(self.game.history), []).append(text)

    # -- the end ------------------------------------------------------------------------

    def _count(self, seen: Mapping[Point, Color | None], t: float) -> list[Event]:
        """Count the position as the players left it, dead stones taken off (Art. 8-9)."""
        board = self.game.board
        dead = [p for p, stone in board.stones() if p in seen and seen[p] is None]
        score = self.game.score(dead=dead, penalties=self.warnings)
        result = score.result
        if self.losses:
            result = f"{self.losses[0].opponent.value}+F"
        self.ended = EndEvent(result, score, t, self._gtp(dead))
        return [self.ended]

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
            if after == 0 and all(color is not None for color in changes.values()):
                setup.update({p: c for p, c in changes.items() if c is not None})
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


def referee_log(items: Sequence[Observation | Declaration], referee: Referee) -> list[Event]:
    """Feed every item to ``referee`` and return all the events, the end included."""
    events: list[Event] = []
    for item in items:
        events += referee.feed(item)
    if items:
        events += referee.finish(items[-1].t)
    return events
