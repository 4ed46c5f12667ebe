"""Boxes the detector scores under the reader's threshold: kept only where both readers agree surely."""
import cv2
import numpy as np

from vision.detector.dice import read_dice
from vision.detector.model import Detection
from vision.detector.value_rule import READ_CONF, WEAK_CONF, WEAK_SURE, weak_box_holds
from vision.synth.cube import PIP_LAYOUT


class _Scored:
    """A detector that finds the given boxes down to the threshold it is asked for."""

    def __init__(self, dets):
        self.dets = dets

    def detect(self, frame, conf=0.25, iou=0.5, classes=None, imgsz=None):
        return [d for d in self.dets if d.score >= conf]


class _Reads:
    """A classifier that reads 5 with a given certainty."""

    def __init__(self, p5: float):
        self.p5 = p5

    def probabilities(self, crops, profile=None):
        p = np.full((len(crops), 7), (1 - self.p5) / 6, np.float32)
        p[:, 5] = self.p5
        return p


def _table() -> tuple[np.ndarray, dict[str, tuple[float, float, float, float]]]:
    """A dark table with three light faces showing 5 and one blank light patch."""
    frame = np.full((240, 400, 3), 40, np.uint8)
    boxes = {}
    for name, x in (("strong", 20), ("weak", 110), ("faint", 200)):
        frame[60:120, x:x + 60] = 235
        for a, b in PIP_LAYOUT[5]:
            cv2.circle(frame, (x + int(a * 60), 60 + int(b * 60)), 5, (20, 20, 20), -1, cv2.LINE_AA)
        boxes[name] = (float(x), 60.0, float(x + 60), 120.0)
    frame[60:120, 300:360] = 235
    boxes["blank"] = (300.0, 60.0, 360.0, 120.0)
    return frame, boxes


def _dets(boxes):
    return _Scored([Detection("die_5", boxes["strong"], 0.9), Detection("die_5", boxes["weak"], 0.2),
                    Detection("die_5", boxes["faint"], 0.1), Detection("die_5", boxes["blank"], 0.2)])


def test_a_weak_box_stands_only_on_a_value_both_readers_give_surely():
    assert WEAK_CONF < 0.2 < READ_CONF and WEAK_CONF > 0.1
    assert weak_box_holds(5, 5, WEAK_SURE)
    assert not weak_box_holds(5, 4, 0.99) and not weak_box_holds(5, None, 0.99) and not weak_box_holds(None, 5, 0.99)
    assert not weak_box_holds(5, 5, WEAK_SURE - 0.01)


def test_the_reader_keeps_a_confirmed_weak_box_and_drops_the_rest():
    frame, boxes = _table()
    got = read_dice(frame, _dets(boxes), value_model=_Reads(0.97), sliced=False)
    # The weak box on a clear 5 stands; the weak box on a blank patch (no pips to count) and the
    # box under WEAK_CONF are not shown at all.
    assert [(r.box, r.value) for r in got] == [(boxes["strong"], 5), (boxes["weak"], 5)]


def test_a_weak_box_the_classifier_is_not_sure_enough_of_is_dropped_while_a_strong_one_is_read():
    frame, boxes = _table()
    got = read_dice(frame, _dets(boxes), value_model=_Reads(0.85), sliced=False)
    assert [(r.box, r.value) for r in got] == [(boxes["strong"], 5)]


def test_a_threshold_of_its_own_reads_no_weak_boxes():
    frame, boxes = _table()
    got = read_dice(frame, _dets(boxes), conf=0.3, value_model=_Reads(0.97), sliced=False)
    assert [r.box for r in got] == [boxes["strong"]]
    # Without the classifier nothing can confirm a weak box.
    assert [r.box for r in read_dice(frame, _dets(boxes), value_source="pips", sliced=False)] == [boxes["strong"]]
