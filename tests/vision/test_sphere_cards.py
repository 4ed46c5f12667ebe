"""The sphere-card dataset: each sphere boxed by the part of it that shows, nothing else boxed."""
import numpy as np

from vision.synth.quarx_shapes import CARD_H, CARD_W, PlacedShape
from vision.training.sphere_cards import MIN_VISIBLE, build, render_card, sphere_boxes, yolo_lines


def _mask(x1: int, y1: int, x2: int, y2: int) -> np.ndarray:
    m = np.zeros((CARD_H, CARD_W), bool)
    m[y1:y2, x1:x2] = True
    return m


def test_spheres_are_boxed_by_what_shows_and_decoys_and_slivers_are_not():
    shapes = [PlacedShape("sphere", _mask(10, 20, 30, 44)), PlacedShape("egg", _mask(50, 50, 70, 80)),
              PlacedShape("bubble", _mask(100, 100, 104, 104)), PlacedShape("sphere", _mask(200, 300, 203, 303))]
    assert 9 < MIN_VISIBLE  # the 3x3 sliver is under it
    assert sphere_boxes(shapes) == [(10.0, 20.0, 30.0, 44.0)]
    (line,) = yolo_lines(sphere_boxes(shapes))
    cls, cx, cy, w, h = line.split()
    assert cls == "0"
    assert np.allclose([float(cx), float(cy), float(w), float(h)],
                       [20 / CARD_W, 32 / CARD_H, 20 / CARD_W, 24 / CARD_H], atol=1e-6)


def test_a_built_card_has_one_label_line_per_visible_sphere(tmp_path):
    yaml = build(tmp_path, seed=3, count=4, val_count=1)
    assert "names:\n  0: sphere" in yaml.read_text()
    for i in range(4):
        image, shapes = render_card(3, i)
        assert image.shape == (CARD_H, CARD_W, 3)
        lines = (tmp_path / "labels" / "train" / f"card_3_{i:05d}.txt").read_text().split()
        assert len(lines) == 5 * len(sphere_boxes(shapes))
        values = np.array(lines, float).reshape(-1, 5)
        assert ((values[:, 1:] > 0) & (values[:, 1:] <= 1)).all()
    assert (tmp_path / "images" / "val" / "card_1003_00000.png").is_file()


def test_cards_are_deterministic():
    a, _ = render_card(5, 2)
    b, _ = render_card(5, 2)
    assert np.array_equal(a, b)
