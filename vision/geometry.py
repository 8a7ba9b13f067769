"""Projective geometry helpers: homographies, vanishing points, 1-D lattices.

Pixel coordinates are OpenCV's ``(x, y)``. Board lattice coordinates are
``(u, v) = (col, row)`` in grid units, so that a homography maps ``(u, v, 1)`` to
image ``(x, y, 1)``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from vision.robust import median

__all__ = [
    "Lattice1D",
    "apply_homography",
    "cell_aspect",
    "clockwise_from_top_left",
    "comb_lattices",
    "fit_homography",
    "fit_lattice",
    "focal_length",
    "vanishing_point",
]

FloatArray = npt.NDArray[np.float64]


def clockwise_from_top_left(quad: FloatArray) -> FloatArray:
    """A quadrilateral's corners clockwise on screen (y down), from the one nearest the top-left.

    The order :func:`vision.grid.grid_from_corners` takes: board[0][0],
    board[0][N-1], board[N-1][N-1], board[N-1][0].
    """
    centre = quad.mean(axis=0)
    ordered = quad[np.argsort(np.arctan2(quad[:, 1] - centre[1], quad[:, 0] - centre[0]))]
    return np.roll(ordered, -int(np.argmin(ordered.sum(axis=1))), axis=0)


def apply_homography(homography: FloatArray, points: FloatArray) -> FloatArray:
    """Map points through a 3×3 homography.

    Parameters
    ----------
    homography : ndarray of shape (3, 3)
    points : ndarray of shape (..., 2)

    Returns
    -------
    ndarray of shape (..., 2), float64
    """
    flat = np.asarray(points, dtype=np.float64).reshape(-1, 2)
    mapped = flat @ homography[:, :2].T + homography[:, 2]
    out = mapped[:, :2] / mapped[:, 2:3]
    return np.asarray(out.reshape(np.shape(points)), dtype=np.float64)


def _normalizer(points: FloatArray) -> FloatArray:
    """Hartley normalisation: centre the points, mean distance sqrt(2)."""
    centre = points.mean(axis=0)
    scale = np.sqrt(2.0) / max(float(np.mean(np.linalg.norm(points - centre, axis=1))), 1e-12)
    return np.array(
        [[scale, 0.0, -scale * centre[0]], [0.0, scale, -scale * centre[1]], [0.0, 0.0, 1.0]]
    )


def fit_homography(
    source: FloatArray, target: FloatArray, *, weights: FloatArray | None = None
) -> FloatArray | None:
    """Least-squares homography mapping ``source`` points onto ``target`` (normalised DLT).

    Parameters
    ----------
    source, target : ndarray of shape (K, 2)
        Corresponding points, K >= 4, not all collinear.
    weights : ndarray of shape (K,), optional
        Non-negative weight per correspondence.

    Returns
    -------
    ndarray of shape (3, 3) or None
        Normalised so that ``H[2, 2] == 1``; None when the points are degenerate.
    """
    src = np.asarray(source, dtype=np.float64).reshape(-1, 2)
    dst = np.asarray(target, dtype=np.float64).reshape(-1, 2)
    if len(src) < 4 or len(src) != len(dst):
        return None
    ts, td = _normalizer(src), _normalizer(dst)
    s = src @ ts[:2, :2].T + ts[:2, 2]
    d = dst @ td[:2, :2].T + td[:2, 2]
    ones, zeros = np.ones(len(s)), np.zeros(len(s))
    rows_x = np.column_stack(
        [
            -s[:, 0],
            -s[:, 1],
            -ones,
            zeros,
            zeros,
            zeros,
            d[:, 0] * s[:, 0],
            d[:, 0] * s[:, 1],
            d[:, 0],
        ]
    )
    rows_y = np.column_stack(
        [
            zeros,
            zeros,
            zeros,
            -s[:, 0],
            -s[:, 1],
            -ones,
            d[:, 1] * s[:, 0],
            d[:, 1] * s[:, 1],
            d[:, 1],
        ]
    )
    system = np.vstack([rows_x, rows_y])
    if weights is not None:
        w = np.sqrt(np.clip(np.asarray(weights, dtype=np.float64), 0.0, None))
        system = system * np.concatenate([w, w])[:, None]
    # The solution is the eigenvector of the smallest eigenvalue of AᵀA (a 9×9
    # problem, however many points); the other 8 directions must be determined.
    eigenvalues, eigenvectors = np.linalg.eigh(system.T @ system)
    if eigenvalues[1] < 1e-12 * eigenvalues[-1]:
        return None
    h = eigenvectors[:, 0].reshape(3, 3)
    full = np.linalg.inv(td) @ h @ ts
    if abs(full[2, 2]) < 1e-12:
        return None
    return np.asarray(full / full[2, 2], dtype=np.float64)


def vanishing_point(
    ends: FloatArray,
    weights: FloatArray,
    *,
    rng: np.random.Generator,
    max_angle: float = 1.5,
    trials: int = 300,
) -> tuple[FloatArray, npt.NDArray[np.bool_]] | None:
    """The common point of a family of image segments (possibly at infinity).

    RANSAC over pairs of segments; a segment supports a candidate point when the
    direction from its midpoint to the point is within ``max_angle`` degrees of its
    own direction. The winner is refined by weighted least squares on its support.

    Parameters
    ----------
    ends : ndarray of shape (S, 4)
        Segment endpoints ``(x1, y1, x2, y2)``, in any consistent frame.
    weights : ndarray of shape (S,)
        Support each segment lends (its length, typically).
    rng : numpy.random.Generator
        Source of the random pairs.

    Returns
    -------
    (point, inliers) or None
        ``point`` homogeneous, shape (3,), unit norm; ``inliers`` a boolean mask.
    """
    count = len(ends)
    if count < 2:
        return None
    p1 = np.column_stack([ends[:, :2], np.ones(count)])
    p2 = np.column_stack([ends[:, 2:], np.ones(count)])
    lines = np.cross(p1, p2)
    lines /= np.linalg.norm(lines[:, :2], axis=1, keepdims=True) + 1e-12
    direction = ends[:, 2:] - ends[:, :2]
    direction /= np.linalg.norm(direction, axis=1, keepdims=True) + 1e-12
    middle = 0.5 * (ends[:, :2] + ends[:, 2:])
    limit = np.sin(np.radians(max_angle))
    probability = weights / weights.sum()

    def support(point: FloatArray) -> npt.NDArray[np.bool_]:
        toward = point[:2][None, :] - middle * point[2]
        toward /= np.linalg.norm(toward, axis=1, keepdims=True) + 1e-12
        sine = np.abs(direction[:, 0] * toward[:, 1] - direction[:, 1] * toward[:, 0])
        return np.asarray(sine < limit)

    pairs = rng.choice(count, size=(trials, 2), p=probability)
    pairs = pairs[pairs[:, 0] != pairs[:, 1]]
    candidates = np.cross(lines[pairs[:, 0]], lines[pairs[:, 1]])
    norms = np.linalg.norm(candidates, axis=1)
    candidates = candidates[norms > 1e-12] / norms[norms > 1e-12, None]
    if len(candidates) == 0:
        return None
    # Support of every candidate at once: (candidates, segments).
    toward = candidates[:, None, :2] - middle[None, :, :] * candidates[:, None, 2:3]
    toward /= np.linalg.norm(toward, axis=2, keepdims=True) + 1e-12
    sine = np.abs(direction[None, :, 0] * toward[..., 1] - direction[None, :, 1] * toward[..., 0])
    scores = (sine < limit) @ weights
    best_mask = support(candidates[int(np.argmax(scores))])
    if best_mask.sum() < 2:
        return None
    for _ in range(2):
        chosen = lines[best_mask] * np.sqrt(weights[best_mask])[:, None]
        _, _, vt = np.linalg.svd(chosen, full_matrices=False)
        point = vt[-1] / np.linalg.norm(vt[-1])
        mask = support(point)
        if mask.sum() < 2:
            break
        best_mask = mask
    return np.asarray(point, dtype=np.float64), best_mask


@dataclass(frozen=True)
class Lattice1D:
    """Evenly spaced positions ``origin + k * spacing`` for integer k."""

    origin: float
    spacing: float

    def position(self, index: FloatArray | float) -> FloatArray:
        """Position of (possibly fractional) lattice indices."""
        return np.asarray(self.origin + np.asarray(index, dtype=np.float64) * self.spacing)

    def index(self, position: FloatArray) -> FloatArray:
        """Fractional lattice index of positions."""
        return np.asarray((np.asarray(position, dtype=np.float64) - self.origin) / self.spacing)


def _merge_positions(
    positions: FloatArray, weights: FloatArray, tolerance: float
) -> tuple[FloatArray, FloatArray]:
    """Merge positions closer than ``tolerance`` into weighted means."""
    order = np.argsort(positions)
    pos, wts = positions[order], weights[order]
    merged_p: list[float] = []
    merged_w: list[float] = []
    start = 0
    for i in range(1, len(pos) + 1):
        if i == len(pos) or pos[i] - pos[i - 1] > tolerance:
            w = wts[start:i]
            merged_p.append(float(np.average(pos[start:i], weights=w)))
            merged_w.append(float(w.sum()))
            start = i
    return np.array(merged_p), np.array(merged_w)


def fit_lattice(
    positions: FloatArray, weights: FloatArray, *, lines: int, tolerance: float = 0.15
) -> Lattice1D | None:
    """Fit evenly spaced lines to scattered line positions.

    Candidate spacings are the gaps between merged neighbouring positions; each is
    scored by the weight of positions within ``tolerance`` spacings of its comb
    (each tooth counting as one typical line at most), times the squared share of
    comb teeth between the extreme supported positions that have support (so that
    half the true spacing, which fits every line too, loses).

    Parameters
    ----------
    positions, weights : ndarray of shape (S,)
        Where line evidence lies along one axis, and how much.
    lines : int
        How many lines the lattice has (bounds the spacing from below).

    Returns
    -------
    Lattice1D or None
    """
    if len(positions) < 3:
        return None
    spread = float(np.percentile(positions, 98) - np.percentile(positions, 2))
    if spread <= 0:
        return None
    merged, mweights = _merge_positions(positions, weights, spread / (lines * 8.0))
    strong = mweights >= 0.15 * np.percentile(mweights, 90)
    merged, mweights = merged[strong], mweights[strong]
    if len(merged) < 3:
        return None
    line_weight = median(mweights)
    gaps = np.diff(merged)
    candidates = np.unique(np.round(gaps[gaps > spread / (lines * 3.0)], 6))
    candidates = candidates[candidates > 0]  # gaps of a millionth of a pixel round to none
    best: tuple[float, Lattice1D] | None = None
    for spacing in candidates:
        phase = np.angle(np.sum(mweights * np.exp(2j * np.pi * merged / spacing)))
        origin = phase / (2.0 * np.pi) * spacing
        frac = (merged - origin) / spacing
        k = np.round(frac)
        inlier = np.abs(frac - k) < tolerance
        if inlier.sum() < 3:
            continue
        first = int(k[inlier].min())
        tooth = np.bincount((k[inlier] - first).astype(np.int64), weights=mweights[inlier])
        supported = int(np.count_nonzero(tooth))
        # Each tooth counts like one line at most: a coarse comb whose teeth each
        # gather several lines (the grid seen through floor tiles) must not win.
        score = float(np.minimum(tooth, line_weight).sum()) * (supported / len(tooth)) ** 2
        if best is None or score > best[0]:
            # Least-squares refinement on the inliers.
            design = np.column_stack([np.ones(int(inlier.sum())), k[inlier]])
            coef, *_ = np.linalg.lstsq(
                design * mweights[inlier, None] ** 0.5,
                merged[inlier] * mweights[inlier] ** 0.5,
                rcond=None,
            )
            best = (score, Lattice1D(origin=float(coef[0]), spacing=float(coef[1])))
    return None if best is None else best[1]


def comb_lattices(
    profile: FloatArray, *, lines: int, count: int = 3, min_spacing: float = 3.0
) -> list[tuple[Lattice1D, float]]:
    """The evenly spaced combs of ``lines`` teeth that best fit a 1-D line profile.

    ``profile`` is line evidence summed across one direction of a straightened
    board (peaks where grid lines are). Each comb (spacing, phase) is scored by its
    best run of ``lines`` consecutive teeth: the mean of the profile at the teeth
    less the mean halfway between them, so a comb at half the true spacing (every
    other tooth between lines) and one at double it (a run longer than the board)
    both lose. Unlike :func:`fit_lattice` this needs no line segments: blurred or
    broken lines still add up in a profile.

    Parameters
    ----------
    profile : ndarray of shape (L,)
        Evidence at positions ``0 .. L-1``.
    lines : int
        Teeth per comb (the board's N).
    count : int
        How many combs to return, best first, with distinct spacings.
    min_spacing : float
        Smallest spacing tried, in profile samples.

    Returns
    -------
    list of (Lattice1D, score)
        Lattices in profile positions; empty when the profile is too short.
    """
    values = np.asarray(profile, dtype=np.float64)
    length = len(values)
    max_spacing = (length - 1) / (lines - 1)
    if max_spacing < min_spacing:
        return []
    # Coarse steps of 1 % in spacing, then 0.1 % around the best few.
    coarse = np.exp(np.arange(np.log(min_spacing), np.log(max_spacing), 0.01))
    scores, _ = _comb_scores(values, coarse, lines, 1.0)
    peaks = [
        i
        for i in np.argsort(scores)[::-1][: 3 * count]
        if np.isfinite(scores[i])
        and scores[i] >= max(scores[max(0, i - 1)], scores[min(len(scores) - 1, i + 1)])
    ]
    near = [coarse[i] * np.exp(np.arange(-0.01, 0.0101, 0.001)) for i in peaks]
    spacings = np.concatenate(near) if near else np.zeros(0)
    spacings = spacings[(spacings >= min_spacing) & (spacings <= max_spacing)]
    scores, origins = _comb_scores(values, spacings, lines, 0.25)
    found: list[tuple[Lattice1D, float]] = []
    order = np.argsort(scores)[::-1]
    for i in order:
        if not np.isfinite(scores[i]) or scores[i] <= 0 or len(found) == count:
            break
        spacing = float(spacings[i])
        # Distinct from those kept: not within 5 % of a kept spacing.
        if any(abs(spacing / lat.spacing - 1.0) < 0.05 for lat, _ in found):
            continue
        found.append((Lattice1D(origin=float(origins[i]), spacing=spacing), float(scores[i])))
    return found


def _comb_scores(
    values: FloatArray, spacings: FloatArray, lines: int, step: float
) -> tuple[FloatArray, FloatArray]:
    """For each spacing, the best mean contrast of ``lines`` consecutive teeth, and the first tooth.

    Returns ``(scores, origins)``; ``-inf`` (origin 0) where fewer than ``lines``
    teeth fit. Spacings whose combs have about as many teeth (within a fifth)
    are scored together (:func:`_comb_block`).
    """
    scores = np.full(len(spacings), -np.inf)
    origins = np.zeros(len(spacings))
    counts = np.ceil(len(values) / spacings).astype(np.int64) + 1  # teeth per comb
    todo = np.flatnonzero(counts >= lines)
    todo = todo[np.argsort(-counts[todo], kind="stable")]
    while len(todo):
        group = todo[counts[todo] * 5 >= counts[todo[0]] * 4]
        scores[group], origins[group] = _comb_block(
            values, spacings[group], int(counts[group].max()), lines, step
        )
        todo = todo[len(group) :]
    return scores, origins


def _comb_block(
    values: FloatArray, spacings: FloatArray, teeth: int, lines: int, step: float
) -> tuple[FloatArray, FloatArray]:
    """:func:`_comb_scores` for combs of at most ``teeth`` teeth, every phase a row.

    The rows of the wider spacings run on past the profile's end, where teeth are
    invalid as anywhere off the profile, so each spacing scores as it would alone.
    """
    phases = [np.arange(0.0, spacing, step) for spacing in spacings]
    rows = np.array([len(p) for p in phases])
    spacing = np.repeat(spacings, rows)[:, None]
    # The teeth and the points halfway between them, read at once: half a
    # spacing apart from half a spacing before the first tooth. (Each midpoint
    # is shared by two teeth: two thirds of the reads of each on its own.)
    halves = np.concatenate(phases)[:, None] + (0.5 * spacing) * np.arange(-1, 2 * teeth)[None, :]
    read = _sampled(values, halves)
    on = read[:, 1::2]
    off = 0.5 * (read[:, :-1:2] + read[:, 2::2])
    contrast = on - off
    valid = np.isfinite(contrast)
    contrast = np.where(valid, contrast, 0.0)
    # Running sums from a leading zero, so that any run of teeth is a difference.
    total = np.zeros((len(halves), teeth + 1))
    np.cumsum(contrast, axis=1, out=total[:, 1:])
    complete = np.zeros(total.shape, dtype=np.int64)
    np.cumsum(valid, axis=1, out=complete[:, 1:])
    window = total[:, lines:] - total[:, :-lines]
    inside = (complete[:, lines:] - complete[:, :-lines]) == lines
    window = np.where(inside, window, -np.inf)
    scores = np.empty(len(spacings))
    origins = np.empty(len(spacings))
    first = np.concatenate([[0], np.cumsum(rows)])
    for i in range(len(spacings)):
        block = window[first[i] : first[i + 1]]
        p, k = np.unravel_index(int(np.argmax(block)), block.shape)
        scores[i] = float(block[p, k]) / lines
        origins[i] = float(phases[i][p] + spacings[i] * k)
    return scores, origins


def _sampled(values: FloatArray, where: FloatArray) -> FloatArray:
    """``values`` read between samples, linearly, at positions ``where``; NaN outside.

    The arithmetic of ``np.interp(where, arange(L), values)`` (identical results),
    without its search for the interval, which unit-spaced samples make a floor.
    """
    last = len(values) - 1
    inside = (where >= 0) & (where <= last)
    left = np.minimum(np.where(inside, np.floor(where), 0), last - 1).astype(np.intp)
    slope = np.diff(values)[left]  # values[left + 1] - values[left], in one gather
    out = slope * (where - left) + values[left]
    out = np.where(where == last, values[last], out)
    return np.asarray(np.where(inside, out, np.nan), dtype=np.float64)


def focal_length(homography: FloatArray, image_shape: tuple[int, int]) -> float:
    """Focal length in pixels implied by a board's homography, or a typical one.

    With square pixels and the principal point at the image centre, the board's
    two axes being perpendicular in 3-D gives one equation for the focal length
    (Zhang's calibration from one view). A near top-down view leaves it
    undetermined; then, and for implausible answers, the long image side is used.
    """
    squared = _focal_squared(homography, image_shape)
    typical = float(max(image_shape))
    if squared is None or not _plausible_focal(squared, typical):
        return typical
    return float(np.sqrt(squared))


def _focal_squared(homography: FloatArray, image_shape: tuple[int, int]) -> float | None:
    """The squared focal length the perpendicular axes ask for; None for a top-down view."""
    h, w = image_shape
    centre = np.array([[1.0, 0, -0.5 * (w - 1)], [0, 1.0, -0.5 * (h - 1)], [0, 0, 1.0]])
    m = centre @ homography
    m = m / np.linalg.norm(m[:, :2])
    denominator = m[2, 0] * m[2, 1]
    if abs(denominator) < 1e-12:
        return None
    return float(-(m[0, 0] * m[0, 1] + m[1, 0] * m[1, 1]) / denominator)


def _plausible_focal(squared: float, typical: float) -> bool:
    return bool(np.isfinite(squared)) and 0.25 * typical**2 < squared < 16.0 * typical**2


def cell_aspect(homography: FloatArray, image_shape: tuple[int, int]) -> float | None:
    """Width over height, in the world, of the cells a lattice homography maps.

    Undoing the camera (focal length from :func:`focal_length`, principal point at
    the image centre) leaves the board plane's two axes scaled by the cell's sides.
    A Go board's cells are near square (22 × 23.7 mm); a lattice fitted at half
    or a third of the spacing along one axis, or to the wrong perspective, is not.
    None when no such camera could see the lattice (a picture warped by hand, or
    a principal point far off the centre): then there is nothing to judge by.
    """
    h, w = image_shape
    squared = _focal_squared(homography, image_shape)
    if squared is not None and not _plausible_focal(squared, float(max(h, w))):
        return None
    f = focal_length(homography, image_shape)
    inverse = np.array(
        [[1.0 / f, 0, -0.5 * (w - 1) / f], [0, 1.0 / f, -0.5 * (h - 1) / f], [0, 0, 1.0]]
    )
    m = inverse @ homography
    return float(np.linalg.norm(m[:, 0]) / np.linalg.norm(m[:, 1]))
