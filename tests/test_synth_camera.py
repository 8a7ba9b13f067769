"""The synthetic camera: pixels and rays agree, and the lens bends only mildly."""

from __future__ import annotations

import numpy as np
import pytest

from datasets.synth.camera import Camera, board_camera, look_rotation


def camera(k1: float) -> Camera:
    rotation = look_rotation(tilt=0.6, azimuth=0.4, roll=0.2)
    return Camera(640, 480, 520.0, rotation, np.array([180.0, 150.0, -700.0]), k1)


@pytest.mark.parametrize("k1", [-0.08, 0.0, 0.08])
def test_a_pixel_s_ray_meets_the_board_where_the_point_projects_from(k1: float) -> None:
    cam = camera(k1)
    points = np.random.default_rng(1).uniform(-200, 600, (500, 3))
    points[:, 2] = 0.0
    px = cam.project(points)
    seen = (px[:, 0] >= 0) & (px[:, 0] < 640) & (px[:, 1] >= 0) & (px[:, 1] < 480)
    assert seen.sum() > 100
    rays = cam.rays(px[seen, 0], px[seen, 1])
    back = cam.position + rays * (-cam.position[2] / rays[:, 2])[:, None]
    np.testing.assert_allclose(back, points[seen], atol=1e-6)


@pytest.mark.parametrize("k1", [-0.08, 0.08])
def test_points_far_outside_the_picture_stay_on_their_side(k1: float) -> None:
    cam = camera(k1)
    straight = camera(0.0)
    # In front of the camera, three to five times wider than the picture's view.
    ahead = np.array([[3.0, 0.2, 1.0], [-4.0, 1.0, 1.0], [0.5, -5.0, 1.0]]) * 500.0
    far = cam.position + ahead @ cam.rotation
    bent, plain = cam.project(far), straight.project(far)
    assert np.isfinite(bent).all()
    centre = np.array(cam.centre)
    assert (np.sign(bent - centre) == np.sign(plain - centre)).all()


def test_plane_maps_follow_the_rays() -> None:
    cam = camera(0.05)
    wx, wy = cam.plane_maps(0.0)
    rows, cols = np.array([0, 123, 479, 240]), np.array([0, 321, 639, 17])
    rays = cam.rays(cols.astype(float), rows.astype(float))
    hit = cam.position + rays * (-cam.position[2] / rays[:, 2])[:, None]
    np.testing.assert_allclose(wx[rows, cols], hit[:, 0], atol=0.05)
    np.testing.assert_allclose(wy[rows, cols], hit[:, 1], atol=0.05)


def test_a_nudged_board_is_seen_moved() -> None:
    cam = camera(0.0)
    centre = (200.0, 210.0)
    point = np.array([[100.0, 100.0, 0.0]])
    moved = board_camera(cam, centre, (5.0, -3.0, 0.0))
    # The board slid 5 mm along x and -3 mm along y: its point is where (105, 97) was.
    np.testing.assert_allclose(
        moved.project(point), cam.project(point + np.array([5.0, -3.0, 0.0]))
    )
    turned = board_camera(cam, centre, (0.0, 0.0, 90.0))
    # A quarter turn about the centre takes (100, 100) to (310, 110).
    np.testing.assert_allclose(turned.project(point), cam.project(np.array([[310.0, 110.0, 0.0]])))
