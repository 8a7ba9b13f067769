"""Positions for synthetic photos: real games replayed, random play, and edge cases."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from datasets.synth import SynthError
from datasets.synth.positions import edge_case, from_game, random_play, read_game, replay
from engine import Board


def every_chain_breathes(rows: tuple[str, ...]) -> bool:
    return all(liberties for _, _, liberties in Board.from_diagram(rows).chains())


def stones(rows: tuple[str, ...]) -> int:
    return sum(row.count("X") + row.count("O") for row in rows)


def test_a_real_record_with_a_move_onto_a_stone_replays_up_to_it(shared_datasets: Path) -> None:
    record = read_game(shared_datasets / "sgf" / "pro-and-ai-games" / "0895.sgf")
    whole = replay(record, len(record.moves))
    assert every_chain_breathes(whole)
    assert 0 < stones(whole) < len(record.moves)


def test_positions_from_a_game_are_part_way_through_it(shared_datasets: Path) -> None:
    path = shared_datasets / "sgf" / "pro-and-ai-games" / "0000.sgf"
    board, played = from_game(path, rng=np.random.default_rng(7))
    assert board == replay(read_game(path), played)
    assert len(board) == 19 and every_chain_breathes(board)


def test_random_play_is_plausible_and_repeatable() -> None:
    board = random_play(13, 90, rng=np.random.default_rng(3))
    assert board == random_play(13, 90, rng=np.random.default_rng(3))
    assert every_chain_breathes(board)
    assert 40 < stones(board) <= 90
    assert abs(sum(r.count("X") for r in board) - sum(r.count("O") for r in board)) < 15


@pytest.mark.parametrize("size", [9, 13, 19])
def test_edge_cases_are_what_they_say(size: int) -> None:
    rng = np.random.default_rng(size)
    assert stones(edge_case("empty", size, rng=rng)) == 0
    first = edge_case("first_line", size, rng=rng)
    assert stones(first) > 0
    assert all(ch == "." for row in first[1:-1] for ch in row[1:-1])
    assert every_chain_breathes(first)
    full = edge_case("nearly_full", size, rng=rng)
    assert stones(full) > 0.75 * size * size
    assert every_chain_breathes(full)


def test_an_unknown_edge_case_is_named() -> None:
    with pytest.raises(SynthError, match="unknown edge case 'crowded'"):
        edge_case("crowded", 19, rng=np.random.default_rng(0))


def test_an_unreadable_record_is_named(tmp_path: Path) -> None:
    bad = tmp_path / "bad.sgf"
    bad.write_bytes(b"not sgf at all")
    with pytest.raises(SynthError, match="cannot read game record"):
        read_game(bad)
