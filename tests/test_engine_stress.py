"""Seeded stress test: random moves, the invariant checker after each, and a reference.

The reference below is Go written as plainly as possible (a dict of stones, flood
fills, a set of every position seen) and shares no code with ``engine``. Each
random action (a move on an empty or occupied point, off the board, a pass, a
move out of turn, an undo) goes to both; they must agree on whether it is legal,
why not, and on the whole position after it.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

import pytest

from engine import Color, Game, IllegalMoveError, KoRule, Move, Point, Rules

Stones = dict[tuple[int, int], str]


@dataclass
class State:
    stones: Stones = field(default_factory=dict)
    to_move: str = "B"
    captures: dict[str, int] = field(default_factory=lambda: {"B": 0, "W": 0})
    ko: tuple[int, int] | None = None
    passes: int = 0
    #: What the last move captured; retaking there tries kos and snapbacks.
    taken: frozenset[tuple[int, int]] = frozenset()


class Reference:
    """Plain Go: captures, suicide, simple ko and superko, passes, undo."""

    def __init__(self, size: int, rules: Rules) -> None:
        self.size = size
        self.rules = rules
        self.state = State()
        self.seen = {self.key(self.state): 1}
        self.past: list[State] = []
        cells = [(r, c) for r in range(size) for c in range(size)]
        self.adjacent = {p: self.neighbours(p) for p in cells}

    def key(self, state: State) -> object:
        position = frozenset(state.stones.items())
        if self.rules.ko is KoRule.SITUATIONAL:
            return (position, state.to_move)
        return position

    def on_board(self, p: tuple[int, int]) -> bool:
        return 0 <= p[0] < self.size and 0 <= p[1] < self.size

    def neighbours(self, p: tuple[int, int]) -> list[tuple[int, int]]:
        r, c = p
        return [n for n in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)) if self.on_board(n)]

    def group(self, stones: Stones, p: tuple[int, int]) -> tuple[set[tuple[int, int]], int]:
        color = stones[p]
        chain, todo, libs = {p}, [p], set()
        while todo:
            for n in self.adjacent[todo.pop()]:
                if n not in stones:
                    libs.add(n)
                elif stones[n] == color and n not in chain:
                    chain.add(n)
                    todo.append(n)
        return chain, len(libs)

    def attempt(self, color: str, p: tuple[int, int] | None) -> tuple[str | None, State]:
        """Why the move is illegal (or None) and the state after it."""
        old = self.state
        if old.passes >= 2:
            return "game over", old
        if color != old.to_move:
            return "wrong turn", old
        other = "W" if color == "B" else "B"
        if p is None:
            new = State(dict(old.stones), other, dict(old.captures), None, old.passes + 1)
            return None, new
        if not self.on_board(p):
            return "off board", old
        if p == old.ko:
            return "ko", old
        if p in old.stones:
            return "occupied", old
        stones = dict(old.stones)
        stones[p] = color
        captures = dict(old.captures)
        taken: set[tuple[int, int]] = set()
        for n in self.adjacent[p]:
            if stones.get(n) == other:
                chain, libs = self.group(stones, n)
                if libs == 0:
                    taken |= chain
        for q in taken:
            del stones[q]
        captures[color] += len(taken)
        chain, libs = self.group(stones, p)
        if libs == 0:
            if not self.rules.suicide:
                return "suicide", old
            for q in chain:
                del stones[q]
            captures[other] += len(chain)
        ko = None
        if len(taken) == 1 and len(chain) == 1 and libs == 1:
            ko = next(iter(taken))
        new = State(stones, other, captures, ko, 0, frozenset(taken))
        if self.rules.ko is not KoRule.SIMPLE and self.key(new) in self.seen:
            return "repetition", old
        return None, new

    def play(self, color: str, p: tuple[int, int] | None) -> str | None:
        why, new = self.attempt(color, p)
        if why is None:
            self.past.append(self.state)
            self.state = new
            self.seen[self.key(new)] = self.seen.get(self.key(new), 0) + 1
        return why

    def undo(self) -> None:
        key = self.key(self.state)
        self.seen[key] -= 1
        if not self.seen[key]:
            del self.seen[key]
        self.state = self.past.pop()

    def rows(self) -> list[str]:
        grid = [["."] * self.size for _ in range(self.size)]
        for (r, c), color in self.state.stones.items():
            grid[r][c] = "X" if color == "B" else "O"
        return ["".join(row) for row in grid]

    def legal_points(self) -> set[tuple[int, int]]:
        color = self.state.to_move
        cells = [(r, c) for r in range(self.size) for c in range(self.size)]
        return {p for p in cells if self.attempt(color, p)[0] is None}


def random_action(
    rng: random.Random, reference: Reference
) -> tuple[str, tuple[int, int] | None] | None:
    """A random move (colour, point or None for a pass), or None to take one back."""
    size = reference.size
    color = reference.state.to_move
    roll = rng.random()
    if roll < 0.03 and reference.past:
        return None
    if roll < 0.06:
        return color, None
    if roll < 0.08:
        return ("W" if color == "B" else "B"), (rng.randrange(size), rng.randrange(size))
    if roll < 0.12:
        return color, (rng.randrange(-2, size + 2), rng.choice((-1, size, rng.randrange(size))))
    if roll < 0.22 and len(reference.state.taken) == 1:
        return color, next(iter(reference.state.taken))
    if roll < 0.30:
        return color, (rng.randrange(size), rng.randrange(size))
    empty = [
        (r, c) for r in range(size) for c in range(size) if (r, c) not in reference.state.stones
    ]
    return color, rng.choice(empty) if empty else None


def run(size: int, rules: Rules, moves: int, seed: int, *, legal_every: int) -> dict[str, int]:
    """Play ``moves`` random actions; return how often each outcome happened."""
    rng = random.Random(seed)
    outcomes: dict[str, int] = {}
    game, reference = Game(size, rules=rules), Reference(size, rules)
    outcome = ""
    for step in range(moves):
        if outcome == "game over" or len(reference.past) > 2 * size * size:
            game, reference = Game(size, rules=rules), Reference(size, rules)
        action = random_action(rng, reference)
        if action is None:
            reference.undo()
            game.undo()
            outcome = "undo"
        else:
            color, point = action
            move = Move(Color(color), None if point is None else Point(*point))
            expected = reference.play(color, point)
            try:
                played = game.play(move)
            except IllegalMoveError as error:
                assert error.reason == expected, (step, move, str(error))
                outcome = error.reason
            else:
                assert expected is None, (step, move, expected)
                outcome = "capture" if played.captures else "pass" if point is None else "play"
        outcomes[outcome] = outcomes.get(outcome, 0) + 1
        game.board.check_consistency()
        assert game.board.rows() == reference.rows(), step
        assert game.to_move.value == reference.state.to_move
        assert {c.value: n for c, n in game.captures.items()} == reference.state.captures
        assert game.is_over == (reference.state.passes >= 2)
        if step % legal_every == 0:
            legal = {m.point for m in game.legal_moves() if m.point is not None}
            assert legal == reference.legal_points(), step
    return outcomes


@pytest.mark.parametrize(
    ("size", "rules", "moves", "seed"),
    [
        (9, Rules.chinese(), 20_000, 9),
        (19, Rules.chinese(), 20_000, 19),
        (7, Rules(ko=KoRule.SITUATIONAL), 5_000, 7),
        (7, Rules(ko=KoRule.SIMPLE, suicide=True), 5_000, 77),
        (7, Rules(suicide=True), 5_000, 777),
    ],
    ids=[
        "9x9 chinese",
        "19x19 chinese",
        "7x7 situational",
        "7x7 simple ko, suicide allowed",
        "7x7 superko, suicide allowed",
    ],
)
def test_random_moves_agree_with_the_reference(
    size: int, rules: Rules, moves: int, seed: int
) -> None:
    outcomes = run(size, rules, moves, seed, legal_every=97 if size < 19 else 997)
    assert sum(outcomes.values()) == moves
    expected = ["play", "capture", "pass", "undo", "occupied", "off board", "wrong turn"]
    expected += ["game over", "ko"]
    if not rules.suicide:
        expected.append("suicide")
    if rules.suicide and rules.ko is not KoRule.SIMPLE:
        expected.append("repetition")  # a lone stone's suicide leaves the board as it was
    assert all(outcomes.get(kind, 0) > 0 for kind in expected), outcomes
