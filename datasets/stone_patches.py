"""Labelled patches around every intersection of synthetic photos, for the stone model.

Each photo with a board is straightened on its TRUE grid (the rendered corners,
optionally jittered by a share of a cell so the model learns to tolerate a grid
found slightly off), and every intersection gives one example: the inputs
:func:`vision.learned.patch_inputs` computes, and the truth's mark as a class
index into :data:`vision.learned.LABELS`. Everything follows from the seeds, so a
training set can be rebuilt from the repository alone.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from datasets.real import DatasetError
from datasets.synth.photos import photo_seed, render_photo, shows_hand
from vision import BoardSampler, grid_from_corners
from vision.features import stone_features
from vision.image_io import read_image
from vision.learned import INPUTS, LABELS, patch_inputs

__all__ = [
    "PatchSet",
    "SynthCase",
    "folder_cases",
    "patch_set",
    "photo_patches",
    "rendered_cases",
]

U8 = npt.NDArray[np.uint8]


@dataclass(frozen=True, eq=False)
class PatchSet:
    """Examples for the stone model: one row per intersection."""

    #: ndarray of shape (M, INPUTS), float32.
    inputs: npt.NDArray[np.float32]
    #: ndarray of shape (M,), int64: index into ``LABELS`` ('.', 'X', 'O').
    labels: npt.NDArray[np.int64]
    #: ndarray of shape (M,), int64: which photo of the set each example came from.
    photo: npt.NDArray[np.int64]


@dataclass(frozen=True, eq=False)
class SynthCase:
    """A synthetic photo with a board: pixels and the truth the patches need."""

    name: str
    #: ndarray of shape (H, W, 3), uint8, BGR.
    image: U8
    board: tuple[str, ...]
    #: ndarray of shape (4, 2): image (x, y) of board[0][0], [0][N-1], [N-1][N-1], [N-1][0].
    corners: npt.NDArray[np.float64]
    #: The board's look (``"kaya"``, ``"light"``, ``"dark"``, ``"printed"``, ``"pale"``).
    look: str
    #: Points a hand hides (``truth["hand"]["hidden"]``), as (row, col).
    hidden: frozenset[tuple[int, int]] = frozenset()


def _case(name: str, image: U8, truth: dict[str, Any]) -> SynthCase | None:
    if truth.get("board") is None:
        return None
    return SynthCase(
        name=name,
        image=image,
        board=tuple(truth["board"]),
        corners=np.asarray(truth["corners"], dtype=np.float64),
        look=str(truth["params"]["board_look"]["style"]),
        hidden=frozenset((int(r), int(c)) for r, c in truth.get("hand", {}).get("hidden", ())),
    )


def rendered_cases(
    *,
    seed: int,
    photos: int,
    difficulty: str = "hard",
    games: Path | None = None,
    first: int = 0,
    harsh_light: bool = False,
    hands: float = 0.0,
) -> Iterator[SynthCase]:
    """Render photos ``first..first+photos-1`` of the run ``seed`` (as ``kifu synth photos`` does).

    ``harsh_light`` renders them with :data:`datasets.synth.photos.HARSH_LIGHT`;
    a share ``hands`` of them shows a hand over the board
    (:func:`datasets.synth.photos.shows_hand`, as ``kifu synth photos --hands`` does).
    Photos without a board are skipped, so fewer than ``photos`` cases may come out.
    """
    for index in range(first, first + photos):
        photo = render_photo(
            seed=photo_seed(seed, index),
            difficulty=difficulty,
            games=games,
            harsh_light=harsh_light,
            hand=shows_hand(seed, index, hands),
        )
        case = _case(f"{seed}/{index:05d}", photo.image, photo.truth)
        if case is not None:
            yield case


def folder_cases(folder: Path) -> Iterator[SynthCase]:
    """The photos with a board in a folder written by ``kifu synth photos``, by name.

    Raises
    ------
    DatasetError
        If the folder holds no ``NNNNN.json`` truth, or a truth file is malformed.
    """
    truths = sorted(folder.glob("*.json"))
    if not truths:
        raise DatasetError(f"no synthetic photos (NNNNN.json truth files) in {str(folder)!r}")
    for path in truths:
        try:
            truth = json.loads(path.read_text(encoding="utf-8"))
            case = _case(path.stem, read_image(path.with_suffix(".jpg")), truth)
        except (json.JSONDecodeError, KeyError, TypeError) as error:
            raise DatasetError(f"malformed synthetic truth {str(path)!r}: {error!r}") from None
        if case is not None:
            yield case


def photo_patches(
    case: SynthCase, *, jitter: float = 0.0, rng: np.random.Generator | None = None
) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.int64]]:
    """Inputs and labels of every intersection of one photo, read on its true grid.

    A stone a hand hides is left out: what the picture shows there is the hand, and
    the stone under it cannot be seen. An empty point the hand hides is kept, as
    empty: a hand is no stone.

    Parameters
    ----------
    case : SynthCase
    jitter : float
        Largest corner displacement, as a share of the grid spacing, each corner
        and axis drawn uniformly from ``rng`` (needed when ``jitter > 0``).

    Returns
    -------
    inputs : ndarray of shape (M, INPUTS), float32
        M is N*N less the hidden stones.
    labels : ndarray of shape (M,), int64
    """
    n = len(case.board)
    corners = case.corners
    if jitter > 0.0:
        if rng is None:
            raise ValueError(f"jitter {jitter!r} needs an rng")
        sides = np.linalg.norm(corners - np.roll(corners, 1, axis=0), axis=1)
        spacing = float(sides.mean()) / (n - 1)
        corners = corners + rng.uniform(-jitter, jitter, corners.shape) * spacing
    grid = grid_from_corners(corners, size=n, image_shape=case.image.shape[:2])
    warped = BoardSampler.for_grid(grid).warp(case.image)
    inputs = patch_inputs(warped, stone_features(warped, n))
    labels = np.array([LABELS.index(mark) for row in case.board for mark in row], dtype=np.int64)
    if not case.hidden:
        return inputs, labels
    seen = np.array(
        [
            (r, c) not in case.hidden or mark == "."
            for r, row in enumerate(case.board)
            for c, mark in enumerate(row)
        ]
    )
    return inputs[seen], labels[seen]


def patch_set(
    cases: Iterator[SynthCase] | list[SynthCase],
    *,
    jitter: float = 0.0,
    rng: np.random.Generator | None = None,
    progress: Callable[[int, SynthCase], None] | None = None,
) -> PatchSet:
    """Every intersection of every case, stacked; ``progress(count, case)`` after each."""
    inputs: list[npt.NDArray[np.float32]] = []
    labels: list[npt.NDArray[np.int64]] = []
    photo: list[npt.NDArray[np.int64]] = []
    for number, case in enumerate(cases):
        x, y = photo_patches(case, jitter=jitter, rng=rng)
        inputs.append(x)
        labels.append(y)
        photo.append(np.full(len(y), number, dtype=np.int64))
        if progress is not None:
            progress(number + 1, case)
    if not inputs:
        raise DatasetError("no photo with a board to cut patches from")
    return PatchSet(
        inputs=np.concatenate(inputs).reshape(-1, INPUTS),
        labels=np.concatenate(labels),
        photo=np.concatenate(photo),
    )
