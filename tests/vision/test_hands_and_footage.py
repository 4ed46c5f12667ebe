"""Hands over the table are seen and skipped; the scripted footage is deterministic."""
from __future__ import annotations

import numpy as np

from vision.hands import HandDetector
from vision.stability import Stabilizer, less_sure
from vision.synth.footage import quarx_script, render_quarx_footage


def test_footage_is_deterministic_for_a_seed():
    a = render_quarx_footage(quarx_script(3, rounds=1), 3)
    b = render_quarx_footage(quarx_script(3, rounds=1), 3)
    assert len(a) == len(b) and all(np.array_equal(x, y) for x, y in zip(a, b))


def test_hands_are_found_and_nothing_else_is_taken_for_one():
    missed = false_alarms = hands = 0
    for seed in range(1, 4):
        script = quarx_script(seed, rounds=2, hold=4)
        truth = [shot.hand for shot in script.shots for _ in range(shot.frames)]
        detect = HandDetector()
        seen = [detect(f) for f in render_quarx_footage(script, seed)]
        hands += sum(truth)
        missed += sum(t and not s for t, s in zip(truth, seen))
        false_alarms += sum(s and not t for t, s in zip(truth, seen))
    assert false_alarms == 0
    assert missed <= hands // 10, f"missed {missed} of {hands} hand frames"


def test_stabilizer_needs_a_run_and_emits_once():
    s = Stabilizer(required=3)
    assert [s.feed({"a": 1}) for _ in range(3)] == [None, None, {"a": 1}]
    assert s.feed({"a": 1}) is None
    assert [s.feed(v) for v in ({"a": 2}, None, {"a": 2}, {"a": 2})] == [None, None, None, None]
    assert s.feed({"a": 2}) == {"a": 2}


def test_unsure_readings_that_agree_neither_count_nor_break_the_run():
    s = Stabilizer(required=3)
    sure, unsure = {"face_up": [1, 2, 3], "laid": []}, {"face_up": None, "laid": []}
    assert [s.feed(v) for v in (sure, unsure, sure, unsure, unsure)] == [None] * 5
    assert s.feed(sure) == sure  # the third sure reading, unsure ones in between
    # A sure disagreement starts again; so does a hand (None for the whole frame).
    other = {"face_up": [1, 2, 4], "laid": []}
    assert [s.feed(v) for v in (other, other, sure, other, None, other, other)] == [None] * 7
    assert s.feed(other) == other
    # Unsure on a field the run knows, but sure of a change elsewhere: that is a change.
    moved = {"face_up": None, "laid": [["red", "down"]]}
    assert [s.feed(moved) for _ in range(3)] == [None, None, moved]


def test_fields_apart_settle_one_by_one_and_a_change_restarts_them_all():
    s = Stabilizer(required=3, per_field=True)
    # The piles are read on every frame; the sphere counts only now and then.
    frames = [{"face_up": None, "laid": []}, {"face_up": [1, 2], "laid": []}, {"face_up": None, "laid": []}]
    assert [s.feed(v) for v in frames] == [None, None, {"face_up": None, "laid": []}]
    assert s.feed({"face_up": [1, 2], "laid": []}) is None
    assert s.feed({"face_up": [1, 2], "laid": []}) == {"face_up": [1, 2], "laid": []}
    # A pile appears: every field starts again, the counts too (they may have changed with it).
    pile = {"face_up": None, "laid": [["red", "down"]]}
    assert [s.feed(pile) for _ in range(3)] == [None, None, {"face_up": None, "laid": [["red", "down"]]}]
    # One sure but wrong count among right ones restarts the counting: it never settles alone.
    right, wrong = {"face_up": [1, 2], "laid": [["red", "down"]]}, {"face_up": [1, 3], "laid": [["red", "down"]]}
    assert [s.feed(v) for v in (right, right, wrong, right, right)] == [None] * 5
    assert s.feed(right) == right
    assert s.feed(None) is None and s.feed(right) is None  # a hand: nothing is stable any more


def test_less_sure_is_about_unknown_fields_only():
    assert less_sure({"a": None, "b": [1, None]}, {"a": [3], "b": [1, 2]})
    assert not less_sure({"a": [3]}, {"a": None})  # more sure is not less sure
    assert not less_sure({"a": None, "b": [1, 3]}, {"a": [3], "b": [1, 2]})
    assert not less_sure({"a": None}, {"a": 1, "b": 2})


def test_a_sudden_light_change_is_not_a_hand_for_long():
    table = np.full((120, 160, 3), 150, np.uint8)
    detect = HandDetector(relearn_after=10)
    detect(table)
    darker = (table * 0.6).astype(np.uint8)
    seen = [detect(darker) for _ in range(15)]
    assert any(seen[:10]) and not seen[-1]
