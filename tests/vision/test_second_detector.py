"""A second detector's boxes: only where the first boxed nothing, and kept only where both readers agree."""
import numpy as np

from tests.vision.reader_fakes import FindsBoxes, ReadsFive, table_of_fives
from vision.detector.dice import read_dice
from vision.detector.model import Detection
from vision.detector.profile import DiceProfile
from vision.detector.second_detector import SECOND_CONF, SECOND_SCORE, load_second_detector, second_boxes
from vision.detector.value_rule import READ_CONF, WEAK_CONF


def _table():
    """Two light faces showing 5 and one blank light patch."""
    return table_of_fives({"first": 20, "missed": 130}, 260, width=380)


def test_second_boxes_lie_on_nothing_the_first_found_and_count_as_weak():
    assert WEAK_CONF <= SECOND_SCORE < READ_CONF
    first = [Detection("die_5", (0, 0, 40, 40), 0.9)]
    second = FindsBoxes(Detection("die_5", (5, 5, 45, 45), 0.95),      # on the first box: not added
                    Detection("die_3", (100, 0, 140, 40), 0.8),     # on nothing: added, weak
                    Detection("die_2", (200, 0, 240, 40), SECOND_CONF - 0.01))  # under its threshold
    got = second_boxes(np.zeros((240, 320, 3), np.uint8), first, second)
    assert got == [Detection("die_3", (100.0, 0.0, 140.0, 40.0), SECOND_SCORE, weak=True)]


def test_the_reader_keeps_a_second_box_only_where_both_readers_agree():
    frame, boxes = _table()
    first = FindsBoxes(Detection("die_5", boxes["first"], 0.9))
    second = FindsBoxes(Detection("die_5", boxes["missed"], 0.7), Detection("die_5", boxes["blank"], 0.9))
    sure = read_dice(frame, first, value_model=ReadsFive(0.97), second=second)
    # The missed 5 stands (the classifier sure, the pip counter counting 5); the blank patch has
    # no pips to count, so it is dropped, not shown as unsure.
    assert [(r.box, r.value) for r in sure] == [(boxes["first"], 5), (boxes["missed"], 5)]
    unsure = read_dice(frame, first, value_model=ReadsFive(0.85), second=second)
    assert [r.box for r in unsure] == [boxes["first"]]


def test_no_second_boxes_when_asked_for_none_or_at_a_threshold_of_the_callers():
    frame, boxes = _table()
    first = FindsBoxes(Detection("die_5", boxes["first"], 0.9))
    second = FindsBoxes(Detection("die_5", boxes["missed"], 0.7))
    assert [r.box for r in read_dice(frame, first, value_model=ReadsFive(0.97), second=False)] == [boxes["first"]]
    assert [r.box for r in read_dice(frame, first, conf=0.3, value_model=ReadsFive(0.97), second=second)] == [boxes["first"]]
    assert second.asked == 0


def test_with_a_profile_of_a_lower_threshold_a_second_box_still_must_hold():
    frame, boxes = _table()
    first = FindsBoxes(Detection("die_5", boxes["first"], 0.9))
    second = FindsBoxes(Detection("die_5", boxes["missed"], 0.7), Detection("die_5", boxes["blank"], 0.9))
    low = DiceProfile("x", None, {}, conf=0.05)  # its capped score (0.2) is over the profile's threshold
    sure = read_dice(frame, first, value_model=ReadsFive(0.97), second=second, profile=low)
    assert [(r.box, r.value) for r in sure] == [(boxes["first"], 5), (boxes["missed"], 5)]
    unsure = read_dice(frame, first, value_model=ReadsFive(0.85), second=second, profile=low)
    assert [r.box for r in unsure] == [boxes["first"]]


def test_a_missing_second_detector_is_none(tmp_path):
    assert load_second_detector(tmp_path / "none.onnx") is None
