"""Medians by sorting: the very numbers ``np.median`` gives, ties and bytes included."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
import pytest

from vision.robust import median, medians


@pytest.mark.parametrize("shape", [(1,), (2,), (361,), (400,), (19, 19), (20, 20)])
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_median_gives_numpys_median_exactly(shape: tuple[int, ...], dtype: type) -> None:
    rng = np.random.default_rng(7)
    values = rng.normal(size=shape).astype(dtype)
    assert median(values) == float(np.median(values))
    rounded = np.round(values * 4.0)  # ties, as brightness in whole grey levels has
    assert median(rounded) == float(np.median(rounded))


def test_the_median_of_bright_bytes_does_not_wrap_around() -> None:
    # 250 and 252 summed as bytes would wrap to 246; numpy averages them as floats.
    values = np.array([250, 252, 10, 255], dtype=np.uint8)
    assert median(values) == float(np.median(values)) == 251.0


def test_the_median_of_nothing_is_nan() -> None:
    assert np.isnan(median(np.empty(0)))


@pytest.mark.parametrize("dtype", [np.uint8, np.float32, np.float64])
@pytest.mark.parametrize("count", [29, 32, 54])  # one middle value, or two to average
def test_medians_along_the_last_axis_are_numpys(dtype: type, count: int) -> None:
    rng = np.random.default_rng(8)
    values: npt.NDArray[np.generic] = (rng.random((3, 40, count)) * 255).astype(dtype)
    values[0, :, : count // 3] = 0  # the border a remap fills in, many equal values
    expected = np.median(values, axis=-1)
    found = medians(values)
    assert found.dtype == expected.dtype
    assert np.array_equal(found, expected)
