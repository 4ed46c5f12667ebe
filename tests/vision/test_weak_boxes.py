"""Boxes the detector scores under the reader's threshold: kept only where both readers agree surely."""
from tests.vision.reader_fakes import FindsBoxes, ReadsFive, table_of_fives
from vision.detector.dice import read_dice
from vision.detector.model import Detection
from vision.detector.value_rule import READ_CONF, WEAK_CONF, WEAK_SURE, weak_box_holds


def _table():
    """Three light faces showing 5 and one blank light patch."""
    return table_of_fives({"strong": 20, "weak": 110, "faint": 200}, 300)


def _dets(boxes):
    return FindsBoxes(Detection("die_5", boxes["strong"], 0.9), Detection("die_5", boxes["weak"], 0.2),
                      Detection("die_5", boxes["faint"], 0.1), Detection("die_5", boxes["blank"], 0.2))


def test_a_weak_box_stands_only_on_a_value_both_readers_give_surely():
    assert WEAK_CONF < 0.2 < READ_CONF and WEAK_CONF > 0.1
    assert weak_box_holds(5, 5, WEAK_SURE)
    assert not weak_box_holds(5, 4, 0.99) and not weak_box_holds(5, None, 0.99) and not weak_box_holds(None, 5, 0.99)
    assert not weak_box_holds(5, 5, WEAK_SURE - 0.01)


def test_the_reader_keeps_a_confirmed_weak_box_and_drops_the_rest():
    frame, boxes = _table()
    got = read_dice(frame, _dets(boxes), value_model=ReadsFive(0.97), sliced=False)
    # The weak box on a clear 5 stands; the weak box on a blank patch (no pips to count) and the
    # box under WEAK_CONF are not shown at all.
    assert [(r.box, r.value) for r in got] == [(boxes["strong"], 5), (boxes["weak"], 5)]


def test_a_weak_box_the_classifier_is_not_sure_enough_of_is_dropped_while_a_strong_one_is_read():
    frame, boxes = _table()
    got = read_dice(frame, _dets(boxes), value_model=ReadsFive(0.85), sliced=False)
    assert [(r.box, r.value) for r in got] == [(boxes["strong"], 5)]


def test_a_threshold_of_its_own_reads_no_weak_boxes():
    frame, boxes = _table()
    got = read_dice(frame, _dets(boxes), conf=0.3, value_model=ReadsFive(0.97), sliced=False)
    assert [r.box for r in got] == [boxes["strong"]]
    # Without the classifier nothing can confirm a weak box.
    assert [r.box for r in read_dice(frame, _dets(boxes), value_source="pips", sliced=False)] == [boxes["strong"]]
