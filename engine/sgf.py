"""Game records in SGF (FF[4]), read and written through sgfmill.

The engine gets bytes and a name to quote in errors; it opens no files itself.
sgfmill counts rows from the bottom; this module is the one place that converts
to Kifu's top-left ``Point``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from sgfmill import sgf

from engine.errors import IllegalMoveError, SgfError
from engine.game import Game
from engine.point import MAX_SIZE, MIN_SIZE, Color, Move, Point
from engine.rules import Rules

#: Root properties kept as game information (tournament headers).
HEADERS = (
    "PB",
    "PW",
    "BR",
    "WR",
    "EV",
    "RO",
    "DT",
    "PC",
    "RU",
    "RE",
    "TM",
    "OT",
    "GN",
    "GC",
    "SO",
)
_COLOUR = {"b": Color.BLACK, "w": Color.WHITE}


@dataclass(frozen=True, slots=True)
class NodeInfo:
    """What a move's node says besides the move: a comment and time left."""

    comment: str | None = None
    time_left: float | None = None


@dataclass(frozen=True)
class GameRecord:
    """A game's main line: headers, setup stones, moves and per-move notes."""

    size: int = 19
    moves: tuple[Move, ...] = ()
    setup: tuple[tuple[Point, Color], ...] = ()
    komi: float | None = None
    handicap: int = 0
    headers: Mapping[str, str] = field(default_factory=dict)
    root_comment: str | None = None
    notes: tuple[NodeInfo, ...] = ()
    #: Stones changed by decision during the game (AB/AW/AE in a node of their own),
    #: each with the number of moves played before it.
    edits: tuple[tuple[int, tuple[tuple[Point, Color | None], ...]], ...] = ()
    #: Problems found in the headers that do not touch the moves (e.g. "HA[7.5]").
    warnings: tuple[str, ...] = ()

    def new_game(self, rules: Rules | None = None) -> Game:
        """A game at the record's start position (setup stones placed)."""
        return Game(
            self.size,
            rules=rules,
            komi=self.komi,
            handicap=self.handicap,
            setup=self.setup,
            to_move=self.moves[0].color if self.moves else None,
        )

    def replay(
        self, rules: Rules | None = None
    ) -> tuple[Game, int | None, IllegalMoveError | None]:
        """Play the moves under ``rules``; stop at the first illegal one.

        Returns the game, the 1-based number of the illegal move (or None) and its
        error. A record's moves need not alternate (a player may pass by omission),
        so turn order follows the record.
        """
        game = self.new_game(rules)
        edits = list(self.edits)
        for number, move in enumerate(self.moves, start=1):
            while edits and edits[0][0] < number:
                game.edit(dict(edits.pop(0)[1]))
            if game.is_over and game.resigned is None:
                game.resume()  # the record goes on after two passes (or a lost turn and a pass)
            if move.color is not game.to_move:
                game.to_move = move.color
            try:
                game.play(move)
            except IllegalMoveError as error:
                return game, number, error
        for _, changes in edits:
            game.edit(dict(changes))
        return game, None, None


def _one_line(text: str) -> str:
    """``text`` with line breaks and other control characters escaped: errors are one line."""
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


def _text(node: sgf.Tree_node, ident: str) -> str | None:
    """A text property, or None; a badly encoded or repeated value is kept, not fatal.

    A header sgfmill reads as a number (TM) is kept as written: "10800", not "10800.0".
    """
    if not node.has_property(ident):
        return None
    try:
        value = node.get(ident)
        if isinstance(value, str):
            return value
        return str(node.get_raw(ident).decode("utf-8", errors="replace"))
    except ValueError:  # bytes not in the declared charset, or a list where text belongs
        values: list[bytes] = node.get_raw_list(ident)
        return ", ".join(v.decode("utf-8", errors="replace") for v in values)


def _header_number(
    node: sgf.Tree_node, ident: str, kind: type[int] | type[float], warnings: list[str]
) -> float | None:
    """A numeric header; a malformed one is ignored with a warning, as it touches no move."""
    if not node.has_property(ident):
        return None
    raw = node.get_raw(ident)
    try:
        return kind(raw.decode("ascii").strip())
    except (UnicodeDecodeError, ValueError):
        warnings.append(f"{ident}[{raw.decode('utf-8', errors='replace')}] is malformed; ignored")
        return None


def read_sgf(data: bytes, *, name: str = "<sgf>") -> GameRecord:
    """Read the main line of an SGF record; raise SgfError naming ``name`` and the move."""
    try:
        game = sgf.Sgf_game.from_bytes(data)
    except ValueError as error:
        raise SgfError(f"{name}: not a readable SGF record ({_one_line(str(error))})") from None
    size = game.get_size()
    if not MIN_SIZE <= size <= MAX_SIZE:
        raise SgfError(f"{name}: board size {size} not supported ({MIN_SIZE}-{MAX_SIZE})")
    root = game.get_root()

    def point(rc: tuple[int, int]) -> Point:
        return Point(size - 1 - rc[0], rc[1])

    warnings: list[str] = []
    try:
        black, white, _ = root.get_setup_stones()
    except ValueError as error:
        raise SgfError(f"{name}: bad setup stones ({_one_line(str(error))})") from None
    if black & white:
        where = ", ".join(sorted(point(p).sgf() for p in black & white))
        raise SgfError(f"{name}: setup stones of both colours on {where}")
    komi = _header_number(root, "KM", float, warnings)
    if komi is not None and not abs(komi) <= size * size:  # also catches nan
        warnings.append(f"KM[{komi:g}] is more than the board holds; ignored")
        komi = None
    handicap = int(_header_number(root, "HA", int, warnings) or 0)
    if not 0 <= handicap <= size * size:
        warnings.append(f"HA[{handicap}] is not a number of stones on this board; ignored")
        handicap = 0
    setup = tuple(sorted((point(p), Color.BLACK) for p in black)) + tuple(
        sorted((point(p), Color.WHITE) for p in white)
    )
    headers = {ident: text for ident in HEADERS if (text := _text(root, ident)) is not None}
    moves: list[Move] = []
    notes: list[NodeInfo] = []
    edits: list[tuple[int, tuple[tuple[Point, Color | None], ...]]] = []
    for node in game.get_main_sequence():  # the root too: a first move may sit there
        number = len(moves) + 1
        if node is not root and node.has_setup_stones():
            try:
                add_black, add_white, clear = node.get_setup_stones()
            except ValueError as error:
                raise SgfError(
                    f"{name}: before move {number}: bad setup ({_one_line(str(error))})"
                ) from None
            changes: list[tuple[Point, Color | None]] = [(point(p), None) for p in clear]
            changes += [(point(p), Color.BLACK) for p in add_black]
            changes += [(point(p), Color.WHITE) for p in add_white]
            edits.append((len(moves), tuple(sorted(changes, key=lambda pc: pc[0]))))
        try:
            colour, rc = node.get_move()
        except ValueError:
            ident = "B" if node.has_property("B") else "W"
            raw = _one_line(node.get_raw(ident).decode("utf-8", errors="replace"))
            raise SgfError(
                f"{name}: move {number}: {ident}[{raw}] is not a point on a {size}x{size} board"
            ) from None
        if colour is None:
            continue
        color = _COLOUR[colour]
        moves.append(Move(color, None if rc is None else point(rc)))
        time_ident = "BL" if color is Color.BLACK else "WL"
        try:
            time_left = float(node.get(time_ident)) if node.has_property(time_ident) else None
        except ValueError:  # the time left touches no move: note it, keep the record
            warnings.append(f"move {number}: {time_ident} value is malformed; ignored")
            time_left = None
        notes.append(NodeInfo(comment=_text(node, "C"), time_left=time_left))
    return GameRecord(
        size=size,
        moves=tuple(moves),
        setup=setup,
        komi=komi,
        handicap=handicap,
        headers=headers,
        root_comment=_text(root, "C"),
        notes=tuple(notes),
        edits=tuple(edits),
        warnings=tuple(warnings),
    )


def write_sgf(record: GameRecord) -> bytes:
    """Serialise ``record`` as an FF[4] SGF file that sgfmill (and others) read back."""
    size = record.size
    game = sgf.Sgf_game(size)
    root = game.get_root()
    root.set("CA", "UTF-8")
    root.set("AP", ("Kifu", "0.1.0"))
    if record.komi is not None:
        root.set("KM", record.komi)
    if record.handicap:
        root.set("HA", record.handicap)
    for ident, value in record.headers.items():
        root.set(ident, value)
    if record.root_comment:
        root.set("C", record.root_comment)

    def rc(p: Point) -> tuple[int, int]:
        return (size - 1 - p.row, p.col)

    if record.setup:
        root.set_setup_stones(
            [rc(p) for p, c in record.setup if c is Color.BLACK],
            [rc(p) for p, c in record.setup if c is Color.WHITE],
        )
    edits = list(record.edits)
    for k, move in enumerate(record.moves):
        while edits and edits[0][0] <= k:
            _setup_node(game.extend_main_sequence(), edits.pop(0)[1], rc)
        node = game.extend_main_sequence()
        node.set_move(move.color.value.lower(), None if move.point is None else rc(move.point))
        note = record.notes[k] if k < len(record.notes) else NodeInfo()
        if note.time_left is not None:
            node.set("BL" if move.color is Color.BLACK else "WL", note.time_left)
        if note.comment:
            node.set("C", note.comment)
    for _, changes in edits:
        _setup_node(game.extend_main_sequence(), changes, rc)
    data: bytes = game.serialise()
    return data


def _setup_node(
    node: sgf.Tree_node,
    changes: tuple[tuple[Point, Color | None], ...],
    rc: Callable[[Point], tuple[int, int]],
) -> None:
    node.set_setup_stones(
        [rc(p) for p, c in changes if c is Color.BLACK],
        [rc(p) for p, c in changes if c is Color.WHITE],
        [rc(p) for p, c in changes if c is None],
    )
