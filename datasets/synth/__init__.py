"""Synthetic board photos and game videos with exact truth.

Everything is modelled in millimetres (board, stones, camera, light) and drawn with
numpy and OpenCV, deterministically from a seed, so that the truth (the position,
the corner intersections in pixels, the moves and alerts of a video) is exact.

Typical use::

    games = Path("../shared/datasets/sgf/pro-and-ai-games")
    photo = render_photo(seed=7, difficulty="hard", games=games)
    photo.image            # (H, W, 3) uint8 BGR, exactly what photo.jpeg decodes to
    photo.board            # N strings as vision should read them, or None (no board)
    photo.corners          # (4, 2) pixels of board[0][0], [0][N-1], [N-1][N-1], [N-1][0]
    intersections(photo.truth, height=4.5)   # every point, lifted to a stone's middle

    truth = video_from_sgf(Path("game.sgf"), Path("game.mp4"), violations=["ko_violation"])
    truth["frames"][k]     # [board index, hand over board (0/1), pose index] of frame k

From the command line: ``kifu synth photos OUTDIR --n N --seed S --difficulty hard``
and ``kifu synth video GAME.sgf OUT.mp4 --fps 10 --violations double_move``.
"""

from datasets.synth.errors import SynthError
from datasets.synth.photos import (
    DIFFICULTIES,
    SynthPhoto,
    intersections,
    photo_seed,
    render_photo,
    write_photos,
)
from datasets.synth.video import render_video, video_from_sgf, video_intersections

__all__ = [
    "DIFFICULTIES",
    "SynthError",
    "SynthPhoto",
    "intersections",
    "photo_seed",
    "render_photo",
    "render_video",
    "video_from_sgf",
    "video_intersections",
    "write_photos",
]
