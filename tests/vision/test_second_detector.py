"""A second detector's boxes: only where the first boxed nothing, and kept only where both readers agree."""
import cv2
import numpy as np

from vision.detector.dice import read_dice
from vision.detector.model import Detection
from vision.detector.profile import DiceProfile
from vision.detector.second_detector import SECOND_CONF, SECOND_SCORE, load_second_detector, second_boxes
from vision.detector.value_rule import READ_CONF, WEAK_CONF
from vision.synth.cube import PIP_LAYOUT


class _Finds:
    """A detector that finds the given boxes down to the threshold it is asked for (one pass: the
    frames here are smaller than 1.25 of its input size)."""

    imgsz = 320

    def __init__(self, *dets):
        self.dets = list(dets)
        self.asked = 0

    def detect(self, frame, conf=0.25, iou=0.5, classes=None, imgsz=None):
        self.asked += 1
        return [d for d in self.dets if d.score >= conf]


class _Reads:
    """A classifier that reads 5 with a given certainty."""

    def __init__(self, p5: float):
        self.p5 = p5

    def probabilities(self, crops, profile=None):
        p = np.full((len(crops), 7), (1 - self.p5) / 6, np.float32)
        p[:, 5] = self.p5
        return p


def _table():
    """A dark table with two light faces showing 5 and one blank light patch."""
    frame = np.full((240, 380, 3), 40, np.uint8)
    boxes = {}
    for name, x in (("first", 20), ("missed", 130)):
        frame[60:120, x:x + 60] = 235
        for a, b in PIP_LAYOUT[5]:
            cv2.circle(frame, (x + int(a * 60), 60 + int(b * 60)), 5, (20, 20, 20), -1, cv2.LINE_AA)
        boxes[name] = (float(x), 60.0, float(x + 60), 120.0)
    frame[60:120, 260:320] = 235
    boxes["blank"] = (260.0, 60.0, 320.0, 120.0)
    return frame, boxes


def test_second_boxes_lie_on_nothing_the_first_found_and_count_as_weak():
    assert WEAK_CONF <= SECOND_SCORE < READ_CONF
    first = [Detection("die_5", (0, 0, 40, 40), 0.9)]
    second = _Finds(Detection("die_5", (5, 5, 45, 45), 0.95),      # on the first box: not added
                    Detection("die_3", (100, 0, 140, 40), 0.8),     # on nothing: added, weak
                    Detection("die_2", (200, 0, 240, 40), SECOND_CONF - 0.01))  # under its threshold
    got = second_boxes(np.zeros((240, 320, 3), np.uint8), first, second)
    assert got == [Detection("die_3", (100.0, 0.0, 140.0, 40.0), SECOND_SCORE)]


def test_the_reader_keeps_a_second_box_only_where_both_readers_agree():
    frame, boxes = _table()
    first = _Finds(Detection("die_5", boxes["first"], 0.9))
    second = _Finds(Detection("die_5", boxes["missed"], 0.7), Detection("die_5", boxes["blank"], 0.9))
    sure = read_dice(frame, first, value_model=_Reads(0.97), second=second)
    # The missed 5 stands (the classifier sure, the pip counter counting 5); the blank patch has
    # no pips to count, so it is dropped, not shown as unsure.
    assert [(r.box, r.value) for r in sure] == [(boxes["first"], 5), (boxes["missed"], 5)]
    unsure = read_dice(frame, first, value_model=_Reads(0.85), second=second)
    assert [r.box for r in unsure] == [boxes["first"]]


def test_no_second_boxes_when_asked_for_none_with_a_profile_or_a_threshold_of_its_own():
    frame, boxes = _table()
    first = _Finds(Detection("die_5", boxes["first"], 0.9))
    second = _Finds(Detection("die_5", boxes["missed"], 0.7))
    assert [r.box for r in read_dice(frame, first, value_model=_Reads(0.97), second=False)] == [boxes["first"]]
    assert [r.box for r in read_dice(frame, first, conf=0.3, value_model=_Reads(0.97), second=second)] == [boxes["first"]]
    assert [r.box for r in read_dice(frame, first, value_model=_Reads(0.97), second=second,
                                     profile=DiceProfile("x", None, {}))] == [boxes["first"]]
    assert second.asked == 0


def test_a_missing_second_detector_is_none(tmp_path):
    assert load_second_detector(tmp_path / "none.onnx") is None
