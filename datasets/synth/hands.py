"""Hands over the board: an arm, a hand and the stone it holds, drawn into a picture.

The camera that watches a game sees hands come and go (:mod:`datasets.synth.video`
animates them), and a photo may catch one reaching in. A hand is a handful of
tapered capsules in board millimetres (:func:`arm_limbs`), projected through the
scene's camera, shaded by its skin or sleeve and laid on the picture with its soft
shadow (:func:`draw_hand`).
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from datasets.synth.arrays import F32, U8, f32
from datasets.synth.camera import Camera, FloatArray
from datasets.synth.model import BoardSpec
from datasets.synth.render import Light, Scene

__all__ = [
    "SKINS",
    "Box",
    "Hand",
    "Limb",
    "arm_limbs",
    "blur_into",
    "coverage",
    "draw_hand",
    "outline_mask",
]

#: Skin tones a hand is drawn in, BGR.
SKINS = ((150.0, 175.0, 225.0), (120.0, 150.0, 205.0), (80.0, 110.0, 160.0), (60.0, 80.0, 120.0))


@dataclass(frozen=True)
class Hand:
    """A hand in one frame: fingertip in board millimetres, the side it comes from."""

    x: float
    y: float
    z: float
    side: str
    """'left', 'right' (the players) or 'far' (the arbiter)."""
    holding: str | None
    """Colour of the stone between the fingers ('X', 'O'), if any."""


def outline_mask(scene: Scene) -> U8:
    """Where the board's face is in the picture (255 inside)."""
    assert scene.spec is not None
    cam = scene.board_camera()
    edge = scene.spec.rim(16)
    px = cam.project(np.column_stack([edge, np.zeros(len(edge))]))
    mask = np.zeros((cam.height, cam.width), dtype=np.uint8)
    cv2.fillPoly(mask, [np.round(px).astype(np.int32)], 255)
    return mask


@dataclass(frozen=True)
class Limb:
    """A tapered capsule from ``a`` to ``b`` (board mm), ``width`` mm at each end."""

    a: FloatArray
    b: FloatArray
    width: tuple[float, float]
    sleeve: bool


def arm_limbs(hand: Hand, spec: BoardSpec, *, long_sleeve: bool) -> list[Limb]:
    """The arm and hand as capsules: upper arm, forearm, palm, four fingers and a thumb.

    The fingers pinch at the fingertip point, where a held stone is.
    """
    w, h = spec.grid_width, spec.grid_height
    tip = np.array([hand.x, hand.y, hand.z])
    # The arm leans towards the player's body, at the middle of their side.
    body = {"left": (-450.0, h / 2), "right": (w + 450.0, h / 2), "far": (w / 2, -450.0)}[hand.side]
    toward = {"left": (-1.0, 0.0), "right": (1.0, 0.0), "far": (0.0, -1.0)}[hand.side]
    lean = np.array(body) - tip[:2]
    lean /= max(float(np.linalg.norm(lean)), 1e-6)
    flat = 0.5 * np.array(toward) + 0.5 * lean
    flat /= float(np.linalg.norm(flat))
    d = np.array([flat[0], flat[1], 0.0])
    side = np.array([-flat[1], flat[0], 0.0])
    up = np.array([0.0, 0.0, -1.0])
    knuckles = tip + d * 60 + up * 22
    wrist = tip + d * 140 + up * 45
    elbow = tip + d * 420 + up * 150
    shoulder = tip + d * 720 + up * 330
    limbs = [
        Limb(shoulder, elbow, (110.0, 90.0), True),
        Limb(elbow, wrist, (80.0, 58.0), long_sleeve),
        Limb(wrist, knuckles, (62.0, 78.0), False),
    ]
    for offset, width in ((-24.0, 14.0), (-8.0, 17.0), (8.0, 17.0), (24.0, 16.0)):
        base = knuckles + side * offset
        end = tip + side * (offset * 0.3) + d * (abs(offset) * 0.5)
        limbs.append(Limb(base, end, (width, width * 0.85), False))
    thumb = wrist + side * 30 - d * 20
    limbs.append(Limb(thumb, tip + side * 10 + up * 3, (22.0, 17.0), False))
    return limbs


Box = tuple[int, int, int, int]
"""A region of the picture as (x0, y0, x1, y1), ends excluded."""


def _union(a: Box | None, b: Box | None) -> Box | None:
    if a is None or b is None:
        return a if b is None else b
    return (min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3]))


def draw_hand(
    image: F32,
    scene: Scene,
    hand: Hand,
    previous: Hand | None,
    light: Light,
    look: dict[str, Any],
    board_mask: U8,
) -> tuple[bool, Box | None]:
    """Draw the arm, hand, held stone and their soft shadow, smeared along the hand's path.

    A camera open for half a frame sees the hand over the last half of its way from
    the previous frame: the coverages of copies a few millimetres apart are averaged,
    then shaded and laid on once. Work is done in the bounding box of what is drawn.
    Returns whether the hand (where it is at the frame's end) is over the board, and
    the region drawn in.
    """
    assert scene.spec is not None
    cam = scene.board_camera()
    moved = 0.0
    if previous is not None:
        moved = math.dist((hand.x, hand.y, hand.z), (previous.x, previous.y, previous.z))
    copies = max(1, min(8, math.ceil(0.5 * moved / 4.0)))
    poses = [hand]
    if previous is not None:
        for i in range(1, copies):
            share = 0.5 * i / copies
            poses.append(
                dataclasses.replace(
                    hand,
                    x=hand.x + (previous.x - hand.x) * share,
                    y=hand.y + (previous.y - hand.y) * share,
                    z=hand.z + (previous.z - hand.z) * share,
                )
            )
    direction = light.direction()

    def on_board(p: FloatArray) -> FloatArray:
        """Where light grazing past ``p`` meets the board."""
        result: FloatArray = p - direction * (p[2] / direction[2])
        return result

    arms = [arm_limbs(at, scene.spec, long_sleeve=bool(look["long_sleeve"])) for at in poses]
    shadows = [[Limb(on_board(m.a), on_board(m.b), m.width, m.sleeve) for m in arm] for arm in arms]
    blur = 5.0 + 0.05 * float(-hand.z)
    held = [_held_stone(cam, at) for at in poses] if hand.holding is not None else []
    touched: Box | None = None
    for limbs, shade in zip(arms, shadows, strict=True):
        touched = _union(touched, _limb_box(cam, limbs, margin=2))
        touched = _union(touched, _limb_box(cam, shade, margin=math.ceil(3 * blur)))
    for cx, cy, radius in held:
        reach = math.ceil(radius) + 2
        disc = (
            max(0, round(cx) - reach),
            max(0, round(cy) - reach),
            min(cam.width, round(cx) + reach),
            min(cam.height, round(cy) + reach),
        )
        if disc[0] < disc[2] and disc[1] < disc[3]:
            touched = _union(touched, disc)
    if touched is None:
        return False, None
    x0, y0, x1, y1 = touched
    region = image[y0:y1, x0:x1]
    n = float(len(poses))
    shadow = sum(
        (coverage(cam, shade, box=touched) for shade in shadows), start=0.0 * region[..., 0]
    )
    region *= (1.0 - 0.45 * f32(cv2.GaussianBlur(f32(shadow / n), (0, 0), blur)))[..., None]
    if held:
        stone = np.zeros(region.shape[:2], dtype=np.float32)
        for cx, cy, radius in held:
            disc_mask = np.zeros_like(stone)
            centre = (round((cx - x0) * 16), round((cy - y0) * 16))
            cv2.circle(disc_mask, centre, round(radius * 16), 1.0, -1, cv2.LINE_AA, shift=4)
            stone += disc_mask
        stone /= n
        colour = (28.0, 28.0, 30.0) if hand.holding == "X" else (225.0, 230.0, 232.0)
        region *= (1.0 - stone)[..., None]
        region += stone[..., None] * np.array(colour, dtype=np.float32)
    now = coverage(cam, arms[0], box=touched)
    arm = now + sum((coverage(cam, limbs, box=touched) for limbs in arms[1:]), start=0.0 * now)
    arm = f32(arm / n)
    sleeve = sum(
        (coverage(cam, [m for m in limbs if m.sleeve], box=touched) for limbs in arms),
        start=0.0 * now,
    )
    sleeve_share = np.clip(sleeve / n / np.maximum(arm, 1e-6), 0.0, 1.0)[..., None]
    inside = (arm > 0.5).astype(np.uint8)
    roundness = np.clip(f32(cv2.distanceTransform(inside, cv2.DIST_L2, 3)) / 10.0, 0.0, 1.0)
    skin = np.array(look["skin"], dtype=np.float32)
    cloth = np.array(look["sleeve"], dtype=np.float32)
    shaded = (skin * (1.0 - sleeve_share) + cloth * sleeve_share) * (0.62 + 0.42 * roundness)[
        ..., None
    ]
    region *= (1.0 - arm)[..., None]
    region += shaded * arm[..., None]
    over = np.count_nonzero((now > 0.5) & (board_mask[y0:y1, x0:x1] > 0)) > 20
    return bool(over), touched


def _held_stone(cam: Camera, hand: Hand) -> tuple[float, float, float]:
    """Pixel centre and radius of the stone between the fingers."""
    centre = cam.project(np.array([hand.x, hand.y, hand.z + 5.0]))
    depth = float(((np.array([hand.x, hand.y, hand.z]) - cam.position) @ cam.rotation.T)[2])
    return float(centre[0]), float(centre[1]), cam.focal * 11.0 / depth


def blur_into(out: F32, sharp: F32, box: Box, *, sigma: float) -> None:
    """Put the lens-blurred ``sharp`` into ``out`` within ``box``, in place.

    The blur reads a margin around the box, so the result inside it is what blurring
    the whole picture would give.
    """
    h, w = out.shape[:2]
    x0, y0, x1, y1 = box
    m = math.ceil(4 * sigma) + 1
    ex0, ey0, ex1, ey1 = max(0, x0 - m), max(0, y0 - m), min(w, x1 + m), min(h, y1 + m)
    blurred = f32(cv2.GaussianBlur(sharp[ey0:ey1, ex0:ex1], (0, 0), sigma))
    out[y0:y1, x0:x1] = blurred[y0 - ey0 : y1 - ey0, x0 - ex0 : x1 - ex0]


def _limb_box(cam: Camera, limbs: list[Limb], *, margin: int) -> Box | None:
    """Bounding box of the limbs in the picture, widened by ``margin``; None if unseen.

    None too when part of them is behind the camera.
    """
    if not limbs:
        return None
    ends, radius = _limb_ends(cam, limbs)
    if ends is None:
        return None
    x0 = max(0, int(np.floor((ends[:, 0] - radius).min())) - margin)
    y0 = max(0, int(np.floor((ends[:, 1] - radius).min())) - margin)
    x1 = min(cam.width, int(np.ceil((ends[:, 0] + radius).max())) + margin + 1)
    y1 = min(cam.height, int(np.ceil((ends[:, 1] + radius).max())) + margin + 1)
    return (x0, y0, x1, y1) if x0 < x1 and y0 < y1 else None


def _limb_ends(cam: Camera, limbs: list[Limb]) -> tuple[FloatArray | None, FloatArray]:
    """Pixel ends (2 per limb) and their radii in pixels; None if any is behind the camera."""
    ends = np.array([[m.a, m.b] for m in limbs]).reshape(-1, 3)
    widths = np.array([m.width for m in limbs]).reshape(-1)
    depth = ((ends - cam.position) @ cam.rotation.T)[:, 2]
    if (depth <= 1.0).any():
        return None, widths
    radius: FloatArray = cam.focal * widths / 2.0 / depth
    return cam.project(ends), radius


def coverage(cam: Camera, limbs: list[Limb], *, box: Box) -> F32:
    """Anti-aliased coverage (0..1) of the limbs within ``box`` of the picture."""
    x0, y0, x1, y1 = box
    mask = np.zeros((y1 - y0, x1 - x0), dtype=np.float32)
    if not limbs:
        return mask
    ends, radius = _limb_ends(cam, limbs)
    if ends is None:
        return mask
    local = (ends - np.array([x0, y0])) * 16
    for i in range(len(limbs)):
        a, b = local[2 * i], local[2 * i + 1]
        ra, rb = radius[2 * i] * 16, radius[2 * i + 1] * 16
        d = b - a
        length = float(np.hypot(*d))
        if length > 1e-6:
            n = np.array([-d[1], d[0]]) / length
            quad = np.array([a + n * ra, b + n * rb, b - n * rb, a - n * ra])
            cv2.fillConvexPoly(mask, np.round(quad).astype(np.int32), 1.0, cv2.LINE_AA, shift=4)
        for centre, r in ((a, ra), (b, rb)):
            cv2.circle(
                mask, (round(centre[0]), round(centre[1])), round(r), 1.0, -1, cv2.LINE_AA, shift=4
            )
    return mask
