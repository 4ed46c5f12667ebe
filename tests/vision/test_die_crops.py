"""The value classifier's crop sets: side-face negatives come on their own random stream; mined
negatives are detector boxes on nothing labelled."""
import cv2
import numpy as np

from vision.detector.classes import CLASSES, die_value
from vision.detector.die_crop import CROP_SIZE, square_crop
from vision.detector.image_io import read_image
from vision.detector.model import Detection
from vision.detector.value_rule import NO_DIE
from vision.synth import render_image
from vision.training.dataset import is_varied
from vision.synth.table_dice import render_table_dice
from vision.training.die_crops import (KINDS, UNREADABLE, _overlap, mined_negatives, real_negatives, synthetic_crops,
                                      table_dice_crops, whole_box)


def test_side_face_crops_add_only_no_die_crops_and_leave_the_rest_alone():
    added = 0
    for i in range(0, 40, 5):
        x0, y0 = synthetic_crops(15, i, 1.0)
        x1, y1 = synthetic_crops(15, i, 1.0, side_faces=True)
        assert len(y1) >= len(y0)
        before = {c.tobytes() for c in x0}
        extra = [y for c, y in zip(x1, y1) if c.tobytes() not in before]
        assert len(extra) == len(y1) - len(y0) and all(y == NO_DIE for y in extra)
        assert np.array_equal(np.sort(y0), np.sort([y for c, y in zip(x1, y1) if c.tobytes() in before]))
        added += len(extra)
    assert added > 0


def test_whole_die_crops_add_one_crop_per_tilted_die_with_its_top_value():
    added = 0
    for i in range(0, 40, 5):
        r = render_image(15, i, kind=KINDS[i % len(KINDS)], varied=is_varied(i, 1.0))
        tilted = sorted(int(die_value(CLASSES[lb.cls])) for lb in r.labels
                        if die_value(CLASSES[lb.cls]) is not None and lb.sides)
        x0, _ = synthetic_crops(15, i, 1.0)
        x1, y1 = synthetic_crops(15, i, 1.0, whole_die=True)
        before = {c.tobytes() for c in x0}
        extra = sorted(int(y) for c, y in zip(x1, y1) if c.tobytes() not in before)
        assert extra == tilted
        added += len(extra)
    assert added > 0


def test_the_whole_box_holds_the_top_face_and_every_side_face():
    class Lb:
        box, sides = (10, 10, 30, 30), ((8, 28, 30, 40), (28, 12, 36, 32))
    assert whole_box(Lb) == (8, 10, 36, 40)


class _TwoBoxes:
    """A stand-in detector: a box on the labelled die and one on its side face below it."""

    imgsz = 320

    def detect(self, frame, conf=0.25, iou=0.5, classes=None, imgsz=None):
        return [Detection("die_3", (100, 80, 140, 120), 0.9), Detection("die_5", (100, 125, 140, 165), 0.8)]


def test_real_negatives_are_the_detector_boxes_on_no_labelled_die(tmp_path):
    (tmp_path / "images").mkdir()
    (tmp_path / "labels").mkdir()
    cv2.imwrite(str(tmp_path / "images" / "a.jpg"), np.full((240, 320, 3), 128, np.uint8))
    (tmp_path / "labels" / "a.txt").write_text(f"3 {120 / 320} {100 / 240} {20 / 320} {20 / 240}\n")
    (tmp_path / "split.csv").write_text("filename,split\na.jpg,train\n")
    x, y = real_negatives(tmp_path, "train", _TwoBoxes(), copies=2)
    assert x.shape == (2, CROP_SIZE, CROP_SIZE, 3) and list(y) == [NO_DIE, NO_DIE]
    assert np.array_equal(x[0], square_crop(read_image(tmp_path / "images" / "a.jpg"), (100, 125, 140, 165)))


class _BoxesOn:
    """A stand-in detector giving fixed die boxes on any frame it is shown."""

    imgsz = 320

    def __init__(self, boxes):
        self.boxes = boxes

    def detect(self, frame, conf=0.25, iou=0.5, classes=None, imgsz=None):
        h, w = frame.shape[:2]
        # Whole frames only: tiles would repeat the boxes at other places.
        return [Detection("die_2", b, 0.9) for b in self.boxes] if (w, h) == (640, 480) else []


def test_mined_negatives_are_boxes_on_no_labelled_object_and_off_the_edge():
    r = render_image(16, 0, width=640, height=480, kind=KINDS[0], varied=is_varied(0, 0.7))
    on_label = r.labels[0].box
    free = next(b for b in ((x, y, x + 30, y + 30) for y in range(10, 440, 15) for x in range(10, 600, 15))
                if not any(_overlap(b, lb.box) > 0 or any(_overlap(b, s) > 0 for s in lb.sides) for lb in r.labels))
    at_edge = (0, 200, 30, 230)
    twice = (free[0] + 1, free[1] + 1, free[2] + 1, free[3] + 1)
    x, y = mined_negatives([_BoxesOn([on_label, free, at_edge]), _BoxesOn([twice])], 16, 1, 0.7, copies=2)
    assert x.shape == (2, CROP_SIZE, CROP_SIZE, 3) and list(y) == [NO_DIE, NO_DIE]
    assert np.array_equal(x[0], square_crop(r.image, free))


def test_ray_cast_dice_give_two_crops_per_labelled_die_its_value_where_its_pips_show_and_no_die_crops_off_them():
    from_labels, got = [], []
    for i in range(4):
        r = render_table_dice(8, i)
        x, y = table_dice_crops(8, i)
        assert x.shape[1:] == (CROP_SIZE, CROP_SIZE, 3) and len(x) == len(y)
        from_labels += sorted(2 * [die_value(CLASSES[lb.cls]) if lb.pips_seen else UNREADABLE for lb in r.labels])
        got += sorted(v for v in y.tolist() if v != NO_DIE)
        assert (y == NO_DIE).sum() >= 1
    assert got == from_labels
    assert UNREADABLE in got and any(v > 0 for v in got)  # both kinds of dice in these pictures
