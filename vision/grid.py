"""Finding a Go board's grid in one photo, with no clicks.

The pipeline, on a copy of the photo scaled to ``WORK_SIDE`` pixels:

1. Thin dark lines respond to a black-hat filter; a probabilistic Hough transform
   turns them into segments, split by direction into two families.
2. Each family's vanishing point (RANSAC) gives the horizon; sending it to infinity
   and shearing makes both families axis-parallel and evenly spaced, so each
   reduces to a 1-D lattice fit (spacing and phase): from the segments' positions,
   or, when those are too few, from combs fitted to the line response summed
   across the straightened image.
3. The board is the N×N window of that lattice with the most *crossings*
   (line evidence in both directions around a lattice point): beyond the outer
   lines the perpendicular lines stop, whatever the margin, table or frame lines.
   A weak placement is checked against lattices at other multiples of its
   spacing. The lattice is then re-anchored on the refined lines and the window
   sought again, until it settles.
4. Every line is refined on the line response (sub-pixel peak across it every
   half cell), one radial-distortion coefficient is chosen to straighten them,
   and intersections of the refitted lines are the grid. A grid whose cells could
   not be a board's, that runs off the picture, or that is barely seen is refused.

Failing on the whole photo, the search is repeated on the region densest in line
crossings, then for faint lines on a smoothed copy (see :func:`_search`). Last,
for boards whose lines are blurred away or hidden, the lattice through the
stones' centres (:mod:`vision.lattice`) places the grid, where the stones and what
lines show leave the board's window in no doubt (:func:`find_by_stones`); failing
that, the region once more with the line filter widened as much as the crop
magnifies the board's lines (:func:`_widened_search`).
:func:`find_faint_grid` searches once more on a copy equalised in tiles, for
lines a grey level or two deep, and :func:`find_blurred_grid` with a wider line
filter, for lines blurred past the usual one; both raise a floor's joints too,
so they are left to a caller that checks the reading.

For a grid placed by other means, or unsure: :func:`snap_to_lines` moves each of
its lines onto the board's line nearest it, and :func:`stretch_to_lines` moves
its sides, keeping its lines evenly spaced, until they lie on the board's, where
a wrong spacing leaves it lines off at the far side (or both sides of an axis at
once, where the spacing is wrong and the middle right: ``respace``).

Pixel coordinates are OpenCV's ``(x, y)``; board points are ``(row, col)``.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field

import cv2
import numpy as np
import numpy.typing as npt

from vision.errors import VisionError
from vision.geometry import (
    Lattice1D,
    apply_homography,
    cell_aspect,
    comb_lattices,
    fit_homography,
    fit_lattice,
    vanishing_point,
)
from vision.kept import once_per_photo
from vision.lattice import (
    diagonal_sublattice,
    fit_point_lattice,
    stone_centres,
    touching_centres,
)
from vision.lines import Segments, find_segments, line_response, split_families
from vision.robust import median, medians

__all__ = [
    "SIZES",
    "SMEARED_WIDTH",
    "SURE_EVIDENCE",
    "WORK_SIDE",
    "BoardDetection",
    "Grid",
    "doubled_spacings",
    "find_blurred_grid",
    "find_by_stones",
    "find_combed_grid",
    "find_faint_grid",
    "find_grid",
    "find_wide_region_grid",
    "grid_from_corners",
    "lattice_points",
    "line_ridges",
    "lines_alternate",
    "lines_beyond",
    "lone_lines",
    "snap_to_lines",
    "stretch_to_lines",
]

FloatArray = npt.NDArray[np.float64]

#: Board sizes Kifu reads.
SIZES: tuple[int, ...] = (9, 13, 19)
#: Longest side, in pixels, of the working copy the grid is searched on.
WORK_SIDE = 1024
#: Smallest image side worth looking at.
MIN_SIDE = 32
#: Share of the peak crossing density that bounds the board's region.
REGION_SHARE = 0.35
#: How far (share of its longer side) the board's region is widened on each side.
REGION_GROWTH = 0.25
#: How far the very last search grows that region (:func:`find_wide_region_grid`).
WIDE_GROWTH = 0.75
#: Mean crossing evidence (0..1) over the N×N window below which there is no board
#: (real photos give 0.6 or more, true synthetic boards 0.37 or more; table
#: patterns and wrong lattices up to about 0.22).
MIN_EVIDENCE = 0.3
#: Share of the samples along the refined lines that must find a line (real photos
#: give 0.7 or more, crowded synthetic boards 0.42 or more, lattices fitted to floor
#: joints about 0.3).
MIN_LINE_SHARE = 0.38
#: Largest world aspect ratio (either way) of a board's cells: boards' are 1.08 at
#: most, and a lattice at half the spacing along one axis gives 2 (real photos
#: measure 0.90 to 1.06, right synthetic placements 0.87 to 1.30 with the focal
#: length estimated from the grid).
MAX_ASPECT = 1.35
#: Largest aspect ratio (either way) of a grid's sides in the image, where the
#: world's cannot be judged (:func:`vision.geometry.cell_aspect` is None: no
#: camera sees the lattice). A lattice fitted at a fraction of the spacing along
#: one axis is a band across the board (dev 333 #82: rows at a fifth and at a
#: third of the spacing, 4.6 and 3.2). The dev photos' true boards (1,082) reach
#: 2.65, and a board placed right at 2.75 (333 #298); at 2.0 it was lost.
MAX_IMAGE_ASPECT = 3.0
#: Black-hat width (working pixels) of the line filter: a board's lines are
#: narrower, its stones mostly wider.
LINE_WIDTH = 7
#: Least black-hat response (grey levels) counted as a line.
LINE_FLOOR = 12.0
#: Mean crossing evidence above which a placement is not second-guessed (most real
#: photos give more; lattices at a multiple of the true spacing give less).
SURE_EVIDENCE = 0.7
#: Gaussian sigma (working pixels) and response floor of the search for faint lines.
SOFT_SMOOTH = 1.0
SOFT_FLOOR = 4.0
#: Black-hat width (working pixels) of the search for blurred lines: out of focus
#: or smeared by motion, a board's lines spread wider than ``LINE_WIDTH``, and the
#: usual filter sees only their faint cores. Dev photos (hard synthetic, seeds
#: 1357, 2468, 333, 555 and 777): of the 32 boards no other search found, 5 are
#: read right by it (333 #49 only by its lines, ``vision.detect.WELL_LINED``) and
#: 1 is placed lines off (1357 #257: a row off at the top, its spacing too wide;
#: confidence 0.5); the 130 photos with no board are all still refused.
BLURRED_WIDTH = 11
#: Black-hat width (working pixels) of the very last search, for lines smeared
#: wider still (out of focus and moved: dev 1357 #239, blur 1.6 and motion 4
#: pixels, crossings 0.25 at ``BLURRED_WIDTH``). Dev photos (hard synthetic,
#: five seeds): of the 21 boards no other search found, widths 13, 15 and 19
#: each read 1357 #239 and 333 #151 (within 0.07 of a cell); 13 also placed
#: 555 #271 six lines off and 19 placed 2468 #33 eighteen lines off. At 15 none
#: is misplaced, and none of the 152 photos with no board is taken.
SMEARED_WIDTH = 15
#: Contrast limit of the local histogram equalisation (CLAHE, 8×8 tiles) that the
#: last line search takes to lines of a grey level or two: pale lines on pale wood,
#: or a board small and blurred.
EQUALIZE_CLIP = 4.0
#: How much more evidence a lattice at another spacing needs to replace the first.
MULTIPLE_MARGIN = 1.2
#: How many times in a row a lattice may be replaced by one at another spacing.
MULTIPLE_ROUNDS = 2
#: How much more a lattice line beyond a grid's side must read crossed both ways
#: than the outer line the grid would give up at the other side, for the grid to
#: move a line there (:func:`settle_on_crossings`).
EDGE_CROSSING_GAIN = 0.1
#: How much more crossing evidence a window one line over needs to replace the first.
SHIFT_MARGIN = 1.05


def lattice_points(n: int) -> FloatArray:
    """The n×n lattice's points (u, v), row by row: a grid's intersections before its homography."""
    u = np.arange(n, dtype=np.float64)
    return np.stack(np.meshgrid(u, u), -1).reshape(-1, 2)


@dataclass(frozen=True, eq=False)
class Grid:
    """Where a board's N×N intersections lie in an image; reusable for every frame.

    ``homography`` maps lattice coordinates ``(u, v) = (col, row)`` to image
    ``(x, y)``; ``intersections[row, col]`` is the image ``(x, y)`` of that point
    (refined, so it may depart slightly from the homography under lens distortion).
    """

    size: int
    #: ndarray of shape (3, 3), float64.
    homography: FloatArray
    #: ndarray of shape (N, N, 2), float64, image (x, y) of board[row][col].
    intersections: FloatArray
    #: (height, width) of the image the grid was found in.
    image_shape: tuple[int, int]

    @property
    def corners(self) -> FloatArray:
        """ndarray of shape (4, 2): board[0][0], board[0][N-1], board[N-1][N-1], board[N-1][0]."""
        n = self.size - 1
        p = self.intersections
        return np.array([p[0, 0], p[0, n], p[n, n], p[n, 0]], dtype=np.float64)

    @functools.cached_property
    def cell_pixels(self) -> float:
        """The grid's typical spacing in pixels: the median of :meth:`spacing` (once per grid)."""
        return median(self.spacing())

    def spacing(self) -> FloatArray:
        """ndarray of shape (N, N): local grid spacing in pixels around each point."""
        p = self.intersections
        dx = np.linalg.norm(np.diff(p, axis=1), axis=2)
        dy = np.linalg.norm(np.diff(p, axis=0), axis=2)
        along = np.pad(dx, ((0, 0), (0, 1)), mode="edge") + np.pad(
            dx, ((0, 0), (1, 0)), mode="edge"
        )
        down = np.pad(dy, ((0, 1), (0, 0)), mode="edge") + np.pad(dy, ((1, 0), (0, 0)), mode="edge")
        return np.asarray(0.25 * (along + down), dtype=np.float64)

    def shifted(self, du: float, dv: float, size: int | None = None) -> Grid:
        """A grid on the same lattice, its first point at ``(du, dv)`` of this one's.

        ``size`` lines each way (this grid's by default): a window moved whole lines,
        or widened to read the lattice beyond the board. The points follow the
        homography (any refinement of this grid's is not carried over).
        """
        n = self.size if size is None else size
        homography = self.homography @ np.array([[1.0, 0.0, du], [0.0, 1.0, dv], [0.0, 0.0, 1.0]])
        return Grid(
            size=n,
            homography=homography,
            intersections=apply_homography(homography, lattice_points(n)).reshape(n, n, 2),
            image_shape=self.image_shape,
        )


@dataclass(frozen=True, eq=False)
class BoardDetection:
    """The result of looking for a board: truthy with a grid, falsy with a reason."""

    grid: Grid | None
    #: 0..1: how well line evidence supports the grid (0 when none was found).
    confidence: float = 0.0
    reason: str = ""
    #: Extra figures for diagnosis (line counts, spacing), never needed by callers.
    details: dict[str, float] = field(default_factory=dict)

    def __bool__(self) -> bool:
        return self.grid is not None

    @property
    def corners(self) -> FloatArray:
        """See :attr:`Grid.corners`; raises ``VisionError`` on a failed detection."""
        return self._grid().corners

    @property
    def intersections(self) -> FloatArray:
        """See :attr:`Grid.intersections`; raises ``VisionError`` on a failed detection."""
        return self._grid().intersections

    def _grid(self) -> Grid:
        if self.grid is None:
            raise VisionError(f"no grid: {self.reason}")
        return self.grid


def _failure(reason: str) -> BoardDetection:
    return BoardDetection(grid=None, confidence=0.0, reason=f"no board found: {reason}")


def _checked(image: npt.NDArray[np.uint8], size: int) -> npt.NDArray[np.uint8]:
    """Grey copy of the photo, once the board size and the array are known good."""
    if size not in SIZES:
        raise VisionError(f"board size must be one of {SIZES}, got {size!r}")
    return _check_image(image)


def _too_small(gray: npt.NDArray[np.uint8]) -> BoardDetection | None:
    """The failure for a photo too small to hold a board, or None."""
    height, width = gray.shape
    if min(height, width) < MIN_SIDE:
        return _failure(f"image is {width}x{height}, too small to hold a board")
    return None


def _check_image(image: npt.NDArray[np.uint8]) -> npt.NDArray[np.uint8]:
    """Grey copy of a BGR or grey uint8 image; VisionError for other arrays."""
    if not isinstance(image, np.ndarray) or image.dtype != np.uint8:
        raise VisionError(f"image must be a uint8 numpy array, got {type(image).__name__}")
    if image.ndim == 3 and image.shape[2] == 3:
        return np.asarray(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), dtype=np.uint8)
    if image.ndim == 2:
        return image
    raise VisionError(f"image must have shape (H, W, 3) or (H, W), got {image.shape!r}")


def _capped(lengths: FloatArray) -> FloatArray:
    """Segment weights: length, but no segment worth more than a few typical ones.

    A few long straight edges (floor tiles, a table, a ruler) must not outvote the
    many grid segments that stones cut short.
    """
    return np.minimum(lengths, 2.0 * median(lengths))


def _normalizer(shape: tuple[int, int]) -> FloatArray:
    """Pixel → centred coordinates of order 1 (for well-conditioned projective maths)."""
    h, w = shape
    f = 0.5 * max(h, w)
    return np.array([[1 / f, 0, -0.5 * w / f], [0, 1 / f, -0.5 * h / f], [0, 0, 1.0]])


def _rectifier(v_cols: FloatArray, v_rows: FloatArray) -> FloatArray | None:
    """Projective map sending both vanishing points to infinity, columns vertical.

    After it, lines of the column family are ``x = const`` and of the row family
    ``y = const``, evenly spaced within each family.
    """
    horizon = np.cross(v_cols, v_rows)
    if abs(horizon[2]) < 1e-9:
        return None
    projective = np.array([[1.0, 0, 0], [0, 1.0, 0], horizon / horizon[2]])
    d_cols = (projective @ v_cols)[:2]
    d_rows = (projective @ v_rows)[:2]
    if d_cols[1] < 0:
        d_cols = -d_cols
    if d_rows[0] < 0:
        d_rows = -d_rows
    basis = np.column_stack([d_rows, d_cols])
    if abs(np.linalg.det(basis)) < 1e-9 * np.linalg.norm(d_rows) * np.linalg.norm(d_cols):
        return None
    affine = np.eye(3)
    affine[:2, :2] = np.linalg.inv(basis)
    return np.asarray(affine @ projective, dtype=np.float64)


def _arm_offsets() -> tuple[FloatArray, FloatArray]:
    """Lattice offsets ``(du, dv)`` of :func:`_crossing_evidence`'s samples, each (4, 3, 4, 1).

    Per arm toward a neighbour (left, right, up, down): the arm itself, then the
    same arm half a cell to one side and to the other; four steps along each. The
    last axis broadcasts over the lattice's points.
    """
    steps = np.array([0.15, 0.25, 0.35, 0.45])
    zero = np.zeros_like(steps)
    du, dv = [], []
    for u, v in ((-1, 0), (1, 0), (0, -1), (0, 1)):
        along_u, along_v = u * steps, v * steps
        du += [along_u, along_u + 0.5 * abs(v) + zero, along_u - 0.5 * abs(v) + zero]
        dv += [along_v, along_v + 0.5 * abs(u), along_v - 0.5 * abs(u)]
    return np.array(du).reshape(4, 3, 4, 1), np.array(dv).reshape(4, 3, 4, 1)


_ARM_OFFSETS = _arm_offsets()
#: How far (cells, along each axis) :func:`_crossing_evidence` samples from its point.
_ARM_REACH = float(max(np.abs(_ARM_OFFSETS[0]).max(), np.abs(_ARM_OFFSETS[1]).max()))


def _crossing_evidence(
    mask: npt.NDArray[np.float32],
    homography: FloatArray,
    us: FloatArray,
    vs: FloatArray,
    *,
    both: bool = False,
    arms: str = "all",
) -> FloatArray:
    """Evidence (0..1) that grid lines cross at each lattice point ``(u, v)``.

    With ``both``, a point needs lines in both directions (the smaller of the two
    counts): a lattice at half the board's spacing, whose extra points lie on one
    line only, then gets half the evidence of the board's. ``arms="across"`` (left
    and right) or ``"along"`` (up and down) counts that direction alone, from half
    the samples: it is never less than ``both``'s count, so it bounds it.

    Line presence is sampled on short arms toward the four neighbours, less the
    presence half a cell to either side of the arm (so that texture, which is
    everywhere, does not count). A horizontal arm (left or right) and a vertical
    one (up or down) count half each, so that a line seen in one direction only
    (the other faint in a shadow) still places the board.
    """
    evidence = np.zeros((len(vs), len(us)))
    # Points whose samples all fall off the image have no evidence: only those
    # whose samples may fall on it are sampled. A lattice at twice or three
    # times the board's spacing, padded by N of its cells either side, lies
    # mostly off the image (dev photos near the median: 40 % of points sampled).
    on = _maybe_on_image(homography, us, vs, mask.shape[:2])
    if not on.any():
        return evidence
    u = np.broadcast_to(np.asarray(us, dtype=np.float64), on.shape)[on]
    v = np.broadcast_to(np.asarray(vs, dtype=np.float64)[:, None], on.shape)[on]
    # The points' homogeneous image coordinates, once: a point moved by (du, dv)
    # adds the homography's first two columns times (du, dv) to them. Every
    # arm's samples are taken at once: (4 arms, 3 lines, 4 steps, points). The
    # points are the last axis, so that numpy's inner loops run along them, not
    # along the 4 steps (a fifth less time).
    m = homography
    x0, y0, w0 = (m[i, 0] * u + m[i, 1] * v + m[i, 2] for i in range(3))
    du, dv = _ARM_OFFSETS
    if arms != "all":
        half = {"across": slice(0, 2), "along": slice(2, 4)}[arms]
        du, dv = du[half], dv[half]
    scale = w0 + (m[2, 0] * du + m[2, 1] * dv)
    x = np.rint((x0 + (m[0, 0] * du + m[0, 1] * dv)) / scale).astype(np.float32)
    y = np.rint((y0 + (m[1, 0] * du + m[1, 1] * dv)) / scale).astype(np.float32)
    # The nearest pixel to each (whole-numbered) sample, 0 off the image: one
    # remap does the bounds test and the gather that numpy's masked indexing did
    # in several passes (1.9 -> 1.3 ms a call, median lattice 2,714 points).
    # One row per arm, line and step keeps the maps' sides under remap's limit
    # of 32,767 (a lattice is at most 8 N lines a side).
    values = cv2.remap(
        mask,
        x.reshape(len(du) * 12, -1),
        y.reshape(len(du) * 12, -1),
        cv2.INTER_NEAREST,
        borderMode=cv2.BORDER_CONSTANT,
        borderValue=0.0,
    ).reshape(x.shape)
    # The mean of the four steps, summed in order as ``mean`` does, a third of its time.
    total = values[:, :, 0] + values[:, :, 1] + values[:, :, 2] + values[:, :, 3]
    sampled = np.asarray(total / 4, dtype=np.float64)
    middle, beside, other = sampled[:, 0], sampled[:, 1], sampled[:, 2]
    counted = np.clip(middle - 0.5 * (beside + other), 0.0, 1.0)
    if arms != "all":
        evidence[on] = np.maximum(counted[0], counted[1])
        return evidence
    left, right, up, down = counted
    across, along = np.maximum(left, right), np.maximum(up, down)
    evidence[on] = np.minimum(across, along) if both else 0.5 * (across + along)
    return evidence


def _maybe_on_image(
    homography: FloatArray, us: FloatArray, vs: FloatArray, shape: tuple[int, int]
) -> npt.NDArray[np.bool_]:
    """Which lattice points' crossing samples may fall on an image of ``shape``, (rows, cols).

    Every sample lies in the square ``(u ± r, v ± r)`` (``_ARM_REACH``); where
    all four of its corners are in front of the camera, the square's image is
    the quadrilateral through theirs. A point is off the image when that
    quadrilateral lies more than a pixel beyond one side; a point with a corner
    behind the camera is kept (its samples are wherever the division puts them).
    Neighbours share corners (on the search's lattices of whole steps): each
    corner is mapped once.
    """
    height, width = shape
    m = homography
    corner_u, *sides_u = _square_corners(np.asarray(us, dtype=np.float64), _ARM_REACH)
    corner_v, *sides_v = _square_corners(np.asarray(vs, dtype=np.float64), _ARM_REACH)
    cu, cv = np.meshgrid(corner_u, corner_v)
    w = m[2, 0] * cu + m[2, 1] * cv + m[2, 2]
    with np.errstate(divide="ignore", invalid="ignore"):  # kept as behind
        x = (m[0, 0] * cu + m[0, 1] * cv + m[0, 2]) / w
        y = (m[1, 0] * cu + m[1, 1] * cv + m[1, 2]) / w
    corners = [(row, col) for row in sides_v for col in sides_u]
    ws, xs, ys = ([values[c] for c in corners] for values in (w, x, y))
    behind = np.minimum.reduce(ws) <= 0
    low_x, high_x = np.minimum.reduce(xs), np.maximum.reduce(xs)
    low_y, high_y = np.minimum.reduce(ys), np.maximum.reduce(ys)
    off = (high_x < -1) | (low_x > width) | (high_y < -1) | (low_y > height)
    return np.asarray(behind | ~off)


def _square_corners(values: FloatArray, reach: float) -> tuple[FloatArray, slice, slice]:
    """The coordinates ``values ± reach``, each once, and the slices of those before and after.

    Where the values step by ``2 reach``, a value's corner after it is the next
    one's before it.
    """
    if len(values) > 1 and np.all(np.diff(values) == 2 * reach):
        return np.append(values - reach, values[-1] + reach), slice(None, -1), slice(1, None)
    both = np.column_stack([values - reach, values + reach]).ravel()
    return both, slice(0, None, 2), slice(1, None, 2)


def _window_sums(evidence: FloatArray, size: int) -> FloatArray:
    """Sum of the evidence over every size×size window, by its top-left (row, col)."""
    rows, cols = evidence.shape
    padded = np.zeros((max(rows, size) + 1, max(cols, size) + 1))
    padded[1 : rows + 1, 1 : cols + 1] = evidence
    total = padded.cumsum(0).cumsum(1)
    return np.asarray(
        total[size:, size:] - total[:-size, size:] - total[size:, :-size] + total[:-size, :-size],
        dtype=np.float64,
    )


def _best_window(evidence: FloatArray, size: int) -> tuple[int, int, float]:
    """Top-left (row, col) of the size×size window with the most evidence, and its mean."""
    sums = _window_sums(evidence, size)
    r, c = np.unravel_index(int(np.argmax(sums)), sums.shape)
    return int(r), int(c), float(sums[r, c]) / (size * size)


def _refine_lines(
    response: npt.NDArray[np.float32],
    homography: FloatArray,
    size: int,
    *,
    reach: float = 0.3,
    distortion: bool = True,
) -> tuple[FloatArray, FloatArray, float] | None:
    """Refine every grid line on the line response and intersect the refined lines.

    Along each line, at every half cell, the response is sampled across the line
    (±``reach`` cell); the sub-pixel peak is a point on the line. Each line is
    refitted (total least squares, dropping far points); a line with too little
    evidence keeps the homography's. Returns the (N, N, 2) intersections, an (N, N)
    weight (how well both lines through each point were seen, 0..1) and the share of
    samples that found a line.
    """
    n = size
    offsets = np.linspace(-reach, reach, 25)
    # Between intersections, where the crossing line does not blur the peak.
    along = np.arange(0.0, n - 1 + 1e-9, 0.5)
    between = np.abs(along - np.round(along)) > 0.25
    # Every line's samples at once: rows (v = j) first, then columns (u = j).
    index = np.arange(n, dtype=np.float64)
    row_base = np.stack(np.broadcast_arrays(along[None, :], index[:, None]), axis=-1)
    base = np.concatenate([row_base, row_base[..., ::-1]])  # (2N, A, 2)
    normal = np.zeros((2 * n, 1, 1, 2))
    normal[:n, ..., 1] = 1.0
    normal[n:, ..., 0] = 1.0
    pts = base[:, :, None, :] + offsets[None, None, :, None] * normal  # (2N, A, O, 2)
    img = apply_homography(homography, pts).astype(np.float32)
    flat_shape = (2 * n * len(along), len(offsets))
    values = cv2.remap(
        response,
        np.ascontiguousarray(img[..., 0]).reshape(flat_shape),
        np.ascontiguousarray(img[..., 1]).reshape(flat_shape),
        interpolation=cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_CONSTANT,
        borderValue=0.0,
    ).reshape(img.shape[:3])
    peak = np.argmax(values, axis=2)
    top = np.take_along_axis(values, peak[..., None], axis=2)[..., 0]
    good = (peak > 0) & (peak < len(offsets) - 1) & (top > 0.5)
    found_total, tried_total = int(good.sum()), good.size
    ends_all = apply_homography(homography, base[:, [0, -1]])
    lines: dict[str, list[FloatArray]] = {"row": [], "col": []}
    support: dict[str, list[float]] = {"row": [], "col": []}
    # At a crossing the other line makes the peak ambiguous: fit between them.
    # Every line's sub-pixel peaks at once (point by point, the same numbers).
    on_line, idx = np.nonzero(good & between)
    p = peak[on_line, idx]
    a, b, c = values[on_line, idx, p - 1], values[on_line, idx, p], values[on_line, idx, p + 1]
    denom = a - 2 * b + c
    shift = np.where(np.abs(denom) > 1e-6, 0.5 * (a - c) / denom, 0.0)
    frac_pos = (p + np.clip(shift, -0.5, 0.5)).astype(np.float64)
    lo = np.floor(frac_pos).astype(np.int64)
    hi = np.minimum(lo + 1, len(offsets) - 1)
    t = (frac_pos - lo)[:, None]
    found = ((1 - t) * img[on_line, idx, lo] + t * img[on_line, idx, hi]).astype(np.float64)
    per_line = np.split(found, np.cumsum(np.bincount(on_line, minlength=2 * n))[:-1])
    # A line with fewer than four peaks keeps the homography's.
    seen_lines = [points if len(points) >= 4 else None for points in per_line]
    samples = {"row": seen_lines[:n], "col": seen_lines[n:]}
    fallback = {"row": list(ends_all[:n]), "col": list(ends_all[n:])}
    centre = 0.5 * np.array([response.shape[1] - 1, response.shape[0] - 1], dtype=np.float64)
    radius = 0.5 * max(response.shape)
    found_lines = [p for fam in samples.values() for p in fam if p is not None]
    k1 = _radial_distortion(found_lines, centre, radius) if distortion else 0.0
    for family in ("row", "col"):
        seen = [p for p in samples[family] if p is not None]
        # Every line's points undistorted at once (the same numbers, point by point).
        straight = (
            np.split(
                _undistort(np.concatenate(seen), centre, radius, k1),
                np.cumsum([len(p) for p in seen])[:-1],
            )
            if seen
            else []
        )
        fits = iter(_fit_lines(straight))
        for points, ends in zip(samples[family], fallback[family], strict=True):
            line = None if points is None else next(fits)
            if line is None or points is None:
                ends_u = _undistort(ends, centre, radius, k1)
                line = np.cross(np.append(ends_u[0], 1.0), np.append(ends_u[1], 1.0))
                support[family].append(0.0)
            else:
                support[family].append(len(points) / int(between.sum()))
            lines[family].append(line)
    rows = np.array(lines["row"])
    cols = np.array(lines["col"])
    meet = np.cross(rows[:, None, :], cols[None, :, :])  # (N, N, 3)
    if np.any(np.abs(meet[..., 2]) < 1e-12):
        return None
    out = _distort(meet[..., :2] / meet[..., 2:3], centre, radius, k1)
    weight = np.minimum(np.array(support["row"])[:, None], np.array(support["col"])[None, :])
    return out, weight, found_total / max(tried_total, 1)


def _undistort(
    points: FloatArray, centre: FloatArray, radius: float, k1: float | FloatArray
) -> FloatArray:
    """Remove one-parameter radial (barrel or pincushion) lens distortion.

    ``k1`` may be an array that broadcasts with ``points``' leading axes (one
    coefficient per set of points).
    """
    offset = (points - centre) / radius
    r2 = np.sum(offset**2, axis=-1, keepdims=True)
    return np.asarray(centre + offset * (1.0 + k1 * r2) * radius, dtype=np.float64)


def _distort(points: FloatArray, centre: FloatArray, radius: float, k1: float) -> FloatArray:
    """Inverse of :func:`_undistort` (fixed-point iteration)."""
    target = (points - centre) / radius
    guess = target.copy()
    for _ in range(8):
        r2 = np.sum(guess**2, axis=-1, keepdims=True)
        guess = target / (1.0 + k1 * r2)
    return np.asarray(centre + guess * radius, dtype=np.float64)


def _radial_distortion(lines: list[FloatArray], centre: FloatArray, radius: float) -> float:
    """The radial distortion coefficient that makes the grid lines straightest.

    A webcam's barrel distortion bends the lines near the image edges by a good
    share of a cell; one coefficient, chosen from a small range by how well each
    line's points fit a straight line once undistorted, takes most of it out.
    """
    usable = [p for p in lines if len(p) >= 6]
    if len(usable) < 6:
        return 0.0
    # Points far from a straight fit at k1 = 0 (other lines, stones) are left out.
    kept = []
    for points, line in zip(usable, _fit_lines(usable), strict=True):
        if line is None:
            continue
        distance = np.abs(points @ line[:2] + line[2])
        kept.append(points[distance <= max(2.0, 3.0 * median(distance))])
    if not kept:
        return 0.0
    points = np.concatenate(kept)
    label = np.concatenate([np.full(len(p), i) for i, p in enumerate(kept)])
    count = np.bincount(label).astype(np.float64)
    candidates = np.linspace(-0.2, 0.2, 21)
    # Every candidate at once, each line of each candidate its own bin (bins
    # summed in the points' order, as one candidate alone sums them).
    sets = len(kept)
    u = _undistort(points[None], centre, radius, candidates[:, None, None])
    bins = (label + sets * np.arange(len(candidates))[:, None]).ravel()
    total = sets * len(candidates)
    counts = np.tile(count, len(candidates))
    mx = np.bincount(bins, u[..., 0].ravel(), total) / counts
    my = np.bincount(bins, u[..., 1].ravel(), total) / counts
    dx, dy = u[..., 0].ravel() - mx[bins], u[..., 1].ravel() - my[bins]
    sxx, syy, sxy = (np.bincount(bins, w, total) for w in (dx * dx, dy * dy, dx * dy))
    # Per line, the smaller eigenvalue of the 2×2 scatter: squared distance to
    # the best straight line through its points.
    smallest = 0.5 * (sxx + syy - np.sqrt((sxx - syy) ** 2 + 4.0 * sxy**2))
    costs = [float(row.sum()) for row in smallest.reshape(len(candidates), sets)]
    best = int(np.argmin(costs))
    best_k, best_cost = float(candidates[best]), costs[best]
    straight = costs[len(candidates) // 2]
    # Bend the lines only for a clear gain: noise alone straightens a little.
    if best_cost > 0.7 * straight:
        return 0.0
    return best_k


def _fit_lines(point_sets: list[FloatArray]) -> list[FloatArray | None]:
    """Homogeneous lines through sets of points by total least squares, dropping outliers.

    Three rounds: fit to the kept points, then keep those within 2.5 robust
    deviations (at least a pixel). A set left with fewer than three points keeps the
    previous round's line (None in the first). All sets at once, padded, since the
    grid refines some forty lines per search.
    """
    if not point_sets:
        return []
    count = np.array([len(p) for p in point_sets])
    width = max(int(count.max()), 1)
    points = np.zeros((len(point_sets), width, 2))
    real = np.arange(width)[None, :] < count[:, None]
    for i, p in enumerate(point_sets):
        points[i, : len(p)] = p
    keep = real.copy()
    lines = np.full((len(point_sets), 3), np.nan)
    active = np.ones(len(point_sets), dtype=bool)
    for _ in range(3):
        active &= keep.sum(axis=1) >= 3
        if not active.any():
            break
        weight = keep.astype(np.float64)
        kept = weight.sum(axis=1)[:, None]
        centre = (points * weight[..., None]).sum(axis=1) / np.maximum(kept, 1.0)
        d = (points - centre[:, None, :]) * weight[..., None]
        sxx = (d[..., 0] * d[..., 0]).sum(axis=1)
        syy = (d[..., 1] * d[..., 1]).sum(axis=1)
        sxy = (d[..., 0] * d[..., 1]).sum(axis=1)
        # The normal is the scatter's minor axis (closed form of the 2×2 eigenproblem).
        angle = 0.5 * np.arctan2(2.0 * sxy, sxx - syy) + 0.5 * np.pi
        normal = np.stack([np.cos(angle), np.sin(angle)], axis=-1)
        fitted = np.concatenate([normal, -(normal * centre).sum(axis=1, keepdims=True)], axis=1)
        lines[active] = fitted[active]
        distance = np.abs((points * normal[:, None, :]).sum(axis=-1) + fitted[:, 2:3])
        ranked = np.sort(np.where(keep, distance, np.inf), axis=1)
        k = np.maximum(keep.sum(axis=1), 1)
        rows = np.arange(len(point_sets))
        middle = 0.5 * (ranked[rows, (k - 1) // 2] + ranked[rows, k // 2])
        limit = np.maximum(1.0, 2.5 * middle * 1.4826)
        keep = np.where(active[:, None], real & (distance <= limit[:, None]), keep)
    return [None if np.isnan(line[0]) else line for line in lines]


def _canonical_order(intersections: FloatArray) -> FloatArray:
    """Re-index so board[0][0] is nearest the image's top-left and the order is unmirrored.

    Of the 8 symmetries of the square, keep those whose corners run clockwise on the
    screen (TL → TR → BR → BL with y down), then the one whose board[0][0] is nearest
    the image origin and whose first row runs along the edge nearer the top.
    """
    best: tuple[float, float, FloatArray] | None = None
    grid = intersections
    for flip in (False, True):
        g = np.swapaxes(grid, 0, 1) if flip else grid
        for turns in range(4):
            r = np.rot90(g, turns, axes=(0, 1))
            tl, tr, bl = r[0, 0], r[0, -1], r[-1, 0]
            a, b = tr - tl, bl - tl
            if a[0] * b[1] - a[1] * b[0] <= 0:
                continue
            key = (float(tl[0] + tl[1]), float(r[0, :, 1].mean()))
            if best is None or key < best[:2]:
                best = (key[0], key[1], r)
    assert best is not None
    return np.ascontiguousarray(best[2])


def grid_from_corners(corners: npt.ArrayLike, *, size: int, image_shape: tuple[int, int]) -> Grid:
    """A grid from the four corner intersections given by hand.

    Parameters
    ----------
    corners : array-like of shape (4, 2)
        Image ``(x, y)`` of board[0][0], board[0][N-1], board[N-1][N-1], board[N-1][0].
    size : int
        N.
    image_shape : (height, width)

    Raises
    ------
    VisionError
        If the corners are not four points forming a proper quadrilateral.
    """
    pts = np.asarray(corners, dtype=np.float64)
    if pts.shape != (4, 2) or not np.all(np.isfinite(pts)):
        raise VisionError(
            f"corners must be four (x, y) points, got {np.asarray(corners).tolist()!r}"
        )
    n = size - 1
    lattice = np.array([[0, 0], [n, 0], [n, n], [0, n]], dtype=np.float64)
    homography = fit_homography(lattice, pts)
    if homography is None:
        raise VisionError(f"corners are degenerate (collinear or repeated): {pts.tolist()!r}")
    uu, vv = np.meshgrid(np.arange(size, dtype=np.float64), np.arange(size, dtype=np.float64))
    points = apply_homography(homography, np.stack([uu, vv], axis=-1))
    return Grid(size=size, homography=homography, intersections=points, image_shape=image_shape)


def find_grid(
    image: npt.NDArray[np.uint8],
    *,
    size: int = 19,
    corners: npt.ArrayLike | None = None,
    rng: np.random.Generator | None = None,
) -> BoardDetection:
    """Find a board's grid in a photo, with no clicks, from its lines (or its stones' lattice).

    Takes and returns what :func:`vision.detect_board` does (see there), which is
    this and then, for an unsure placement, the grid centred on its stones
    (:mod:`vision.centring`).
    """
    gray = _checked(image, size)
    if (small := _too_small(gray)) is not None:
        return small
    height, width = gray.shape
    if corners is not None:
        grid = grid_from_corners(corners, size=size, image_shape=(height, width))
        return BoardDetection(grid=grid, confidence=1.0)
    if float(gray[::4, ::4].std()) < 2.0:
        return _failure("the image is blank (no contrast at all)")
    rng = np.random.default_rng(0) if rng is None else rng
    # The line response the search starts from is the photo's line maps' (kept
    # for the checks after it, within vision.kept.photo_kept).
    found = _search(gray, size=size, rng=rng, response=_line_maps(image, gray).response)
    if found:
        return found
    # A photo searched in vain (not blank, not too small) may still show a board
    # some other way (:mod:`vision.outline`).
    return BoardDetection(grid=None, reason=found.reason, details={"searched": 1.0})


def _board_region(response: npt.NDArray[np.uint8]) -> tuple[int, int, int, int]:
    """``(x0, y0, x1, y1)`` of the region of the line response densest in line crossings.

    A grid is many thin lines crossing at short, regular steps; floor tiles,
    table edges and wood grain give long lines that seldom cross. Local maxima of
    the Harris measure on the line response are crossings (and stone edges, which
    lie on the board too); their density, smoothed over about a twelfth of the
    image, peaks on the board, and the connected region above ``REGION_SHARE`` of
    that peak bounds it.
    """
    harris = cv2.cornerHarris(response.astype(np.float32), 5, 3, 0.04)
    crossings = (harris > 0.01 * float(harris.max())) & (
        harris >= cv2.dilate(harris, np.ones((5, 5), np.uint8))
    )
    reach = max(3, max(response.shape) // 12)
    density = cv2.boxFilter(crossings.astype(np.float32), -1, (reach, reach))
    density = cv2.GaussianBlur(density, (0, 0), reach / 4)
    region = (density > REGION_SHARE * float(density.max())).astype(np.uint8)
    _, labels, stats, _ = cv2.connectedComponentsWithStats(region)
    y, x = np.unravel_index(int(np.argmax(density)), density.shape)
    x0, y0, w, h = (int(v) for v in stats[labels[y, x], :4])
    return x0, y0, x0 + w, y0 + h


def _search(
    gray: npt.NDArray[np.uint8],
    *,
    size: int,
    rng: np.random.Generator,
    response: npt.NDArray[np.uint8] | None = None,
) -> BoardDetection:
    """The line searches of :func:`_line_searches`, the stones' lattice, then wider lines.

    ``response``: the line response of ``gray``'s working copy, where already drawn.

    Wider lines last (:func:`_widened_search`): on dev photos, tried before the
    stones' lattice they placed a board it reads right one point worse (1357 #208,
    a corner 0.22 cells off against 0.13).
    """
    found = _line_searches(gray, size=size, rng=rng, response=response)
    if found:
        return found
    by_stones = find_by_stones(gray, size=size)
    if by_stones:
        return by_stones
    widened = _widened_search(gray, size=size, rng=rng, response=response)
    return found if widened is None else widened


def _line_searches(
    gray: npt.NDArray[np.uint8],
    *,
    size: int,
    rng: np.random.Generator,
    line_width: int = LINE_WIDTH,
    response: npt.NDArray[np.uint8] | None = None,
) -> BoardDetection:
    """The grid search on the whole image, then on the board's region, then for faint lines.

    A board small in the frame, or among stronger straight lines (floor tiles,
    a table's edges), is sought again on a crop around the region densest in line
    crossings, scaled up to the working size. Lines blurred (focus, motion) or too
    faint for the line threshold are sought last, on a smoothed image with a lower
    threshold, first on the whole image and then on the region. Returns the first
    grid found, or the first search's failure. ``response``: the line response
    of ``gray``'s working copy at ``line_width``, where already drawn.
    """
    found = _search_once(gray, size=size, rng=rng, line_width=line_width, response=response)
    if found:
        return found
    region = _region_crop(gray, line_width=line_width, response=response)
    if region is not None:
        again = _search_in(gray, region, size=size, rng=rng, line_width=line_width)
        if again:
            return again
    soft = _search_once(
        gray, size=size, rng=rng, smooth=SOFT_SMOOTH, floor=SOFT_FLOOR, line_width=line_width
    )
    if soft:
        return soft
    if region is not None:
        again = _search_in(
            gray,
            region,
            size=size,
            rng=rng,
            smooth=SOFT_SMOOTH,
            floor=SOFT_FLOOR,
            line_width=line_width,
        )
        if again:
            return again
    return found


def _widened_search(
    gray: npt.NDArray[np.uint8],
    *,
    size: int,
    rng: np.random.Generator,
    response: npt.NDArray[np.uint8] | None = None,
) -> BoardDetection | None:
    """The line searches on the board's region with the line filter widened, or None.

    The crop is scaled up to the working size, and the board's lines with it: a
    small board's lines, blurred a little, come out wider than the line filter
    and no longer respond as lines. The filter is widened by as much
    (:func:`_magnified_width`); ``details["widened"]`` is its width. ``response``
    as for :func:`_line_searches`, at ``LINE_WIDTH``.
    """
    region = _region_crop(gray, response=response)
    if region is None:
        return None
    wider = _magnified_width(gray.shape, region, LINE_WIDTH)
    if wider <= LINE_WIDTH:
        return None
    for smooth, floor in ((0.0, LINE_FLOOR), (SOFT_SMOOTH, SOFT_FLOOR)):
        again = _search_in(
            gray, region, size=size, rng=rng, smooth=smooth, floor=floor, line_width=wider
        )
        if again:
            details = {**again.details, "widened": float(wider)}
            return BoardDetection(grid=again.grid, confidence=again.confidence, details=details)
    return None


def _magnified_width(
    shape: tuple[int, int], region: tuple[int, int, int, int], line_width: int
) -> int:
    """The line filter's width for a crop, scaled as much as its lines are beside the photo's.

    The whole photo and the crop are both scaled to ``WORK_SIDE``; the crop's
    lines come out wider by the ratio of the two scales. Odd, as the filter's.
    """
    left, top, right, bottom = region
    magnified = max(shape) / max(right - left, bottom - top)
    return round(line_width * magnified) | 1


def find_blurred_grid(
    image: npt.NDArray[np.uint8],
    *,
    size: int = 19,
    rng: np.random.Generator | None = None,
    line_width: int = BLURRED_WIDTH,
) -> BoardDetection:
    """The grid of lines blurred wider than the usual line filter, by a wider one.

    Out of focus or smeared by motion, a board's lines spread over more than the
    ``LINE_WIDTH`` pixels the usual black-hat sees, which keeps only their faint cores: no
    segments at all on some blurred boards whose lines a person sees plainly. The
    line searches run again with a black-hat ``line_width`` wide
    (``BLURRED_WIDTH``; ``SMEARED_WIDTH`` for lines smeared wider still). The wider
    filter also raises stones' rims and a table's texture, so this is a last
    resort for a caller that checks the reading (which
    :func:`vision.detect.detect_board` does); ``details["blurred"]`` is set.
    """
    gray = _checked(image, size)
    if (small := _too_small(gray)) is not None:
        return small
    rng = np.random.default_rng(0) if rng is None else rng
    found = _line_searches(gray, size=size, rng=rng, line_width=line_width)
    return _marked(found, "blurred")


def find_wide_region_grid(
    image: npt.NDArray[np.uint8], *, size: int = 19, rng: np.random.Generator | None = None
) -> BoardDetection:
    """The line searches on the region densest in crossings, grown wider.

    Glare or a bowl over part of a board leaves its crossings densest on the
    rest: the region the line searches crop to (grown by ``REGION_GROWTH``)
    then leaves part of the board out, and no window of the board's size fits
    in it. Grown by ``WIDE_GROWTH`` it takes the board in. Sought at the usual
    line floor, then smoothed at the soft one, as on the region itself;
    ``details["wide"]`` is set. The very last search of
    :func:`vision.detect.detect_board`: run before the others, it took the place
    of a board they read (dev 555 #11).
    """
    gray = _checked(image, size)
    if (small := _too_small(gray)) is not None:
        return small
    rng = np.random.default_rng(0) if rng is None else rng
    wide = _region_crop(gray, response=_line_maps(image, gray).response, growth=WIDE_GROWTH)
    if wide is None:
        return _failure("the region densest in crossings, grown wider, is most of the photo")
    found = _search_in(gray, wide, size=size, rng=rng)
    if not found:
        found = _search_in(gray, wide, size=size, rng=rng, smooth=SOFT_SMOOTH, floor=SOFT_FLOOR)
    return _marked(found, "wide")


def _marked(found: BoardDetection, key: str) -> BoardDetection:
    """``found`` with ``details[key]`` set, naming the last resort that found its grid."""
    if not found:
        return found
    details = {**found.details, key: 1.0}
    return BoardDetection(grid=found.grid, confidence=found.confidence, details=details)


def find_combed_grid(
    image: npt.NDArray[np.uint8], *, size: int = 19, rng: np.random.Generator | None = None
) -> BoardDetection:
    """The grid of the line response's best combs, however few crossings its lines show.

    Thin pale lines on a pale board, blurred, leave a mask of a percent of the
    photo's pixels: a lattice at the board's spacing, placed right, finds few
    of its crossings there, and a finer one laid over the corner where the lines
    show best finds more (dev 555 #267, an empty board: 0.16 against 0.23). The
    combs fitted to the straightened response's profiles
    (:func:`_profile_lattices`) still take the board's spacing: their teeth
    add up the lines along their whole length. The best comb along each axis
    is placed where its window shows most crossings, with no floor on them nor
    on the share of its lines seen: a last resort for a caller that checks the
    reading (which :func:`vision.detect.detect_board` does);
    ``details["combed"]`` is set. Sought at the usual line floor, then smoothed
    at the soft one.
    """
    gray = _checked(image, size)
    if (small := _too_small(gray)) is not None:
        return small
    rng = np.random.default_rng(0) if rng is None else rng
    found = _search_once(gray, size=size, rng=rng, combed=True)
    if not found:
        found = _search_once(
            gray, size=size, rng=rng, smooth=SOFT_SMOOTH, floor=SOFT_FLOOR, combed=True
        )
    return _marked(found, "combed")


def find_faint_grid(
    image: npt.NDArray[np.uint8], *, size: int = 19, rng: np.random.Generator | None = None
) -> BoardDetection:
    """The grid of lines a grey level or two deep, on a locally equalised copy.

    Pale lines on pale wood, or a small board blurred, leave line responses under
    any floor that keeps out wood grain and noise. Equalising the photo's
    histogram in tiles (CLAHE, ``EQUALIZE_CLIP``) raises them, and the grain and
    the floor's joints with them: a last resort after :func:`find_grid` and the
    board's outline, for a caller that checks the reading (which
    :func:`vision.detect.detect_board` does). Sought on the whole image, then on
    the region densest in crossings; ``details["equalized"]`` is set.
    """
    gray = _checked(image, size)
    if (small := _too_small(gray)) is not None:
        return small
    rng = np.random.default_rng(0) if rng is None else rng
    found = _search_once(
        gray, size=size, rng=rng, smooth=SOFT_SMOOTH, floor=SOFT_FLOOR, equalize=True
    )
    if not found:
        region = _region_crop(gray)
        if region is not None:
            again = _search_in(
                gray,
                region,
                size=size,
                rng=rng,
                smooth=SOFT_SMOOTH,
                floor=SOFT_FLOOR,
                equalize=True,
            )
            found = again if again else found
    return _marked(found, "equalized")


def _region_crop(
    gray: npt.NDArray[np.uint8],
    *,
    line_width: int = LINE_WIDTH,
    response: npt.NDArray[np.uint8] | None = None,
    growth: float = REGION_GROWTH,
) -> tuple[int, int, int, int] | None:
    """``(left, top, right, bottom)`` around the region densest in line crossings.

    The region grown by ``growth`` of its longer side each way. None when that
    is most of the image anyway, or too small to search. ``response`` as for
    :func:`_line_searches`.
    """
    height, width = gray.shape
    work, scale = _working_copy(gray)
    if response is None:
        response = line_response(work, width=line_width)
    x0, y0, x1, y1 = (v / scale for v in _board_region(response))
    grow = growth * max(x1 - x0, y1 - y0)
    left, top = max(0, int(x0 - grow)), max(0, int(y0 - grow))
    right, bottom = min(width, int(np.ceil(x1 + grow))), min(height, int(np.ceil(y1 + grow)))
    crop_w, crop_h = right - left, bottom - top
    if crop_w * crop_h > 0.8 * width * height or min(crop_w, crop_h) < MIN_SIDE:
        return None
    return left, top, right, bottom


def _search_in(
    gray: npt.NDArray[np.uint8],
    region: tuple[int, int, int, int],
    *,
    size: int,
    rng: np.random.Generator,
    smooth: float = 0.0,
    floor: float = LINE_FLOOR,
    equalize: bool = False,
    line_width: int = LINE_WIDTH,
) -> BoardDetection:
    """:func:`_search_once` on a crop, the grid mapped back to the whole image."""
    left, top, right, bottom = region
    again = _search_once(
        gray[top:bottom, left:right],
        size=size,
        rng=rng,
        smooth=smooth,
        floor=floor,
        equalize=equalize,
        line_width=line_width,
    )
    if again.grid is None:
        return again
    offset = np.array([[1.0, 0, left], [0, 1.0, top], [0, 0, 1.0]])
    grid = Grid(
        size=size,
        homography=offset @ again.grid.homography,
        intersections=again.grid.intersections + np.array([left, top], dtype=np.float64),
        image_shape=gray.shape[:2],
    )
    details = {**again.details, "region": 1.0}
    return BoardDetection(grid=grid, confidence=again.confidence, details=details)


#: Side, in samples, of the straightened image whose profiles the combs are fitted to.
PROFILE_SIDE = 512

Placement = tuple[FloatArray, FloatArray, FloatArray, float, tuple[int, int]]


def _seen_span(positions: list[FloatArray]) -> FloatArray:
    """Where the lines seen lie across each axis of the straightened frame: (2, 2), (low, high).

    The 1st and 99th percentiles of the segments' positions, columns then rows
    (a stray segment off the board does not stretch it). Every lattice the
    search tries is laid out around this span; a lattice's indices are an
    increasing affine function of the positions, so its span in indices is this
    one's, mapped (:meth:`Lattice1D.index`).
    """
    return np.array([np.percentile(pos, [1, 99]) for pos in positions])


def _place_window(
    mask: npt.NDArray[np.float32],
    to_rect: FloatArray,
    lattices: tuple[Lattice1D, Lattice1D],
    seen: FloatArray,
    size: int,
    *,
    both: bool = False,
) -> Placement | None:
    """Where a pair of 1-D lattices puts the board: its N×N window of most crossings.

    Returns ``(to_work, us, vs, mean evidence, (row, col) of the window in us, vs)``
    with ``to_work`` mapping lattice ``(u, v)`` to the working image, or None when
    the lattice is too fine for the line evidence to span. ``both`` as for
    :func:`_crossing_evidence`.
    """
    frame = _lattice_frame(to_rect, lattices, seen, size)
    if frame is None:
        return None
    to_work, us, vs = frame
    evidence = _crossing_evidence(mask, to_work, us, vs, both=both)
    r0, c0, mean_evidence = _best_window(evidence, size)
    return to_work, us, vs, mean_evidence, (r0, c0)


def _lattice_frame(
    to_rect: FloatArray,
    lattices: tuple[Lattice1D, Lattice1D],
    seen: FloatArray,
    size: int,
) -> tuple[FloatArray, FloatArray, FloatArray] | None:
    """``(to_work, us, vs)`` of :func:`_place_window`: the lattice's points around the lines seen.

    N lines either side of the lines seen (``seen``, :func:`_seen_span`), so that
    the N×N window can slide over them; None when that is more than 8 N lines a
    side (too fine a lattice).
    """
    lat_u, lat_v = lattices
    lattice_to_rect = np.array(
        [[lat_u.spacing, 0, lat_u.origin], [0, lat_v.spacing, lat_v.origin], [0, 0, 1.0]]
    )
    to_work = np.linalg.inv(to_rect) @ lattice_to_rect
    to_work /= to_work[2, 2]
    (low_u, high_u), (low_v, high_v) = lat_u.index(seen[0]), lat_v.index(seen[1])
    us = np.arange(np.floor(low_u) - size, np.ceil(high_u) + size + 1)
    vs = np.arange(np.floor(low_v) - size, np.ceil(high_v) + size + 1)
    if max(len(us), len(vs)) > 8 * size:
        return None
    return to_work, us, vs


def _best_placement(
    mask: npt.NDArray[np.float32],
    to_rect: FloatArray,
    pairs: list[tuple[Lattice1D, Lattice1D]],
    seen: FloatArray,
    size: int,
    *,
    both: bool = False,
) -> tuple[tuple[Lattice1D, Lattice1D], Placement] | None:
    """Of several lattice pairs, the one whose best window has most crossings."""
    best: tuple[tuple[Lattice1D, Lattice1D], Placement] | None = None
    for pair in pairs:
        placed = _place_window(mask, to_rect, pair, seen, size, both=both)
        if placed is not None and (best is None or placed[3] > best[1][3]):
            best = (pair, placed)
    return best


def _at_board_spacing(
    mask: npt.NDArray[np.float32],
    to_rect: FloatArray,
    best: tuple[tuple[Lattice1D, Lattice1D], Placement],
    seen: FloatArray,
    size: int,
) -> tuple[tuple[Lattice1D, Lattice1D], Placement]:
    """The lattice pair moved to the board's spacing where another spacing reads clearly better.

    A lattice at a fraction (or a multiple) of the board's spacing along one axis
    crosses the true lines too; its windows have fewer crossings than the
    board's (half the spacing: half as many crossed both ways), so those
    spacings are tried where the crossings are unsure, and one kept that is
    ``MULTIPLE_MARGIN`` better crossed both ways. Again from there, up to
    ``MULTIPLE_ROUNDS`` times: a comb at a quarter (or four times) of the
    board's spacing is only halfway after one.

    A candidate is first counted on the arms along its unchanged axis alone
    (half the samples): a point's count both ways is the smaller of its two
    directions', so this bounds it. Only a candidate whose bound beats the
    margin is counted the other way too, which gives its count both ways, the
    same to the bit. With a binary mask every count is in eighths, so the
    window sums are exact and so is the bound: the lattice kept is the one that
    counting every candidate in full keeps.
    """
    for _ in range(MULTIPLE_ROUNDS):
        if best[1][3] >= SURE_EVIDENCE:
            break
        lat_u, lat_v = best[0]
        first = _place_window(mask, to_rect, (lat_u, lat_v), seen, size, both=True)
        if first is None:
            break
        bar = MULTIPLE_MARGIN * first[3]
        # Columns at another spacing show in the arms up and down them (along
        # the columns), rows at another in those left and right.
        candidates = [((u, lat_v), ("along", "across")) for u in _multiples(lat_u)] + [
            ((lat_u, v), ("across", "along")) for v in _multiples(lat_v)
        ]
        again: tuple[tuple[Lattice1D, Lattice1D], Placement] | None = None
        for pair, (telling, other) in candidates:
            frame = _lattice_frame(to_rect, pair, seen, size)
            if frame is None:
                continue
            to_work, us, vs = frame
            one_way = _crossing_evidence(mask, to_work, us, vs, arms=telling)
            if _best_window(one_way, size)[2] <= bar:
                continue
            evidence = np.minimum(one_way, _crossing_evidence(mask, to_work, us, vs, arms=other))
            r0, c0, mean_evidence = _best_window(evidence, size)
            if again is None or mean_evidence > again[1][3]:
                again = (pair, (to_work, us, vs, mean_evidence, (r0, c0)))
        if again is None or again[1][3] <= bar:
            break
        switched = _place_window(mask, to_rect, again[0], seen, size)
        if switched is None or switched[3] < MIN_EVIDENCE:
            break
        best = (again[0], switched)
    return best


def _multiples(lattice: Lattice1D) -> list[Lattice1D]:
    """Lattices at twice and three times the spacing (every phase) and at half of it."""
    out = [Lattice1D(origin=lattice.origin, spacing=0.5 * lattice.spacing)]
    for factor in (2, 3):
        for phase in range(factor):
            out.append(
                Lattice1D(
                    origin=lattice.origin + phase * lattice.spacing,
                    spacing=factor * lattice.spacing,
                )
            )
    return out


def _profile_lattices(
    response: npt.NDArray[np.uint8],
    to_rect: FloatArray,
    seen: FloatArray,
    size: int,
) -> list[tuple[Lattice1D, Lattice1D]]:
    """Lattice pairs from combs fitted to the straightened line response's profiles.

    The line response is resampled on the straightened (rectified) frame, over the
    span of the line segments, so that grid lines become columns and rows of
    pixels; summing down and across gives two profiles whose peaks are the lines,
    however short their visible pieces. The best few combs per axis are paired.
    """
    spans = []
    for lo, hi in seen:
        grow = 0.1 * (hi - lo)
        spans.append((float(lo - grow), float(hi + grow)))
    (x0, x1), (y0, y1) = spans
    if not (x1 > x0 and y1 > y0):
        return []
    side = PROFILE_SIDE
    sx, sy = (x1 - x0) / (side - 1), (y1 - y0) / (side - 1)
    canvas_to_rect = np.array([[sx, 0, x0], [0, sy, y0], [0, 0, 1.0]])
    canvas_to_work = np.linalg.inv(to_rect) @ canvas_to_rect
    straight = cv2.warpPerspective(
        response.astype(np.float32),
        canvas_to_work,
        (side, side),
        flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
        borderMode=cv2.BORDER_CONSTANT,
        borderValue=0.0,
    )
    combs = []
    for profile, origin, step in ((straight.mean(axis=0), x0, sx), (straight.mean(axis=1), y0, sy)):
        found = comb_lattices(profile, lines=size)
        combs.append(
            [
                Lattice1D(origin=origin + lat.origin * step, spacing=lat.spacing * step)
                for lat, _ in found
            ]
        )
    return [(u, v) for u in combs[0] for v in combs[1]]


def _settle_edges(
    mask: npt.NDArray[np.float32],
    to_work: FloatArray,
    us: FloatArray,
    vs: FloatArray,
    size: int,
    window: tuple[int, int],
    evidence: FloatArray,
) -> tuple[int, int, float]:
    """The window, moved by a line where lines crossing both ways say so.

    The board's rim and the table's edge run beside the outer lines, a line with
    nothing crossing it: a window one line off counts it half in the usual
    evidence, but not at all in crossings seen both ways.
    """
    strict = _crossing_evidence(mask, to_work, us, vs, both=True)
    r0, c0 = window
    best = (float("-inf"), r0, c0)
    for dr in (-1, 0, 1):
        for dc in (-1, 0, 1):
            r, c = r0 + dr, c0 + dc
            if r < 0 or c < 0 or r + size > strict.shape[0] or c + size > strict.shape[1]:
                continue
            score = float(strict[r : r + size, c : c + size].mean())
            if (dr, dc) == (0, 0):
                score *= SHIFT_MARGIN
            if score > best[0]:
                best = (score, r, c)
    _, r, c = best
    return r, c, float(evidence[r : r + size, c : c + size].mean())


#: Stones on the lattice line just beyond one side of the window that move the
#: window a line that way (dev photos: windows a line short of a crowded board's
#: edge left 3 to 6 there; right windows never more than 1).
STONES_BEYOND = 3
#: How far (cells, per axis) a stone's blob may lie from its lattice point to count
#: there: the stones' own residual bound, and a little for parallax at the edges.
STONE_OFFSET = 0.25
#: Cells beyond the window's outer lines over which :func:`_stones_beyond` seeks stones.
BEYOND_CROP = 3.0


def _stones_beyond(
    work: npt.NDArray[np.uint8], to_window: FloatArray, size: int
) -> tuple[int, int]:
    """``(dc, dr)``: a line's move of the window toward a row of stones left outside it.

    Crowded boards hide their lines; the window of most crossings may then stop a
    line short of one edge (and take in a line of table beyond the other). The
    stones on the true edge line, a row of them on the lattice just outside, tell:
    the window moves a line toward them when the line it gives up holds no stone.
    Stones are sought within ``BEYOND_CROP`` cells of the window only: the blob
    detector's thresholds over the whole image were a tenth of a median photo's time,
    and both colours are taken in one pass (dev 2468 and 1357: the same move on
    all 922 windows, in 0.53 of the time).
    """
    lo, hi = -BEYOND_CROP, size - 1 + BEYOND_CROP
    around = apply_homography(to_window, np.array([[lo, lo], [hi, lo], [hi, hi], [lo, hi]]))
    height, width = work.shape[:2]
    x0, y0 = np.clip(np.floor(around.min(axis=0)).astype(int), 0, [width, height])
    x1, y1 = np.clip(np.ceil(around.max(axis=0)).astype(int) + 1, 0, [width, height])
    if x1 - x0 < 2 or y1 - y0 < 2:
        return 0, 0
    centres, _ = stone_centres(work[y0:y1, x0:x1], together=True)
    if len(centres) == 0:
        return 0, 0
    centres = centres + np.array([x0, y0], dtype=np.float64)
    uv = apply_homography(np.asarray(np.linalg.inv(to_window), dtype=np.float64), centres)
    on = np.all(np.abs(uv - np.round(uv)) < STONE_OFFSET, axis=1)
    u, v = np.round(uv[on]).astype(np.int64).T
    moves = []
    for along, across in ((u, v), (v, u)):
        inside = (across >= 0) & (across <= size - 1)
        before = int(np.count_nonzero((along == -1) & inside))
        after = int(np.count_nonzero((along == size) & inside))
        first = int(np.count_nonzero((along == 0) & inside))
        last = int(np.count_nonzero((along == size - 1) & inside))
        if before >= STONES_BEYOND and before >= 3 * after and last == 0:
            moves.append(-1)
        elif after >= STONES_BEYOND and after >= 3 * before and first == 0:
            moves.append(1)
        else:
            moves.append(0)
    return moves[0], moves[1]


def _working_copy(gray: npt.NDArray[np.uint8]) -> tuple[npt.NDArray[np.uint8], float]:
    """The photo scaled to ``WORK_SIDE`` pixels on its longer side, and the scale."""
    height, width = gray.shape
    scale = WORK_SIDE / max(height, width)
    interpolation = cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR
    size_work = (round(width * scale), round(height * scale))
    return np.asarray(
        cv2.resize(gray, size_work, interpolation=interpolation), dtype=np.uint8
    ), scale


@dataclass(frozen=True, eq=False)
class _LineMaps:
    """What the checks of a placed grid read off one photo's working copy.

    Worked out once per photo within :func:`vision.kept.photo_kept`, each map when first
    asked for; nothing here may be written to.
    """

    #: The photo's height and width.
    shape: tuple[int, int]
    #: The working copy's height and width, and its scale from the photo.
    work_shape: tuple[int, int]
    scale: float
    #: :func:`vision.lines.line_response` of the working copy at ``LINE_WIDTH``.
    response: npt.NDArray[np.uint8]
    #: Otsu's threshold of ``response``.
    threshold: float
    _made: dict[str, npt.NDArray[np.float32]] = field(default_factory=dict)

    def to_work(self, homography: FloatArray) -> FloatArray:
        """``homography`` (lattice to photo) taken on into the working copy, pixel centres kept."""
        scale = self.scale
        to_work_pixels = np.array(
            [[scale, 0, 0.5 * scale - 0.5], [0, scale, 0.5 * scale - 0.5], [0, 0, 1.0]]
        )
        return np.asarray(to_work_pixels @ homography, dtype=np.float64)

    def placed(
        self, to_work: FloatArray, size: int, points_work: FloatArray | None = None
    ) -> Grid | None:
        """The grid ``to_work`` maps the lattice by onto the working copy, in the photo.

        Its intersections are ``points_work`` (N, N, 2) on the working copy where
        given (lines refined), else the lattice's under ``to_work``. None where
        :func:`_image_grid` refuses it.
        """
        if points_work is None:
            points_work = apply_homography(to_work, lattice_points(size)).reshape(size, size, 2)
        grid = _image_grid(points_work, to_work, self.work_shape, self.scale, self.shape, size)
        return None if isinstance(grid, str) else grid

    def scaled(self) -> npt.NDArray[np.float32]:
        """The response over its threshold (at least ``SOFT_FLOOR``), as lines are refined on."""
        if "scaled" not in self._made:
            floor = max(self.threshold, SOFT_FLOOR)
            self._made["scaled"] = self.response.astype(np.float32) / floor
        return _read_only(self._made["scaled"])

    def smoothed(self) -> npt.NDArray[np.float32]:
        """The response blurred by ``STRETCH_SMOOTH``, as :func:`stretch_to_lines` scores on."""
        if "smoothed" not in self._made:
            self._made["smoothed"] = np.asarray(
                cv2.GaussianBlur(self.response.astype(np.float32), (0, 0), STRETCH_SMOOTH),
                dtype=np.float32,
            )
        return _read_only(self._made["smoothed"])

    def crossed(self) -> npt.NDArray[np.float32]:
        """The lines over their threshold (at least ``LINE_FLOOR``), dilated, as 0 or 1."""
        if "crossed" not in self._made:
            mask = (self.response > max(self.threshold, LINE_FLOOR)).astype(np.uint8) * 255
            self._made["crossed"] = (
                cv2.dilate(mask, np.ones((3, 3), np.uint8)).astype(np.float32) / 255.0
            )
        return _read_only(self._made["crossed"])


def _read_only(array: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
    """``array`` itself, no longer writable: it is shared by every check of the photo."""
    array.setflags(write=False)
    return array


def _line_maps(
    image: npt.NDArray[np.uint8], gray: npt.NDArray[np.uint8] | None = None
) -> _LineMaps:
    """The line maps of ``image``: kept for the photo within :func:`vision.kept.photo_kept`.

    ``gray``: its grey copy, where already made.
    """
    return once_per_photo(
        image, "line maps", lambda: _worked_line_maps(_check_image(image) if gray is None else gray)
    )


def _worked_line_maps(gray: npt.NDArray[np.uint8]) -> _LineMaps:
    """:func:`_line_maps`, worked out from the grey copy: the black-hat and its Otsu threshold."""
    work, scale = _working_copy(gray)
    response = line_response(work, width=LINE_WIDTH)
    response.setflags(write=False)
    threshold, _ = cv2.threshold(response, 0, 255, cv2.THRESH_BINARY | cv2.THRESH_OTSU)
    return _LineMaps(
        shape=(gray.shape[0], gray.shape[1]),
        work_shape=(work.shape[0], work.shape[1]),
        scale=scale,
        response=response,
        threshold=float(threshold),
    )


def _image_grid(
    points_work: FloatArray,
    to_work: FloatArray,
    work_shape: tuple[int, int],
    scale: float,
    shape: tuple[int, int],
    size: int,
) -> Grid | str:
    """The grid in the photo's pixels from intersections on the working copy, or why not.

    Refused when its cells could not be a board's (``to_work``: lattice to working
    copy) or when it runs off the picture.
    """
    aspect = cell_aspect(to_work, work_shape)
    if aspect is not None and not 1.0 / MAX_ASPECT <= aspect <= MAX_ASPECT:
        return f"the grid's cells are not square in the world (aspect {aspect:.2f})"
    sides = _image_aspect(points_work)
    if aspect is None and not 1.0 / MAX_IMAGE_ASPECT <= sides <= MAX_IMAGE_ASPECT:
        return f"the grid is a band, not a board (its sides {sides:.2f} to 1 in the image)"
    height, width = shape
    points = (points_work + 0.5) / scale - 0.5  # pixel centres, as cv2.resize maps them
    beyond = np.count_nonzero(
        (points[..., 0] < -0.5)
        | (points[..., 0] > width - 0.5)
        | (points[..., 1] < -0.5)
        | (points[..., 1] > height - 0.5)
    )
    if beyond > size:
        # A board is seen whole; a lattice running off the picture is a floor's
        # tiles or a cloth's weave (or a board the camera cuts: move the camera).
        return f"the grid runs off the image ({beyond} of {size * size} points outside)"
    points = _canonical_order(points)
    uu, vv = np.meshgrid(np.arange(size, dtype=np.float64), np.arange(size, dtype=np.float64))
    homography = fit_homography(np.stack([uu, vv], -1).reshape(-1, 2), points.reshape(-1, 2))
    if homography is None:
        return "refined grid is degenerate"
    return Grid(size=size, homography=homography, intersections=points, image_shape=shape)


def _image_aspect(points: FloatArray) -> float:
    """Mean length of a grid's rows over that of its columns, in the image (points (N, N, 2))."""
    across = np.linalg.norm(points[:, -1] - points[:, 0], axis=-1).mean()
    down = np.linalg.norm(points[-1] - points[0], axis=-1).mean()
    return float(across / max(down, 1e-9))


#: How far (cells) either side of a grid's line :func:`snap_to_lines` looks for the board's.
SNAP_REACH = 0.5


def snap_to_lines(image: npt.NDArray[np.uint8], grid: Grid, *, rounds: int = 2) -> Grid | None:
    """The grid with each of its lines moved onto the board's line nearest it, if seen.

    For a grid placed near its board by other means (its outline): every line is
    sought within ``SNAP_REACH`` cells on the line response, refitted, and the
    lattice refitted through the new intersections (twice, as the first fit may
    still be far). Lines not seen keep the lattice's. None when the result is
    not a board's grid (cells not square in the world, off the picture).
    """
    maps = _line_maps(image)
    scaled = maps.scaled()
    to_work = maps.to_work(grid.homography)
    n = grid.size
    lattice = lattice_points(n)
    for _ in range(rounds):
        refined = _refine_lines(scaled, to_work, n, reach=SNAP_REACH, distortion=False)
        if refined is None:
            return None
        points_work, weight, _ = refined
        better = fit_homography(lattice, points_work.reshape(-1, 2), weights=weight.ravel() + 1e-3)
        if better is None:
            return None
        to_work = better / better[2, 2]
    return maps.placed(to_work, n)


#: How far (cells) :func:`stretch_to_lines` moves each side of a grid, in and out,
#: and in what steps (coarse, then fine around the best).
STRETCH_REACH = 2.5
STRETCH_STEP = 0.1
STRETCH_FINE = 0.02
#: Moves made in each size of step, each the best of any side's.
STRETCH_MOVES = 4
#: A line's response counts at most this many times the median line's of the grid
#: it starts from: a board's rim or a table's edge responds far more than a line.
STRETCH_CAP = 2.0
#: Blur (pixels of the working copy) of the line response the lines are scored on:
#: a line a pixel off still scores, so that a move's score rises toward the lines.
STRETCH_SMOOTH = 1.0


def _side_moves(homography: FloatArray, size: int, cells: FloatArray) -> FloatArray:
    """``homography`` with each side of the N×N window moved each of ``cells`` along its axis.

    Returns (4 K, 3, 3): first column, last column, first row, last row (in that
    order), each moved by every one of the K ``cells``. The other three sides
    stay where they are; the lines between are spaced anew in perspective.
    """
    zero = np.zeros_like(cells)
    return np.concatenate(
        [
            _sides_moved(homography, size, 0, cells, zero),
            _sides_moved(homography, size, 0, zero, cells),
            _sides_moved(homography, size, 1, cells, zero),
            _sides_moved(homography, size, 1, zero, cells),
        ]
    )


def doubled_spacings(grid: Grid) -> list[Grid]:
    """The grid at twice its spacing along one axis, from its first line or from its last.

    A lattice of half the board's spacing lies on every line of the board and on
    a seam between each two (stones' edges, the gaps between touching stones):
    its N lines then cover half the board, and its stones read unsure. Four
    grids: the columns doubled from the first column, from the last, then the
    rows likewise (:func:`_sides_moved`).
    """
    n = grid.size
    lattice = lattice_points(n)
    doubled = []
    for axis in (0, 1):
        for first, last in ((0.0, n - 1.0), (1.0 - n, 0.0)):
            homography = _sides_moved(grid.homography, n, axis, first, last)
            points = apply_homography(homography, lattice).reshape(n, n, 2)
            doubled.append(Grid(n, homography, points, grid.image_shape))
    return doubled


#: Least change (cells) in the distance between its first and last lines that a
#: respacing move (:func:`_respaced`) makes: less is a nudge, which moving one
#: side at a time makes as well.
RESPACE_LEAST = 0.5
#: Step (cells) of the profile across an axis that respacing moves are scored on.
RESPACE_STEP = 0.05


def _sides_moved(
    homography: FloatArray, size: int, axis: int, first: npt.ArrayLike, last: npt.ArrayLike
) -> FloatArray:
    """``homography`` with its first side across ``axis`` moved ``first`` cells, its last ``last``.

    ``axis`` 0 moves the first and last columns along u, 1 the first and last
    rows along v; the lines between are spaced anew in perspective. The moved
    window is a rectangle of the lattice still, so the grid is ``homography``
    after the lattice's own stretch along that axis, ``u -> first + u (n +
    last - first) / n``: no fit of four corners. ``first`` and ``last``
    broadcast; one homography per pair, (..., 3, 3), scaled so that the last
    entry is 1.
    """
    n = size - 1
    first, last = np.broadcast_arrays(np.asarray(first, np.float64), np.asarray(last, np.float64))
    stretch = np.zeros((*first.shape, 3, 3))
    stretch[..., axis, axis] = (n + last - first) / n
    stretch[..., axis, 2] = first
    stretch[..., 1 - axis, 1 - axis] = 1.0
    stretch[..., 2, 2] = 1.0
    moved = homography @ stretch
    return np.asarray(moved / moved[..., 2:3, 2:3], dtype=np.float64)


def _respaced(
    response: npt.NDArray[np.float32],
    homography: FloatArray,
    size: int,
    cap: float,
    cells: FloatArray,
) -> list[FloatArray]:
    """Per axis, the grid with both sides moved (by two of ``cells``) lying best on the lines.

    A lattice of the wrong spacing along one axis, right at its middle, drifts off
    the lines toward both sides and back onto them a few lines on (dev 1357 #52:
    0.89 of the spacing, a line off at either side). Moving one side at a time
    then lands on such a beat, the lines on again at one side and further off at
    the other; the sides must move together. Moving a side keeps the lines of
    the other axis where they are, and each line of this axis lies on a line of
    the grid's own lattice, so every pair of moves is scored from one profile of
    the response across the axis (each line's median along it, as
    :func:`_lines_on_response` takes it, every ``RESPACE_STEP`` cells, read
    between). Only pairs that change the distance between the axis's first and
    last lines by ``RESPACE_LEAST`` are tried. The pair is chosen by its lines
    of that axis alone, each at most ``cap``; the caller scores it whole.
    """
    n = size - 1
    along = (np.arange(n, dtype=np.float64)[:, None] + np.array([0.25, 0.5, 0.75])).ravel()
    across = np.arange(cells[0], n + cells[-1] + 1e-9, RESPACE_STEP)
    first, last = np.meshgrid(cells, cells, indexing="ij")
    positions = first[..., None] + np.arange(size) * ((n + last - first) / n)[..., None]
    a, c = np.meshgrid(along, across)
    moves = []
    for axis in (0, 1):
        uv = np.stack([c, a] if axis == 0 else [a, c], axis=-1).reshape(-1, 2)
        points = apply_homography(homography, uv).astype(np.float32)
        values = cv2.remap(
            response,
            points[:, 0].reshape(len(across), -1),
            points[:, 1].reshape(len(across), -1),
            cv2.INTER_LINEAR,
            borderMode=cv2.BORDER_CONSTANT,
            borderValue=0.0,
        )
        profile = medians(values)
        scores = np.minimum(np.interp(positions, across, profile), cap).mean(axis=-1)
        scores[np.abs(last - first) < RESPACE_LEAST - 1e-9] = -np.inf
        i, j = np.unravel_index(int(np.argmax(scores)), scores.shape)
        moves.append(_sides_moved(homography, size, axis, cells[i], cells[j]))
    return moves


def _lines_on_response(
    response: npt.NDArray[np.float32], homographies: FloatArray, size: int
) -> FloatArray:
    """Each line's response under each of K grids: ndarray of shape (K, 2N), rows first.

    A line's response is the median along it between intersections, so that stones
    over a line count little. ``homographies``: (K, 3, 3), lattice to ``response``.
    """
    along = (np.arange(size - 1, dtype=np.float64)[:, None] + np.array([0.25, 0.5, 0.75])).ravel()
    a, c = np.meshgrid(along, np.arange(size, dtype=np.float64))
    uv = np.concatenate([np.stack([a, c], axis=-1), np.stack([c, a], axis=-1)]).reshape(-1, 2)
    mapped = homographies @ np.vstack([uv.T, np.ones(len(uv))])  # (K, 3, P)
    xs = (mapped[:, 0] / mapped[:, 2]).astype(np.float32)
    ys = (mapped[:, 1] / mapped[:, 2]).astype(np.float32)
    values = cv2.remap(
        response,
        xs,
        ys,
        cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_CONSTANT,
        borderValue=0.0,
    ).reshape(len(homographies), 2 * size, -1)
    return np.asarray(medians(values), dtype=np.float64)


def edge_crossings(image: npt.NDArray[np.uint8], grid: Grid) -> FloatArray:
    """Lines crossing both ways on a grid's outer lines and on the lattice lines beyond them.

    Returns (4, 2): for the first row, last row, first column and last column (in
    that order), the mean over that line's points of the evidence that lines cross
    there both ways (:func:`_crossing_evidence` with ``both``), on the line itself
    and on the lattice line just outside it. A board's lines stop at its outer
    lines: beyond them nothing crosses.
    """
    maps = _line_maps(image)
    dilated = maps.crossed()
    n = grid.size
    lines = np.arange(-1, n + 1, dtype=np.float64)
    both = _crossing_evidence(dilated, maps.to_work(grid.homography), lines, lines, both=True)
    inner = slice(1, n + 1)
    return np.array(
        [
            [both[1, inner].mean(), both[0, inner].mean()],
            [both[n, inner].mean(), both[n + 1, inner].mean()],
            [both[inner, 1].mean(), both[inner, 0].mean()],
            [both[inner, n].mean(), both[inner, n + 1].mean()],
        ]
    )


#: Cells (either way across a line) at which :func:`lines_beyond` reads the
#: grey beside a line, the samples it reads along each line, and the least
#: darkness (grey levels) of an outer line it measures the lines beyond against.
BESIDE_LINE = 0.35
ALONG_LINE = 64
DARKEST_LINE = 1.0
#: A dark line's neighbour is bare (:func:`lone_lines`) where it reads under
#: this share of the line's darkness; an axis is read where at least
#: ``LONE_LEAST`` of its lines read dark.
LONE_BESIDE = 0.25
LONE_LEAST = 3


def lines_beyond(image: npt.NDArray[np.uint8], grid: Grid, *, reach: int = 2) -> FloatArray:
    """How dark the lattice lines beyond each side read, as shares of that side's outer line.

    Returns (4, ``reach``): for the first row, last row, first column and last
    column (that order), the lines 1 to ``reach`` cells outside it. A line's
    darkness is the median, along it, of the grey a third of a cell either side
    of it less the grey on it (on the photo's own pixels, not the line filter's:
    a floor's joints are wider than a board's lines). NaN where a line lies
    mostly outside the photo, or where the outer line is not darker than beside
    it by ``DARKEST_LINE``. A board's lines stop at its margin; a floor's tiles
    go on.
    """
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
    gray = np.asarray(gray, dtype=np.float32)
    n = grid.size
    along = np.linspace(0.0, n - 1.0, ALONG_LINE)
    out = np.full((4, reach), np.nan)
    for side, (axis, edge, step) in enumerate(
        ((1, 0, -1), (1, n - 1, 1), (0, 0, -1), (0, n - 1, 1))
    ):
        darkness = [
            _line_darkness(gray, grid, axis, edge + step * k, along) for k in range(reach + 1)
        ]
        outer = darkness[0]
        if outer is None or outer < DARKEST_LINE:
            continue
        for k in range(reach):
            line = darkness[k + 1]
            out[side, k] = np.nan if line is None else line / outer
    return out


def lines_alternate(image: npt.NDArray[np.uint8], grid: Grid) -> FloatArray:
    """How dark a grid's odd lines read against its even ones, per axis (rows, then columns).

    The lesser of the two medians (each line's darkness as :func:`lines_beyond`
    reads it) over the greater: about 1 on a board, whose lines are all drawn
    alike, and near 0 on a floor's tiles the search placed at half their
    spacing, where every other line lies across the middle of a tile. NaN on
    an axis where fewer than half its lines are in the photo, either parity
    has no line in it, or neither is darker than beside it by
    ``DARKEST_LINE``.
    """
    n = grid.size
    out = np.full(2, np.nan)
    for k, darkness in enumerate(_lines_darkness(image, grid)):
        even = [d for d in darkness[0::2] if d is not None]
        odd = [d for d in darkness[1::2] if d is not None]
        if len(even) + len(odd) < n / 2 or not even or not odd:
            continue
        low, high = sorted((float(np.median(even)), float(np.median(odd))))
        if high >= DARKEST_LINE:
            out[k] = max(low, 0.0) / high
    return out


def lone_lines(image: npt.NDArray[np.uint8], grid: Grid) -> FloatArray:
    """The share of dark lines with bare lines either side, per axis (rows, then columns).

    A line is dark where it reads ``DARKEST_LINE`` or more (as :func:`lines_beyond`
    reads it), and bare beside it where its neighbour reads under
    ``LONE_BESIDE`` of that, or is not in the photo or the grid. Near 0 on a
    board, whose lines are all drawn alike (its light and glare change from
    line to line slowly), and 1 on a floor's tiles the search placed at a
    fraction of their spacing: only the lines on a joint read dark, each
    among lines across the middle of a tile. NaN on an axis where fewer than
    ``LONE_LEAST`` lines read dark.
    """
    out = np.full(2, np.nan)
    for k, darkness in enumerate(_lines_darkness(image, grid)):
        read = np.array([np.nan if d is None else d for d in darkness])
        beside = np.pad(read, 1, constant_values=np.nan)
        dark = np.flatnonzero(read >= DARKEST_LINE)
        if len(dark) < LONE_LEAST:
            continue
        # beside[i] and beside[i + 2] are line i's neighbours; NaN (unread) is bare.
        least = LONE_BESIDE * read[dark]
        lone = ~(beside[dark] >= least) & ~(beside[dark + 2] >= least)
        out[k] = float(np.mean(lone))
    return out


def _lines_darkness(image: npt.NDArray[np.uint8], grid: Grid) -> list[list[float | None]]:
    """Each lattice line's darkness (:func:`_line_darkness`), rows then columns."""
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
    gray = np.asarray(gray, dtype=np.float32)
    n = grid.size
    along = np.linspace(0.0, n - 1.0, ALONG_LINE)
    return [[_line_darkness(gray, grid, axis, line, along) for line in range(n)] for axis in (1, 0)]


def _line_darkness(
    gray: npt.NDArray[np.float32], grid: Grid, axis: int, line: float, along: FloatArray
) -> float | None:
    """Median grey beside a lattice line less on it (``axis`` 1: row ``line``; 0: column)."""
    h, w = gray.shape

    def at(offset: float) -> tuple[FloatArray, npt.NDArray[np.bool_]]:
        across = np.full_like(along, line + offset)
        uv = np.stack([along, across], -1) if axis == 1 else np.stack([across, along], -1)
        xy = apply_homography(grid.homography, uv).astype(np.float32)
        inside = (xy[:, 0] >= 0) & (xy[:, 0] <= w - 1) & (xy[:, 1] >= 0) & (xy[:, 1] <= h - 1)
        grey = cv2.remap(gray, xy[None, :, 0], xy[None, :, 1], cv2.INTER_LINEAR).ravel()
        return grey.astype(np.float64), inside

    on, seen = at(0.0)
    before, seen_before = at(-BESIDE_LINE)
    after, seen_after = at(BESIDE_LINE)
    seen = seen & seen_before & seen_after
    if np.count_nonzero(seen) < len(along) // 2:
        return None
    return float(np.median(((before + after) / 2.0 - on)[seen]))


def settle_on_crossings(image: npt.NDArray[np.uint8], grid: Grid) -> tuple[Grid, tuple[int, int]]:
    """The grid moved a line toward crossings beyond one side, off a bare line at the other.

    On a crowded board the stones hide most crossings, and the window the search
    settles on (:func:`_settle_edges`, on its rough lattice) may lie a line off: an
    outer line on the margin, where nothing crosses, and the board's true outer
    line outside, its crossings showing between the stones. On the refined grid
    this reads plainly (:func:`edge_crossings`): the grid moves a line toward a
    side where the line beyond it crosses more, by ``EDGE_CROSSING_GAIN``, than
    the outer line it gives up at the other. Each axis at most once. Returns
    ``(grid, (columns, rows))`` moved, ``(0, 0)`` where nothing calls for a move.
    """
    sides = edge_crossings(image, grid)
    moves = []
    for first, last in ((sides[2], sides[3]), (sides[0], sides[1])):  # columns, then rows
        toward_first = first[1] - last[0]  # the line before gained, the last given up
        toward_last = last[1] - first[0]
        if max(toward_first, toward_last) < EDGE_CROSSING_GAIN:
            moves.append(0)
        else:
            moves.append(-1 if toward_first > toward_last else 1)
    if not any(moves):
        return grid, (0, 0)
    return grid.shifted(float(moves[0]), float(moves[1])), (moves[0], moves[1])


def _line_scoring(
    image: npt.NDArray[np.uint8], grid: Grid
) -> tuple[_LineMaps, npt.NDArray[np.float32], FloatArray, float, float]:
    """Where a search moving a grid's lines onto the board's starts.

    The photo's line maps, the smoothed response the lines are scored on, the
    grid's map into the working copy, the most a line's response counts
    (``STRETCH_CAP`` times the grid's median line) and the grid's own score:
    the mean over its lines of each line's response, capped.
    """
    maps = _line_maps(image)
    response = maps.smoothed()
    to_work = maps.to_work(grid.homography)
    starting = _lines_on_response(response, to_work[None], grid.size)[0]
    cap = max(STRETCH_CAP * median(starting), 1.0)
    return maps, response, to_work, cap, float(np.minimum(starting, cap).mean())


def stretch_to_lines(
    image: npt.NDArray[np.uint8], grid: Grid, *, respace: bool = False
) -> Grid | None:
    """The grid with each side moved so that its lines lie on the board's, or None.

    A grid placed from a wrong vanishing point, or on a lattice of the wrong
    spacing, lies on the board's lines at one side and drifts off them toward the
    other, by a line or two at the far side; snapping each line onto the nearest
    (:func:`snap_to_lines`) would then take the wrong ones there. Moving a whole
    side (up to ``STRETCH_REACH`` cells, both ways) keeps the lines evenly spaced
    in perspective while it finds the spacing at which all of them lie on lines:
    up to ``STRETCH_MOVES`` times the best move of any side, in ``STRETCH_STEP``
    cells, then as many in ``STRETCH_FINE``. The score is the mean over the lines
    of each line's response (:func:`_lines_on_response`), each at most
    ``STRETCH_CAP`` times the starting grid's median line: moving the outer lines
    onto a board's rim does not pay. Last, each line is refined on the line
    response, with the lens's distortion, as the search's own grid is. No corner
    ends more than ``STRETCH_REACH`` of the starting grid's cells from where it
    started, however many moves took it there. None where no move scores higher,
    or the result is not a board's grid (cells not square in the world, off the
    picture).

    ``respace``: the coarse moves are of both sides of an axis at once, each pair
    respacing the lattice by ``RESPACE_LEAST`` cells at least (:func:`_respaced`):
    for a lattice of the wrong spacing, right at its middle, which moving one side
    at a time takes onto the wrong lines.
    """
    maps, response, to_work, cap, start = _line_scoring(image, grid)
    n, best = grid.size, start
    coarse = np.arange(-STRETCH_REACH, STRETCH_REACH + 1e-9, STRETCH_STEP)
    fine = np.arange(-5 * STRETCH_FINE, 5 * STRETCH_FINE + 1e-9, STRETCH_FINE)
    window = np.array([[0.0, 0.0, 1.0], [n - 1, 0.0, 1.0], [n - 1, n - 1, 1.0], [0.0, n - 1, 1.0]])
    to_start = np.linalg.inv(to_work)
    for cells in (coarse, fine):
        for _ in range(STRETCH_MOVES):
            if respace and cells is coarse:
                # Both sides of an axis together: the lattice spaced anew.
                tried = np.stack(_respaced(response, to_work, n, cap, cells))
            else:
                # The best move of any side: a side already on the lines, moved
                # first, would follow the lines gone astray at the others.
                tried = _side_moves(to_work, n, cells)
            scores = np.minimum(_lines_on_response(response, tried, n), cap).mean(axis=1)
            # Each corner stays within the reach of where it started, in the
            # starting grid's cells, over all the moves together: on a small
            # board, sides moved again and again could cross.
            mapped = (to_start @ tried) @ window.T  # (K, 3, 4): each grid's corners
            drift = np.abs(mapped[:, :2] / mapped[:, 2:] - window.T[:2]).max(axis=(1, 2))
            scores[drift > STRETCH_REACH + 1e-6] = -np.inf
            k = int(np.argmax(scores))
            if scores[k] <= best:
                break
            best, to_work = float(scores[k]), tried[k]
    if best <= start:
        return None
    # Each line refined on the response, the lens's distortion too, as the search's
    # own grid is: the stretch places lines evenly in perspective only.
    refined = _refine_lines(maps.scaled(), to_work, n)
    return maps.placed(to_work, n, None if refined is None else refined[0])


#: How far (cells) :func:`corner_on_lines` seeks one corner, either way along
#: each axis, and in what steps: coarse, then finer around the best, twice.
CORNER_REACH = 4.0
CORNER_STEPS = ((CORNER_REACH, 0.25), (0.3, 0.05), (0.06, 0.02))


def _square_to_quads(quads: FloatArray) -> FloatArray:
    """The homographies taking the unit square onto each of K quadrilaterals: (K, 3, 3).

    ``quads``: (K, 4, 2), the images of (0, 0), (1, 0), (1, 1) and (0, 1), in
    that order. The closed form of the projective map of a square (Heckbert's),
    for many quadrilaterals at once where a fit per quadrilateral would be slow.
    """
    x, y = quads[..., 0], quads[..., 1]
    dx1, dx2, dx3 = x[:, 1] - x[:, 2], x[:, 3] - x[:, 2], x[:, 0] - x[:, 1] + x[:, 2] - x[:, 3]
    dy1, dy2, dy3 = y[:, 1] - y[:, 2], y[:, 3] - y[:, 2], y[:, 0] - y[:, 1] + y[:, 2] - y[:, 3]
    det = dx1 * dy2 - dy1 * dx2
    det = np.where(np.abs(det) < 1e-12, 1e-12, det)
    g = (dx3 * dy2 - dy3 * dx2) / det
    h = (dx1 * dy3 - dy1 * dx3) / det
    maps = np.zeros((len(quads), 3, 3))
    maps[:, 0] = np.stack(
        [x[:, 1] - x[:, 0] + g * x[:, 1], x[:, 3] - x[:, 0] + h * x[:, 3], x[:, 0]], 1
    )
    maps[:, 1] = np.stack(
        [y[:, 1] - y[:, 0] + g * y[:, 1], y[:, 3] - y[:, 0] + h * y[:, 3], y[:, 0]], 1
    )
    maps[:, 2] = np.stack([g, h, np.ones_like(g)], 1)
    return maps


def corner_on_lines(
    image: npt.NDArray[np.uint8], grid: Grid, corner: int
) -> tuple[Grid, Grid | None] | None:
    """The grid with one corner moved so that its lines lie on the board's, or None.

    For a grid whose other three corners are right and one is not: a corner under
    glare, a hand or the photo's edge, which the learned corners
    (:mod:`vision.corners`) guess a cell or more off while the lines leading to
    it still show over most of the board. ``corner`` is the index into
    ``grid.corners``. Every position within ``CORNER_REACH`` cells along each
    axis is tried, coarsely, then finer around the best (``CORNER_STEPS``); the
    other three stay. Scored as :func:`stretch_to_lines`
    scores (each line's median response along it, capped). Returns the grid so
    moved, its lines evenly spaced in perspective, and that grid with each line
    refined on the response, the lens's distortion too (None where the lines
    cannot be refined): the refinement mends a grid placed a little off and can
    take a line onto the wrong one where the lines hardly show, so both are
    offered. None where no position scores higher than where the corner was,
    where the best lies at the edge of the reach (it is no maximum: dev fresh
    6161 #274, a corner 6.5 cells off, was moved 4.7 cells and the board
    misplaced at confidence 0.3), or the grid moved is not a board's (cells
    not square in the world, off the picture).
    """
    maps, response, to_work, cap, start = _line_scoring(image, grid)
    n, best = grid.size, start
    # The grid's corners in its lattice, in grid.corners' order: the window moved.
    quad = start_quad = np.array([[0.0, 0.0], [n - 1, 0.0], [n - 1, n - 1], [0.0, n - 1]])
    unit = np.diag([1.0 / (n - 1), 1.0 / (n - 1), 1.0])
    moved = to_work
    for reach, step in CORNER_STEPS:
        offsets = np.arange(-reach, reach + 1e-9, step)
        du, dv = np.meshgrid(offsets, offsets)
        quads = np.repeat(quad[None], du.size, axis=0)
        quads[:, corner] += np.stack([du.ravel(), dv.ravel()], axis=1)
        tried = to_work @ _square_to_quads(quads) @ unit
        scores = np.minimum(_lines_on_response(response, tried, n), cap).mean(axis=1)
        # The finer steps around a best at the edge stay within the reach too.
        drift = np.abs(quads[:, corner] - start_quad[corner]).max(axis=1)
        scores[drift > CORNER_REACH + 1e-9] = -np.inf
        k = int(np.argmax(scores))
        if scores[k] > best:
            best, quad, moved = float(scores[k]), quads[k], tried[k]
    if best <= start:
        return None
    if np.abs(quad[corner] - start_quad[corner]).max() >= CORNER_REACH - 1e-9:
        # Best at the edge of the reach: the lines may lie better beyond it.
        return None
    moved = moved / moved[2, 2]
    placed = maps.placed(moved, n)
    if placed is None:
        return None
    refined = _refine_lines(maps.scaled(), moved, n)
    return placed, None if refined is None else maps.placed(moved, n, refined[0])


#: Distance (cells) either side of a line at which the board beside it is sampled.
LINE_SIDE = 0.3


def line_ridges(
    gray: npt.NDArray[np.float32],
    homography: FloatArray,
    across: FloatArray,
    along: FloatArray,
    *,
    axis: int,
) -> npt.NDArray[np.float32]:
    """How much darker a grid's lines are than the board ``LINE_SIDE`` cells either side.

    Lines of constant v (rows, ``axis`` 0) or of constant u (columns, ``axis`` 1)
    at lattice coordinates ``across``, each sampled at ``along`` on the other
    coordinate: ndarray of shape ``(len(across), len(along))`` of grey levels, the
    mean grey either side less the grey on the line. A drawn line is a ridge; a
    board's rim or a shadow's edge, a step, is none.
    """
    grey = []
    for side in (-LINE_SIDE, 0.0, LINE_SIDE):
        a, c = np.meshgrid(along, across + side)
        uv = np.stack([a, c], axis=-1) if axis == 0 else np.stack([c, a], axis=-1)
        xy = apply_homography(homography, uv).astype(np.float32)
        grey.append(
            cv2.remap(
                gray, xy[..., 0], xy[..., 1], cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
            )
        )
    return np.asarray(0.5 * (grey[0] + grey[2]) - grey[1], dtype=np.float32)


#: Least stones on one lattice for a grid to be placed by its stones alone.
MIN_STONES = 12
#: Largest median distance (cells, per axis) of those stones from their points.
MAX_STONE_RESIDUAL = 0.15
#: What a stone on a lattice point counts for, beside line crossings (0..1), when
#: the board's window is placed over the stones.
STONE_WEIGHT = 2.0
#: How much more (per point) the window must score than any other: a stone or a
#: couple of line crossings. Right windows on dev photos led by 0.0055 or more,
#: wrong ones by 0.0045 or less (one, one line off, by 0.013).
WINDOW_MARGIN = 0.005
#: Line crossings half a step off the stones' lattice, relative to those on it, that
#: unmask blobs as an empty board's cells (dev photos: 0.4 to 2 for stones, 31 for cells).
HALF_STEP_FACTOR = 3.0


def find_by_stones(
    image: npt.NDArray[np.uint8],
    *,
    size: int = 19,
    loose: bool = False,
    touching: bool = False,
    diagonal: int | None = None,
) -> BoardDetection:
    """The grid through the stones' centres, for boards whose lines are not seen.

    The lattice through the stones (:func:`vision.lattice.fit_point_lattice`) fixes
    the grid but for where the board's N×N window lies on it: the window takes in
    the stones (each worth ``STONE_WEIGHT``) and the most line crossings that can
    be seen; then the lines are refined wherever they show. :func:`find_grid` falls
    back on it where no lines place a grid; :func:`vision.detect.detect_board`
    also weighs it against a crowded board's unsure line grid. ``loose`` takes
    the blobs of touching stones too (:func:`vision.lattice.stone_centres`): more
    stones, and more specks, for a caller that can check the reading;
    ``touching`` takes the cores of the dark and bright regions instead
    (:func:`vision.lattice.touching_centres`), for nearly full boards.
    ``diagonal`` (0 or 1) takes that class of the lattice's points instead
    (:func:`vision.lattice.diagonal_sublattice`): on a crowded board the gaps
    between the stones are blobs too.
    """
    gray = _checked(image, size)
    if (small := _too_small(gray)) is not None:
        return small
    height, width = gray.shape
    work, scale = _working_copy(gray)
    centres, _ = touching_centres(work) if touching else stone_centres(work, loose=loose)
    lattice = fit_point_lattice(centres)
    if lattice is not None and diagonal is not None:
        lattice = diagonal_sublattice(lattice, centres, diagonal)
    if lattice is None or lattice.count < MIN_STONES:
        found = 0 if lattice is None else lattice.count
        return _failure(f"no lines, and too few stones in a lattice ({found})")
    if median(lattice.residuals[lattice.on]) > MAX_STONE_RESIDUAL:
        return _failure("no lines, and the stones lie off any lattice")
    coords = lattice.coords[lattice.on].astype(np.int64)
    low, high = coords.min(axis=0), coords.max(axis=0)
    if np.any(high - low >= 2 * size):
        return _failure("no lines, and the stones spread wider than a board")
    us = np.arange(low[0] - size, high[0] + size + 1, dtype=np.float64)
    vs = np.arange(low[1] - size, high[1] + size + 1, dtype=np.float64)
    response = line_response(work, width=LINE_WIDTH)
    threshold, _ = cv2.threshold(response, 0, 255, cv2.THRESH_BINARY | cv2.THRESH_OTSU)
    threshold = max(threshold, SOFT_FLOOR)
    mask = (response > threshold).astype(np.uint8) * 255
    dilated = cv2.dilate(mask, np.ones((3, 3), np.uint8)).astype(np.float32) / 255.0
    evidence = _crossing_evidence(dilated, lattice.homography, us, vs)
    stones = np.zeros_like(evidence)
    stones[coords[:, 1] - int(vs[0]), coords[:, 0] - int(us[0])] = 1.0
    score = evidence + STONE_WEIGHT * stones
    sums = _window_sums(score, size)
    r0, c0 = (int(i) for i in np.unravel_index(int(np.argmax(sums)), sums.shape))
    best = float(sums[r0, c0])
    sums[r0, c0] = -np.inf
    if best - float(sums.max()) < WINDOW_MARGIN * size * size:
        # Stones that do not reach the board's edges, and no lines to tell where
        # those are: the window could lie a line or more either way.
        return _failure("no lines, and the stones leave the board's edges unclear")
    window = np.s_[r0 : r0 + size, c0 : c0 + size]
    half = _crossing_evidence(dilated, lattice.homography, us + 0.5, vs + 0.5)
    if float(half[window].mean()) > HALF_STEP_FACTOR * float(evidence[window].mean()):
        # The lines cross between the blobs: they are an empty board's cells.
        return _failure("no lines where the blobs are: they are not stones")
    inside = float(stones[window].sum())
    if inside < MIN_STONES:
        return _failure("no lines, and too few stones inside one board")
    shift = np.array([[1.0, 0, us[0] + c0], [0, 1.0, vs[0] + r0], [0, 0, 1.0]])
    to_window = lattice.homography @ shift
    scaled = response.astype(np.float32) / max(threshold, 1.0)
    refined = _refine_lines(scaled, to_window, size)
    if refined is None:
        return _failure("refined grid lines are degenerate")
    points_work, _, line_share = refined
    grid = _image_grid(points_work, to_window, work.shape[:2], scale, (height, width), size)
    if isinstance(grid, str):
        return _failure(grid)
    mean_evidence = float(evidence[window].mean())
    # Stones place a grid less surely than lines: at most half confidence.
    confidence = float(np.clip(0.5 * min(1.0, inside / 60.0), 0.0, 1.0))
    details = {
        "stones": inside,
        "evidence": mean_evidence,
        "line_share": line_share,
        "profile": 0.0,
        "by_stones": 1.0,
    }
    return BoardDetection(grid=grid, confidence=confidence, details=details)


def _search_once(
    gray: npt.NDArray[np.uint8],
    *,
    size: int,
    rng: np.random.Generator,
    smooth: float = 0.0,
    floor: float = LINE_FLOOR,
    equalize: bool = False,
    line_width: int = LINE_WIDTH,
    response: npt.NDArray[np.uint8] | None = None,
    combed: bool = False,
) -> BoardDetection:
    """The automatic grid search on one image (see the module docstring).

    ``response``: the line response of ``gray``'s working copy at ``line_width``,
    where already drawn (used with no ``smooth`` nor ``equalize`` only).
    ``combed``: the lattice is the best comb along each axis of the line
    response's profiles, placed however few crossings and little of its lines
    its window shows (:func:`find_combed_grid`).
    """
    height, width = gray.shape
    work, scale = _working_copy(gray)
    if equalize:
        clahe = cv2.createCLAHE(clipLimit=EQUALIZE_CLIP, tileGridSize=(8, 8))
        work = np.asarray(clahe.apply(work), dtype=np.uint8)
    if smooth > 0:
        work = np.asarray(cv2.GaussianBlur(work, (0, 0), smooth), dtype=np.uint8)
    if response is None or smooth > 0 or equalize:
        response = line_response(work, width=line_width)
    threshold, _ = cv2.threshold(response, 0, 255, cv2.THRESH_BINARY | cv2.THRESH_OTSU)
    threshold = max(threshold, floor)
    mask = (response > threshold).astype(np.uint8) * 255
    segments = find_segments(mask, min_length=WORK_SIDE / 30)
    families = split_families(segments)
    if families is None:
        return _failure(f"no two directions of straight lines ({len(segments)} segments)")
    norm = _normalizer(work.shape[:2])
    vps = []
    for family in families:
        ends = family.ends.reshape(-1, 2)
        ends = apply_homography(norm, ends).reshape(-1, 4)
        found = vanishing_point(ends, family.lengths, rng=rng)
        if found is None:
            return _failure("grid lines do not meet in a vanishing point")
        vps.append((found[0], Segments(family.ends[found[1]])))
    (v_cols, col_segs), (v_rows, row_segs) = vps
    rectify = _rectifier(v_cols, v_rows)
    if rectify is None:
        return _failure("the two line directions are degenerate")
    to_rect = rectify @ norm
    dilated = cv2.dilate(mask, np.ones((3, 3), np.uint8)).astype(np.float32) / 255.0
    positions = []
    for segs, axis in ((col_segs, 0), (row_segs, 1)):
        pts = apply_homography(to_rect, segs.ends.reshape(-1, 2)).reshape(-1, 2, 2)
        positions.append(pts[:, :, axis].mean(axis=1))
    lattices = []
    for segs, pos in zip((col_segs, row_segs), positions, strict=True):
        lattice = fit_lattice(pos, _capped(segs.lengths), lines=size)
        lattices.append(lattice if lattice is not None and lattice.spacing > 0 else None)
    pairs = []
    via_profile = 0.0
    if lattices[0] is not None and lattices[1] is not None:
        pairs.append((lattices[0], lattices[1]))
    seen = _seen_span(positions)
    if combed:
        best = _best_placement(
            dilated, to_rect, _profile_lattices(response, to_rect, seen, size)[:1], seen, size
        )
        if best is None:
            return _failure("no evenly spaced lines in the line response's profiles")
        via_profile = 1.0
    else:
        best = _best_placement(dilated, to_rect, pairs, seen, size)
    if not combed and (best is None or best[1][3] < MIN_EVIDENCE):
        # Segments cut short by stones or blurred away may leave too few to fit
        # the spacing: fit combs to the line response summed across the
        # straightened image instead, and keep whichever placement has most crossings.
        profiled = _profile_lattices(response, to_rect, seen, size)
        again = _best_placement(dilated, to_rect, profiled, seen, size)
        if again is not None and (best is None or again[1][3] > best[1][3]):
            best = again
            via_profile = 1.0
    if best is None:
        return _failure("no evenly spaced lines")
    if not combed:
        best = _at_board_spacing(dilated, to_rect, best, seen, size)
    to_work, us, vs, mean_evidence, (r0, c0) = best[1]
    window_points = np.stack(
        np.meshgrid(np.arange(size, dtype=np.float64), np.arange(size, dtype=np.float64)), -1
    ).reshape(-1, 2)
    scaled = response.astype(np.float32) / max(threshold, 1.0)
    # Refine, re-anchor the whole lattice on the refined lines, look for the window
    # again; until the window stays put. Lens distortion only for the final lines.
    for _ in range(4):
        shift = np.array([[1.0, 0, us[0] + c0], [0, 1.0, vs[0] + r0], [0, 0, 1.0]])
        refined = _refine_lines(scaled, to_work @ shift, size, distortion=False)
        if refined is None:
            return _failure("refined grid lines are degenerate")
        points_work, weight, _ = refined
        better = fit_homography(
            window_points, points_work.reshape(-1, 2), weights=weight.ravel() + 1e-3
        )
        if better is None:
            return _failure("refined grid is degenerate")
        to_work = better @ np.linalg.inv(shift)
        to_work /= to_work[2, 2]
        evidence = _crossing_evidence(dilated, to_work, us, vs)
        new_r0, new_c0, mean_evidence = _best_window(evidence, size)
        if (new_r0, new_c0) == (r0, c0):
            break
        r0, c0 = new_r0, new_c0
    if mean_evidence < SURE_EVIDENCE:
        r0, c0, mean_evidence = _settle_edges(dilated, to_work, us, vs, size, (r0, c0), evidence)
        shift = np.array([[1.0, 0, us[0] + c0], [0, 1.0, vs[0] + r0], [0, 0, 1.0]])
        dc, dr = _stones_beyond(work, to_work @ shift, size)
        if 0 <= r0 + dr <= len(vs) - size and 0 <= c0 + dc <= len(us) - size:
            r0, c0 = r0 + dr, c0 + dc
            mean_evidence = float(evidence[r0 : r0 + size, c0 : c0 + size].mean())
    shift = np.array([[1.0, 0, us[0] + c0], [0, 1.0, vs[0] + r0], [0, 0, 1.0]])
    refined = _refine_lines(scaled, to_work @ shift, size)
    if refined is None:
        return _failure("refined grid lines are degenerate")
    points_work, weight, line_share = refined
    if mean_evidence < MIN_EVIDENCE and not combed:
        return _failure(f"too few grid crossings (evidence {mean_evidence:.2f})")
    if line_share < MIN_LINE_SHARE and not combed:
        return _failure(f"too little of the grid's lines seen (share {line_share:.2f})")
    grid = _image_grid(points_work, to_work, work.shape[:2], scale, (height, width), size)
    if isinstance(grid, str):
        return _failure(grid)
    confidence = float(np.clip(min(mean_evidence / 0.6, line_share / 0.8), 0.0, 1.0))
    details = {
        "segments": float(len(segments)),
        "evidence": mean_evidence,
        "line_share": line_share,
        "profile": via_profile,
    }
    return BoardDetection(grid=grid, confidence=confidence, details=details)
