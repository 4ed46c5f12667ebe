"""The ray-cast dice look (vision.synth.table_dice): each face carries its value's pips, opposite
faces add up to 7, and a picture's labels box the top faces of the dice in sight."""
from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.detector.classes import CLASSES, die_value
from vision.synth.table_dice import DieFaces, PlacedDie, random_faces, render_table_dice, top_face_label
from vision.synth.table_scenes import Camera, Solid, cast, turn_z


def _face_grid(axis: int, sign: int, n: int = 96) -> tuple[np.ndarray, np.ndarray]:
    """Points on one face of a unit-half-side cube at the origin, and the face's normal."""
    u, v = np.meshgrid(np.linspace(-0.98, 0.98, n), np.linspace(-0.98, 0.98, n))
    p = np.zeros((n * n, 3))
    others = [a for a in range(3) if a != axis]
    p[:, others[0]], p[:, others[1]] = u.ravel(), v.ravel()
    p[:, axis] = 1.0 if sign else -1.0
    normal = np.zeros((n * n, 3))
    normal[:, axis] = 1.0 if sign else -1.0
    return p, normal


def _pips_on(faces: DieFaces, axis: int, sign: int, body=np.array([0.8, 0.2, 0.1])) -> int:
    cube = Solid("die", "box", np.zeros(3), np.eye(3), np.ones(3), body, "matte", surface=faces.surface)
    p, n = _face_grid(axis, sign)
    albedo, _, _ = cube.surface(cube, p, n)
    marked = (np.abs(albedo - body).sum(1) > 1e-6).reshape(96, 96).astype(np.uint8)
    return cv2.connectedComponents(marked)[0] - 1


@pytest.mark.parametrize("top", range(1, 7))
def test_every_face_shows_its_value_and_opposite_faces_add_up_to_seven(top):
    rng = np.random.default_rng(top)
    faces = random_faces(rng, top, np.array([0.8, 0.2, 0.1]))
    assert faces.values[2][1] == top
    for axis in range(3):
        assert sum(faces.values[axis]) == 7
        for sign in (0, 1):
            assert _pips_on(faces, axis, sign) == faces.values[axis][sign]
    assert sorted(v for pair in faces.values for v in pair) == [1, 2, 3, 4, 5, 6]


def test_engraved_pips_turn_the_normal_toward_their_centre_and_painted_ones_are_paint():
    faces = DieFaces(((1, 6), (2, 5), (4, 3)), 0.2, np.array([1.0, 1.0, 1.0]), 0.6, True, (False,) * 6)
    cube = Solid("die", "box", np.zeros(3), np.eye(3), np.ones(3), np.array([0.1, 0.1, 0.1]), "glossy",
                 surface=faces.surface)
    # the top face shows 3: pips at (-0.5, -0.5), (0, 0), (0.5, 0.5); a point right of the centre pip's centre
    p = np.array([[0.1, 0.0, 1.0], [0.0, 0.0, 1.0], [0.0, 0.7, 1.0]])
    albedo, normal, paint = cube.surface(cube, p, np.tile([0.0, 0.0, 1.0], (3, 1)))
    assert paint.tolist() == [True, True, False]
    assert normal[0, 0] < 0  # leans back toward the pip's centre
    assert np.allclose(normal[1], [0, 0, 1]) and np.allclose(normal[2], [0, 0, 1])
    assert np.allclose(albedo[2], cube.colour)


def test_a_picture_is_deterministic_and_its_labels_box_dice_inside_it():
    a, b = render_table_dice(5, 3, (160, 120)), render_table_dice(5, 3, (160, 120))
    assert np.array_equal(a.image, b.image) and a.labels == b.labels
    labelled = 0
    for i in range(6):
        r = render_table_dice(5, i, (160, 120))
        assert r.image.shape == (120, 160, 3) and r.image.dtype == np.uint8
        for lb in r.labels:
            assert die_value(CLASSES[lb.cls]) is not None
            x1, y1, x2, y2 = lb.box
            assert 0 <= x1 < x2 <= 160 and 0 <= y1 < y2 <= 120
        labelled += len(r.labels)
        assert r.yolo_lines() == [line for line in r.yolo_lines() if len(line.split()) == 5]
    assert labelled > 0


def test_a_top_face_label_boxes_the_pixels_of_that_face_and_a_hidden_face_none():
    cam = Camera(np.array([0.3, 0.2, 6.0]), 200.0, 160, 120)
    faces = random_faces(np.random.default_rng(0), 4, np.array([0.9, 0.9, 0.9]))
    die = Solid("die", "box", np.array([0.2, -0.1, 0.3]), turn_z(0.4), np.full(3, 0.3), np.array([0.9, 0.9, 0.9]), "matte",
                surface=faces.surface)
    t, which, normal = cast([die], np.broadcast_to(cam.eye, (120 * 160, 3)), cam.rays())
    ids, normals = which.reshape(120, 160), normal.reshape(120, 160, 3)
    label = top_face_label(cam, die, PlacedDie(0, 4, faces.radius), ids, normals)
    assert CLASSES[label.cls] == "die_4"
    ys, xs = np.nonzero((ids == 0) & (normals[..., 2] > 0.7))
    assert np.allclose(label.box, (xs.min(), ys.min(), xs.max() + 1, ys.max() + 1), atol=1.5)
    # the same die with a box standing over it: its top face hidden, no label
    lid = Solid("box", "box", np.array([0.2, -0.1, 1.5]), np.eye(3), np.full(3, 0.6), np.ones(3) * 0.5, "matte")
    t, which, normal = cast([die, lid], np.broadcast_to(cam.eye, (120 * 160, 3)), cam.rays())
    assert top_face_label(cam, die, PlacedDie(0, 4, faces.radius), which.reshape(120, 160), normal.reshape(120, 160, 3)) is None


def test_some_ray_cast_dice_are_too_small_or_blurred_for_their_pips_and_most_that_are_large_show_them():
    seen_large, large, unseen = 0, 0, 0
    for i in range(12):
        for lb in render_table_dice(5, i).labels:
            side = max(lb.box[2] - lb.box[0], lb.box[3] - lb.box[1])
            unseen += not lb.pips_seen
            if side >= 40:
                large += 1
                seen_large += lb.pips_seen
    assert unseen > 0 and large > 0 and seen_large >= 0.5 * large
