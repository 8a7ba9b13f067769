"""Line evidence: the dark thin grid lines of a board, as a mask and as segments.

Pixel coordinates in this module are OpenCV's ``(x, y)``: x to the right, y down,
origin at the top-left pixel centre.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

__all__ = ["Segments", "find_segments", "line_response", "split_families"]

FloatArray = npt.NDArray[np.float64]


def line_response(gray: npt.NDArray[np.uint8], *, width: int = 7) -> npt.NDArray[np.uint8]:
    """Strength of thin dark lines: a morphological black-hat.

    Parameters
    ----------
    gray : ndarray of shape (H, W), uint8
    width : int
        Structures darker than their surroundings and narrower than ``width``
        pixels respond; stones, being wider, mostly do not.

    Returns
    -------
    ndarray of shape (H, W), uint8
    """
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (width, width))
    return np.asarray(cv2.morphologyEx(gray, cv2.MORPH_BLACKHAT, kernel), dtype=np.uint8)


@dataclass(frozen=True, eq=False)
class Segments:
    """Line segments as arrays of endpoints, ``(x1, y1, x2, y2)`` per row."""

    #: ndarray of shape (S, 4), float64.
    ends: FloatArray

    def __len__(self) -> int:
        return int(self.ends.shape[0])

    @property
    def lengths(self) -> FloatArray:
        """Length of each segment in pixels."""
        d = self.ends[:, 2:] - self.ends[:, :2]
        return np.asarray(np.hypot(d[:, 0], d[:, 1]), dtype=np.float64)

    @property
    def angles(self) -> FloatArray:
        """Direction of each segment in degrees, in [0, 180)."""
        d = self.ends[:, 2:] - self.ends[:, :2]
        return np.asarray(np.degrees(np.arctan2(d[:, 1], d[:, 0])) % 180.0, dtype=np.float64)

    def subset(self, keep: npt.NDArray[np.bool_]) -> Segments:
        """The segments where ``keep`` is true."""
        return Segments(self.ends[keep])


def find_segments(mask: npt.NDArray[np.uint8], *, min_length: float) -> Segments:
    """Straight segments in a binary line mask (probabilistic Hough transform)."""
    found = cv2.HoughLinesP(
        mask,
        rho=1.0,
        theta=np.pi / 360.0,
        threshold=max(10, int(min_length * 0.6)),
        minLineLength=min_length,
        maxLineGap=max(2.0, min_length / 3.0),
    )
    if found is None:
        return Segments(np.zeros((0, 4), dtype=np.float64))
    return Segments(found.reshape(-1, 4).astype(np.float64))


def split_families(
    segments: Segments, *, min_separation: float = 35.0, max_deviation: float = 40.0
) -> tuple[Segments, Segments] | None:
    """Split segments into the two families of grid lines by direction.

    The two strongest directions of a length-weighted, circularly smoothed angle
    histogram, at least ``min_separation`` degrees apart, seed the families; each
    segment joins the nearer one unless it is more than ``max_deviation`` degrees from
    both. The family closer to vertical in the image comes first. Returns None when
    there are not two directions.
    """
    if len(segments) < 4:
        return None
    angles = segments.angles
    hist = np.bincount(
        np.round(angles).astype(np.int64) % 180, weights=segments.lengths, minlength=180
    )
    kernel = np.exp(-0.5 * (np.arange(-6, 7) / 2.0) ** 2)
    smooth = np.convolve(np.concatenate([hist[-6:], hist, hist[:6]]), kernel, mode="valid")
    first = int(np.argmax(smooth))
    distance = np.abs((np.arange(180) - first + 90) % 180 - 90)
    second_scores = np.where(distance >= min_separation, smooth, -1.0)
    second = int(np.argmax(second_scores))
    if second_scores[second] <= 0.0:
        return None
    d1 = np.abs((angles - first + 90.0) % 180.0 - 90.0)
    d2 = np.abs((angles - second + 90.0) % 180.0 - 90.0)
    in_first = (d1 <= d2) & (d1 <= max_deviation)
    in_second = (d2 < d1) & (d2 <= max_deviation)
    one, two = segments.subset(in_first), segments.subset(in_second)
    if len(one) < 2 or len(two) < 2:
        return None
    # Closer to vertical (90 degrees) first.
    if abs(first - 90) > abs(second - 90):
        one, two = two, one
    return one, two
