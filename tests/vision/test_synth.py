"""The renderer is deterministic for a seed and its labels are sane."""
import numpy as np

from vision.detector.classes import CLASSES
from vision.synth import render_image


def test_same_seed_same_image_and_labels():
    a, b = render_image(5, 3), render_image(5, 3)
    assert np.array_equal(a.image, b.image)
    assert a.labels == b.labels


def test_different_index_differs():
    assert not np.array_equal(render_image(5, 3).image, render_image(5, 4).image)


def test_labels_inside_image_and_yolo_lines():
    for i in range(6):
        r = render_image(11, i)
        h, w = r.image.shape[:2]
        assert (w, h) == (320, 240)
        for lb in r.labels:
            x1, y1, x2, y2 = lb.box
            assert 0 <= x1 < x2 <= w and 0 <= y1 < y2 <= h
            assert 0 <= lb.cls < len(CLASSES)
        for line in r.yolo_lines():
            parts = line.split()
            assert len(parts) == 5 and all(0 <= float(v) <= 1 for v in parts[1:])


def test_every_scene_kind_renders_its_classes():
    dice = render_image(3, 0, kind="dice")
    assert any(CLASSES[lb.cls].startswith("die_") for lb in dice.labels)
    close = render_image(3, 0, kind="quarx_close")
    names = {CLASSES[lb.cls] for lb in close.labels}
    assert "quarx_card" in names
    card = next(lb for lb in close.labels if CLASSES[lb.cls] == "quarx_card")
    assert card.count == sum(1 for lb in close.labels if CLASSES[lb.cls] == "sphere")
