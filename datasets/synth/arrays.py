"""Array types, and typed views of what OpenCV returns (its stubs say little)."""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

F32 = NDArray[np.float32]
U8 = NDArray[np.uint8]


def f32(array: Any) -> F32:
    """The array as float32, without a copy when it already is."""
    return np.asarray(array, dtype=np.float32)


def u8(array: Any) -> U8:
    """The array as uint8, without a copy when it already is."""
    return np.asarray(array, dtype=np.uint8)
