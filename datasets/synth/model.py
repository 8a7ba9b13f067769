"""The physical board and stones, in millimetres.

A real board's grid is not square: lines are about 22 mm apart across and 23.7 mm
front to back, so that the stones (about 22.3 mm wide) on a board seen from a
player's seat look round and touch their neighbours. Stones are biconvex lenses a
little under a centimetre thick, set down by hand off their intersection.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

Board = tuple[str, ...]
"""A position in text form: N strings, top row first, '.' empty, 'X' black, 'O' white."""


@dataclass(frozen=True)
class BoardSpec:
    """Dimensions of a board, in millimetres.

    The grid's corner ``(0, 0)`` is the world origin; column ``c`` lies at
    ``x = c * spacing_x`` and row ``r`` at ``y = r * spacing_y``.
    """

    size: int = 19
    spacing_x: float = 22.0
    spacing_y: float = 23.7
    line_width: float = 1.0
    outer_line_width: float = 1.0
    star_radius: float = 2.0
    margin_x: float = 15.0
    margin_y: float = 15.0
    thickness: float = 20.0

    @property
    def grid_width(self) -> float:
        return (self.size - 1) * self.spacing_x

    @property
    def grid_height(self) -> float:
        return (self.size - 1) * self.spacing_y

    @property
    def outline(self) -> tuple[float, float, float, float]:
        """The board's top face as ``(x0, y0, x1, y1)``."""
        return (
            -self.margin_x,
            -self.margin_y,
            self.grid_width + self.margin_x,
            self.grid_height + self.margin_y,
        )

    def rim(self, samples: int) -> NDArray[np.float64]:
        """The outline's edge, clockwise from ``(x0, y0)``: ``samples`` points per side,
        each side's ends included, shape (4 * samples, 2)."""
        x0, y0, x1, y1 = self.outline
        t = np.linspace(0.0, 1.0, samples)
        return np.concatenate(
            [
                np.column_stack([x0 + (x1 - x0) * t, np.full_like(t, y0)]),
                np.column_stack([np.full_like(t, x1), y0 + (y1 - y0) * t]),
                np.column_stack([x1 - (x1 - x0) * t, np.full_like(t, y1)]),
                np.column_stack([np.full_like(t, x0), y1 - (y1 - y0) * t]),
            ]
        )

    def star_points(self) -> list[tuple[int, int]]:
        """The hoshi as ``(row, col)``: nine on 19×19, five on 13×13 and 9×9."""
        n = self.size
        if n >= 15:
            lines = [3, n // 2, n - 4]
            return [(r, c) for r in lines for c in lines]
        if n >= 9:
            edge = 3 if n >= 13 else 2
            far = n - 1 - edge
            return [(edge, edge), (edge, far), (n // 2, n // 2), (far, edge), (far, far)]
        return []


@dataclass(frozen=True)
class StoneSpec:
    """Shape of a biconvex stone: its width and full thickness, in millimetres."""

    diameter: float = 22.3
    thickness: float = 9.0

    @property
    def sphere_radius(self) -> float:
        """Radius of each of the two spheres whose intersection is the stone."""
        a = self.diameter / 2.0
        h = self.thickness / 2.0
        return (a * a + h * h) / (2.0 * h)


@dataclass(frozen=True)
class Stone:
    """A stone on the board: its intersection, colour ('X' or 'O') and centre in mm."""

    row: int
    col: int
    color: str
    x: float
    y: float
    shade: float
    """Per-stone brightness variation, about 1."""


def place_stones(
    board: Board,
    spec: BoardSpec,
    stone: StoneSpec,
    *,
    max_offset: float,
    rng: np.random.Generator,
) -> list[Stone]:
    """Put the board's stones near their intersections, the way hands do.

    Each centre is moved off its intersection by up to ``max_offset`` times the line
    spacing, then neighbours that would overlap are pushed apart until they just touch,
    as real stones do.
    """
    points = [(r, c, ch) for r, line in enumerate(board) for c, ch in enumerate(line) if ch != "."]
    if not points:
        return []
    count = len(points)
    angle = rng.uniform(0.0, 2.0 * np.pi, count)
    radius = max_offset * np.sqrt(rng.uniform(0.0, 1.0, count))
    xy = np.array([(c * spec.spacing_x, r * spec.spacing_y) for r, c, _ in points])
    xy[:, 0] += radius * np.cos(angle) * spec.spacing_x
    xy[:, 1] += radius * np.sin(angle) * spec.spacing_y
    _separate(xy, points, stone.diameter)
    shades = rng.normal(1.0, 0.04, count)
    return [
        Stone(r, c, ch, float(x), float(y), float(s))
        for (r, c, ch), (x, y), s in zip(points, xy, shades, strict=True)
    ]


def _separate(xy: NDArray[np.float64], points: list[tuple[int, int, str]], diameter: float) -> None:
    """Push overlapping neighbouring stones apart in place (a few relaxation sweeps)."""
    index = {(r, c): i for i, (r, c, _) in enumerate(points)}
    pairs = [
        (i, index[(r + dr, c + dc)])
        for i, (r, c, _) in enumerate(points)
        for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1))
        if (r + dr, c + dc) in index
    ]
    if not pairs:
        return
    first = np.array([p[0] for p in pairs])
    second = np.array([p[1] for p in pairs])
    for _ in range(8):
        delta = xy[second] - xy[first]
        dist = np.maximum(np.linalg.norm(delta, axis=1), 1e-6)
        overlap = np.maximum(diameter + 0.05 - dist, 0.0)
        if not overlap.any():
            return
        push = delta / dist[:, None] * (overlap / 2.0)[:, None]
        np.add.at(xy, first, -push)
        np.add.at(xy, second, push)
