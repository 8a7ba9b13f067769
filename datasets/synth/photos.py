"""Synthetic board photos with exact truth, deterministic per seed.

``render_photo(seed=...)`` draws every parameter from ``np.random.default_rng(seed)``
within the ranges of a difficulty, renders the scene, and returns the picture with
its truth: the board in text form and the pixel positions of the four corner
intersections, in the detector's convention (see ``canonical_corners``).
"""

from __future__ import annotations

import dataclasses
import json
import math
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from datasets.synth.arrays import F32, U8, u8
from datasets.synth.camera import Camera, FloatArray, look_rotation
from datasets.synth.errors import SynthError
from datasets.synth.hands import SKINS, Hand, Limb, arm_limbs, coverage, draw_hand, outline_mask
from datasets.synth.looks import Effects, apply_camera, apply_light, jpeg
from datasets.synth.model import Board, BoardSpec, StoneSpec, place_stones
from datasets.synth.positions import EDGE_CASES, edge_case, from_game, game_files, random_play
from datasets.synth.render import Bowl, Light, LooseStone, Scene, render_scene
from datasets.synth.textures import BOARD_STYLES, TABLE_STYLES, sample_board_look


@dataclass(frozen=True)
class Ranges:
    """What a difficulty allows: the ranges parameters are drawn from."""

    tilt: float
    """Largest camera tilt from straight down, degrees."""
    roll: float
    """Largest turn of the picture about the optical axis, degrees (180: any)."""
    fill: tuple[float, float]
    """Board's extent as a share of the frame's binding dimension."""
    distortion: float
    sizes: tuple[tuple[int, int], ...]
    portrait: float
    board_styles: tuple[str, ...]
    offset: float
    """Largest stone displacement, as a share of the line spacing."""
    no_board: float
    edge_cases: float
    cast: float
    exposure: tuple[float, float]
    gradient: float
    unevenness: float
    glare: float
    arm_shadow: float
    blur: tuple[float, float]
    motion: float
    noise: tuple[float, float]
    jpeg: tuple[int, int]
    clutter: float
    elevation: tuple[float, float] = (35.0, 85.0)
    """Height of the main light above the table, degrees: the lower, the longer the shadows."""
    shadow_blur: tuple[float, float] = (1.0, 6.0)
    """Softness of stone shadows, millimetres."""
    shadow_strength: tuple[float, float] = (0.2, 0.5)
    """Share of the light a stone's shadow takes away."""
    arm_strength: tuple[float, float] = (0.2, 0.5)
    """Share of the light an arm's shadow takes away."""
    board_margin: tuple[float, float] = (10.0, 28.0)
    """Wood between the outer lines and the board's edge, millimetres."""


SIZES_SMALL = ((640, 480), (800, 600), (960, 540), (1024, 768), (1280, 720))
SIZES_ALL = (*SIZES_SMALL, (1280, 960), (1600, 1200), (1920, 1080))

DIFFICULTIES: dict[str, Ranges] = {
    "easy": Ranges(
        tilt=20,
        roll=8,
        fill=(0.7, 0.95),
        distortion=0.02,
        sizes=SIZES_SMALL,
        portrait=0.0,
        board_styles=("kaya", "light", "printed"),
        offset=0.1,
        no_board=0.05,
        edge_cases=0.08,
        cast=0.04,
        exposure=(0.9, 1.1),
        gradient=0.15,
        unevenness=0.08,
        glare=0.0,
        arm_shadow=0.0,
        blur=(0.0, 0.5),
        motion=0.0,
        noise=(0.5, 2.0),
        jpeg=(88, 95),
        clutter=0.3,
    ),
    "medium": Ranges(
        tilt=35,
        roll=30,
        fill=(0.5, 0.95),
        distortion=0.05,
        sizes=SIZES_ALL,
        portrait=0.15,
        board_styles=BOARD_STYLES,
        offset=0.2,
        no_board=0.08,
        edge_cases=0.1,
        cast=0.1,
        exposure=(0.75, 1.2),
        gradient=0.35,
        unevenness=0.2,
        glare=0.25,
        arm_shadow=0.15,
        blur=(0.0, 1.0),
        motion=0.1,
        noise=(1.0, 4.0),
        jpeg=(72, 92),
        clutter=0.6,
    ),
    "hard": Ranges(
        tilt=45,
        roll=180,
        fill=(0.35, 0.95),
        distortion=0.08,
        sizes=SIZES_ALL,
        portrait=0.25,
        board_styles=BOARD_STYLES,
        offset=0.2,
        no_board=0.1,
        edge_cases=0.12,
        cast=0.2,
        exposure=(0.55, 1.3),
        gradient=0.6,
        unevenness=0.4,
        glare=0.5,
        arm_shadow=0.35,
        blur=(0.3, 1.8),
        motion=0.25,
        noise=(2.0, 8.0),
        jpeg=(35, 80),
        clutter=0.9,
    ),
}


@dataclass(frozen=True)
class SynthPhoto:
    """A rendered photo: the picture, its JPEG bytes (the picture decodes from them) and truth."""

    image: U8
    jpeg: bytes
    truth: dict[str, Any]

    @property
    def board(self) -> Board | None:
        """The position as the detector should read it, or None when no board is shown."""
        board = self.truth["board"]
        return None if board is None else tuple(board)

    @property
    def corners(self) -> FloatArray | None:
        """Pixel ``(x, y)`` of the corner intersections, shape (4, 2), or None."""
        corners = self.truth["corners"]
        return None if corners is None else np.array(corners, dtype=np.float64)


#: What ``render_photo(..., harsh_light=True)`` changes in a difficulty's ranges: a
#: low light with deep, long stone shadows, deep arm shadows more often, and narrow
#: board margins (the table's dark edge close to the outer lines). Real photos
#: have all of these; the stone model learns from them that a shadow is no stone.
HARSH_LIGHT: dict[str, Any] = {
    "elevation": (10.0, 35.0),
    "shadow_blur": (0.5, 3.0),
    "shadow_strength": (0.5, 0.95),
    "arm_shadow": 0.6,
    "arm_strength": (0.4, 0.8),
    "board_margin": (4.0, 14.0),
}


def difficulty_ranges(name: str) -> Ranges:
    """The ranges of a named difficulty, or an error quoting the bad name."""
    try:
        return DIFFICULTIES[name]
    except KeyError:
        raise SynthError(
            f"unknown difficulty {name!r}; expected one of {', '.join(DIFFICULTIES)}"
        ) from None


def photo_seed(seed: int, index: int) -> int:
    """Seed of photo ``index`` in a run seeded ``seed``: each photo reproducible alone."""
    return int(np.random.SeedSequence([seed, index]).generate_state(1)[0])


def shows_hand(seed: int, index: int, share: float) -> bool:
    """Whether photo ``index`` of the run ``seed`` shows a hand, where a share ``share`` do.

    Drawn from a stream of its own, so that the photos are those of the run
    without hands, some with a hand laid over them.
    """
    return share > 0.0 and float(np.random.default_rng([seed, index, 1]).uniform()) < share


def render_photo(
    *,
    seed: int,
    difficulty: str = "medium",
    games: Path | None = None,
    position: Board | None = None,
    show_board: bool | None = None,
    harsh_light: bool = False,
    hand: bool = False,
) -> SynthPhoto:
    """Render one photo, drawing everything from ``seed``.

    Positions come from ``position`` when given (as the detector should read it), else
    from the SGF files in ``games``, else from random play; a share of photos shows an
    edge case (empty, nearly full, first-line stones). ``show_board`` forces a board
    (True) or a bare table (False); by default a share of photos has no board, unless
    a ``position`` is given. ``harsh_light`` changes the difficulty's ranges by
    ``HARSH_LIGHT``; the same random draws are made, so without it every seed
    renders as it always has. ``hand`` lays a hand over the board, reaching in from
    a side (:func:`_reach_in`), its draws from a stream of their own: the photo is
    the one without it, with a hand; ``truth["hand"]`` says where, and which points
    it hides.

    The position's stones are placed from their own stream of the seed, so two photos
    with the same seed and different ``position`` differ only by the stones.
    """
    ranges = difficulty_ranges(difficulty)
    if harsh_light:
        ranges = dataclasses.replace(ranges, **HARSH_LIGHT)
    files = game_files(games) if games is not None else None
    if position is not None:
        _check_position(position)
    rng = np.random.default_rng(seed)
    position_rng = np.random.default_rng(int(rng.integers(2**63)))
    stones_rng = np.random.default_rng(int(rng.integers(2**63)))
    width, height = ranges.sizes[int(rng.integers(len(ranges.sizes)))]
    if rng.uniform() < ranges.portrait:
        width, height = height, width
    has_board = rng.uniform() >= ranges.no_board
    if show_board is not None or position is not None:
        has_board = show_board is not False
    origin: dict[str, Any] = {"source": None}
    spec: BoardSpec | None = None
    board: Board | None = None
    look = None
    if has_board:
        spec = _sample_spec(ranges, rng)
        look = sample_board_look(rng, styles=ranges.board_styles)
        if look.style == "printed" and rng.uniform() < 0.5:
            spec = dataclasses.replace(spec, thickness=float(rng.uniform(0.5, 3.0)))
        if position is not None:
            spec = dataclasses.replace(spec, size=len(position))
            board, origin = position, {"source": "given"}
        else:
            board, origin = _sample_position(spec.size, ranges, files, rng=position_rng)
    stone_spec = StoneSpec(
        diameter=float(rng.uniform(22.0, 23.0)), thickness=float(rng.uniform(7.5, 10.5))
    )
    camera = _place_camera(spec, ranges, width, height, rng=rng)
    light = Light(
        elevation=float(rng.uniform(*ranges.elevation)),
        azimuth=float(rng.uniform(0, 360)),
        ambient=float(rng.uniform(0.3, 0.7)),
        shadow_blur=float(rng.uniform(*ranges.shadow_blur)),
        shadow_strength=float(rng.uniform(*ranges.shadow_strength)),
        glossy_stones=float(rng.uniform(0, 1)),
    )
    turns: int | None = None
    corners: list[list[float]] | None = None
    stones = []
    if spec is not None and board is not None:
        turns, corner_px = canonical_corners(camera, spec)
        corners = corner_px.tolist()
        world = tuple("".join(row) for row in np.rot90(np.array([list(r) for r in board]), -turns))
        stones = place_stones(world, spec, stone_spec, max_offset=ranges.offset, rng=stones_rng)
    bowls, loose = _sample_clutter(spec, ranges, rng=rng)
    scene = Scene(
        camera=camera,
        spec=spec,
        board_look=look,
        stone_spec=stone_spec,
        stones=tuple(stones),
        table_style=str(rng.choice(TABLE_STYLES)),
        light=light,
        bowls=tuple(bowls),
        loose=tuple(loose),
        texture_seed=int(rng.integers(2**31)),
    )
    effects = _sample_effects(ranges, corners, width, height, rng=rng)
    lit = apply_light(render_scene(scene), effects)
    reach = None
    if hand and spec is not None:
        reach = _reach_in(lit, scene, np.random.default_rng([seed, 1]))
    image = apply_camera(lit, effects)
    data = jpeg(image, quality=effects.jpeg_quality)
    truth = {
        "seed": seed,
        "difficulty": difficulty,
        "image_size": [width, height],
        "board_size": None if spec is None else spec.size,
        "board": None if board is None else list(board),
        "corners": corners,
        "position": origin,
        "params": {
            "camera": _camera_params(camera),
            "board": None if spec is None else dataclasses.asdict(spec),
            "board_look": None if look is None else dataclasses.asdict(look),
            "quarter_turns": turns,
            "stone": dataclasses.asdict(stone_spec),
            "stones": [dataclasses.asdict(s) for s in stones],
            "table": scene.table_style,
            "light": dataclasses.asdict(light),
            "bowls": [dataclasses.asdict(b) for b in bowls],
            "loose_stones": [dataclasses.asdict(s) for s in loose],
            "texture_seed": scene.texture_seed,
            "effects": dataclasses.asdict(effects),
        },
    }
    if reach is not None:
        truth["hand"] = _hidden(truth, scene, reach)
    return SynthPhoto(image=_decode(data), jpeg=data, truth=truth)


#: How far a photo's hand reaches past the outer lines, a share of the grid's side:
#: its fingertip lies anywhere on the board and a little beyond.
HAND_REACH = 0.1
#: Height of a photo's fingertip above the board, mm (a fingertip resting on it
#: to a hand hovering): lower than a moving hand's path in the videos.
HAND_HEIGHT = (-60.0, -10.0)


def _reach_in(image: F32, scene: Scene, rng: np.random.Generator) -> tuple[Hand, list[Limb]]:
    """Draw into ``image`` (lit, before the lens) a hand from a random side, at rest.

    Players reach in from the left and right of the board, the arbiter from the
    far side (:mod:`datasets.synth.hands`); the fingertip lies anywhere within
    ``HAND_REACH`` of the grid, at ``HAND_HEIGHT``. Returns the hand and its limbs.
    """
    assert scene.spec is not None
    spec = scene.spec
    reach = HAND_REACH
    hand = Hand(
        x=float(rng.uniform(-reach, 1.0 + reach)) * spec.grid_width,
        y=float(rng.uniform(-reach, 1.0 + reach)) * spec.grid_height,
        z=float(rng.uniform(*HAND_HEIGHT)),
        side=str(rng.choice(["left", "right", "far"])),
        holding=None,
    )
    look: dict[str, Any] = {
        "skin": list(SKINS[int(rng.integers(len(SKINS)))]),
        "sleeve": [float(c) for c in rng.uniform(20, 200, 3)],
        "long_sleeve": bool(rng.uniform() < 0.5),
    }
    draw_hand(image, scene, hand, None, scene.light, look, outline_mask(scene))
    return hand, arm_limbs(hand, spec, long_sleeve=bool(look["long_sleeve"]))


def _hidden(truth: dict[str, Any], scene: Scene, reach: tuple[Hand, list[Limb]]) -> dict[str, Any]:
    """Where the hand is, and the points (truth-board ``[row, col]``) it hides.

    A point is hidden where the hand covers the middle of a stone standing on it
    (half a stone's height up), whether or not a stone is there.
    """
    hand, limbs = reach
    camera = scene.board_camera()
    seen = coverage(camera, limbs, box=(0, 0, camera.width, camera.height))
    points = intersections(truth, height=scene.stone_spec.thickness / 2.0)
    x = np.clip(np.round(points[..., 0]).astype(int), 0, camera.width - 1)
    y = np.clip(np.round(points[..., 1]).astype(int), 0, camera.height - 1)
    inside = (points[..., 0] >= 0) & (points[..., 0] < camera.width)
    inside &= (points[..., 1] >= 0) & (points[..., 1] < camera.height)
    hidden = inside & (seen[y, x] > 0.5)
    return {
        "tip": [hand.x, hand.y, hand.z],
        "side": hand.side,
        "hidden": [[int(r), int(c)] for r, c in zip(*np.nonzero(hidden), strict=True)],
    }


def _check_position(position: Board) -> None:
    """Refuse a position that is not N strings of N characters among '.XO'."""
    n = len(position)
    if not 2 <= n <= 25 or any(len(row) != n or set(row) - set(".XO") for row in position):
        raise SynthError(f"not a square board in text form ('.', 'X', 'O'): {position!r}")


def intersections(truth: dict[str, Any], *, height: float = 0.0) -> FloatArray:
    """Pixel ``(x, y)`` of every intersection, indexed like the truth board: shape (N, N, 2).

    Computed from the camera and board recorded in ``truth``, through the same
    projection the renderer used. ``height`` lifts the points above the board (in
    mm): half a stone's thickness gives where a stone's middle is seen, which a
    tilted camera shows away from its intersection.
    """
    params = truth["params"]
    if truth["board"] is None:
        raise SynthError("this photo shows no board, so it has no intersections")
    camera = camera_from_params(params["camera"])
    grid = grid_points(BoardSpec(**params["board"]), height=height)
    return np.rot90(camera.project(grid), params["quarter_turns"], axes=(0, 1))


def camera_from_params(params: dict[str, Any]) -> Camera:
    """The camera recorded in a truth file's ``params.camera``."""
    return Camera(
        params["width"],
        params["height"],
        params["focal"],
        np.array(params["rotation"]),
        np.array(params["position"]),
        params["k1"],
    )


def grid_points(spec: BoardSpec, *, height: float = 0.0) -> FloatArray:
    """World position of every intersection, lifted ``height`` mm: shape (N, N, 3)."""
    rows, cols = np.mgrid[0 : spec.size, 0 : spec.size]
    points: FloatArray = np.stack(
        [cols * spec.spacing_x, rows * spec.spacing_y, np.full(rows.shape, -height)], axis=-1
    ).astype(np.float64)
    return points


def canonical_corners(camera: Camera, spec: BoardSpec) -> tuple[int, FloatArray]:
    """Quarter turns from the world board to the detector's view, and its corners in pixels.

    The detector's ``board[0][0]`` is the grid corner nearest the image's top-left
    (smallest x + y; ties go to the turn whose first row is higher), and its corners
    are listed ``board[0][0]``, ``board[0][N-1]``, ``board[N-1][N-1]``,
    ``board[N-1][0]``, clockwise on the screen, as ``vision`` reports them. The world
    board turned ``np.rot90(board, k)`` is the detector's board.
    """
    w, h = spec.grid_width, spec.grid_height
    world = np.array([[0, 0, 0], [w, 0, 0], [w, h, 0], [0, h, 0]], dtype=np.float64)
    px = camera.project(world)
    keys = [
        (float(px[k, 0] + px[k, 1]), float(px[k, 1] + px[(k + 1) % 4, 1]) / 2.0) for k in range(4)
    ]
    turns = min(range(4), key=lambda k: keys[k])
    ordered = np.roll(px, -turns, axis=0)
    if _signed_area(ordered) <= 0:
        raise AssertionError("the camera sees the board mirrored; the world frame is wrong")
    return turns, ordered


def _signed_area(poly: FloatArray) -> float:
    """Shoelace area, positive for a polygon clockwise on screen (y down)."""
    x, y = poly[:, 0], poly[:, 1]
    return float(np.sum(x * np.roll(y, -1) - np.roll(x, -1) * y) / 2.0)


def _decode(data: bytes) -> U8:
    """The picture a JPEG file holds, as OpenCV reads it."""
    return u8(cv2.imdecode(np.frombuffer(data, dtype=np.uint8), cv2.IMREAD_COLOR))


def _sample_spec(ranges: Ranges, rng: np.random.Generator) -> BoardSpec:
    size = int(rng.choice([19, 19, 19, 19, 19, 19, 19, 13, 9]))
    spacing_x = float(rng.uniform(21.5, 22.5))
    ratio = float(rng.choice([1.0, 1.077, 1.077, 1.077]) + rng.uniform(-0.01, 0.01))
    line = float(rng.uniform(0.8, 1.4))
    return BoardSpec(
        size=size,
        spacing_x=spacing_x,
        spacing_y=spacing_x * ratio,
        line_width=line,
        outer_line_width=line * float(rng.choice([1.0, 1.0, 1.5, 2.0])),
        star_radius=float(rng.uniform(1.6, 2.6)),
        margin_x=float(rng.uniform(*ranges.board_margin)),
        margin_y=float(rng.uniform(*ranges.board_margin)),
        thickness=float(rng.choice([12.0, 18.0, 25.0, 35.0, 60.0]) + rng.uniform(-3, 3)),
    )


def _sample_position(
    size: int, ranges: Ranges, files: list[Path] | None, *, rng: np.random.Generator
) -> tuple[Board, dict[str, Any]]:
    if rng.uniform() < ranges.edge_cases:
        kind = str(rng.choice(EDGE_CASES))
        return edge_case(kind, size, rng=rng), {"source": kind}
    if files is not None and size == 19:
        path = files[int(rng.integers(len(files)))]
        board, played = from_game(path, rng=rng)
        if len(board) == size:
            return board, {"source": "game", "file": path.name, "moves": played}
    moves = int(rng.integers(0, int(size * size * 0.7)))
    return random_play(size, moves, rng=rng), {"source": "random", "moves": moves}


def _place_camera(
    spec: BoardSpec | None, ranges: Ranges, width: int, height: int, *, rng: np.random.Generator
) -> Camera:
    """A camera that sees the whole board filling the drawn share of the frame."""
    tilt = math.radians(float(rng.uniform(0, ranges.tilt)))
    # Cameras face a side of the board, give or take; roll turns the picture further.
    azimuth = math.radians(
        90.0 * int(rng.integers(4)) + float(rng.uniform(-ranges.roll, ranges.roll))
    )
    roll = math.radians(float(rng.uniform(-ranges.roll, ranges.roll)) / 2.0)
    hfov = math.radians(float(rng.uniform(45, 75)))
    focal = max(width, height) / 2.0 / math.tan(hfov / 2.0)
    k1 = float(rng.uniform(-ranges.distortion, ranges.distortion))
    low, high = ranges.fill
    fill = high - (high - low) * float(rng.uniform()) ** 2
    rotation = look_rotation(tilt=tilt, azimuth=azimuth, roll=roll)
    return aim_camera(
        spec, width, height, rotation=rotation, focal=focal, k1=k1, fill=fill, rng=rng
    )


def aim_camera(
    spec: BoardSpec | None,
    width: int,
    height: int,
    *,
    rotation: FloatArray,
    focal: float,
    k1: float,
    fill: float,
    rng: np.random.Generator,
) -> Camera:
    """Move a camera of the given orientation so the whole board fills ``fill`` of the frame.

    The board's extent (its larger share of the width or height) is brought to
    ``fill`` by the camera's distance, then the camera slides sideways by a random
    amount that keeps the board inside the frame.
    """
    if spec is None:
        outline = np.array([[-250, -250, 0], [250, -250, 0], [250, 250, 0], [-250, 250, 0]], float)
        target = np.zeros(3)
    else:
        x0, y0, x1, y1 = spec.outline
        outline = np.array([[x0, y0, 0], [x1, y0, 0], [x1, y1, 0], [x0, y1, 0]], dtype=np.float64)
        outline = np.vstack([outline, outline + np.array([0, 0, spec.thickness])])
        target = np.array([(x0 + x1) / 2, (y0 + y1) / 2, 0.0])

    def camera_at(distance: float, shift: FloatArray) -> Camera:
        position = target - distance * rotation[2] + shift[0] * rotation[0] + shift[1] * rotation[1]
        return Camera(width, height, focal, rotation, position, k1)

    distance = 1200.0
    zero = np.zeros(2)
    for _ in range(6):
        px = camera_at(distance, zero).project(outline)
        extent = max(np.ptp(px[:, 0]) / width, np.ptp(px[:, 1]) / height)
        distance *= extent / fill
    camera = camera_at(distance, zero)
    px = camera.project(outline)
    lo, hi = px.min(axis=0), px.max(axis=0)
    size = np.array([width, height], dtype=np.float64)
    slack_lo = lo - 2.0
    slack_hi = size - 3.0 - hi
    want = np.array(
        [
            rng.uniform(-s_lo, s_hi) if s_lo + s_hi > 0 else 0.0
            for s_lo, s_hi in zip(slack_lo, slack_hi, strict=True)
        ]
    )
    # Moving the camera sideways by s mm moves the board about -focal * s / distance px.
    shift = -want * distance / focal
    for _ in range(6):
        moved = camera_at(distance, shift)
        mp = moved.project(outline)
        if mp.min(axis=0).min() >= 1.0 and (mp.max(axis=0) <= size - 2.0).all():
            return moved
        shift = shift / 2.0
    return camera


def _sample_clutter(
    spec: BoardSpec | None, ranges: Ranges, *, rng: np.random.Generator
) -> tuple[list[Bowl], list[LooseStone]]:
    """Bowls and stray stones around the board (or anywhere on a board-less table)."""
    if spec is None:
        x0, y0, x1, y1 = -200.0, -200.0, 200.0, 200.0
    else:
        x0, y0, x1, y1 = spec.outline
    bowls: list[Bowl] = []
    loose: list[LooseStone] = []
    if rng.uniform() >= ranges.clutter:
        return bowls, loose
    for colour in ("X", "O"):
        if rng.uniform() < 0.6:
            side = int(rng.integers(4))
            radius = float(rng.uniform(50, 70))
            gap = radius + float(rng.uniform(5, 80))
            along = float(rng.uniform(0.1, 0.9))
            cx = [x0 + along * (x1 - x0), x1 + gap, x0 + along * (x1 - x0), x0 - gap][side]
            cy = [y0 - gap, y0 + along * (y1 - y0), y1 + gap, y0 + along * (y1 - y0)][side]
            if spec is None:
                cx, cy = float(rng.uniform(x0, x1)), float(rng.uniform(y0, y1))
            wood = np.array([45.0, 85.0, 135.0]) * rng.uniform(0.6, 1.4) + rng.normal(0, 6, 3)
            bowls.append(
                Bowl(
                    cx,
                    cy,
                    radius,
                    float(rng.uniform(45, 80)),
                    (float(wood[0]), float(wood[1]), float(wood[2])),
                    colour,
                )
            )
    for _ in range(int(rng.integers(0, 6))):
        side = int(rng.integers(4))
        gap = float(rng.uniform(15, 120))
        along = float(rng.uniform(0, 1))
        cx = [x0 + along * (x1 - x0), x1 + gap, x0 + along * (x1 - x0), x0 - gap][side]
        cy = [y0 - gap, y0 + along * (y1 - y0), y1 + gap, y0 + along * (y1 - y0)][side]
        loose.append(LooseStone(cx, cy, str(rng.choice(["X", "O"]))))
    return bowls, loose


def _sample_effects(
    ranges: Ranges,
    corners: list[list[float]] | None,
    width: int,
    height: int,
    *,
    rng: np.random.Generator,
) -> Effects:
    """Light and camera effects; a glare patch falls on the board when there is one."""
    exposure = float(rng.uniform(*ranges.exposure))
    cast = rng.uniform(-ranges.cast, ranges.cast, 3)
    gain = tuple(float(exposure * (1.0 + c)) for c in cast)
    glare = None
    if rng.uniform() < ranges.glare:
        weights = rng.dirichlet(np.ones(4))
        if corners is not None:
            gx, gy = (weights @ np.array(corners)) / np.array([width, height])
        else:
            gx, gy = rng.uniform(0.2, 0.8, 2)
        glare = (
            float(gx),
            float(gy),
            float(rng.uniform(0.05, 0.2)),
            float(rng.uniform(0.2, 0.7)),
        )
    arm = None
    if rng.uniform() < ranges.arm_shadow:
        arm = (
            float(rng.uniform(0.2, 0.8)),
            float(rng.uniform(0.2, 0.8)),
            float(rng.uniform(0, 360)),
            float(rng.uniform(*ranges.arm_strength)),
        )
    motion = None
    if rng.uniform() < ranges.motion:
        motion = (float(rng.uniform(2, 7)), float(rng.uniform(0, 180)))
    return Effects(
        gain=(gain[0], gain[1], gain[2]),
        gradient=float(rng.uniform(0, ranges.gradient)),
        gradient_angle=float(rng.uniform(0, 360)),
        unevenness=float(rng.uniform(0, ranges.unevenness)),
        vignette=float(rng.uniform(0, ranges.gradient * 0.7)),
        glare=glare,
        arm_shadow=arm,
        blur=float(rng.uniform(*ranges.blur)),
        motion=motion,
        noise=float(rng.uniform(*ranges.noise)),
        jpeg_quality=int(rng.integers(ranges.jpeg[0], ranges.jpeg[1] + 1)),
        seed=int(rng.integers(2**31)),
    )


def _camera_params(camera: Camera) -> dict[str, Any]:
    return {
        "width": camera.width,
        "height": camera.height,
        "focal": camera.focal,
        "rotation": camera.rotation.tolist(),
        "position": camera.position.tolist(),
        "k1": camera.k1,
    }


def write_photos(
    folder: Path,
    *,
    n: int,
    seed: int,
    difficulty: str = "medium",
    games: Path | None = None,
    hands: float = 0.0,
    progress: Callable[[int], None] | None = None,
) -> list[Path]:
    """Write ``n`` photos as ``NNNNN.jpg`` with ``NNNNN.json`` truth beside each.

    A share ``hands`` of them shows a hand over the board (:func:`shows_hand`).
    Arguments are checked before anything is written; ``progress`` is called with the
    count done after each photo.
    """
    if n < 1:
        raise SynthError(f"number of photos must be at least 1, got {n!r}")
    difficulty_ranges(difficulty)
    if games is not None:
        game_files(games)
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for index in range(n):
        photo = render_photo(
            seed=photo_seed(seed, index),
            difficulty=difficulty,
            games=games,
            hand=shows_hand(seed, index, hands),
        )
        truth = dict(photo.truth, run={"seed": seed, "index": index})
        stem = folder / f"{index:05d}"
        stem.with_suffix(".jpg").write_bytes(photo.jpeg)
        stem.with_suffix(".json").write_text(json.dumps(truth, indent=1) + "\n")
        written.append(stem.with_suffix(".jpg"))
        if progress is not None:
            progress(index + 1)
    return written
