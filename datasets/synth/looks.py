"""Light and camera effects applied to a rendered picture.

Uneven light, coloured casts, a glare patch, an arm's shadow, then the camera's
blur, noise and JPEG compression, in the order light and a sensor meet them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from datasets.synth.arrays import F32, U8, f32, u8
from datasets.synth.render import Canvas
from datasets.synth.textures import smooth_noise


@dataclass(frozen=True)
class Effects:
    """Parameters of everything done to a picture after the scene is drawn."""

    gain: tuple[float, float, float]
    """Per-channel (B, G, R) multipliers: colour cast and exposure together."""
    gradient: float
    """Strength of a linear fall-off of light across the picture, 0..1."""
    gradient_angle: float
    unevenness: float
    vignette: float
    """Darkening towards the picture's corners, 0..1 (lenses and phone cameras)."""
    """Strength of blotchy uneven light, 0..1."""
    glare: tuple[float, float, float, float] | None
    """Glare patch as (x, y, radius, strength): x, y as fractions of width and height,
    radius as a fraction of the width."""
    arm_shadow: tuple[float, float, float, float] | None
    """An arm's shadow across the picture as (x, y, angle in degrees, strength)."""
    blur: float
    """Gaussian blur sigma, pixels."""
    motion: tuple[float, float] | None
    """Motion blur as (length px, angle degrees)."""
    noise: float
    """Sensor noise sigma, grey levels."""
    jpeg_quality: int
    seed: int
    """Seed of the effects' own random fields (uneven light, noise)."""


def light_layers(shape: tuple[int, int], effects: Effects) -> tuple[F32, F32]:
    """The light as two layers: a factor (uneven light, arm shadow) and an added glare.

    Both have shape ``shape`` (H, W), float32; the glare is in grey levels. A video
    computes them once and reuses them for every frame.
    """
    rng = np.random.default_rng(effects.seed)
    h, w = shape
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    theta = math.radians(effects.gradient_angle)
    ramp = (xx * math.cos(theta) + yy * math.sin(theta)) / float(max(h, w))
    ramp -= float(ramp.mean())
    field = (
        1.0
        + effects.gradient * ramp
        + effects.unevenness * 0.5 * smooth_noise((h, w), cells=2.5, rng=rng)
    )
    if effects.vignette > 0:
        r2 = ((xx - w / 2) ** 2 + (yy - h / 2) ** 2) / ((w / 2) ** 2 + (h / 2) ** 2)
        field = field * (1.0 - effects.vignette * r2)
    if effects.arm_shadow is not None:
        ax, ay, angle, strength = effects.arm_shadow
        a = math.radians(angle)
        dist = (xx - ax * w) * math.sin(a) - (yy - ay * h) * math.cos(a)
        along = (xx - ax * w) * math.cos(a) + (yy - ay * h) * math.sin(a)
        width = 0.09 * max(h, w)
        band = np.clip((width - np.abs(dist)) / (0.5 * width), 0.0, 1.0) * (along > 0)
        band = cv2.GaussianBlur(band.astype(np.float32), (0, 0), 0.04 * max(h, w))
        field = field * (1.0 - strength * band)
    glare = np.zeros((h, w), dtype=np.float32)
    if effects.glare is not None:
        gx, gy, radius, strength = effects.glare
        dist2 = ((xx - gx * w) ** 2 + (yy - gy * h) ** 2) / (radius * w) ** 2
        glare = f32(strength * 255.0 * np.exp(-dist2 * 2.0))
    return f32(np.clip(field, 0.2, 2.0)), glare


def apply_light(
    canvas: Canvas, effects: Effects, *, layers: tuple[F32, F32] | None = None
) -> Canvas:
    """Light falling unevenly on the scene, with a cast, glare and shadow.

    Parameters
    ----------
    canvas : ndarray of shape (H, W, 3), float32 BGR in 0..255
    layers : the ``light_layers`` of this picture's size, when already computed

    Returns
    -------
    ndarray of shape (H, W, 3), float32
    """
    field, glare = layers if layers is not None else light_layers(canvas.shape[:2], effects)
    out = canvas * field[..., None] * np.array(effects.gain, dtype=np.float32)
    out += glare[..., None]
    return f32(out)


def apply_camera(canvas: Canvas, effects: Effects) -> U8:
    """Blur, noise and clipping to 8 bits, as a camera would add (JPEG comes apart).

    Returns
    -------
    ndarray of shape (H, W, 3), uint8 BGR
    """
    rng = np.random.default_rng(effects.seed + 1)
    out = canvas
    if effects.motion is not None:
        length, angle = effects.motion
        size = max(3, math.ceil(length) | 1)
        kernel = np.zeros((size, size), dtype=np.float32)
        c = size // 2
        dx, dy = math.cos(math.radians(angle)), math.sin(math.radians(angle))
        cv2.line(
            kernel,
            (round(c - dx * length / 2), round(c - dy * length / 2)),
            (round(c + dx * length / 2), round(c + dy * length / 2)),
            1.0,
            1,
            cv2.LINE_AA,
        )
        kernel /= float(kernel.sum())
        out = f32(cv2.filter2D(out, -1, kernel))
    if effects.blur > 0.05:
        out = f32(cv2.GaussianBlur(out, (0, 0), effects.blur))
    if effects.noise > 0:
        out = out + rng.standard_normal(out.shape, dtype=np.float32) * np.float32(effects.noise)
    return u8(np.clip(out + 0.5, 0, 255))


def jpeg(image: U8, *, quality: int) -> bytes:
    """The picture as JPEG file bytes (deterministic for a given OpenCV build)."""
    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
    if not ok:
        raise OSError(f"could not encode a {image.shape} picture as JPEG")
    return bytes(data.tobytes())
