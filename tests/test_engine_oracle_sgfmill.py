"""Oracle: every real game record replayed move by move beside sgfmill's board.

Kifu reads each record with ``engine.sgf`` and plays it under the Chinese rules
(superko and all); sgfmill parses the same bytes on its own and plays the moves
on its plain ``boards.Board``, which captures but checks no rule. After every
move the two boards must be the same; at the end, the capture counts and the
area count of the final position (sgfmill's ``area_score``) too. sgfmill counts rows
from the bottom, so its row ``r`` is Kifu's row ``size - 1 - r``.
"""

from __future__ import annotations

from pathlib import Path

from sgfmill import boards, sgf

from engine import Color, IllegalMoveError, Rules, count
from engine.sgf import read_sgf

RECORDS = "sgf/pro-and-ai-games"
CHARS = {None: ".", "b": "X", "w": "O"}


def sgfmill_rows(board: boards.Board) -> list[str]:
    """sgfmill's board in Kifu's text form, top row first."""
    return ["".join(CHARS[v] for v in row) for row in reversed(board.board)]


def replay_both(data: bytes, name: str) -> tuple[int, str | None]:
    """Play a record on both boards, comparing after each move.

    Returns the number of moves played and, if Kifu refused one, "n: message".
    """
    record = read_sgf(data, name=name)
    theirs = sgf.Sgf_game.from_bytes(data)
    size = theirs.get_size()
    plays = [node.get_move() for node in theirs.get_main_sequence()]
    plays = [(colour, rc) for colour, rc in plays if colour is not None]
    assert len(plays) == len(record.moves), name
    board = boards.Board(size)
    captured = {"b": 0, "w": 0}
    game = record.new_game()
    empty = size * size - len(record.setup)
    for number, (move, (colour, rc)) in enumerate(zip(record.moves, plays, strict=True), 1):
        assert move.color.value.lower() == colour, (name, number)
        if move.color is not game.to_move:  # the record skips a turn; follow it
            game.to_move = move.color
        try:
            game.play(move)
        except IllegalMoveError as error:
            occupied = rc is not None and board.get(*rc) is not None
            return number - 1, f"{number}: {error} (sgfmill: {'occupied' if occupied else 'free'})"
        if rc is not None:
            board.play(rc[0], rc[1], colour)
        rows = sgfmill_rows(board)
        assert game.board.rows() == rows, (name, number)
        if rc is not None:
            now_empty = sum(row.count(".") for row in rows)
            captured[colour] += now_empty - empty + 1
            empty = now_empty
    assert game.captures[Color.BLACK] == captured["b"], name
    assert game.captures[Color.WHITE] == captured["w"], name
    # area counting as the stones lie: shared points cancel out in Black minus White
    assert count(game.board, Rules.chinese(), komi=0).margin == board.area_score(), name
    return len(record.moves), None


def test_every_record_replays_like_sgfmill(shared_datasets: Path) -> None:
    files = sorted((shared_datasets / RECORDS).glob("*.sgf"))
    assert len(files) == 1000
    refused = {}
    moves = 0
    for path in files:
        played, problem = replay_both(path.read_bytes(), path.name)
        moves += played
        if problem is not None:
            refused[path.name] = problem
    assert moves > 150_000
    assert refused == {
        "0895.sgf": "242: W G16: the point is occupied (sgfmill: occupied)",
    }
