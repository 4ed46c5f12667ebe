"""The one die reader: crops cut one way, tiles for small dice, a value only when the classifier
and the pip counter agree (unsure is None, never a guess)."""
import numpy as np
import pytest

from vision.detector.dice import DieReading, read_dice
from vision.detector.die_crop import CROP_SIZE, crops_blob, square_crop
from vision.detector.model import Detection
from vision.detector.profile import DiceProfile, lab
from vision.detector.slicing import detect_sliced, merge, tiles
from vision.detector.value_rule import (AGREE, OVERRIDE, SECOND, STRICT_RULE, SURE, WIDE_BOX, WIDE_OTHER, WIDE_SURE,
                                        ValueRule, decide, wide_disagrees)
from vision.training.reader_eval import ReaderTally


def _probs(value: int, p: float) -> np.ndarray:
    out = np.full(7, (1 - p) / 6, np.float32)
    out[value] = p
    return out


@pytest.mark.parametrize("box", [(10, 10, 40, 40), (-80, -80, -20, -20), (300, 220, 420, 330),
                                 (100, 100, 102, 101), (0, 0, 320, 240)])
def test_square_crop_is_always_the_classifier_size(box):
    frame = np.random.default_rng(0).integers(0, 255, (240, 320, 3), dtype=np.uint8)
    crop = square_crop(frame, box)
    assert crop.shape == (CROP_SIZE, CROP_SIZE, 3) and crop.dtype == np.uint8
    assert crops_blob([crop, crop]).shape == (2, 3, CROP_SIZE, CROP_SIZE)


def test_square_crop_keeps_the_die_centred():
    frame = np.zeros((200, 200, 3), np.uint8)
    frame[90:110, 90:110] = 255  # a white 20 px face
    crop = square_crop(frame, (90, 90, 110, 110))
    ys, xs = np.nonzero(crop[:, :, 0] > 128)
    assert abs(xs.mean() - (CROP_SIZE - 1) / 2) < 1 and abs(ys.mean() - (CROP_SIZE - 1) / 2) < 1
    assert crop[0, 0, 0] == 0  # the margin shows table around the face


def test_decide_agrees_or_says_unsure():
    assert decide(_probs(4, 0.95), None) == 4          # sure, nothing counted against it
    assert decide(_probs(4, SURE - 0.05), None) is None  # not sure enough alone
    assert decide(_probs(4, AGREE + 0.05), 4) == 4      # less sure, but the pips agree
    assert decide(_probs(4, SURE + 0.02), 5) is None    # they disagree: unsure, never a guess
    assert decide(_probs(4, AGREE - 0.05), 4) is None


def test_a_very_sure_classifier_outvotes_the_pip_counter():
    assert OVERRIDE > SURE
    assert decide(_probs(4, OVERRIDE + 0.01), 5) == 4   # the counter misreads light or engraved pips
    assert decide(_probs(4, OVERRIDE - 0.01), 5) is None
    old = ValueRule(pip_check=True, sure=SURE, override=None)  # a profile taught before the override
    assert decide(_probs(4, 0.999), 5, old) is None


def test_a_taught_override_is_lower_only_where_the_counter_finds_fewer_pips():
    taught = ValueRule(pip_check=True, sure=0.6, override=0.6)
    assert decide(_probs(4, 0.7), 3, taught) == 4       # the counter missed a faint pip
    assert decide(_probs(1, 0.9), 2, taught) is None    # two pips found where the classifier sees one
    assert decide(_probs(1, OVERRIDE + 0.01), 2, taught) == 1  # ... the shipped certainty still may
    assert decide(_probs(1, 0.999), 2, ValueRule(override=0.98)) == 1  # a stricter one stays stricter
    assert decide(_probs(1, 0.97), 2, ValueRule(override=0.98)) is None
    assert decide(_probs(1, 0.999), 2, STRICT_RULE) is None
    never_more = ValueRule(pip_check=True, sure=0.6, override=0.6, more=None)
    assert decide(_probs(1, 0.999), 2, never_more) is None  # a count of more pips always vetoes
    assert decide(_probs(4, 0.7), 3, never_more) == 4       # one of fewer still only below 0.6


def test_a_taught_rule_without_the_pip_check_lets_the_classifier_answer_alone():
    alone = ValueRule(pip_check=False, sure=0.6)
    assert decide(_probs(4, 0.7), 5, alone) == 4        # a pip count that differs no longer vetoes
    assert decide(_probs(4, 0.5), 4, alone) is None     # nor does one that agrees lower the bar
    assert decide(_probs(4, 0.7), 5) is None            # the shipped rule still vetoes at 0.7


def test_a_count_of_more_that_is_a_side_faces_flat_pips_agrees():
    assert decide(_probs(1, 0.8), 3) is None                 # two more pips counted: unsure
    assert decide(_probs(1, 0.8), 3, pip_flat=2) == 1        # ... both a side face's: the top shows 1
    assert decide(_probs(1, 0.8), 3, pip_flat=1) is None     # one flat pip does not make it 1
    assert decide(_probs(1, AGREE - 0.05), 3, pip_flat=2) is None  # agreeing still asks AGREE
    assert decide(_probs(4, 0.8), 3, pip_flat=1) is None     # fewer pips: flat ones change nothing


def _two(first: int, p_first: float, second: int, p_second: float) -> np.ndarray:
    out = np.full(7, (1 - p_first - p_second) / 5, np.float32)
    out[first], out[second] = p_first, p_second
    return out


def test_a_count_of_more_pips_that_is_the_classifiers_second_choice_decides():
    # a dark 2 framed whole: the classifier reads 1, then 2; the counter counts 2
    assert decide(_two(1, 0.6, 2, SECOND + 0.05), 2) == 2
    assert decide(_two(1, 0.6, 2, SECOND - 0.05), 2) is None           # too unlikely a second choice
    assert decide(_two(1, 0.5, 3, 0.35), 2) is None                    # the count is not its second choice
    assert decide(_two(3, 0.6, 2, 0.35), 2) is None                    # fewer pips: the counter misses faint ones
    assert decide(_two(1, 0.6, 2, 0.35), 2, STRICT_RULE) == 2          # every rule that asks the counter
    assert decide(_two(1, 0.6, 2, 0.35), 2, ValueRule(pip_check=False)) is None  # not one that does not
    assert decide(_two(1, 0.6, 2, 0.35), 2, wide=_probs(5, 0.9)) is None  # the wider look still vetoes
    assert decide(_two(1, 0.6, 2, 0.35), None) is None                 # no count, no second opinion


def test_a_count_of_fewer_pips_gives_way_to_a_wider_look_that_reads_the_same_value():
    # a tight box cut a corner pip off: the counter counts 3 of a 4, the wider crop shows all four
    sure_wide = _probs(4, WIDE_SURE + 0.01)
    assert decide(_probs(4, 0.6), 3) is None                             # without the wider look: unsure
    assert decide(_probs(4, 0.6), 3, wide=sure_wide) == 4
    assert decide(_probs(4, WIDE_BOX - 0.05), 3, wide=sure_wide) is None  # the box itself barely reads it
    assert decide(_probs(4, 0.6), 3, wide=_probs(4, WIDE_SURE - 0.05)) is None  # the wider look not sure
    assert decide(_probs(4, 0.6), 3, wide=_probs(6, 0.99)) is None       # ... or reading another value
    assert decide(_probs(4, 0.6), 5, wide=sure_wide) is None             # more pips: no such excuse
    assert decide(_probs(4, 0.6), 3, STRICT_RULE, wide=sure_wide) is None  # every differing count vetoes
    assert decide(_probs(4, 0.6), 3, wide=sure_wide, pip_short=True) == 4  # a count that may be short too


def test_tiles_cover_the_frame_with_overlap():
    wins = tiles(640, 480, 320)
    assert wins[0] == (0, 0, 320, 320) and wins[-1] == (320, 160, 640, 480)
    covered = np.zeros((480, 640), bool)
    for x1, y1, x2, y2 in wins:
        covered[y1:y2, x1:x2] = True
    assert covered.all()
    assert tiles(300, 200, 320) == [(0, 0, 300, 200)]


def test_merge_keeps_the_best_box_and_drops_boxes_inside_it():
    dets = [Detection("die_3", (10, 10, 50, 50), 0.9), Detection("die_4", (12, 11, 51, 50), 0.6),
            Detection("die_1", (25, 25, 35, 35), 0.8), Detection("die_2", (100, 100, 130, 130), 0.5)]
    kept = merge(dets)
    assert [d.box for d in kept] == [(10, 10, 50, 50), (100, 100, 130, 130)]


class _TileDetector:
    """Finds one 'die' wherever a white square is whole in its input: a stand-in network."""

    imgsz = 320

    def detect(self, frame, conf=0.25, iou=0.5, classes=None, imgsz=None):
        m = frame[:, :, 0] > 200
        if not m.any():
            return []
        ys, xs = np.nonzero(m)
        box = (float(xs.min()), float(ys.min()), float(xs.max() + 1), float(ys.max() + 1))
        scale = 1.0 if max(frame.shape[:2]) <= 320 else 0.5  # the whole frame is seen at half size
        return [Detection("die_2", box, 0.9 * scale)]


def test_detect_sliced_maps_tile_boxes_back_to_the_frame():
    frame = np.zeros((480, 640, 3), np.uint8)
    frame[400:420, 500:520] = 255
    got = detect_sliced(_TileDetector(), frame)
    assert [d.box for d in got] == [(500.0, 400.0, 520.0, 420.0)]
    assert got[0].score == pytest.approx(0.9)  # a tile's full-size view beats the shrunk frame


class _Values:
    """A stand-in value classifier: 'no die' for dark crops, a sure 5 for light ones."""

    def probabilities(self, crops, profile=None):
        return np.stack([_probs(0, 0.95) if c.mean() < 60 else _probs(5, 0.97) for c in crops])


class _Fixed:
    imgsz = 320

    def __init__(self, dets):
        self.dets = dets

    def detect(self, frame, conf=0.25, iou=0.5, classes=None, imgsz=None):
        return list(self.dets)


def test_reader_drops_what_the_classifier_calls_no_die():
    frame = np.full((240, 320, 3), 30, np.uint8)
    frame[100:140, 100:140] = 230
    dets = [Detection("die_5", (100, 100, 140, 140), 0.8), Detection("die_1", (10, 10, 40, 40), 0.5)]
    got = read_dice(frame, _Fixed(dets), value_model=_Values(), sliced=False)
    assert len(got) == 1 and got[0].box == (100, 100, 140, 140)
    assert got[0].value in (5, None)  # a plain square has no pips to count: the 0.97 five stands alone
    assert got[0].to_json()["value"] == got[0].value


def test_a_profile_with_a_colour_gate_drops_boxes_of_no_taught_colour():
    frame = np.full((240, 320, 3), 30, np.uint8)
    frame[100:140, 100:140] = (40, 200, 230)   # a mustard-yellow square: a taught colour
    frame[100:140, 200:240] = (230, 230, 230)  # a white one: not taught
    dets = [Detection("die_5", (100, 100, 140, 140), 0.8), Detection("die_5", (200, 100, 240, 140), 0.8)]
    mustard = [float(v) for v in lab(np.array([40, 200, 230], np.float32))]
    gated = DiceProfile("x", None, {"mustard": mustard}, colour_gate=True)
    got = read_dice(frame, _Fixed(dets), value_model=_Values(), sliced=False, profile=gated)
    assert [(r.box, r.color) for r in got] == [((100, 100, 140, 140), "mustard")]
    ungated = read_dice(frame, _Fixed(dets), value_model=_Values(), sliced=False,
                        profile=DiceProfile("x", None, {"mustard": mustard}))
    assert len(ungated) == 2


def test_a_wider_look_that_reads_a_larger_value_makes_the_die_unsure():
    assert not wide_disagrees(_probs(4, 0.9), 4)
    assert wide_disagrees(_probs(6, WIDE_OTHER), 3)
    # a box on part of a die shows fewer pips than the die: a wider look reading fewer is no veto
    assert not wide_disagrees(_probs(1, 0.99), 2)
    assert decide(_probs(2, 0.97), 2, wide=_probs(1, 0.99)) == 2
    assert not wide_disagrees(_probs(6, WIDE_OTHER - 0.01), 3)  # a doubtful wider look says nothing
    assert not wide_disagrees(_probs(6, 0.99), None)
    assert decide(_probs(3, 0.97), 3, wide=_probs(6, WIDE_OTHER)) is None  # the rule asks the wider look
    assert decide(_probs(3, 0.97), 3, wide=_probs(3, 0.6)) == 3


class _ByLightShare:
    """A stand-in classifier: a sure 3 on a crop mostly of die, a sure 6 on one that shows the
    die whole with the table round it (as a box on half a six reads)."""

    def probabilities(self, crops, profile=None):
        return np.stack([_probs(3, 0.97) if (c.mean(axis=2) > 128).mean() > 0.42 else _probs(6, 0.97)
                         for c in crops])


def test_a_box_on_part_of_a_die_is_unsure_when_the_wider_crop_reads_otherwise():
    frame = np.full((240, 320, 3), 30, np.uint8)
    frame[100:140, 100:140] = 230
    half = (100, 100, 120, 140)  # the left half of the die: its crop is 53% die, the wider one 31%
    got = read_dice(frame, _Fixed([Detection("die_3", half, 0.8)]), value_model=_ByLightShare(), sliced=False)
    assert len(got) == 1 and got[0].value is None and got[0].crop_value == 3


def test_a_count_that_may_be_short_does_not_veto_a_larger_value():
    assert decide(_probs(4, SURE + 0.02), 3) is None                    # a count of 3 vetoes a sure 4 ...
    assert decide(_probs(4, SURE + 0.02), 3, pip_short=True) == 4       # ... unless it may have missed one
    assert decide(_probs(4, SURE - 0.05), 3, pip_short=True) is None    # then the classifier answers alone
    assert decide(_probs(4, SURE + 0.02), 5, pip_short=True) is None    # a count of more pips still vetoes
    assert decide(_probs(4, AGREE + 0.05), 4, pip_short=True) == 4      # and one that agrees still confirms


def test_the_tally_says_why_each_die_was_not_read_right():
    def reading(x: float, value, crop, pip) -> DieReading:
        return DieReading(value, "red", (x, 0.0, x + 30, 30.0), 0.9, 0, pip, crop, 0.8)

    labels = [((x, 0.0, x + 30, 30.0), v, None, 30.0) for x, v in zip(range(0, 280, 40), [1, 2, 3, 4, 5, 6, 2])]
    t = ReaderTally()
    t.add("p", [reading(0, 1, 1, 1),  # right
                reading(40, 3, 3, 3),  # a sure 3 on a 2
                reading(80, None, 2, 2),  # the classifier reads another value
                reading(120, None, 4, None),  # no pip count
                reading(160, None, 5, 5),  # agreeing, yet unsure
                reading(200, None, 6, 5)],  # one pip short
          labels)  # the last die has no reading
    assert t.as_dict()["not_right_causes"] == {
        "wrong: a sure other value": 1, "unsure: the classifier read another value": 1,
        "unsure: no pip count, the classifier not sure enough alone": 1,
        "unsure: the pip count agrees, the classifier not sure enough or the wider look disagrees": 1,
        "unsure: the pip counter found fewer pips": 1, "missed: no reading on the die": 1}
    assert t.as_dict()["recall"] == round(1 / 7, 4)


def test_the_tally_counts_a_reading_on_an_unlabelled_die_neither_right_nor_wrong():
    def reading(x: float, value) -> DieReading:
        return DieReading(value, "red", (x, 0.0, x + 30, 30.0), 0.9, 0, value, value, 0.8)

    labels = [((0.0, 0.0, 30.0, 30.0), 4, None, 30.0)]
    ignore = [(40.0, 0.0, 70.0, 30.0)]  # a die cut by the picture's edge: no label
    t = ReaderTally()
    t.add("p", [reading(0, 4), reading(40, 2), reading(100, 3)], labels, ignore)
    d = t.as_dict()
    # the reading on the cut die is left out; the one on nothing at all is still a wrong answer
    assert (d["answers"], d["wrong_sure_answers"], d["recall"]) == (2, 1, 1.0)
    # a reading that holds a label's centre counts, even where an ignore box lies under it
    t = ReaderTally()
    t.add("p", [reading(0, 5)], labels, [(0.0, 0.0, 30.0, 30.0)])
    assert t.as_dict()["wrong_sure_answers"] == 1


def test_the_tally_says_how_the_dice_whose_pips_no_one_could_read_were_answered():
    def reading(x: float, value) -> DieReading:
        return DieReading(value, "red", (x, 0.0, x + 30, 30.0), 0.9, 0, value, value, 0.8)

    labels = [((x, 0.0, x + 30, 30.0), 3, None, 30.0) for x in range(0, 200, 40)]
    t = ReaderTally()
    # dice 1-4 are unreadable: one read right, one wrong, one unsure, one missed; die 0 read wrong
    t.add("p", [reading(0, 5), reading(40, 3), reading(80, 6), reading(120, None)], labels,
          unreadable=frozenset({1, 2, 3, 4}))
    d = t.as_dict()
    assert d["unreadable_dice"] == {"right": 1, "unsure": 1, "wrong": 1, "missed": 1}
    assert (d["wrong_sure_answers"], d["recall"]) == (2, 0.2)  # the figures over every die are unchanged
