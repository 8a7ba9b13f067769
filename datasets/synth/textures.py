"""Top-down textures: the board's face with its grid, and the table around it.

Textures are float32 BGR arrays in 0..255 drawn at ``scale`` pixels per millimetre;
the renderer warps them into the picture through the camera. The grid is drawn
analytically (each pixel's coverage by a line of known width), so that its lines lie
exactly where the board model says, to a small fraction of a texture pixel.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

from datasets.synth.arrays import f32
from datasets.synth.model import BoardSpec

Texture = NDArray[np.float32]

BOARD_STYLES = ("kaya", "light", "dark", "printed", "pale")
TABLE_STYLES = ("cloth", "wood", "white", "tiles", "dark")


@dataclass(frozen=True)
class BoardLook:
    """How a board's face looks: wood style, colour and the ink of its lines."""

    style: str
    color: tuple[float, float, float]
    grain_contrast: float
    grain_angle: float
    line_color: tuple[float, float, float]


def sample_board_look(rng: np.random.Generator, *, styles: tuple[str, ...]) -> BoardLook:
    """Draw a plausible board look among ``styles``."""
    style = str(rng.choice(styles))
    base = {
        "kaya": (75.0, 165.0, 215.0),
        "light": (135.0, 190.0, 225.0),
        "dark": (55.0, 100.0, 150.0),
        "printed": (165.0, 205.0, 228.0),
        "pale": (195.0, 220.0, 232.0),
    }[style]
    # Boards vary in brightness much more than in hue.
    bright = float(rng.uniform(0.85, 1.08))
    jitter = rng.normal(0.0, 5.0, 3)
    color = tuple(
        float(np.clip(b * bright + j, 20.0, 250.0)) for b, j in zip(base, jitter, strict=True)
    )
    contrast = {"kaya": 0.06, "light": 0.05, "dark": 0.08, "printed": 0.012, "pale": 0.035}[style]
    ink = float(rng.uniform(10.0, 45.0))
    brown = float(rng.uniform(0.0, 15.0))
    return BoardLook(
        style=style,
        color=(color[0], color[1], color[2]),
        grain_contrast=contrast * float(rng.uniform(0.5, 1.6)),
        grain_angle=float(rng.choice([0.0, 90.0]) + rng.normal(0.0, 2.0)),
        line_color=(ink, ink + brown * 0.5, ink + brown),
    )


def smooth_noise(
    shape: tuple[int, int], *, cells: float, rng: np.random.Generator
) -> NDArray[np.float32]:
    """Zero-mean, roughly unit-variance noise varying over about ``cells`` cells per side."""
    h, w = shape
    gh = max(2, round(cells * h / max(h, w)) + 2)
    gw = max(2, round(cells * w / max(h, w)) + 2)
    small = rng.standard_normal((gh, gw)).astype(np.float32)
    return f32(cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC))


def wood(
    shape: tuple[int, int],
    *,
    color: tuple[float, float, float],
    contrast: float,
    angle: float,
    rng: np.random.Generator,
) -> Texture:
    """Wood with grain: long streaks along ``angle`` degrees, wavy, with soft blotches."""
    h, w = shape
    diag = int(np.hypot(h, w)) + 4
    across = rng.standard_normal(diag * 2).astype(np.float32)
    profile = (
        cv2.GaussianBlur(across[None, :], (0, 0), 1.2)[0] * 0.5
        + cv2.GaussianBlur(across[None, :], (0, 0), 6.0)[0] * 2.0
        + cv2.GaussianBlur(across[None, :], (0, 0), 20.0)[0] * 3.0
    )
    profile /= float(profile.std()) + 1e-6
    theta = np.deg2rad(angle)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    u = xx * np.float32(np.cos(theta)) - yy * np.float32(np.sin(theta))
    u += smooth_noise(shape, cells=2, rng=rng) * np.float32(diag * 0.006)
    u += smooth_noise(shape, cells=10, rng=rng) * np.float32(1.0)
    u = np.clip(u - u.min(), 0, profile.size - 2)
    grain = np.interp(u.ravel(), np.arange(profile.size), profile).reshape(shape).astype(np.float32)
    blotch = smooth_noise(shape, cells=4, rng=rng)
    value = 1.0 + contrast * grain + contrast * 0.5 * blotch
    fine = rng.standard_normal(shape, dtype=np.float32) * np.float32(0.012)
    value = (value + fine)[..., None]
    return f32(value * np.array(color, dtype=np.float32))


def board_texture(
    spec: BoardSpec, look: BoardLook, *, scale: float, rng: np.random.Generator
) -> Texture:
    """The board's top face at ``scale`` px/mm; pixel (0, 0) is at the outline's corner.

    Returns
    -------
    ndarray of shape (H, W, 3), float32 BGR
    """
    x0, y0, x1, y1 = spec.outline
    w = int(np.ceil((x1 - x0) * scale)) + 1
    h = int(np.ceil((y1 - y0) * scale)) + 1
    # Wood is drawn coarser than the grid when the texture is fine, then enlarged.
    coarse = min(1.0, 3.0 / scale)
    ch, cw = max(8, int(h * coarse)), max(8, int(w * coarse))
    face = wood(
        (ch, cw),
        color=look.color,
        contrast=look.grain_contrast,
        angle=look.grain_angle,
        rng=rng,
    )
    # Wear: faint stains and rubbed patches, as on a board that has been played on.
    wear = smooth_noise((ch, cw), cells=14, rng=rng)
    face *= (1.0 - 0.05 * np.clip(wear - 1.2, 0.0, None))[..., None]
    if (ch, cw) != (h, w):
        face = f32(cv2.resize(face, (w, h), interpolation=cv2.INTER_LINEAR))
    ink = grid_coverage(spec, scale=scale, shape=(h, w))
    # Printed or inked lines are not perfectly even in darkness.
    ink *= 1.0 - 0.2 * np.clip(smooth_noise((h, w), cells=30, rng=rng), 0.0, 1.0)
    line = np.array(look.line_color, dtype=np.float32)
    face = face * (1.0 - ink[..., None]) + line * ink[..., None]
    return f32(face)


def grid_coverage(spec: BoardSpec, *, scale: float, shape: tuple[int, int]) -> NDArray[np.float32]:
    """How much of each texture pixel is covered by a line or a star point, 0..1."""
    h, w = shape
    x0, y0, _, _ = spec.outline
    xs = x0 + np.arange(w) / scale
    ys = y0 + np.arange(h) / scale
    half = 0.5 / scale
    n = spec.size

    def profile(coords: NDArray[np.float64], spacing: float) -> NDArray[np.float32]:
        """Coverage along one axis by the lines crossing it."""
        index = np.clip(np.round(coords / spacing), 0, n - 1)
        dist = np.abs(coords - index * spacing)
        outer = (index == 0) | (index == n - 1)
        width = np.where(outer, spec.outer_line_width, spec.line_width)
        cover = np.clip((width / 2.0 + half - dist) / (2.0 * half), 0.0, 1.0)
        return cover.astype(np.float32)

    col_cover = profile(xs, spec.spacing_x)
    row_cover = profile(ys, spec.spacing_y)
    in_x = (xs >= -spec.outer_line_width / 2) & (xs <= spec.grid_width + spec.outer_line_width / 2)
    in_y = (ys >= -spec.outer_line_width / 2) & (ys <= spec.grid_height + spec.outer_line_width / 2)
    vertical = col_cover[None, :] * in_y[:, None]
    horizontal = row_cover[:, None] * in_x[None, :]
    cover = np.maximum(vertical, horizontal).astype(np.float32)
    for r, c in spec.star_points():
        cx = (c * spec.spacing_x - x0) * scale
        cy = (r * spec.spacing_y - y0) * scale
        rad = spec.star_radius * scale
        ylo, yhi = int(max(0, cy - rad - 2)), int(min(h, cy + rad + 3))
        xlo, xhi = int(max(0, cx - rad - 2)), int(min(w, cx + rad + 3))
        py, px = np.mgrid[ylo:yhi, xlo:xhi]
        dot = np.clip(rad + 0.5 - np.hypot(px - cx, py - cy), 0.0, 1.0).astype(np.float32)
        cover[ylo:yhi, xlo:xhi] = np.maximum(cover[ylo:yhi, xlo:xhi], dot)
    return cover


def table_texture(
    style: str, shape: tuple[int, int], *, scale: float, rng: np.random.Generator
) -> Texture:
    """A table top or cloth at ``scale`` px/mm, with some flat clutter on it."""
    h, w = shape
    if style == "wood":
        color = tuple(float(c) for c in rng.uniform([40, 70, 100], [120, 150, 190]))
        tex = wood(
            shape,
            color=(color[0], color[1], color[2]),
            contrast=0.07,
            angle=float(rng.uniform(0, 180)),
            rng=rng,
        )
    else:
        base = {
            "cloth": rng.uniform(70, 210) * (1.0 + rng.uniform(-0.15, 0.15, 3)),
            "white": rng.uniform([200, 205, 205], [245, 245, 245]),
            "dark": rng.uniform(25, 90) * (1.0 + rng.uniform(-0.3, 0.3, 3)),
            "tiles": rng.uniform(120, 220) * (1.0 + rng.uniform(-0.1, 0.1, 3)),
        }[style]
        tex = np.empty((h, w, 3), dtype=np.float32)
        tex[:] = base.astype(np.float32)
        folds = smooth_noise(shape, cells=6, rng=rng)[..., None] * np.float32(0.08)
        tex *= 1.0 + folds
        tex += rng.standard_normal((h, w, 1), dtype=np.float32) * np.float32(2.0)
        if style == "tiles":
            pitch = float(rng.uniform(100, 300)) * scale
            yy, xx = np.mgrid[0:h, 0:w]
            grout = (np.minimum(xx % pitch, yy % pitch) < max(1.0, 3 * scale)).astype(np.float32)
            tex *= (1.0 - 0.35 * grout)[..., None]
    _clutter(tex, scale=scale, rng=rng)
    return np.clip(tex, 0, 255).astype(np.float32)


def _clutter(tex: Texture, *, scale: float, rng: np.random.Generator) -> None:
    """Flat things on the table: papers, books, a phone, pens, in place."""
    h, w = tex.shape[:2]
    for _ in range(int(rng.integers(0, 7))):
        cx, cy = rng.uniform(0, w), rng.uniform(0, h)
        kind = rng.integers(0, 3)
        if kind == 0:
            size = (float(rng.uniform(60, 300) * scale), float(rng.uniform(40, 220) * scale))
        elif kind == 1:
            size = (float(rng.uniform(120, 160) * scale), float(rng.uniform(60, 80) * scale))
        else:
            size = (float(rng.uniform(100, 160) * scale), float(rng.uniform(6, 12) * scale))
        box = cv2.boxPoints(((cx, cy), size, float(rng.uniform(0, 180))))
        color = (rng.uniform(40, 235) * (1.0 + rng.uniform(-0.25, 0.25, 3))).tolist()
        cv2.fillConvexPoly(tex, np.round(box * 16).astype(np.int32), color, cv2.LINE_AA, shift=4)
