"""Go rules as evidence about a reading, never as a correction.

The camera cannot see captures happen, so a chain with no liberties on a read
board means a stone was misread (or a capture is still being lifted); a stone
count no game reaches is suspect too. These become ``StoneReading.suspicions``.
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["suspicions"]


def _chains_without_liberties(board: Sequence[str]) -> list[tuple[str, tuple[int, int], int]]:
    """(colour, first point, stone count) of every chain that has no liberty."""
    n = len(board)
    seen: set[tuple[int, int]] = set()
    dead: list[tuple[str, tuple[int, int], int]] = []
    for r in range(n):
        for c in range(n):
            colour = board[r][c]
            if colour == "." or (r, c) in seen:
                continue
            stack, chain, free = [(r, c)], [(r, c)], False
            seen.add((r, c))
            while stack:
                y, x = stack.pop()
                for ny, nx in ((y - 1, x), (y + 1, x), (y, x - 1), (y, x + 1)):
                    if not (0 <= ny < n and 0 <= nx < n):
                        continue
                    mark = board[ny][nx]
                    if mark == ".":
                        free = True
                    elif mark == colour and (ny, nx) not in seen:
                        seen.add((ny, nx))
                        stack.append((ny, nx))
                        chain.append((ny, nx))
            if not free:
                dead.append((colour, min(chain), len(chain)))
    return dead


def suspicions(board: Sequence[str]) -> tuple[str, ...]:
    """Why a read board is unlikely as a real position; empty when nothing is odd.

    Flags chains without liberties and stone counts that alternating play cannot
    give (black may lead white by a few stones through captures or handicap, but a
    position with many more white than black stones, or a full board, is odd).

    Examples
    --------
    >>> suspicions(["X.", ".."])
    ()
    >>> suspicions(["XO", "O."])
    ('black chain at (0, 0) of 1 stone(s) has no liberties',)
    """
    found: list[str] = []
    names = {"X": "black", "O": "white"}
    for colour, point, count in _chains_without_liberties(board):
        found.append(f"{names[colour]} chain at {point} of {count} stone(s) has no liberties")
    black = sum(row.count("X") for row in board)
    white = sum(row.count("O") for row in board)
    points = len(board) ** 2
    if white > black + 10:
        found.append(f"{white} white stones against {black} black is an unusual count")
    if black + white > 0.9 * points:
        found.append(f"{black + white} stones on {points} points: the board is nearly full")
    return tuple(found)
