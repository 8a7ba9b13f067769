"""Real photographs of physical boards with their true positions.

The photos live in the team's read-only ``../shared/datasets/photos`` folder (see its
README); nothing here copies them. Each photo ``NAME.jpg``/``NAME.png`` has a truth
file ``NAME.txt``: N lines of N space-separated tokens, ``.`` empty, ``B`` black,
``W`` white, row 0 nearest the image's top edge as the pixels are stored.

Truth boards come out in Kifu's text form: a tuple of N strings, top row first,
``'.'`` empty, ``'X'`` black, ``'O'`` white.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from vision.image_io import read_image

__all__ = [
    "DatasetError",
    "PhotoCase",
    "RealPhoto",
    "iter_real_photos",
    "parse_truth",
    "photo_cases",
]

#: Image file suffixes that have a truth file beside them.
IMAGE_SUFFIXES: tuple[str, ...] = (".jpg", ".jpeg", ".png")

_TOKENS: dict[str, str] = {".": ".", "B": "X", "W": "O"}


class DatasetError(ValueError):
    """A dataset file is missing or malformed; the message names the file."""


def parse_truth(text: str, *, source: str = "<truth>") -> tuple[str, ...]:
    """Parse a truth file's text into the board text form.

    Parameters
    ----------
    text : str
        N non-empty lines of N tokens among ``.``, ``B``, ``W``.
    source : str
        Where the text came from, quoted in errors.

    Returns
    -------
    tuple of str
        N rows, top row first, with ``'.'``, ``'X'`` (black), ``'O'`` (white).

    Raises
    ------
    DatasetError
        If a token is unknown or the board is not square.

    Examples
    --------
    >>> parse_truth(". B\\nW .\\n")
    ('.X', 'O.')
    """
    rows = [line.split() for line in text.splitlines() if line.strip()]
    size = len(rows)
    if size == 0:
        raise DatasetError(f"empty truth file {source!r}")
    board: list[str] = []
    for number, tokens in enumerate(rows, start=1):
        if len(tokens) != size:
            raise DatasetError(
                f"line {number} of {source!r} has {len(tokens)} tokens, expected {size}"
            )
        unknown = sorted(set(tokens) - _TOKENS.keys())
        if unknown:
            raise DatasetError(f"unknown token {unknown[0]!r} on line {number} of {source!r}")
        board.append("".join(_TOKENS[token] for token in tokens))
    return tuple(board)


@dataclass(frozen=True)
class PhotoCase:
    """One real photo and its truth, without the pixels (cheap to list)."""

    path: Path
    #: Folder relative to the photos root, e.g. ``"imago-tests/t2/skip"``.
    folder: str
    board: tuple[str, ...]

    @property
    def size(self) -> int:
        """Board size N (9, 13 or 19)."""
        return len(self.board)

    @property
    def name(self) -> str:
        """``folder/file`` — a short, unique id for tables and test ids."""
        return f"{self.folder}/{self.path.name}"

    def load(self) -> RealPhoto:
        """Read the pixels (stored orientation, EXIF ignored)."""
        return RealPhoto(
            image=read_image(self.path), board=self.board, path=self.path, size=self.size
        )


@dataclass(frozen=True)
class RealPhoto:
    """A real photo's pixels with its true board."""

    #: ndarray of shape (H, W, 3), uint8, BGR.
    image: npt.NDArray[np.uint8]
    board: tuple[str, ...]
    path: Path
    size: int


def photo_cases(photos_root: Path) -> list[PhotoCase]:
    """Every photo under ``photos_root`` that has a truth file, sorted by path.

    Includes every folder (``imago-tests/t2/skip``, 9×9, 13×13, gomrade).

    Raises
    ------
    DatasetError
        If the folder does not exist or holds no photos.
    """
    if not photos_root.is_dir():
        raise DatasetError(f"photos folder not found: {str(photos_root)!r}")
    cases: list[PhotoCase] = []
    for path in sorted(photos_root.rglob("*")):
        if path.suffix.lower() not in IMAGE_SUFFIXES:
            continue
        truth = path.with_suffix(".txt")
        if not truth.is_file():
            continue
        board = parse_truth(truth.read_text(encoding="utf-8"), source=str(truth))
        folder = path.parent.relative_to(photos_root).as_posix()
        cases.append(PhotoCase(path=path, folder=folder, board=board))
    if not cases:
        raise DatasetError(f"no photos with truth under {str(photos_root)!r}")
    return cases


def iter_real_photos(photos_root: Path) -> Iterator[RealPhoto]:
    """Yield every real photo with its truth, reading one image at a time."""
    for case in photo_cases(photos_root):
        yield case.load()
