"""Synthetic game videos: a fixed camera watches hands play a recorded game.

The game is turned into the table's still states by ``datasets.observations`` (the
same stream the referee is tested with, violations and the arbiter's corrections
included); this module animates the hands that make each change, renders every
frame and writes the truth: for each frame the board on the table and whether a hand
is over it, the moves as they should be recorded, and the alerts with their times.

The camera sits at the side of the board's last row, so the board as the detector
reads it is the game's board as the record writes it (no turning); players reach in
from the left and right, the arbiter from the far side.
"""

from __future__ import annotations

import dataclasses
import json
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from datasets.observations import INJECTABLE, observation_stream
from datasets.synth.arrays import F32, f32, u8
from datasets.synth.camera import Camera, FloatArray, board_camera, look_rotation
from datasets.synth.errors import SynthError
from datasets.synth.hands import SKINS, Hand, blur_into, draw_hand, outline_mask
from datasets.synth.looks import Effects, apply_light, light_layers
from datasets.synth.model import Board, BoardSpec, Stone, StoneSpec
from datasets.synth.photos import aim_camera, camera_from_params, canonical_corners, grid_points
from datasets.synth.render import Light, Scene, render_scene
from datasets.synth.textures import sample_board_look
from engine import KifuError
from engine.sgf import GameRecord, read_sgf

VIOLATIONS = INJECTABLE
SIZES = ((640, 480), (960, 540))
REST_HEIGHT = -140.0
CARRY_HEIGHT = -45.0
TOUCH_HEIGHT = -13.0


@dataclass(frozen=True)
class Frame:
    """What the camera sees at one instant: the table's board, a hand, the pose."""

    board: Board
    hand: Hand | None
    pose: int


@dataclass(frozen=True)
class Pose:
    """Where the board lies on the table and where the camera points."""

    board: tuple[float, float, float]
    """(dx mm, dy mm, degrees) the board has been nudged from its first place."""
    camera_turn: tuple[float, float]
    """(pan, tilt) degrees the camera has shifted from its first aim."""


@dataclass(frozen=True)
class _Drift:
    """Slow drift of the light's colour and strength over the video."""

    amplitude: float
    period: float
    """Seconds."""
    phase: tuple[float, float, float]

    def gain(self, t: float) -> F32:
        """Per-channel (B, G, R) factor at time ``t`` seconds."""
        return f32(
            [1.0 + self.amplitude * math.sin(2 * math.pi * t / self.period + p) for p in self.phase]
        )


@dataclass
class _Timeline:
    """Builds the frames: the table, the hand's path, and when each still board shows."""

    fps: float
    spec: BoardSpec
    rng: np.random.Generator
    sides: dict[str, str]
    table: list[list[str]]
    frames: list[Frame] = dataclasses.field(default_factory=list)
    pose: int = 0
    hand: Hand | None = None

    @property
    def t(self) -> float:
        return len(self.frames) / self.fps

    def board(self) -> Board:
        return tuple("".join(row) for row in self.table)

    def emit(self, hand: Hand | None) -> None:
        self.hand = hand
        self.frames.append(Frame(self.board(), hand, self.pose))

    def still(self, seconds: float) -> None:
        for _ in range(max(1, round(seconds * self.fps))):
            self.emit(None)

    def rest(self, side: str) -> Hand:
        """Where a hand waits, outside the picture on its side."""
        w, h = self.spec.grid_width, self.spec.grid_height
        jitter = float(self.rng.uniform(-80, 80))
        x, y = {
            "left": (-self.spec.margin_x - 420.0, h / 2 + jitter),
            "right": (w + self.spec.margin_x + 420.0, h / 2 + jitter),
            "far": (w / 2 + jitter, -self.spec.margin_y - 420.0),
        }[side]
        return Hand(x, y, REST_HEIGHT, side, None)

    def move(self, to: Hand, *, speed: float) -> None:
        """Glide the hand to ``to`` with eased speed (about ``speed`` mm/s)."""
        start = self.hand if self.hand is not None else self.rest(to.side)
        dist = math.dist((start.x, start.y, start.z), (to.x, to.y, to.z))
        n = max(1, round(max(0.12, dist / speed) * self.fps))
        for i in range(1, n + 1):
            s = i / n
            e = s * s * (3 - 2 * s)
            self.emit(
                Hand(
                    start.x + (to.x - start.x) * e,
                    start.y + (to.y - start.y) * e,
                    start.z + (to.z - start.z) * e,
                    to.side,
                    to.holding,
                )
            )

    def trip(self, changes: list[tuple[tuple[int, int], str]], side: str) -> None:
        """A hand comes in, makes the changes one point at a time, and leaves."""
        speed = float(self.rng.uniform(500, 900))
        self.hand = self.rest(side)
        self.emit(self.hand)
        for k, ((r, c), what) in enumerate(changes):
            x, y = c * self.spec.spacing_x, r * self.spec.spacing_y
            holding = what if what != "." else None
            if k == 0 and self.rng.uniform() < 0.3:
                # Hesitation: the hand hovers over another point first.
                hx = x + float(self.rng.uniform(-70, 70))
                hy = y + float(self.rng.uniform(-70, 70))
                self.move(Hand(hx, hy, CARRY_HEIGHT - 20, side, holding), speed=speed)
                for _ in range(round(float(self.rng.uniform(0.3, 1.2)) * self.fps)):
                    self.emit(self.hand)
            self.move(Hand(x, y, CARRY_HEIGHT, side, holding), speed=speed)
            self.move(Hand(x, y, TOUCH_HEIGHT, side, holding), speed=250.0)
            previous = self.table[r][c]
            self.table[r][c] = what
            taken = previous if what == "." and previous != "." else None
            self.move(Hand(x, y, CARRY_HEIGHT, side, taken), speed=250.0)
        self.move(
            dataclasses.replace(self.rest(side), holding=self.hand.holding if self.hand else None),
            speed=speed,
        )
        self.hand = None


def _order(changes: list[tuple[tuple[int, int], str]]) -> list[tuple[tuple[int, int], str]]:
    """Visit the changed points nearest first, as a hand does."""
    left = list(changes)
    path = [left.pop(0)]
    while left:
        r, c = path[-1][0]
        left.sort(key=lambda ch: (ch[0][0] - r) ** 2 + (ch[0][1] - c) ** 2)
        path.append(left.pop(0))
    return path


def _actor(changes: list[tuple[tuple[int, int], str]], before: Board) -> str:
    """Whose hand: the colour put down, else the opponent of the colour taken off."""
    added = [what for _, what in changes if what != "."]
    if added:
        return added[0]
    removed = before[changes[0][0][0]][changes[0][0][1]]
    return "O" if removed == "X" else "X"


def render_video(
    record: GameRecord,
    out: Path,
    *,
    fps: float = 30.0,
    violations: Sequence[str] = (),
    seed: int = 0,
    max_moves: int | None = None,
    size: tuple[int, int] = (960, 540),
    progress: Callable[[int, int], None] | None = None,
) -> dict[str, Any]:
    """Render ``record`` as a video to ``out`` (mp4) and return its truth.

    The truth is also written beside the video as ``OUT.json`` (and returned as read
    back from it). ``progress`` is
    called with (frames done, frames in all).
    """
    if not 1 <= fps <= 60:
        raise SynthError(f"frame rate must be between 1 and 60, got {fps!r}")
    unknown = [v for v in violations if v not in VIOLATIONS]
    if unknown:
        raise SynthError(
            f"unknown violation {unknown[0]!r}; expected some of {', '.join(VIOLATIONS)}"
        )
    if out.suffix.lower() != ".mp4":
        raise SynthError(f"video name must end in .mp4: {str(out)!r}")
    rng = np.random.default_rng(seed)
    stream_rng = np.random.default_rng(int(rng.integers(2**63)))
    stream = observation_stream(
        record, rng=stream_rng, violations=list(violations), max_moves=max_moves
    )
    width, height = size
    spec = BoardSpec(
        size=record.size,
        spacing_x=float(rng.uniform(21.8, 22.2)),
        spacing_y=float(rng.uniform(23.4, 23.9)),
        line_width=float(rng.uniform(0.8, 1.2)),
        outer_line_width=1.5,
        star_radius=2.0,
        margin_x=float(rng.uniform(12, 22)),
        margin_y=float(rng.uniform(12, 22)),
        thickness=float(rng.uniform(15, 40)),
    )
    look = sample_board_look(rng, styles=("kaya", "light", "printed"))
    stone_spec = StoneSpec(diameter=22.3, thickness=float(rng.uniform(8, 10)))
    rotation = look_rotation(
        tilt=math.radians(float(rng.uniform(20, 40))),
        azimuth=math.radians(-90.0 + float(rng.uniform(-8, 8))),
        roll=math.radians(float(rng.uniform(-3, 3))),
    )
    focal = max(width, height) / 2.0 / math.tan(math.radians(float(rng.uniform(50, 65))) / 2)
    camera = aim_camera(
        spec,
        width,
        height,
        rotation=rotation,
        focal=focal,
        k1=float(rng.uniform(-0.03, 0.03)),
        fill=float(rng.uniform(0.75, 0.9)),
        rng=rng,
    )
    light = Light(
        elevation=float(rng.uniform(45, 80)),
        azimuth=float(rng.uniform(0, 360)),
        ambient=float(rng.uniform(0.35, 0.6)),
        shadow_blur=float(rng.uniform(1.5, 4.0)),
        shadow_strength=float(rng.uniform(0.25, 0.45)),
        glossy_stones=float(rng.uniform(0, 1)),
    )
    effects = Effects(
        gain=(
            float(rng.uniform(0.92, 1.06)),
            float(rng.uniform(0.92, 1.06)),
            float(rng.uniform(0.92, 1.06)),
        ),
        gradient=float(rng.uniform(0, 0.25)),
        gradient_angle=float(rng.uniform(0, 360)),
        unevenness=float(rng.uniform(0, 0.15)),
        vignette=float(rng.uniform(0, 0.2)),
        glare=None,
        arm_shadow=None,
        blur=float(rng.uniform(0.3, 0.8)),
        motion=None,
        noise=float(rng.uniform(0.5, 1.0)),
        jpeg_quality=100,
        seed=int(rng.integers(2**31)),
    )
    drift = _Drift(
        amplitude=float(rng.uniform(0.03, 0.08)),
        period=float(rng.uniform(30, 90)),
        phase=(float(rng.uniform(0, 6.3)), float(rng.uniform(0, 6.3)), float(rng.uniform(0, 6.3))),
    )
    hand_look: dict[str, Any] = {
        "skin": list(SKINS[int(rng.integers(len(SKINS)))]),
        "sleeve": [float(c) for c in rng.uniform(20, 200, 3)],
        "long_sleeve": bool(rng.uniform() < 0.5),
    }
    black_side = str(rng.choice(["left", "right"]))
    sides = {"X": black_side, "O": "right" if black_side == "left" else "left"}
    texture_seed = int(rng.integers(2**31))
    table_style = str(rng.choice(["cloth", "wood", "white", "dark"]))

    # -- the timeline ------------------------------------------------------------
    timeline = _Timeline(fps, spec, rng, sides, [["."] * spec.size for _ in range(spec.size)])
    poses = [Pose((0.0, 0.0, 0.0), (0.0, 0.0))]
    # Observations carry a board; declarations (pass, resign) do not.
    observations = [item for item in stream.items if hasattr(item, "board")]
    nudge_at = int(rng.integers(len(observations))) if observations and rng.uniform() < 0.5 else -1
    shift_at = int(rng.integers(len(observations))) if observations and rng.uniform() < 0.5 else -1
    seen_at: dict[float, float] = {}
    corrections = set(stream.resolved_at)
    still_frames: list[dict[str, Any]] = []
    declarations: list[dict[str, Any]] = []
    events: list[dict[str, Any]] = []
    timeline.still(1.0)
    index = 0
    for item in stream.items:
        seen: Board | None = getattr(item, "board", None)
        if seen is None:
            declarations.append(dict(item.to_json(), t=round(timeline.t, 3)))
            timeline.still(0.6)
            continue
        before = timeline.board()
        changes = [
            ((r, c), seen[r][c])
            for r in range(spec.size)
            for c in range(spec.size)
            if seen[r][c] != before[r][c]
        ]
        if changes:
            # The arbiter puts the board right after a violation; players do the rest.
            side = "far" if item.t in corrections else sides[_actor(changes, before)]
            timeline.trip(_order(changes), side)
        seen_at[item.t] = round(timeline.t, 3)
        still_frames.append(
            {"t": round(timeline.t, 3), "frame": len(timeline.frames), "board": list(seen)}
        )
        pause = (
            float(rng.uniform(0.4, 1.4)) if rng.uniform() < 0.9 else float(rng.uniform(2.0, 3.5))
        )
        timeline.still(pause)
        for at, kind in ((nudge_at, "board_nudged"), (shift_at, "camera_shifted")):
            if at != index:
                continue
            last = poses[timeline.pose]
            if kind == "board_nudged":
                pose = Pose(
                    (
                        last.board[0] + float(rng.uniform(-4, 4)),
                        last.board[1] + float(rng.uniform(-4, 4)),
                        last.board[2] + float(rng.uniform(-0.8, 0.8)),
                    ),
                    last.camera_turn,
                )
            else:
                pose = Pose(
                    last.board, (float(rng.uniform(-0.8, 0.8)), float(rng.uniform(-0.6, 0.6)))
                )
            poses.append(pose)
            timeline.pose = len(poses) - 1
            events.append({"t": round(timeline.t, 3), "frame": len(timeline.frames), "kind": kind})
            timeline.still(0.8)
        index += 1
    timeline.still(1.0)

    # -- the truth ---------------------------------------------------------------
    scenes = [
        Scene(
            camera=_turned(camera, pose.camera_turn),
            spec=spec,
            board_look=look,
            stone_spec=stone_spec,
            stones=(),
            table_style=table_style,
            light=light,
            bowls=(),
            loose=(),
            texture_seed=texture_seed,
            board_pose=pose.board,
        )
        for pose in poses
    ]
    pose_truth = []
    for scene in scenes:
        turns, corners = canonical_corners(scene.board_camera(), spec)
        if turns != 0:
            raise AssertionError(f"the video camera sees the board turned {turns} quarter turns")
        pose_truth.append(corners.tolist())
    boards: dict[Board, int] = {}
    frame_rows = []
    for frame in timeline.frames:
        board_index = boards.setdefault(frame.board, len(boards))
        frame_rows.append([board_index, frame.pose])

    # -- the pictures -----------------------------------------------------------
    writer = cv2.VideoWriter(str(out), cv2.VideoWriter.fourcc(*"mp4v"), fps, (width, height))
    if not writer.isOpened():
        raise OSError(f"cannot write video {str(out)!r} (OpenCV has no mp4v encoder here?)")
    layers = light_layers((height, width), effects)
    placed: dict[tuple[int, int], Stone] = {}
    stones_rng = np.random.default_rng(int(rng.integers(2**63)))
    # Each still scene, lit, and also blurred by the lens (blur and gain commute).
    cache: dict[tuple[Board, int], tuple[F32, F32]] = {}
    outlines = [outline_mask(scene) for scene in scenes]
    hand_flags: list[bool] = []
    # Sensor noise from a small bank of fields, drawn in a seeded order: much cheaper
    # than fresh noise per frame, and just as unhelpful to a reader that looks at one.
    noise_rng = np.random.default_rng(effects.seed)
    bank = [
        noise_rng.standard_normal((height, width, 3), dtype=np.float32) * np.float32(effects.noise)
        for _ in range(6)
    ]
    try:
        for k, frame in enumerate(timeline.frames):
            key = (frame.board, frame.pose)
            if key not in cache:
                stones = _stones(frame.board, spec, stone_spec, placed, rng=stones_rng)
                scene = dataclasses.replace(scenes[frame.pose], stones=tuple(stones))
                if len(cache) > 3:
                    cache.pop(next(iter(cache)))
                lit = apply_light(render_scene(scene), effects, layers=layers)
                cache[key] = (lit, f32(cv2.GaussianBlur(lit, (0, 0), effects.blur)))
            lit, soft = cache[key]
            image = soft.copy()
            over = False
            if frame.hand is not None:
                previous = timeline.frames[k - 1].hand if k > 0 else None
                sharp = lit.copy()
                over, box = draw_hand(
                    sharp,
                    scenes[frame.pose],
                    frame.hand,
                    previous,
                    light,
                    hand_look,
                    outlines[frame.pose],
                )
                if box is not None:
                    blur_into(image, sharp, box, sigma=effects.blur)
            hand_flags.append(over)
            image *= drift.gain(k / fps)
            image += bank[int(noise_rng.integers(len(bank)))]
            writer.write(u8(np.clip(image + 0.5, 0, 255)))
            if progress is not None:
                progress(k + 1, len(timeline.frames))
    finally:
        writer.release()
    truth: dict[str, Any] = {
        "video": out.name,
        "seed": seed,
        "fps": fps,
        "image_size": [width, height],
        "frame_count": len(timeline.frames),
        "board_size": spec.size,
        "boards": [list(b) for b in boards],
        "corners": pose_truth,
        "frames": [[b, int(h), p] for (b, p), h in zip(frame_rows, hand_flags, strict=True)],
        "frame_columns": ["board", "hand_over_board", "pose"],
        "observations": still_frames,
        "declarations": declarations,
        "moves": [m.gtp(spec.size) for m in stream.moves],
        "alerts": [
            {"kind": a.kind, "color": None if a.color is None else a.color.value, "t": seen_at[a.t]}
            for a in stream.alerts
        ],
        "resolved_at": [seen_at[t] for t in stream.resolved_at],
        "violations_injected": [{"move_index": k, "kind": kind} for k, kind in stream.injected],
        "events": events,
        "params": {
            "board": dataclasses.asdict(spec),
            "board_look": dataclasses.asdict(look),
            "stone": dataclasses.asdict(stone_spec),
            "camera": {
                "width": width,
                "height": height,
                "focal": camera.focal,
                "rotation": camera.rotation.tolist(),
                "position": camera.position.tolist(),
                "k1": camera.k1,
            },
            "poses": [dataclasses.asdict(p) for p in poses],
            "light": dataclasses.asdict(light),
            "effects": dataclasses.asdict(effects),
            "light_drift": dataclasses.asdict(drift),
            "hand": hand_look,
            "sides": sides,
            "texture_seed": texture_seed,
            "table": table_style,
        },
    }
    text = json.dumps(truth, separators=(",", ":"))
    out.with_suffix(".json").write_text(text + "\n")
    written: dict[str, Any] = json.loads(text)
    return written


def video_from_sgf(path: Path, out: Path, **options: Any) -> dict[str, Any]:
    """Read a game record and render it with :func:`render_video`.

    A record that cannot be read or played out (a move onto a stone, say) is refused
    with an error naming the file.
    """
    if not path.is_file():
        raise SynthError(f"game record not found: {str(path)!r}")
    try:
        record = read_sgf(path.read_bytes(), name=str(path))
        return render_video(record, out, **options)
    except KifuError as error:
        raise SynthError(f"cannot play {str(path)!r} on a table: {error}") from error


def video_intersections(truth: dict[str, Any], pose: int, *, height: float = 0.0) -> FloatArray:
    """Pixel ``(x, y)`` of every intersection in ``pose`` (a frame's third column): (N, N, 2).

    ``height`` lifts the points (mm), as in :func:`datasets.synth.photos.intersections`;
    the video's board is never turned, so rows and columns are the game's.
    """
    params = truth["params"]
    spec = BoardSpec(**params["board"])
    chosen = params["poses"][pose]
    scene_camera = _turned(camera_from_params(params["camera"]), tuple(chosen["camera_turn"]))
    camera = board_camera(
        scene_camera, (spec.grid_width / 2, spec.grid_height / 2), tuple(chosen["board"])
    )
    return camera.project(grid_points(spec, height=height))


def _turned(camera: Camera, turn: tuple[float, float]) -> Camera:
    """The camera panned and tilted by ``turn`` degrees about its own centre."""
    if turn == (0.0, 0.0):
        return camera
    pan, tilt = (math.radians(a) for a in turn)
    yaw = np.array(
        [[math.cos(pan), 0, -math.sin(pan)], [0, 1, 0], [math.sin(pan), 0, math.cos(pan)]]
    )
    pitch = np.array(
        [[1, 0, 0], [0, math.cos(tilt), -math.sin(tilt)], [0, math.sin(tilt), math.cos(tilt)]]
    )
    rotation = pitch @ yaw @ camera.rotation
    return dataclasses.replace(camera, rotation=rotation)


def _stones(
    board: Board,
    spec: BoardSpec,
    stone_spec: StoneSpec,
    placed: dict[tuple[int, int], Stone],
    *,
    rng: np.random.Generator,
) -> list[Stone]:
    """The board's stones, each keeping the spot where it was first set down."""
    result = []
    for r, row in enumerate(board):
        for c, what in enumerate(row):
            if what == ".":
                continue
            stone = placed.get((r, c))
            if stone is None or stone.color != what:
                stone = _set_down(r, c, what, spec, stone_spec, placed, rng=rng)
                placed[(r, c)] = stone
            result.append(stone)
    return result


def _set_down(
    r: int,
    c: int,
    color: str,
    spec: BoardSpec,
    stone_spec: StoneSpec,
    placed: dict[tuple[int, int], Stone],
    *,
    rng: np.random.Generator,
) -> Stone:
    """A stone put near its intersection without overlapping the stones around it."""
    near = [
        s
        for (pr, pc), s in placed.items()
        if abs(pr - r) <= 1 and abs(pc - c) <= 1 and (pr, pc) != (r, c)
    ]
    x0, y0 = c * spec.spacing_x, r * spec.spacing_y
    for reach in (0.15, 0.1, 0.05, 0.0):
        angle = float(rng.uniform(0, 2 * math.pi))
        x = x0 + reach * spec.spacing_x * math.cos(angle) * math.sqrt(float(rng.uniform()))
        y = y0 + reach * spec.spacing_y * math.sin(angle) * math.sqrt(float(rng.uniform()))
        if all(math.hypot(s.x - x, s.y - y) >= stone_spec.diameter for s in near):
            break
    return Stone(r, c, color, x, y, float(rng.normal(1.0, 0.04)))
