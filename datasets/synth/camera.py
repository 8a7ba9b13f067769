"""A pinhole camera with mild radial distortion, looking at a board on a table.

World coordinates are millimetres: ``x`` runs along the board's columns, ``y`` along its
rows (front to back), and ``z = x × y`` points *down*, into the board, as with a
calibration pattern in OpenCV. The board's top face is the plane ``z = 0``, things
above it (stones, hands) have negative ``z`` and the table lies at ``z = thickness``.

Distortion uses the one-parameter division-style model ``u = d · (1 + k · |d|²)`` from
distorted normalised coordinates ``d`` to undistorted ones ``u``, so that turning a
pixel into a ray (what rendering does millions of times) is exact and cheap, while
projecting a point (what the truth needs, a few hundred times) solves a cubic by
Newton's method to well below 1e-9 px.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

FloatArray = NDArray[np.float64]


@dataclass(frozen=True)
class Camera:
    """Intrinsics, pose and distortion of a camera.

    Parameters
    ----------
    width, height : int
        Image size in pixels.
    focal : float
        Focal length in pixels (square pixels); the principal point is the image centre.
    rotation : ndarray of shape (3, 3)
        World-to-camera rotation (rows are the camera's x, y, z axes in world terms).
    position : ndarray of shape (3,)
        Camera centre in world millimetres.
    k1 : float
        Radial distortion coefficient; positive is barrel.
    """

    width: int
    height: int
    focal: float
    rotation: FloatArray
    position: FloatArray
    k1: float

    @property
    def centre(self) -> tuple[float, float]:
        """Principal point ``(x, y)`` in pixels."""
        return (self.width - 1) / 2.0, (self.height - 1) / 2.0

    def project(self, points: FloatArray) -> FloatArray:
        """Pixel ``(x, y)`` of world points, shape (..., 3) -> (..., 2).

        Points behind the camera give NaN.
        """
        pts = np.asarray(points, dtype=np.float64)
        cam = (pts - self.position) @ self.rotation.T
        z = cam[..., 2]
        with np.errstate(divide="ignore", invalid="ignore"):
            ux = np.where(z > 1e-9, cam[..., 0] / z, np.nan)
            uy = np.where(z > 1e-9, cam[..., 1] / z, np.nan)
        ru = np.hypot(ux, uy)
        reach = 1.25 * math.hypot(self.width / 2.0, self.height / 2.0) / self.focal
        rd = _distorted_radius(ru, self.k1, reach=reach)
        with np.errstate(divide="ignore", invalid="ignore"):
            scale = np.where(ru > 0, rd / ru, 1.0)
        cx, cy = self.centre
        return np.stack([cx + self.focal * ux * scale, cy + self.focal * uy * scale], axis=-1)

    def rays(self, px: FloatArray, py: FloatArray) -> FloatArray:
        """Unit world directions of the rays through pixels ``(px, py)``, shape (..., 3)."""
        cx, cy = self.centre
        dx = (np.asarray(px, dtype=np.float64) - cx) / self.focal
        dy = (np.asarray(py, dtype=np.float64) - cy) / self.focal
        factor = 1.0 + self.k1 * (dx * dx + dy * dy)
        cam = np.stack([dx * factor, dy * factor, np.ones_like(dx)], axis=-1)
        world = cam @ self.rotation
        length = np.sqrt(np.einsum("...i,...i->...", world, world))
        unit: FloatArray = world / length[..., None]
        return unit

    def plane_maps(self, z: float, *, step: int = 4) -> tuple[FloatArray, FloatArray]:
        """World ``(x, y)`` where each pixel's ray meets the plane at height ``z``.

        Computed on a grid every ``step`` pixels and interpolated bilinearly (the map is
        smooth), which is several times faster than per pixel. Pixels whose ray misses
        the plane (looking above the horizon) get a huge coordinate.

        Returns
        -------
        x, y : ndarray of shape (height, width), float32-safe float64
        """
        gw = (self.width + step - 1) // step + 1
        gh = (self.height + step - 1) // step + 1
        gx, gy = np.meshgrid(np.arange(gw) * step, np.arange(gh) * step)
        d = self.rays(gx.astype(np.float64), gy.astype(np.float64))
        with np.errstate(divide="ignore", invalid="ignore"):
            t = (z - self.position[2]) / d[..., 2]
        bad = ~(t > 0)
        wx = np.where(bad, 1e7, self.position[0] + t * d[..., 0])
        wy = np.where(bad, 1e7, self.position[1] + t * d[..., 1])
        return _upsample(wx, step, self.width, self.height), _upsample(
            wy, step, self.width, self.height
        )


def board_camera(
    camera: Camera, spec_centre: tuple[float, float], pose: tuple[float, float, float]
) -> Camera:
    """The camera as seen from a board moved by ``pose`` on the table.

    ``pose`` is ``(dx, dy, angle)``: millimetres along the table and degrees turned
    about the board's centre ``spec_centre``. Rendering the board with the returned
    camera draws it where the moved board is.
    """
    dx, dy, angle = pose
    if pose == (0.0, 0.0, 0.0):
        return camera
    a = math.radians(angle)
    turn = np.array(
        [[math.cos(a), -math.sin(a), 0.0], [math.sin(a), math.cos(a), 0.0], [0.0, 0.0, 1.0]]
    )
    centre = np.array([spec_centre[0], spec_centre[1], 0.0])
    shift = np.array([dx, dy, 0.0])
    position = centre + turn.T @ (camera.position - centre - shift)
    return Camera(
        camera.width, camera.height, camera.focal, camera.rotation @ turn, position, camera.k1
    )


def _upsample(grid: FloatArray, step: int, width: int, height: int) -> FloatArray:
    """Bilinear interpolation of a map sampled every ``step`` pixels to full size.

    Interpolates along rows on the coarse grid first, then down the columns, so that
    only two full-size gathers are made.
    """
    if step == 1:
        return grid[:height, :width]
    xs = np.arange(width) / step
    ys = np.arange(height) / step
    x0 = xs.astype(np.int64)
    y0 = ys.astype(np.int64)
    fx = xs - x0
    fy = (ys - y0)[:, None]
    rows = grid[:, x0] * (1 - fx) + grid[:, x0 + 1] * fx
    result: FloatArray = rows[y0] * (1 - fy) + rows[y0 + 1] * fy
    return result


def _distorted_radius(ru: FloatArray, k1: float, *, reach: float) -> FloatArray:
    """Solve ``rd · (1 + k1 · rd²) = ru`` for ``rd`` by Newton's method.

    Beyond ``reach`` (well outside the picture) the lens model stops being one to one
    when ``k1 < 0``; there the mapping continues in a straight line, so that things
    far outside the picture (an arm's shoulder) still project on the right side.
    """
    rd = np.array(ru, dtype=np.float64, copy=True)
    if k1 == 0.0:
        return rd
    if k1 < 0:
        reach = min(reach, 0.9 * (2.0 / 3.0) / math.sqrt(-3.0 * k1))
    inside = np.minimum(rd, reach)
    r = np.array(inside, copy=True)
    for _ in range(30):
        f = r * (1.0 + k1 * r * r) - inside
        df = 1.0 + 3.0 * k1 * r * r
        r = r - f / df
    slope = 1.0 / (1.0 + 3.0 * k1 * r * r)
    result: FloatArray = np.where(rd > reach, r + (rd - reach) * slope, r)
    return result


def look_rotation(*, tilt: float, azimuth: float, roll: float) -> FloatArray:
    """World-to-camera rotation for a camera tilted ``tilt`` radians from straight down.

    ``azimuth`` is the horizontal direction the camera looks towards and ``roll`` turns
    the picture about the optical axis.
    """
    view = np.array(
        [
            math.sin(tilt) * math.cos(azimuth),
            math.sin(tilt) * math.sin(azimuth),
            math.cos(tilt),
        ]
    )
    side = np.array([-math.sin(azimuth), math.cos(azimuth), 0.0])
    down = np.cross(view, side)
    cr, sr = math.cos(roll), math.sin(roll)
    x_axis = cr * side + sr * down
    y_axis = -sr * side + cr * down
    return np.stack([x_axis, y_axis, view])
