"""Hands over the table are seen and skipped; the scripted footage is deterministic."""
from __future__ import annotations

import numpy as np

from vision.hands import HandDetector
from vision.stability import Stabilizer
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


def test_a_sudden_light_change_is_not_a_hand_for_long():
    table = np.full((120, 160, 3), 150, np.uint8)
    detect = HandDetector(relearn_after=10)
    detect(table)
    darker = (table * 0.6).astype(np.uint8)
    seen = [detect(darker) for _ in range(15)]
    assert any(seen[:10]) and not seen[-1]
