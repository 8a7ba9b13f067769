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

from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, TypeVar, cast

import numpy as np
import numpy.typing as npt

__all__ = ["once_per_photo", "photo_kept", "recent_per_photo"]

T = TypeVar("T")

#: The photo being read within :func:`photo_kept`, and what has been worked out
#: from it so far, by key.
_KEPT: ContextVar[tuple[npt.NDArray[np.uint8], dict[Hashable, Any]] | None] = ContextVar(
    "kept_for_photo", default=None
)


@contextmanager
def photo_kept(image: npt.NDArray[np.uint8]) -> Iterator[None]:
    """Within, what :func:`once_per_photo` works out from ``image`` is worked out once.

    Within one for the same photo already, what the outer one keeps is kept on
    (a detection within a whole reading of the photo shares its work with it).
    """
    store = _KEPT.get()
    if store is not None and store[0] is image:
        yield
        return
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


def recent_per_photo(
    image: npt.NDArray[np.uint8], kind: str, key: Hashable, make: Callable[[], T], *, last: int
) -> T:
    """:func:`once_per_photo` for things too large to keep them all: the ``last`` of ``kind``.

    The ``last`` most recently asked for are kept (the least recent is let go);
    one asked for again after that is worked out again, the same.
    """
    store = _KEPT.get()
    if store is None or store[0] is not image:
        return make()
    recent = store[1].setdefault(("recent", kind), OrderedDict())
    if key in recent:
        recent.move_to_end(key)
    else:
        recent[key] = make()
        while len(recent) > last:
            recent.popitem(last=False)
    return cast(T, recent[key])
