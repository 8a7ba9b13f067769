"""Finding a board by its outline, when its lines are blurred away or hidden.

A board is a large convex patch of one colour (wood, a print) against the table,
seen as a quadrilateral in any perspective. Its lines may be too faint or too
blurred for the line search (:mod:`vision.grid`): a small board in a dim room, a
camera out of focus, a crowded board whose lines are hidden. Its outline still
shows, and its stones still sit on the lattice inside it.

1. Each channel of the photo in Lab (lightness, green-red, blue-yellow) is split
   in two by Otsu's threshold. Each side is closed and opened, to fill in lines
   and stones and drop specks, and each of its regions large enough to be a
   board and nearly filling its convex hull is simplified to four corners;
   where a bowl touching the board joins the region, its four longest edges
   meet at the board's corners too (:func:`_four_edges`); and where something
   cuts a corner off (stones at the corner, a bowl over it), so that the four
   corners make no square seen in perspective, the sides on either side of
   the cut meet there (:func:`_cut_corner`).
2. A board's outer lines lie a margin inside its edge, about ``MARGIN`` cells: a
   grid is placed there, and another at the margins (of ``MARGINS``, per axis)
   at which the stones read surest, for boards with narrow margins or outlines
   whose corners blur cut. The stones then move each grid to where they read
   surest (:func:`vision.centring.centre_on_stones`), correcting the margin,
   stones' height, and the outline's rounded corners by up to half a cell.
   A third grid is the first snapped onto the board's lines, where they show
   (:func:`vision.grid.snap_to_lines`).
3. The grid is kept only where the board reads as a board: its stones sure
   (``MIN_CERTAINTY``) and clearly surer on the grid than half a cell off it
   (``MIN_CONTRAST``). A table, a book or a floor reads about as sure anywhere.
   A board with few stones, or stones that read as sure half a cell off, may
   still show its lines: a grid whose stones read sure (``LINED_CERTAINTY``) is
   also kept where its lines are darker than lines half a cell off, both ways
   (:func:`line_contrast`, :func:`weaker_lines`, ``MIN_LINE_CONTRAST``).

A nearly full board's stones break up its wood: the outline of the busiest
patch of the photo, its stones, is found apart (:func:`stones_outlines`), and
grids are placed in it the same way.

Only a fallback: where the lines are seen, they place a grid better.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from vision.centring import centre_on_stones, certainty, half_cell_contrast
from vision.geometry import (
    apply_homography,
    cell_aspect,
    clockwise_from_top_left,
    fit_homography,
)
from vision.grid import (
    MAX_ASPECT,
    BoardDetection,
    Grid,
    _failure,
    grid_from_corners,
    line_ridges,
    snap_to_lines,
    stretch_to_lines,
)
from vision.robust import median, medians

__all__ = [
    "BLURRED_CERTAINTY",
    "DISTINCT_CONTRAST",
    "LINED_CERTAINTY",
    "MARGIN",
    "MARGINS",
    "MIN_CERTAINTY",
    "MIN_CONTRAST",
    "MIN_LINE_CONTRAST",
    "OutlineGrid",
    "board_outlines",
    "find_by_outline",
    "find_by_stretched_outline",
    "grid_in_outline",
    "line_contrast",
    "outline_grids",
    "stones_outlines",
    "weaker_lines",
]

FloatArray = npt.NDArray[np.float64]

#: Longer side, in pixels, of the copy the outlines are sought on.
OUTLINE_SIDE = 480
#: Reach, in the copy's pixels, of the outlines' morphology (odd).
REACH = max(3, round(OUTLINE_SIDE / 60)) | 1
#: Share of the image a board's outline covers, at least and at most.
MIN_AREA, MAX_AREA = 0.01, 0.9
#: Share of its convex hull a board's region fills (stones and lines filled in).
MIN_SOLIDITY = 0.8
#: Margin between a board's edge and its outer lines, in cells (typical boards
#: and the renderer: 0.5 to 1.2).
MARGIN = 0.85
#: Margins tried, per axis: an outline's corners cut by blur read nearer the lines.
MARGINS = (0.25, 0.45, 0.65, 0.85, 1.05, 1.25)
#: Smallest cell, in pixels, that the stones can be read on.
MIN_CELL = 3.0
#: Mean log-probability of the stone model's reading, at least. Dev photos (hard
#: synthetic, seeds 777 and 555): boards found by their outline -0.035 or more.
MIN_CERTAINTY = -0.05
#: How much surer the board must read on the grid than half a cell off, at least.
#: Dev photos: boards 0.044 or more (but two with under 20 stones). Outlines in
#: the 73 no-board photos of seeds 777, 555 and 333: contrast 0.028 at most,
#: certainty -0.017 at best, and none has both above these floors.
MIN_CONTRAST = 0.04
#: Where the stones do not stand out from half a cell off, a grid is kept if they
#: read at least this sure and its lines are darker than lines half a cell off by
#: ``MIN_LINE_CONTRAST`` (in the board's own spread of grey). Dev photos (seeds
#: 777, 555, 333): of the outline grids in the 73 no-board photos, none above 0.1;
#: boards missed by both the lines and the stones' contrast, 0.47 to 4.0 on the
#: right grid (seven of them), and up to 0.75 on wrong ones, which read less sure
#: or show their lines less.
LINED_CERTAINTY = -0.02
MIN_LINE_CONTRAST = 0.3
#: Blur leaves a board's stones reading unsure, but still surer on their grid
#: than half a cell off: a last resort's grid is also kept where its stones read
#: at least ``BLURRED_CERTAINTY`` and stand out by ``DISTINCT_CONTRAST``, twice
#: the usual floors. Dev photos (hard synthetic, seeds 2468 and 1357): of every
#: grid the last resorts tried on the 57 no-board photos, contrast 0.028 at most;
#: on the boards they missed, none a cell or more off over 0.05, and 1357 #0's
#: blurred grid (0.15 cells off) 0.136 at certainty -0.063.
BLURRED_CERTAINTY = -0.1
DISTINCT_CONTRAST = 0.08
#: How many of the surest outline grids the last resort stretches onto the lines
#: (:func:`find_by_stretched_outline`).
STRETCHED_TRIES = 2


#: Tolerance (share of the perimeter) to which :func:`_four_edges` simplifies a
#: region, and the share of the hull's quadrilateral's area its four edges'
#: quadrilateral must keep.
EDGE_TOLERANCE = 0.01
EDGE_AREA = (0.5, 1.0)
#: Corners of the hull's four that the four edges' quadrilateral keeps, at least,
#: each within ``SAME_CORNER`` of the hull quadrilateral's diagonal.
EDGE_KEPT = 2
SAME_CORNER = 0.02
#: Tolerances (share of the perimeter) at which :func:`_cut_corner` seeks a
#: region's hull as a pentagon, and the most its quadrilateral may add to the hull.
CUT_TOLERANCES = (0.005, 0.01, 0.02, 0.03)
CUT_GROWTH = 1.4


def board_outlines(image: npt.NDArray[np.uint8], *, edges: bool = True) -> list[FloatArray]:
    """Quadrilaterals that could be a board's outline, largest first.

    Parameters
    ----------
    image : ndarray of shape (H, W, 3), uint8
        BGR photo.
    edges : bool
        Also the quadrilateral of each region's four longest edges, where it
        differs from the hull's (:func:`_four_edges`: a board a bowl touches),
        and, where the hull's four corners make no square seen in perspective,
        of its hull with a corner cut off restored (:func:`_cut_corner`).

    Returns
    -------
    list of ndarray of shape (4, 2)
        Image ``(x, y)`` corners, clockwise on screen from the one nearest the
        image's top-left.
    """
    small, scale = _working_copy(image)
    lab = cv2.cvtColor(cv2.GaussianBlur(small, (0, 0), 1.5), cv2.COLOR_BGR2LAB)
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (REACH, REACH))
    found: list[tuple[float, FloatArray]] = []
    for channel in cv2.split(lab):
        threshold, _ = cv2.threshold(channel, 0, 255, cv2.THRESH_BINARY | cv2.THRESH_OTSU)
        for side in (channel > threshold, channel <= threshold):
            mask = np.asarray(
                cv2.morphologyEx(
                    cv2.morphologyEx(side.astype(np.uint8) * 255, cv2.MORPH_CLOSE, kernel),
                    cv2.MORPH_OPEN,
                    kernel,
                ),
                dtype=np.uint8,
            )
            for region, contour, quad in _board_like_regions(mask):
                found.append((region, clockwise_from_top_left(quad / scale)))
                if not edges:
                    continue
                square = fit_homography(_UNIT_SQUARE, clockwise_from_top_left(quad))
                cut = not _square_in_world(square, small.shape[:2])
                restored = _cut_corner(contour) if cut else None
                for edged in (_four_edges(contour, quad), restored):
                    if edged is not None:
                        found.append((region, clockwise_from_top_left(edged / scale)))
    found.sort(key=lambda item: -item[0])
    outlines: list[FloatArray] = []
    for _, quad in found:
        reach_px = SAME_CORNER * float(np.linalg.norm(quad[0] - quad[2]))
        if all(np.abs(quad - kept).max() > reach_px for kept in outlines):
            outlines.append(quad)
    return outlines


def stones_outlines(image: npt.NDArray[np.uint8]) -> list[FloatArray]:
    """Quadrilaterals round regions crowded with stones, largest first.

    A nearly full board is no patch of one colour: its black and white stones
    break up the wood, so :func:`board_outlines` misses it. They make it the
    busiest patch of the photo instead: the grey's spread over a few pixels
    (``REACH`` on the working copy) is split by Otsu's threshold,
    closed over twice that reach to join the stones, opened, and each region
    simplified as a board's is. Its edge runs round the outer stones, about
    half a cell beyond the outer lines: the margins the outline search tries
    (``MARGINS``) take that in. Corners as for :func:`board_outlines`.
    """
    small, scale = _working_copy(image)
    grey = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY).astype(np.float32)
    mean = cv2.blur(grey, (REACH, REACH))
    spread = np.sqrt(np.maximum(cv2.blur(grey * grey, (REACH, REACH)) - mean * mean, 0.0))
    scaled = np.asarray(
        np.clip(spread * (255.0 / max(float(spread.max()), 1e-6)), 0, 255), np.uint8
    )
    threshold, _ = cv2.threshold(scaled, 0, 255, cv2.THRESH_BINARY | cv2.THRESH_OTSU)
    joined = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * REACH + 1, 2 * REACH + 1))
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (REACH, REACH))
    busy = (scaled > threshold).astype(np.uint8) * 255
    mask = np.asarray(
        cv2.morphologyEx(cv2.morphologyEx(busy, cv2.MORPH_CLOSE, joined), cv2.MORPH_OPEN, kernel),
        dtype=np.uint8,
    )
    found = [
        (region, clockwise_from_top_left(quad / scale))
        for region, _, quad in _board_like_regions(mask)
    ]
    found.sort(key=lambda item: -item[0])
    return [quad for _, quad in found]


def _working_copy(image: npt.NDArray[np.uint8]) -> tuple[npt.NDArray[np.uint8], float]:
    """The photo shrunk to ``OUTLINE_SIDE`` on its longer side, and the scale it took."""
    height, width = image.shape[:2]
    scale = OUTLINE_SIDE / max(height, width)
    small = cv2.resize(
        image, (round(width * scale), round(height * scale)), interpolation=cv2.INTER_AREA
    )
    return np.asarray(small, dtype=np.uint8), scale


def _board_like_regions(
    mask: npt.NDArray[np.uint8],
) -> Iterator[tuple[float, npt.NDArray[np.int32], FloatArray]]:
    """Each region of ``mask`` that could be a board: its area, contour and four corners.

    Its area a board's share of the picture (``MIN_AREA`` to ``MAX_AREA``), filling
    its convex hull (``MIN_SOLIDITY``), and the hull simplified to four corners.
    """
    area = float(mask.shape[0] * mask.shape[1])
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    for contour in contours:
        region = cv2.contourArea(contour)
        if not MIN_AREA * area <= region <= MAX_AREA * area:
            continue
        hull = cv2.convexHull(contour)
        if region < MIN_SOLIDITY * cv2.contourArea(hull):
            continue
        quad = _four_corners(np.asarray(hull, dtype=np.int32))
        if quad is not None:
            yield region, np.asarray(contour, dtype=np.int32), quad


def _four_corners(hull: npt.NDArray[np.int32]) -> FloatArray | None:
    """The hull simplified to four corners, or None if it will not simplify to four."""
    perimeter = cv2.arcLength(hull, True)
    for tolerance in (0.01, 0.02, 0.03, 0.05, 0.08):
        polygon = cv2.approxPolyDP(hull, tolerance * perimeter, True)
        if len(polygon) == 4:
            return np.asarray(polygon.reshape(4, 2), dtype=np.float64)
        if len(polygon) < 4:
            return None
    return None


def _four_edges(contour: npt.NDArray[np.int32], hull_quad: FloatArray) -> FloatArray | None:
    """The corners where the region's four longest straight edges meet, or None.

    A bowl or a card touching the board joins its region, and the hull's four
    corners then take one of the object's for one of the board's. The board's
    edges still run straight along most of their length: simplified a little
    (``EDGE_TOLERANCE`` of the perimeter), the region's four longest sides lie
    on them, and meet at the board's corners. Kept only where they make a
    convex quadrilateral of ``EDGE_AREA`` of the hull's four corners' area, and
    keep ``EDGE_KEPT`` of those corners: the board without the object it
    touched, not another shape the region might be.
    """
    perimeter = cv2.arcLength(contour, True)
    polygon = cv2.approxPolyDP(contour, EDGE_TOLERANCE * perimeter, True).reshape(-1, 2)
    if len(polygon) <= 4:
        return None
    ends = np.asarray(polygon, dtype=np.float64)
    starts, stops = ends, np.roll(ends, -1, axis=0)
    longest = np.sort(np.argsort(-np.linalg.norm(stops - starts, axis=1))[:4])
    ones = np.ones((4, 1))
    lines = np.cross(np.hstack([starts[longest], ones]), np.hstack([stops[longest], ones]))
    meets = np.cross(lines, np.roll(lines, -1, axis=0))
    if np.any(np.abs(meets[:, 2]) < 1e-9):
        return None
    quad = meets[:, :2] / meets[:, 2:]
    low, high = EDGE_AREA
    corners = quad.astype(np.float32)
    if not cv2.isContourConvex(corners):
        return None
    hull_area = cv2.contourArea(hull_quad.astype(np.float32))
    if not low * hull_area <= cv2.contourArea(corners) <= high * hull_area:
        return None
    reach = SAME_CORNER * float(np.linalg.norm(hull_quad[0] - hull_quad[2]))
    apart = np.linalg.norm(quad[:, None] - hull_quad[None], axis=2).min(axis=1)
    if np.count_nonzero(apart <= reach) < EDGE_KEPT:
        return None
    return np.asarray(quad, dtype=np.float64)


def _square_in_world(homography: FloatArray | None, image_shape: tuple[int, int]) -> bool:
    """Whether a lattice's cells could be square in the world (``MAX_ASPECT``), or nothing tells.

    ``homography`` maps the lattice (or a unit square) into the image.
    """
    aspect = None if homography is None else cell_aspect(homography, image_shape)
    return aspect is None or 1 / MAX_ASPECT <= aspect <= MAX_ASPECT


_UNIT_SQUARE = np.array([[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]])


def _cut_corner(contour: npt.NDArray[np.int32]) -> FloatArray | None:
    """The region's hull with one corner cut off restored, or None.

    Black stones at a corner of a bright board, or a bowl over it, cut that
    corner off the board's region: its hull is a pentagon, and simplified to
    four corners it takes an end of the cut for the board's corner. Dropping
    one of the pentagon's five sides and meeting its neighbours restores a
    corner; of the convex quadrilaterals so made, the smallest is the board,
    the one that assumes least hidden (the cut, not a side, is dropped). Kept
    only where it adds at most ``CUT_GROWTH`` to the hull's area. It is a
    rough start (a cell or so off, where the stones bulge at the cut) that
    the stones then correct.

    :func:`board_outlines` asks for it only where the hull's four corners make
    no square in perspective (:func:`_square_in_world`). Asked for every
    region, on the dev photos it read one board whole but misplaced three:
    where a board's side face shows, its region's hull is a pentagon too, and
    the restored quadrilateral takes in the side face (1357 #117 and #190,
    3333 #209).
    """
    hull = cv2.convexHull(contour)
    perimeter = cv2.arcLength(hull, True)
    for tolerance in CUT_TOLERANCES:
        polygon = cv2.approxPolyDP(hull, tolerance * perimeter, True).reshape(-1, 2)
        if len(polygon) <= 5:
            break
    if len(polygon) != 5:
        return None
    starts = np.asarray(polygon, dtype=np.float64)
    stops = np.roll(starts, -1, axis=0)
    ones = np.ones((5, 1))
    sides = np.cross(np.hstack([starts, ones]), np.hstack([stops, ones]))
    most = CUT_GROWTH * cv2.contourArea(hull)
    best: tuple[float, FloatArray] | None = None
    for cut in range(5):
        kept = np.delete(sides, cut, axis=0)
        meets = np.cross(kept, np.roll(kept, -1, axis=0))
        if np.any(np.abs(meets[:, 2]) < 1e-9):
            continue
        quad = meets[:, :2] / meets[:, 2:]
        corners = quad.astype(np.float32)
        if not cv2.isContourConvex(corners):
            continue
        area = float(cv2.contourArea(corners))
        if area <= most and (best is None or area < best[0]):
            best = (area, np.asarray(quad, dtype=np.float64))
    return None if best is None else best[1]


def grid_in_outline(
    outline: FloatArray,
    *,
    size: int,
    image_shape: tuple[int, int],
    margins: tuple[float, float] = (MARGIN, MARGIN),
) -> Grid:
    """The grid whose outer lines lie ``margins`` cells inside a board's outline.

    ``margins``: along the outline's first side (board[0] runs along it) and
    along its second.
    """
    unit = np.array([[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]])
    to_image = np.asarray(
        cv2.getPerspectiveTransform(unit.astype(np.float32), outline.astype(np.float32)),
        dtype=np.float64,
    )
    iu, iv = (m / (size - 1 + 2 * m) for m in margins)
    inner = np.array([[iu, iv], [1 - iu, iv], [1 - iu, 1 - iv], [iu, 1 - iv]])
    return grid_from_corners(apply_homography(to_image, inner), size=size, image_shape=image_shape)


def _likeliest_margins(
    image: npt.NDArray[np.uint8], outline: FloatArray, size: int
) -> tuple[float, float]:
    """The margins, of ``MARGINS``, at which the board in ``outline`` reads surest.

    A wrong margin scales the grid, which drifts off the stones towards the edges
    and reads less sure; one axis at a time (they hardly interact).
    """
    margins = [MARGIN, MARGIN]
    for axis in (0, 1):
        scores = []
        for margin in MARGINS:
            margins[axis] = margin
            grid = grid_in_outline(
                outline, size=size, image_shape=image.shape[:2], margins=(margins[0], margins[1])
            )
            scores.append(certainty(image, grid))
        margins[axis] = float(MARGINS[int(np.argmax(scores))])
    return margins[0], margins[1]


@dataclass(frozen=True, eq=False)
class OutlineGrid:
    """A grid placed in one board outline (on its stones, or on its lines) and how it reads."""

    grid: Grid
    #: Mean log-probability of the stone model's reading (:func:`vision.centring.certainty`).
    certainty: float
    #: How much surer than half a cell off (:func:`vision.centring.half_cell_contrast`).
    contrast: float
    #: How much darker its lines are than lines half a cell off (:func:`line_contrast`).
    lines: float
    #: The outline's rank by area, 1 for the largest.
    rank: int


def outline_grids(
    image: npt.NDArray[np.uint8],
    *,
    size: int = 19,
    at_least: float = -np.inf,
    edges: bool = True,
    outlines: list[FloatArray] | None = None,
) -> list[OutlineGrid]:
    """The grid in every outline that could be a board's, centred on its stones and scored.

    Outlines whose grid's cells would be under ``MIN_CELL`` pixels, or not square
    in the world (``MAX_ASPECT``), are left out, and so are grids whose stones
    read less sure than ``at_least`` (a caller weighing them against a grid that
    reads that sure), which are not scored further. ``edges`` as for
    :func:`board_outlines`; ``outlines``: these instead of the board's
    (:func:`stones_outlines`).
    """
    found: list[OutlineGrid] = []
    if outlines is None:
        outlines = board_outlines(image, edges=edges)
    for rank, outline in enumerate(outlines, start=1):
        grid = grid_in_outline(outline, size=size, image_shape=image.shape[:2])
        cell = grid.cell_pixels
        if cell < MIN_CELL or not _square_in_world(grid.homography, image.shape[:2]):
            continue
        margins = _likeliest_margins(image, outline, size)
        placed = [grid]
        if margins != (MARGIN, MARGIN):
            placed.append(
                grid_in_outline(outline, size=size, image_shape=image.shape[:2], margins=margins)
            )
        grids = [centre_on_stones(image, first)[0] for first in placed]
        snapped = snap_to_lines(image, grid)
        if snapped is not None:
            grids.append(snapped)
        for placed_grid in grids:
            sure = certainty(image, placed_grid)
            if sure < at_least:
                continue
            found.append(
                OutlineGrid(
                    placed_grid,
                    sure,
                    half_cell_contrast(image, placed_grid),
                    line_contrast(image, placed_grid),
                    rank,
                )
            )
    return found


def find_by_outline(
    image: npt.NDArray[np.uint8], *, size: int = 19, grids: list[OutlineGrid] | None = None
) -> BoardDetection:
    """The board found by its outline and its stones, or a falsy detection saying why.

    Of the outlines whose grid reads as a board (``MIN_CERTAINTY``,
    ``MIN_CONTRAST``), the one whose stones stand out most from half a cell off;
    failing those, of the grids whose stones read sure (``LINED_CERTAINTY``) and
    whose lines show both ways (``MIN_LINE_CONTRAST``, :func:`weaker_lines`), the
    one whose lines show most. ``details``: ``outline``, that outline's rank by
    area (1 for the largest); ``certainty``, ``contrast`` and ``lines`` of its
    reading. Confidence is the stones' contrast over 0.1, or the weaker way's
    lines' contrast over 1, at most 1. ``grids``: :func:`outline_grids` of the
    image, where the caller has them already.
    """
    return _judged(image, outline_grids(image, size=size) if grids is None else grids)


def find_by_stretched_outline(
    image: npt.NDArray[np.uint8], *, size: int = 19, grids: list[OutlineGrid] | None = None
) -> BoardDetection:
    """The board found by its outline's surest grids stretched onto its lines, or why not.

    A last resort, where every other search found nothing: an outline cut by
    blur, glare or a bowl can leave its grid a line off at one side, reading its
    stones too unsure for the outline's floors. The ``STRETCHED_TRIES`` surest
    grids are stretched onto the board's lines (:func:`vision.grid.stretch_to_lines`,
    twice) and judged by the same floors as :func:`find_by_outline`'s. Taken
    any earlier, it misplaced a board a later search reads right (dev 2468 #193).
    ``grids`` as for :func:`find_by_outline`.
    """
    grids = outline_grids(image, size=size) if grids is None else grids
    return _judged(image, _stretched(image, grids), stretched=True)


def _judged(
    image: npt.NDArray[np.uint8], candidates: list[OutlineGrid], *, stretched: bool = False
) -> BoardDetection:
    """The best of the outline grids that read as a board (see :func:`find_by_outline`)."""
    boards = [c for c in candidates if c.certainty >= MIN_CERTAINTY and c.contrast >= MIN_CONTRAST]
    lined = [
        (c, weaker)
        for c in candidates
        if c.certainty >= LINED_CERTAINTY
        and c.lines >= MIN_LINE_CONTRAST
        and (weaker := weaker_lines(image, c.grid)) >= MIN_LINE_CONTRAST
    ]
    if boards:
        best = max(boards, key=lambda c: c.contrast)
        confidence = min(1.0, best.contrast / 0.1)
    elif lined:
        best, weaker = max(lined, key=lambda cw: cw[0].lines)
        confidence = min(1.0, weaker)
    else:
        what = "stretched outline grid" if stretched else "board outline"
        return _failure(f"no {what} reads as a board ({len(candidates)} grids tried)")
    details = {
        "outline": float(best.rank),
        "certainty": best.certainty,
        "contrast": best.contrast,
        "lines": best.lines,
    }
    if stretched:
        details["outline_stretched"] = 1.0
    return BoardDetection(grid=best.grid, confidence=confidence, details=details)


def _stretched(image: npt.NDArray[np.uint8], candidates: list[OutlineGrid]) -> list[OutlineGrid]:
    """The ``STRETCHED_TRIES`` surest candidates' grids stretched onto the lines, rescored."""
    out = []
    for candidate in sorted(candidates, key=lambda c: -c.certainty)[:STRETCHED_TRIES]:
        grid = candidate.grid
        for _ in range(2):
            moved = stretch_to_lines(image, grid)
            if moved is None:
                break
            grid = moved
        if grid is candidate.grid:
            continue
        out.append(
            OutlineGrid(
                grid,
                certainty(image, grid),
                half_cell_contrast(image, grid),
                line_contrast(image, grid),
                candidate.rank,
            )
        )
    return out


def line_contrast(image: npt.NDArray[np.uint8], grid: Grid) -> float:
    """How much darker the board is along the grid's lines than along lines half a cell off.

    Each line's ridge (:func:`vision.grid.line_ridges`: the grey beside it less
    the grey on it) is sampled along every cell's side between two intersections
    (the median over them, so that stones on the line count little); the board's is
    the median over its lines. Returns the ridge on the grid less the ridge on the
    grid moved half a cell both ways, over the spread (median absolute deviation)
    of grey inside the grid: a board's lines show, a table's texture shows about
    as much anywhere.
    """
    ridges = _line_ridges(image, grid)
    if ridges is None:
        return 0.0
    (rows, columns), (rows_off, columns_off), spread = ridges
    on, off = np.concatenate([rows, columns]), np.concatenate([rows_off, columns_off])
    return (median(on) - median(off)) / spread


def weaker_lines(image: npt.NDArray[np.uint8], grid: Grid) -> float:
    """:func:`line_contrast` of the rows and of the columns apart, the lesser of the two.

    A grid skewed off the board (from an outline whose corners the camera's angle
    or a bowl pulled) can still lie on its lines one way while its lines the
    other way fall between the board's; over all its lines together the first
    way carries the median.
    """
    ridges = _line_ridges(image, grid)
    if ridges is None:
        return 0.0
    on, off, spread = ridges
    return min((median(a) - median(b)) / spread for a, b in zip(on, off, strict=True))


LineRidges = tuple[FloatArray, FloatArray]


def _line_ridges(
    image: npt.NDArray[np.uint8], grid: Grid
) -> tuple[LineRidges, LineRidges, float] | None:
    """Each row's and column's ridge on the grid, and half a cell off; the grey's spread.

    None where the grid covers no pixel.
    """
    gray = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    gray = np.asarray(gray, dtype=np.float32)
    inside = np.zeros(gray.shape, dtype=np.uint8)
    cv2.fillConvexPoly(inside, np.round(grid.corners).astype(np.int32), 1)
    values = gray[inside > 0]
    if values.size == 0:
        return None
    spread = median(np.abs(values - np.float32(median(values)))) + 1.0
    on, off = (_ridges(gray, grid.homography, grid.size, shift) for shift in (0.0, 0.5))
    return on, off, spread


def _ridges(
    gray: npt.NDArray[np.float32], homography: FloatArray, n: int, shift: float
) -> LineRidges:
    """The ridge of each row and of each column ``shift``..``n - 1 + shift``: medians along it."""
    along = (np.arange(n - 1, dtype=np.float64)[:, None] + np.array([0.25, 0.5, 0.75])).ravel()
    across = np.arange(n, dtype=np.float64) + shift
    rows, columns = (
        medians(
            line_ridges(gray, homography, across, along, axis=axis)
            .reshape(n, n - 1, 3)
            .mean(axis=2)
        ).astype(np.float64)
        for axis in (0, 1)
    )
    return rows, columns
