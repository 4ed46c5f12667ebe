"""The side face under a die's top face is not read as a die of its own."""
import numpy as np

from vision.detector.dice import read_dice
from vision.detector.model import Detection
from vision.detector.side_faces import is_side_face, is_turned_side_face, side_faces, tilt_tan

TOP = (100.0, 100.0, 140.0, 136.0)  # a top face 40 wide, 36 high


def test_a_low_box_right_under_a_face_is_its_side():
    assert is_side_face((102.0, 134.0, 139.0, 158.0), TOP)   # starts inside the face's box
    assert is_side_face((98.0, 138.0, 141.0, 162.0), TOP)    # starts just below it


def test_a_die_in_the_row_below_is_not_a_side_face():
    assert not is_side_face((100.0, 150.0, 140.0, 186.0), TOP)   # a side face further down, as tall
    assert not is_side_face((100.0, 145.0, 140.0, 170.0), TOP)   # lower, but 0.25 of a face below
    assert not is_side_face((125.0, 136.0, 165.0, 160.0), TOP)   # off to the side
    assert not is_side_face((100.0, 136.0, 180.0, 160.0), TOP)   # twice as wide
    assert not is_side_face((100.0, 136.0, 140.0, 172.0), TOP)   # as tall as the face
    assert not is_side_face((100.0, 64.0, 140.0, 100.0), TOP)    # above it


def test_seen_from_far_over_a_side_face_is_taller_than_its_top_face():
    flat_top = (100.0, 100.0, 140.0, 120.0)  # 40 wide, 20 high: a camera tilted 60 degrees
    assert abs(tilt_tan(flat_top) - np.tan(np.radians(60))) < 1e-6
    tall_side = (101.0, 118.0, 139.0, 150.0)  # 1.6 faces tall, as tan 60 degrees makes it
    assert is_side_face(tall_side, flat_top)
    # straight down (a square box) no side face shows: a box that tall is a die of its own
    assert tilt_tan(TOP) < 0.5 and not is_side_face((101.0, 134.0, 139.0, 192.0), TOP)
    # and a die in the row below starts tan(tilt) of a face further down, outside the gap
    assert not is_side_face((100.0, 154.0, 140.0, 174.0), flat_top)


def test_only_a_sure_reading_is_taken_for_the_top_face_above_a_side():
    boxes = [TOP, (101.0, 135.0, 139.0, 158.0)]
    assert side_faces(boxes, [True, True]) == {1}
    assert side_faces(boxes, [False, True]) == set()  # an unsure box above (printed letters) is no face


def test_a_turned_dies_side_faces_are_narrower_boxes_under_its_lower_edges():
    turned = (100.0, 100.0, 156.0, 140.0)  # a face turned 45 degrees, tilted 45: 56 wide, 40 high
    left, right = (100.0, 112.0, 129.0, 168.0), (127.0, 112.0, 156.0, 168.0)
    assert all(is_turned_side_face(b, turned) and not is_side_face(b, turned) for b in (left, right))
    assert side_faces([turned, left, right], [True, True, True], [0.9, 0.6, 0.6]) == {1, 2}
    # a die below it starts under the face's bottom and hangs a whole face further down
    assert not is_turned_side_face((105.0, 150.0, 150.0, 205.0), turned)
    # a box reaching past the face's width, or starting in its upper part, is no side face
    assert not is_turned_side_face((90.0, 112.0, 129.0, 168.0), turned)
    assert not is_turned_side_face((100.0, 102.0, 129.0, 168.0), turned)


def test_an_unsure_box_above_counts_as_a_top_face_when_the_detector_scored_it_as_high():
    boxes = [TOP, (101.0, 135.0, 139.0, 158.0)]
    assert side_faces(boxes, [False, True], [0.8, 0.5]) == {1}
    assert side_faces(boxes, [False, True], [0.3, 0.5]) == set()  # letters scored under the die below


def test_side_faces_names_only_the_lower_box():
    boxes = [TOP, (101.0, 135.0, 139.0, 158.0), (200.0, 100.0, 240.0, 136.0)]
    assert side_faces(boxes) == {1}
    assert side_faces([TOP]) == set() and side_faces([]) == set()
    assert side_faces([(0.0, 0.0, 0.0, 0.0), TOP]) == set()  # a degenerate box is nobody's face


class _Fixed:
    def __init__(self, dets):
        self.dets = dets

    def detect(self, frame, conf=0.25, iou=0.5, classes=None, imgsz=None):
        return list(self.dets)


class _SureFive:
    def probabilities(self, crops, profile=None):
        p = np.full((len(crops), 7), 0.005, np.float32)
        p[:, 5] = 0.97
        return p


def test_the_reader_drops_a_side_face_and_keeps_the_die_below_it():
    frame = np.full((300, 320, 3), 30, np.uint8)
    frame[100:136, 100:140] = 230
    frame[136:160, 100:140] = 180
    frame[180:216, 100:140] = 230
    dets = [Detection("die_5", TOP, 0.9), Detection("die_4", (100, 136, 140, 160), 0.6),
            Detection("die_5", (100, 180, 140, 216), 0.9)]
    got = read_dice(frame, _Fixed(dets), value_model=_SureFive(), sliced=False)
    assert sorted(r.box for r in got) == [TOP, (100, 180, 140, 216)]
