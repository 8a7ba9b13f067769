"""What one detection works out from its photo, kept while the photo is read.

A detection weighs many grids on one photo, and its checks read the same maps of
it again and again: the same grid's certainty when an outline's margins are
chosen, when it is centred and when it is scored; the working copy's line
response for every snap, stretch and count of crossings. Within
:func:`photo_kept`, :func:`once_per_photo` works each out once for that photo
and keeps it. The photo must not change within, and a thing is the same only
where its key is, so every result is as without.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, TypeVar, cast

import numpy as np
import numpy.typing as npt

__all__ = ["once_per_photo", "photo_kept"]

T = TypeVar("T")

#: The photo being read within :func:`photo_kept`, and what has been worked out
#: from it so far, by key.
_KEPT: ContextVar[tuple[npt.NDArray[np.uint8], dict[Hashable, Any]] | None] = ContextVar(
    "kept_for_photo", default=None
)


@contextmanager
def photo_kept(image: npt.NDArray[np.uint8]) -> Iterator[None]:
    """Within, what :func:`once_per_photo` works out from ``image`` is worked out once."""
    token = _KEPT.set((image, {}))
    try:
        yield
    finally:
        _KEPT.reset(token)


def once_per_photo(image: npt.NDArray[np.uint8], key: Hashable, make: Callable[[], T]) -> T:
    """``make()``, worked out once per ``key`` for the photo within :func:`photo_kept`.

    For any other photo (the very array, not an equal one), or outside, it is
    worked out each time.
    """
    store = _KEPT.get()
    if store is None or store[0] is not image:
        return make()
    if key not in store[1]:
        store[1][key] = make()
    return cast(T, store[1][key])
