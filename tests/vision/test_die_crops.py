"""The value classifier's crop sets: side-face negatives come on their own random stream."""
import cv2
import numpy as np

from vision.detector.die_crop import CROP_SIZE, square_crop
from vision.detector.image_io import read_image
from vision.detector.model import Detection
from vision.detector.value_rule import NO_DIE
from vision.training.die_crops import real_negatives, synthetic_crops


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
