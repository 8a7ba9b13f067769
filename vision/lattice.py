"""A board's lattice from its stones: for boards whose grid lines cannot be seen.

Blur, a low, grazing view or a crowded position can leave too little of the grid
lines for :mod:`vision.grid` to find; the stones are still there, and every stone
sits on an intersection. Their centres are round blobs (dark and bright) of one
size; the lattice through them is grown from a seed stone:

1. The seed's two nearest neighbours in different directions give a basis, which
   Lagrange–Gauss reduction turns into the shortest one (a diagonal neighbour
   and a side one span the same lattice as two sides).
2. Stones within a growing reach of those already placed, and within
   ``MAX_RESIDUAL`` of a lattice point, join; a homography is refitted to them,
   until no stone joins.
3. Stones sitting half a step between the lattice points (seed neighbours two
   cells apart, or diagonal both) mean the true lattice is finer: it is halved
   and grown again.

The seed whose lattice takes in the most stones wins. On a nearly full board the
stones merge into regions no blob detector keeps; :func:`touching_centres` finds
them as the cores of those regions. Pixel coordinates are
OpenCV's ``(x, y)``; lattice coordinates ``(u, v)`` are integers at stones.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt
from skimage.filters import threshold_multiotsu

from vision.geometry import apply_homography, fit_homography

__all__ = [
    "PointLattice",
    "diagonal_sublattice",
    "fit_point_lattice",
    "refit_point_lattice",
    "stone_centres",
    "touching_centres",
]

FloatArray = npt.NDArray[np.float64]

#: Largest distance (cells, per axis) from a lattice point at which a stone is on it.
MAX_RESIDUAL = 0.3
#: Seeds tried (spread over the stones, closest-packed first).
SEEDS = 12
#: Growth rounds; the reach (cells) around placed stones grows by one each round.
ROUNDS = 15
#: Stones at half-steps, as a share of those on the lattice, that make it finer.
FINER_SHARE = 0.5
#: Reach (cells, per axis) within which a stone is taken for the lattice point
#: nearest it while a lattice is refitted from a first guess, and the rounds.
REFIT_REACH = 0.45
REFIT_ROUNDS = 8
#: Least share of the stones in each parity class of a lattice (u, v, u + v mod 2):
#: a lattice twice too fine leaves one class empty.
MIN_PARITY_SHARE = 0.1


#: Least circularity, convexity and inertia ratio of a stone's blob, and the
#: threshold levels it must be seen at: strict, and loose for touching stones.
STRICT_SHAPE = (0.7, 0.9, 0.4, 3)
LOOSE_SHAPE = (0.5, 0.8, 0.3, 2)


@dataclass(frozen=True, eq=False)
class PointLattice:
    """A lattice through some of the points: which, at what integer ``(u, v)``."""

    #: ndarray of shape (3, 3): lattice ``(u, v)`` to image ``(x, y)``.
    homography: FloatArray
    #: ndarray of shape (P,), bool: the points on the lattice.
    on: npt.NDArray[np.bool_]
    #: ndarray of shape (P, 2), float64: every point's nearest lattice ``(u, v)``.
    coords: FloatArray
    #: ndarray of shape (P,), float64: every point's distance from it (cells, per axis).
    residuals: FloatArray

    @property
    def count(self) -> int:
        """How many points are on the lattice."""
        return int(self.on.sum())


def stone_centres(
    gray: npt.NDArray[np.uint8], *, loose: bool = False, together: bool = False
) -> tuple[FloatArray, float]:
    """Centres of round dark and bright blobs of a stone's size, and that radius.

    OpenCV's blob detector thresholds the image at many levels and keeps round,
    convex, compact blobs. Small bright blobs between four stones, or specks, are
    dropped by size: a board's stones are the largest common blobs (radius near the
    upper quartile). ``loose`` keeps blobs less round and seen at fewer levels
    (``LOOSE_SHAPE``): touching stones merge at most levels, and on crowded boards
    the strict shapes find a quarter of the stones (dev photos, 29 nearly full
    boards: 1796 of 7380), the loose ones a third (2450), with more specks.

    The detector finds the same contours at each threshold for dark blobs and
    for bright ones and only then sorts them by colour: ``together`` takes both
    in one pass, in half the time. Blobs of the two colours within a stone's
    radius are then counted as one over the thresholds (a stone's highlight
    with the stone). For the stones' lattice that lost six boards on the dev
    seeds and placed three more, so only the count of stones beyond a window
    (:func:`vision.grid.find_grid`) takes it.

    Returns
    -------
    centres : ndarray of shape (P, 2), float64
    radius : float
        The stones' typical radius in pixels (0 when there are none).
    """
    found: list[tuple[float, float, float]] = []
    for colour in (None,) if together else (0, 255):
        params = cv2.SimpleBlobDetector.Params()
        params.filterByColor = colour is not None
        params.blobColor = 0 if colour is None else colour
        params.minThreshold, params.maxThreshold, params.thresholdStep = 10, 250, 10
        params.filterByArea = True
        params.minArea, params.maxArea = 12, 4000
        circularity, convexity, inertia, repeatability = LOOSE_SHAPE if loose else STRICT_SHAPE
        params.filterByCircularity = True
        params.minCircularity = circularity
        params.filterByConvexity = True
        params.minConvexity = convexity
        params.filterByInertia = True
        params.minInertiaRatio = inertia
        params.minRepeatability = repeatability
        params.minDistBetweenBlobs = 4
        detector = cv2.SimpleBlobDetector.create(params)
        found.extend((k.pt[0], k.pt[1], 0.5 * k.size) for k in detector.detect(gray))
    if not found:
        return np.zeros((0, 2)), 0.0
    blobs = np.array(found, dtype=np.float64)
    radius = float(np.percentile(blobs[:, 2], 75))
    keep = (blobs[:, 2] > 0.6 * radius) & (blobs[:, 2] < 1.5 * radius)
    return blobs[keep, :2], radius


#: Radii (pixels) of the bands in which :func:`touching_centres` seeks stones'
#: cores: from 4 pixels in steps of 1.4, each band taking 0.75 to 1.33 of its radius.
CORE_RADII = tuple(4.0 * 1.4**k for k in range(8))
CORE_BAND = (0.75, 1.33)
#: Least distance (pixels) from a stone's core to its edge.
MIN_CORE = 3.0
#: Most cores in a band worth a lattice: three times the points of a 19×19
#: board. More is the texture of a table or a floor (dev no-board photos: up to
#: 2317 in a band, 1.4 s to fit), where the nearly full boards read from their
#: cores had 428 to 701.
MAX_CORES = 3 * 19 * 19


def touching_centres(gray: npt.NDArray[np.uint8]) -> tuple[FloatArray, float]:
    """Centres of stones that touch, as the cores of the dark and the bright regions.

    On a nearly full board the stones touch and merge into regions the blob
    detector (:func:`stone_centres`) rejects. The image is split into dark,
    middle and bright by a three-class Otsu threshold; in the dark and the bright
    regions, each stone's centre is a peak of the distance to the region's edge,
    even where it touches its neighbours (the neck between two discs is
    narrower). Peaks of one radius band are the stones of one board: the band
    whose lattice (:func:`fit_point_lattice`) takes in most, and of those, the
    stones in the largest connected patch of lattice points (the table's texture
    gives peaks too, some on the lattice's far extension).

    Returns
    -------
    centres : ndarray of shape (P, 2), float64
    radius : float
        The band's radius in pixels (0 when there are no stones).
    """
    none = (np.zeros((0, 2)), 0.0)
    if int(gray.max()) - int(gray.min()) < 3:
        return none
    low, high = threshold_multiotsu(gray, classes=3)  # type: ignore[no-untyped-call]
    peaks = []
    for region in (gray < low, gray > high):
        opened = cv2.morphologyEx(
            region.astype(np.uint8), cv2.MORPH_OPEN, np.ones((3, 3), np.uint8)
        )
        depth = cv2.distanceTransform(opened, cv2.DIST_L2, 5)
        top = (depth >= cv2.dilate(depth, np.ones((5, 5), np.uint8))) & (depth >= MIN_CORE)
        ys, xs = np.nonzero(top)
        peaks.append(np.stack([xs, ys, depth[ys, xs]], axis=1).astype(np.float64))
    found = np.concatenate(peaks)
    best: tuple[PointLattice, FloatArray, float] | None = None
    for radius in CORE_RADII:
        band = found[
            (found[:, 2] >= CORE_BAND[0] * radius) & (found[:, 2] <= CORE_BAND[1] * radius)
        ]
        lattice = fit_point_lattice(band[:, :2]) if 8 <= len(band) <= MAX_CORES else None
        if lattice is not None and (best is None or lattice.count > best[0].count):
            best = (lattice, band[:, :2], radius)
    if best is None:
        return none
    lattice, centres, radius = best
    coords = lattice.coords[lattice.on].astype(np.int64)
    low_uv = coords.min(axis=0)
    occupied = np.zeros(tuple(coords.max(axis=0) - low_uv + 1)[::-1], dtype=np.uint8)
    occupied[coords[:, 1] - low_uv[1], coords[:, 0] - low_uv[0]] = 1
    _, patches = cv2.connectedComponents(cv2.dilate(occupied, np.ones((3, 3), np.uint8)))
    patch = patches[coords[:, 1] - low_uv[1], coords[:, 0] - low_uv[0]]
    largest = np.bincount(patch).argmax()
    return centres[lattice.on][patch == largest], radius


def _degenerate(homography: FloatArray) -> bool:
    """Whether a lattice's homography is singular (its basis collinear) or not finite."""
    return not np.all(np.isfinite(homography)) or float(np.linalg.cond(homography)) > 1e12


def _inverse(homography: FloatArray) -> FloatArray:
    return np.asarray(np.linalg.inv(homography), dtype=np.float64)


def _reduced(a: FloatArray, b: FloatArray) -> tuple[FloatArray, FloatArray]:
    """The shortest basis of the lattice that ``a`` and ``b`` span (Lagrange–Gauss)."""
    for _ in range(32):
        if a @ a > b @ b:
            a, b = b, a
        k = round(float(a @ b) / float(a @ a))
        if k == 0:
            break
        b = b - k * a
    return a, b


def _fit(source: FloatArray, target: FloatArray) -> FloatArray | None:
    """Homography from lattice to image (affine while the points are few)."""
    if len(source) >= 8:
        found = fit_homography(source, target)
        if found is not None:
            return found
    affine, _ = cv2.estimateAffine2D(
        source.astype(np.float32), target.astype(np.float32), method=cv2.LMEDS
    )
    if affine is None:
        return None
    return np.vstack([affine, [0.0, 0.0, 1.0]])


def _place(points: FloatArray, homography: FloatArray) -> tuple[FloatArray, FloatArray]:
    """Every point's nearest lattice point, and its distance from it (per axis)."""
    uv = apply_homography(_inverse(homography), points)
    nearest = np.round(uv)
    return nearest, np.abs(uv - nearest).max(axis=1)


def _grow(points: FloatArray, seed: int, a: FloatArray, b: FloatArray) -> PointLattice | None:
    """The lattice with basis ``a``, ``b`` at the seed, grown over the points."""
    homography = np.array(
        [[a[0], b[0], points[seed, 0]], [a[1], b[1], points[seed, 1]], [0, 0, 1.0]]
    )
    if _degenerate(homography):
        return None
    on = np.zeros(len(points), dtype=bool)
    on[seed] = True
    for round_ in range(ROUNDS):
        nearest, residual = _place(points, homography)
        reach = 1.5 + round_
        placed = nearest[on]
        near = np.abs(nearest[:, None, :] - placed[None]).max(axis=-1).min(axis=1) <= reach
        candidates = np.flatnonzero((residual < MAX_RESIDUAL) & near)
        # One stone per lattice point: the closest.
        chosen = np.zeros(len(points), dtype=bool)
        taken: set[tuple[float, float]] = set()
        for k in candidates[np.argsort(residual[candidates])]:
            key = (float(nearest[k, 0]), float(nearest[k, 1]))
            if key not in taken:
                taken.add(key)
                chosen[k] = True
        if chosen.sum() < 3:
            return None
        refitted = _fit(nearest[chosen], points[chosen])
        if refitted is None or refitted[2, 2] == 0 or _degenerate(refitted):
            return None
        settled = bool((chosen == on).all()) and round_ > 1
        homography, on = refitted / refitted[2, 2], chosen
        if settled:
            break
    nearest, residual = _place(points, homography)
    return PointLattice(homography=homography, on=on, coords=nearest, residuals=residual)


#: Half-steps at which stones betray a finer lattice, and the change of basis to it.
_FINER: tuple[tuple[tuple[float, float], FloatArray], ...] = (
    ((0.5, 0.5), np.array([[0.5, 0.5], [0.5, -0.5]])),
    ((0.5, 0.0), np.diag([0.5, 1.0])),
    ((0.0, 0.5), np.diag([1.0, 0.5])),
)


def _finer(
    points: FloatArray, lattice: PointLattice, seed: int
) -> tuple[FloatArray, FloatArray] | None:
    """A basis at the seed for a lattice at half the step, if stones sit at half-steps."""
    uv = apply_homography(_inverse(lattice.homography), points)
    frac = uv - np.round(uv)
    on_points = int((np.abs(frac).max(axis=1) < 0.2).sum())
    best: tuple[int, FloatArray] | None = None
    for offset, change in _FINER:
        off = frac - np.array(offset)
        count = int((np.abs(off - np.round(off)).max(axis=1) < 0.2).sum())
        if count >= max(4, FINER_SHARE * on_points) and (best is None or count > best[0]):
            best = (count, change)
    if best is None:
        return None
    change3 = np.eye(3)
    change3[:2, :2] = best[1]
    finer = lattice.homography @ change3
    at = apply_homography(_inverse(finer), points[seed : seed + 1])[0]
    origin, step_u, step_v = apply_homography(
        finer, at + np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]])
    )
    return step_u - origin, step_v - origin


def _too_fine(lattice: PointLattice) -> bool:
    """Whether the stones keep to one half of the lattice (a checkerboard's colour).

    Any real position has stones on both parities of both axes; a lattice at half
    the board's step, or turned 45° through the board's diagonals, does not.
    """
    coords = lattice.coords[lattice.on].astype(np.int64)
    for parity in (coords[:, 0] % 2, coords[:, 1] % 2, (coords[:, 0] + coords[:, 1]) % 2):
        share = float(parity.mean())
        if min(share, 1.0 - share) < MIN_PARITY_SHARE:
            return True
    return False


def fit_point_lattice(points: npt.ArrayLike, *, seeds: int = SEEDS) -> PointLattice | None:
    """The lattice through most of the points (stones' centres), or None.

    Parameters
    ----------
    points : array-like of shape (P, 2)
        Image ``(x, y)`` of the points; some may be off the lattice (stones off the
        board, specks).
    seeds : int
        How many seed points to grow from.

    Returns
    -------
    PointLattice or None
        None when fewer than 8 points, or no seed grows a lattice.
    """
    xy = np.asarray(points, dtype=np.float64).reshape(-1, 2)
    if len(xy) < 8:
        return None
    offsets = xy[None] - xy[:, None]
    distance = np.linalg.norm(offsets, axis=-1)
    np.fill_diagonal(distance, np.inf)
    nearest = np.sort(distance, axis=1)[:, 0]
    best: PointLattice | None = None
    for seed in np.argsort(nearest)[:: max(1, len(xy) // seeds)][:seeds]:
        seed = int(seed)
        neighbours = np.argsort(distance[seed])[:6]
        vectors = offsets[seed, neighbours]
        first = vectors[0]
        second = next(
            (
                v
                for v in vectors[1:]
                if abs(float(v @ first)) < 0.8 * float(np.linalg.norm(v) * np.linalg.norm(first))
            ),
            None,
        )
        if second is None:
            continue
        grown = _grow(xy, seed, *_reduced(first, second))
        for _ in range(2):
            if grown is None:
                break
            basis = _finer(xy, grown, seed)
            if basis is None:
                break
            again = _grow(xy, seed, *_reduced(*basis))
            if again is None or again.count < grown.count:
                break
            grown = again
        if grown is None or _too_fine(grown):
            continue
        if best is None or grown.count > best.count:
            best = grown
    return best


def diagonal_sublattice(lattice: PointLattice, points: npt.ArrayLike, parity: int) -> PointLattice:
    """Every other point of ``lattice``: the lattice turned 45 degrees and √2 coarser.

    On a crowded board the board shows between the stones, and its bright or
    dark patches (between four stones, or two at the edge) are blobs of a
    stone's size too. The lattice through them all is √2 finer than the board's
    and turned 45 degrees; the stones are the points of one class, those whose
    ``u + v`` is even or odd (``parity``), where the finer lattice's own checks
    (each class a share of the points) cannot tell. The new ``(a, b)`` are such
    that ``u = a - b + parity``, ``v = a + b``; points of the other class are off.
    """
    turn = np.array([[1.0, -1.0, float(parity)], [1.0, 1.0, 0.0], [0.0, 0.0, 1.0]])
    homography = lattice.homography @ turn
    at = apply_homography(_inverse(homography), np.asarray(points, dtype=np.float64))
    coords = np.round(at)
    residuals = np.abs(at - coords).max(axis=1)
    in_class = np.mod(lattice.coords.sum(axis=1), 2) == parity
    on = lattice.on & in_class & (residuals <= MAX_RESIDUAL)
    return PointLattice(homography=homography, on=on, coords=coords, residuals=residuals)


def refit_point_lattice(
    points: npt.ArrayLike,
    homography: npt.ArrayLike,
    size: int,
    *,
    reach: float = REFIT_REACH,
    rounds: int = REFIT_ROUNDS,
) -> PointLattice | None:
    """The lattice through the points (stones' centres), refitted from a first guess.

    A placement can be right near most of its stones and a corner over half a
    cell off. Each point is taken for the lattice point of the ``size`` ×
    ``size`` board nearest it, where within ``reach``, and a homography is
    refitted to those; repeated ``rounds`` times (an iterative closest point
    fit), so the stones near the right part of the board pull the rest over.
    ``on`` marks the points within ``MAX_RESIDUAL`` of the refitted lattice.
    None where fewer than 8 points are ever within reach on the board.
    """
    xy = np.asarray(points, dtype=np.float64).reshape(-1, 2)
    fitted = np.asarray(homography, dtype=np.float64)
    for _ in range(rounds):
        nearest, residual = _place(xy, fitted)
        near = (residual < reach) & (nearest.min(axis=1) >= 0) & (nearest.max(axis=1) <= size - 1)
        if near.sum() < 8:
            return None
        again = fit_homography(nearest[near], xy[near])
        if again is None or _degenerate(again):
            return None
        fitted = again
    coords, residuals = _place(xy, fitted)
    return PointLattice(
        homography=fitted, on=residuals <= MAX_RESIDUAL, coords=coords, residuals=residuals
    )
