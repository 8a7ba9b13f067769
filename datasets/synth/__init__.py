"""Synthetic board photos and game videos with exact truth.

Everything is modelled in millimetres (board, stones, camera, light) and drawn with
numpy and OpenCV, deterministically from a seed, so that the truth (the position,
the corner intersections in pixels, the moves and alerts of a video) is exact.
"""

from datasets.synth.errors import SynthError
from datasets.synth.photos import DIFFICULTIES, SynthPhoto, photo_seed, render_photo, write_photos

__all__ = [
    "DIFFICULTIES",
    "SynthError",
    "SynthPhoto",
    "photo_seed",
    "render_photo",
    "write_photos",
]
