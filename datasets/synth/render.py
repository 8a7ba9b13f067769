"""Render a board on a table, seen through a camera, as a BGR picture.

The board's face and the table are flat textures warped into the picture by
following each pixel's ray to their plane (so perspective and lens distortion are
exact); stones, stones in bowls and bowls are solids traced ray by ray in picture
space, so a tilted camera sees their height (parallax) and sides.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

from datasets.synth.arrays import f32
from datasets.synth.camera import Camera, FloatArray, board_camera
from datasets.synth.model import BoardSpec, Stone, StoneSpec
from datasets.synth.textures import BoardLook, Texture, board_texture, table_texture

Canvas = NDArray[np.float32]

BLACK_ALBEDO = np.array([22.0, 22.0, 24.0], dtype=np.float32)
WHITE_ALBEDO = np.array([234.0, 239.0, 241.0], dtype=np.float32)


@dataclass(frozen=True)
class Light:
    """The main light: where it comes from, and how hard its shadows are."""

    elevation: float
    """Degrees above the table."""
    azimuth: float
    """Degrees, direction in the board's plane the light comes from."""
    ambient: float
    """Share of light from everywhere (sky, walls), 0..1."""
    shadow_blur: float
    """Softness of stone shadows, millimetres."""
    shadow_strength: float
    glossy_stones: float
    """0 for matte slate and shell, 1 for glossy glass or yunzi."""

    def direction(self) -> FloatArray:
        """Unit world vector from a surface towards the light (``z`` is down)."""
        el, az = math.radians(self.elevation), math.radians(self.azimuth)
        return np.array([math.cos(el) * math.cos(az), math.cos(el) * math.sin(az), -math.sin(el)])


@dataclass(frozen=True)
class Bowl:
    """A stone bowl on the table, full of one colour; centre and radius in mm."""

    x: float
    y: float
    radius: float
    height: float
    color: tuple[float, float, float]
    stones: str


@dataclass(frozen=True)
class LooseStone:
    """A stone lying on the table, off the board."""

    x: float
    y: float
    color: str


@dataclass(frozen=True)
class Scene:
    """Everything physical in a picture; ``spec`` is None for a table with no board."""

    camera: Camera
    spec: BoardSpec | None
    board_look: BoardLook | None
    stone_spec: StoneSpec
    stones: tuple[Stone, ...]
    table_style: str
    light: Light
    bowls: tuple[Bowl, ...]
    loose: tuple[LooseStone, ...]
    texture_seed: int
    board_pose: tuple[float, float, float] = (0.0, 0.0, 0.0)
    """The board moved on the table: (dx mm, dy mm, degrees about its centre)."""

    def board_camera(self) -> Camera:
        """The camera in the board's frame (the board is the world when not moved)."""
        if self.spec is None:
            return self.camera
        return board_camera(
            self.camera, (self.spec.grid_width / 2, self.spec.grid_height / 2), self.board_pose
        )


def texture_scale(camera: Camera, spec: BoardSpec | None) -> float:
    """Texture resolution (px/mm) that matches the picture's, within sensible bounds."""
    if spec is None:
        return 1.0
    x0, y0, x1, y1 = spec.outline
    corners = np.array([[x0, y0, 0], [x1, y0, 0], [x1, y1, 0], [x0, y1, 0]], dtype=np.float64)
    px = camera.project(corners)
    edges = np.linalg.norm(px - np.roll(px, 1, axis=0), axis=1)
    mm = np.array([x1 - x0, y1 - y0, x1 - x0, y1 - y0])
    return float(np.clip(1.2 * np.max(edges / mm), 1.0, 5.0))


def render_scene(scene: Scene) -> Canvas:
    """The scene as float32 BGR (0..255) before light and camera effects.

    Returns
    -------
    ndarray of shape (height, width, 3), float32
    """
    cam = scene.camera
    rng = np.random.default_rng(scene.texture_seed)
    spec = scene.spec
    table_z = spec.thickness if spec is not None else 0.0
    scale = texture_scale(cam, spec)
    canvas = _table(scene, table_z=table_z, scale=scale, rng=rng)
    near_bowls, far_bowls = _split_bowls(scene, spec)
    for bowl in far_bowls:
        _bowl(canvas, cam, bowl, table_z=table_z, scene=scene)
    _loose_stones(canvas, cam, scene, table_z=table_z)
    if spec is not None and scene.board_look is not None:
        bcam = scene.board_camera()
        _board_shadow(canvas, bcam, spec, scene.light)
        _board_sides(canvas, bcam, spec, scene.board_look)
        tex = board_texture(spec, scene.board_look, scale=scale, rng=rng)
        _stone_shadows(tex, spec, scene, scale=scale)
        _warp_onto(canvas, bcam, tex, origin=spec.outline[:2], scale=scale, z=0.0, reflect=False)
        trace_stones(
            canvas,
            bcam,
            np.array([[s.x, s.y, 0.0] for s in scene.stones]).reshape(-1, 3),
            colors=[s.color for s in scene.stones],
            shades=np.array([s.shade for s in scene.stones]),
            spec=scene.stone_spec,
            scene_light=scene.light,
        )
    for bowl in near_bowls:
        _bowl(canvas, cam, bowl, table_z=table_z, scene=scene)
    return canvas


def _split_bowls(scene: Scene, spec: BoardSpec | None) -> tuple[list[Bowl], list[Bowl]]:
    """Bowls nearer the camera than the board's centre are drawn over it."""
    if spec is None:
        return [], list(scene.bowls)
    centre = np.array([spec.grid_width / 2, spec.grid_height / 2, 0.0])
    board_dist = float(np.linalg.norm(centre - scene.camera.position))
    near: list[Bowl] = []
    far: list[Bowl] = []
    for bowl in scene.bowls:
        dist = float(np.linalg.norm(np.array([bowl.x, bowl.y, 0.0]) - scene.camera.position))
        (near if dist < board_dist else far).append(bowl)
    return near, far


def _table(scene: Scene, *, table_z: float, scale: float, rng: np.random.Generator) -> Canvas:
    """The table, warped into a fresh canvas."""
    cam = scene.camera
    # The table is out of focus and mostly far: a coarse texture will do.
    tscale = min(0.35, scale / 2.0)
    extent = 1400.0
    shape = (int(extent * 2 * tscale), int(extent * 2 * tscale))
    tex = table_texture(scene.table_style, shape, scale=tscale, rng=rng)
    canvas = np.zeros((cam.height, cam.width, 3), dtype=np.float32)
    _warp_onto(
        canvas,
        cam,
        tex,
        origin=(-extent + 200, -extent + 200),
        scale=tscale,
        z=table_z,
        reflect=True,
    )
    return canvas


def _warp_onto(
    canvas: Canvas,
    cam: Camera,
    tex: Texture,
    *,
    origin: tuple[float, float],
    scale: float,
    z: float,
    reflect: bool,
) -> None:
    """Paint a texture lying flat at height ``z`` onto the canvas, in place."""
    wx, wy = cam.plane_maps(z)
    mx = ((wx - origin[0]) * scale).astype(np.float32)
    my = ((wy - origin[1]) * scale).astype(np.float32)
    if reflect:
        canvas[:] = cv2.remap(tex, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
        return
    alpha_tex = np.ones(tex.shape[:2], dtype=np.float32)
    alpha = cv2.remap(
        alpha_tex, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=0
    )
    color = cv2.remap(tex, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    a = alpha[..., None]
    canvas *= 1.0 - a
    canvas += color * a


def _board_shadow(canvas: Canvas, cam: Camera, spec: BoardSpec, light: Light) -> None:
    """The board's soft shadow on the table, beside its edges away from the light."""
    if spec.thickness <= 1.0:
        return
    lift = spec.thickness / math.tan(math.radians(max(light.elevation, 10.0)))
    az = math.radians(light.azimuth)
    dx, dy = -math.cos(az) * lift, -math.sin(az) * lift
    ring = spec.rim(12)
    shifted = np.column_stack([ring + np.array([dx, dy]), np.full(len(ring), spec.thickness)])
    px = cam.project(shifted)
    if not np.isfinite(px).all():
        return
    h, w = canvas.shape[:2]
    mask = np.zeros((h, w), dtype=np.float32)
    cv2.fillPoly(mask, [np.round(px * 16).astype(np.int32)], 1.0, cv2.LINE_AA, shift=4)
    soft = f32(cv2.GaussianBlur(mask, (0, 0), 2.0 + 0.01 * max(h, w) * light.shadow_blur / 4.0))
    canvas *= (1.0 - light.shadow_strength * soft)[..., None]


def _board_sides(canvas: Canvas, cam: Camera, spec: BoardSpec, look: BoardLook) -> None:
    """The board's visible edges (its thickness), darker than its face, in place."""
    if spec.thickness <= 0:
        return
    x0, y0, x1, y1 = spec.outline
    top = [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]
    side_color = np.array(look.color, dtype=np.float32) * 0.72
    for i in range(4):
        (ax, ay), (bx, by) = top[i], top[(i + 1) % 4]
        # The face is seen when the camera is on its outer side.
        mid = np.array([(ax + bx) / 2, (ay + by) / 2])
        normal = np.array([by - ay, -(bx - ax)])
        if float(np.dot(cam.position[:2] - mid, normal)) <= 0:
            continue
        t = np.linspace(0.0, 1.0, 24)
        edge = np.stack([ax + (bx - ax) * t, ay + (by - ay) * t], axis=1)
        upper = np.column_stack([edge, np.zeros(len(t))])
        lower = np.column_stack([edge[::-1], np.full(len(t), spec.thickness)])
        poly = cam.project(np.vstack([upper, lower]))
        if not np.isfinite(poly).all():
            continue
        shade = 0.8 + 0.2 * (i % 2)
        cv2.fillPoly(
            canvas,
            [np.round(poly * 16).astype(np.int32)],
            (side_color * shade).tolist(),
            cv2.LINE_AA,
            shift=4,
        )


def _stone_shadows(tex: Texture, spec: BoardSpec, scene: Scene, *, scale: float) -> None:
    """Darken the board's face under and beside each stone, in place."""
    if not scene.stones:
        return
    light = scene.light
    coarse = 0.5
    h, w = tex.shape[:2]
    layer = np.zeros((max(1, int(h * coarse)), max(1, int(w * coarse))), dtype=np.float32)
    x0, y0 = spec.outline[:2]
    s = scale * coarse
    lift = scene.stone_spec.thickness / 2.0 / math.tan(math.radians(max(light.elevation, 10.0)))
    az = math.radians(light.azimuth)
    dx, dy = -math.cos(az) * lift, -math.sin(az) * lift
    radius = scene.stone_spec.diameter / 2.0
    for stone in scene.stones:
        # The lens's shadow: its middle's shadow, drawn out along the light.
        centre = ((stone.x - x0 + dx) * s, (stone.y - y0 + dy) * s)
        along = 2 * (0.97 * radius + 0.5 * lift) * s
        across = 2 * 0.97 * radius * s
        cv2.ellipse(layer, (centre, (along, across), math.degrees(az)), 0.8, -1)
        cv2.circle(
            layer,
            (round((stone.x - x0) * s * 16), round((stone.y - y0) * s * 16)),
            round(radius * 0.85 * s * 16),
            1.0,
            -1,
            cv2.LINE_AA,
            shift=4,
        )
    blur = max(0.5, light.shadow_blur * s)
    layer = f32(cv2.GaussianBlur(layer, (0, 0), blur))
    layer = f32(cv2.resize(layer, (w, h), interpolation=cv2.INTER_LINEAR))
    tex *= (1.0 - light.shadow_strength * np.clip(layer, 0, 1))[..., None]


def trace_stones(
    canvas: Canvas,
    cam: Camera,
    bases: FloatArray,
    *,
    colors: Sequence[str],
    shades: FloatArray,
    spec: StoneSpec,
    scene_light: Light,
) -> None:
    """Ray-trace biconvex stones resting at ``bases`` (their bottom points) onto the canvas.

    A stone is the intersection of two balls: a ray enters it where it has entered both,
    and the surface there belongs to the ball entered last. All stones' rays are traced
    in one batch, one per pixel; pixels on a stone's outline are traced again four
    times for smooth edges. Stones are then laid on the canvas far to near, so nearer
    stones hide farther ones.

    Parameters
    ----------
    bases : ndarray of shape (K, 3)
        World position of each stone's lowest point.
    colors : sequence of K 'X' (black) or 'O' (white)
    shades : ndarray of shape (K,)
        Per-stone brightness factors, about 1.
    """
    if len(bases) == 0:
        return
    a = spec.diameter / 2.0
    corners = np.array(
        [
            [sx * a, sy * a, -sz * spec.thickness]
            for sx in (-1, 1)
            for sy in (-1, 1)
            for sz in (0, 1)
        ]
    )
    px = cam.project(bases[:, None, :] + corners[None, :, :])
    black = np.array([c == "X" for c in colors])
    boxes: list[tuple[int, int, int, int, int]] = []
    distance = np.linalg.norm(bases - cam.position, axis=1)
    for k in np.argsort(-distance, kind="stable"):
        box = px[k]
        if not np.isfinite(box).all():
            continue
        xlo = max(0, math.floor(box[:, 0].min()) - 1)
        xhi = min(cam.width, math.ceil(box[:, 0].max()) + 2)
        ylo = max(0, math.floor(box[:, 1].min()) - 1)
        yhi = min(cam.height, math.ceil(box[:, 1].max()) + 2)
        if xlo < xhi and ylo < yhi:
            boxes.append((int(k), xlo, xhi, ylo, yhi))
    if not boxes:
        return
    # Pass 1: one ray through each pixel centre of every box.
    parts = [np.meshgrid(np.arange(x0, x1), np.arange(y0, y1)) for _, x0, x1, y0, y1 in boxes]
    owner = np.concatenate([np.full(g[0].size, k) for (k, *_), g in zip(boxes, parts, strict=True)])
    sx = np.concatenate([g[0].ravel() for g in parts]).astype(np.float64)
    sy = np.concatenate([g[1].ravel() for g in parts]).astype(np.float64)
    hit, rgb = _trace(cam, sx, sy, owner, bases, black, shades, spec, scene_light)
    # Pass 2: pixels on an outline, four rays each.
    edges: list[NDArray[np.intp]] = []
    start = 0
    for _, x0, x1, y0, y1 in boxes:
        h, w = y1 - y0, x1 - x0
        grid = np.pad(hit[start : start + h * w].reshape(h, w), 1)
        centre = grid[1:-1, 1:-1]
        edge = (
            (centre != grid[:-2, 1:-1])
            | (centre != grid[2:, 1:-1])
            | (centre != grid[1:-1, :-2])
            | (centre != grid[1:-1, 2:])
        )
        edges.append(start + np.flatnonzero(edge))
        start += h * w
    edge_index = np.concatenate(edges)
    offsets = np.array([[-0.25, -0.25], [0.25, -0.25], [-0.25, 0.25], [0.25, 0.25]])
    ex = (sx[edge_index][:, None] + offsets[None, :, 0]).ravel()
    ey = (sy[edge_index][:, None] + offsets[None, :, 1]).ravel()
    e_hit, e_rgb = _trace(
        cam, ex, ey, np.repeat(owner[edge_index], 4), bases, black, shades, spec, scene_light
    )
    e_hit4 = e_hit.reshape(-1, 4)
    e_cover = e_hit4.mean(axis=1)
    e_col = e_rgb.reshape(-1, 4, 3).sum(axis=1) / np.maximum(e_hit4.sum(axis=1), 1)[:, None]
    cover_all = hit.astype(np.float64)
    cover_all[edge_index] = e_cover
    rgb[edge_index] = e_col
    start = 0
    for _, x0, x1, y0, y1 in boxes:
        h, w = y1 - y0, x1 - x0
        cover = cover_all[start : start + h * w].reshape(h, w, 1).astype(np.float32)
        if cover.any():
            col = rgb[start : start + h * w].reshape(h, w, 3).astype(np.float32)
            region = canvas[y0:y1, x0:x1]
            region *= 1.0 - cover
            region += col * cover
        start += h * w


def _trace(
    cam: Camera,
    sx: FloatArray,
    sy: FloatArray,
    owner: NDArray[np.intp],
    bases: FloatArray,
    black: NDArray[np.bool_],
    shades: FloatArray,
    spec: StoneSpec,
    scene_light: Light,
) -> tuple[NDArray[np.bool_], FloatArray]:
    """Whether the ray through each sample hits its stone, and the colour where it does.

    Returns ``hit`` of shape (M,) and ``rgb`` of shape (M, 3), zero where missed.
    """
    half = spec.thickness / 2.0
    rs = spec.sphere_radius
    d = cam.rays(sx, sy)
    # The ball centred below the middle makes the top face, the one above the bottom face.
    lift = rs - half
    mid = bases[owner] - np.array([0.0, 0.0, half])
    oc_mid = cam.position - mid
    b_mid = np.einsum("ij,ij->i", d, oc_mid)
    c_mid = np.einsum("ij,ij->i", oc_mid, oc_mid)
    t_in = np.full(len(owner), -np.inf)
    t_out = np.full(len(owner), np.inf)
    bottom_face = np.zeros(len(owner), dtype=bool)
    hit = np.ones(len(owner), dtype=bool)
    for k, dz in enumerate((lift, -lift)):
        # |o - (mid + dz e_z)|² and d·(o - centre), from the middle's terms.
        b = b_mid - dz * d[:, 2]
        c = c_mid - 2.0 * dz * oc_mid[:, 2] + dz * dz - rs * rs
        disc = b * b - c
        ok = disc > 0
        root = np.sqrt(np.where(ok, disc, 0.0))
        enter = -b - root
        if k == 1:
            bottom_face = enter > t_in
        t_in = np.maximum(t_in, enter)
        t_out = np.minimum(t_out, -b + root)
        hit &= ok
    hit &= t_in < t_out
    rgb = np.zeros((len(owner), 3))
    if hit.any():
        dh = d[hit]
        point = cam.position + dh * t_in[hit, None]
        centre = mid[hit] + np.where(bottom_face[hit, None], -lift, lift) * np.array([0, 0, 1.0])
        normal = (point - centre) / rs
        rgb[hit] = _shade(
            normal, -dh, black=black[owner[hit]], shade=shades[owner[hit]], scene_light=scene_light
        )
    return hit, rgb


def _shade(
    normal: FloatArray,
    view: FloatArray,
    *,
    black: NDArray[np.bool_],
    shade: FloatArray,
    scene_light: Light,
) -> FloatArray:
    """Colour of stone surfaces: diffuse, sky, Fresnel rim and specular highlight.

    All arrays are per sample: ``normal`` and ``view`` of shape (M, 3), the rest (M,).
    """
    light = scene_light.direction()
    albedo = np.where(black[:, None], BLACK_ALBEDO, WHITE_ALBEDO) * shade[:, None]
    # Wrapped diffuse and a bright room around: a stone's side facing away from the
    # lamp is still lit by walls and table, as in real photos.
    ndl = np.clip((normal @ light + 0.3) / 1.3, 0.0, 1.0)
    up = np.clip(-normal[:, 2], 0.0, 1.0)
    amb = scene_light.ambient
    diffuse = 1.1 * ((1.0 - amb) * ndl + amb * (0.7 + 0.3 * up))
    halfway = light[None, :] + view
    halfway /= np.linalg.norm(halfway, axis=1, keepdims=True)
    ndh = np.clip(np.einsum("ij,ij->i", normal, halfway), 0.0, 1.0)
    gloss = scene_light.glossy_stones
    # Matte slate and shell give a dim broad sheen, glass and yunzi a small bright spot.
    shininess = np.where(black, 40.0 + 260.0 * gloss, 20.0 + 180.0 * gloss)
    spec_strength = np.where(black, 0.12 + 0.7 * gloss, 0.25 + 0.8 * gloss)
    spec = spec_strength * ndh**shininess * 255.0
    ndv = np.clip(np.einsum("ij,ij->i", normal, view), 0.0, 1.0)
    fresnel = 0.04 + 0.96 * (1.0 - ndv) ** 5
    sky = np.where(black, 90.0, 0.0) * fresnel * up
    rgb: FloatArray = albedo * diffuse[:, None] + (spec + sky)[:, None]
    return rgb


def _loose_stones(canvas: Canvas, cam: Camera, scene: Scene, *, table_z: float) -> None:
    """Stones lying on the table."""
    trace_stones(
        canvas,
        cam,
        np.array([[s.x, s.y, table_z] for s in scene.loose]).reshape(-1, 3),
        colors=[s.color for s in scene.loose],
        shades=np.ones(len(scene.loose)),
        spec=scene.stone_spec,
        scene_light=scene.light,
    )


def _bowl(canvas: Canvas, cam: Camera, bowl: Bowl, *, table_z: float, scene: Scene) -> None:
    """A round bowl: its side, its dark opening, and the stones heaped inside."""
    t = np.linspace(0.0, 2.0 * math.pi, 48, endpoint=False)
    ring = np.stack([bowl.x + bowl.radius * np.cos(t), bowl.y + bowl.radius * np.sin(t)], axis=1)
    bottom = np.column_stack(
        [ring * 0.85 + np.array([bowl.x, bowl.y]) * 0.15, np.full(len(t), table_z)]
    )
    rim_z = table_z - bowl.height
    rim = np.column_stack([ring, np.full(len(t), rim_z)])
    pts = cam.project(np.vstack([bottom, rim]))
    if not np.isfinite(pts).all():
        return
    hull = cv2.convexHull(np.round(pts * 16).astype(np.int32))
    color = np.array(bowl.color, dtype=np.float32)
    cv2.fillConvexPoly(canvas, hull, (color * 0.8).tolist(), cv2.LINE_AA, shift=4)
    top = cam.project(rim)
    cv2.fillPoly(
        canvas, [np.round(top * 16).astype(np.int32)], (color * 0.35).tolist(), cv2.LINE_AA, shift=4
    )
    rng = np.random.default_rng(int(abs(bowl.x * 1000 + bowl.y)) % (2**32))
    count = int(bowl.radius**2 / 90)
    r = (bowl.radius - 10.0) * np.sqrt(rng.uniform(0, 1, count))
    ang = rng.uniform(0, 2 * math.pi, count)
    xs, ys = bowl.x + r * np.cos(ang), bowl.y + r * np.sin(ang)
    heap = rim_z + 14.0 + 8.0 * (r / bowl.radius) ** 2 + rng.uniform(-2, 2, count)
    trace_stones(
        canvas,
        cam,
        np.column_stack([xs, ys, heap]),
        colors=[bowl.stones] * count,
        shades=rng.normal(1.0, 0.04, count),
        spec=scene.stone_spec,
        scene_light=scene.light,
    )
