"""Reading when the table settles, not on every frame (vision.pipeline.ChangeGate, FramePipeline)."""
from __future__ import annotations

import numpy as np

from rules.registry import engine_for
from vision.pipeline import REREAD_BACKOFF, ChangeGate, FramePipeline, ReadContext, Reading


def table(die_at: int = 100, seed: int = 0, gain: float = 1.0) -> np.ndarray:
    """A grey table with one 30 px die, sensor noise and a global exposure gain."""
    rng = np.random.default_rng(seed)
    img = np.full((240, 320, 3), 120.0)
    img[100:130, die_at:die_at + 30] = 230.0
    img = img * gain + rng.normal(0, 2.0, img.shape)
    return np.clip(img, 0, 255).astype(np.uint8)


def test_noise_and_exposure_are_no_change_but_a_moved_die_is():
    gate = ChangeGate()
    assert not gate.same(table())  # nothing kept yet
    gate.keep(table())
    assert gate.same(table(seed=1)) and gate.same(table(seed=2, gain=1.08))
    assert not gate.same(table(die_at=140, seed=3))
    gate.forget()
    assert not gate.same(table())


class Counting:
    """A reader that reads the die's position (or None for its `unsure` field) and counts its calls."""

    settle = "whole"

    def __init__(self, unsure: bool = False, reread: int = 1):
        self.calls, self.unsure, self.reread = 0, unsure, reread

    def read(self, frame: np.ndarray, context: ReadContext) -> Reading:
        self.calls += 1
        x = int(np.argmax(frame[115, :, 0] > 200))
        return Reading({"die": x // 10, "other": None if self.unsure else 1})


def run(reader: Counting, frames: list[np.ndarray], gate: ChangeGate | None) -> list:
    engine = engine_for("quarx")
    state = engine.initial_state(["Ann", "Ben"], {})
    pipe = FramePipeline(reader, required=3, gate=gate)
    pipe._hands = lambda frame: False  # these synthetic frames are no test of the hand check
    return [pipe.step(f, ReadContext(), engine, state) for f in frames]


def test_a_settled_table_is_not_read_again_until_it_changes():
    frames = [table(seed=i) for i in range(10)] + [table(die_at=160, seed=10 + i) for i in range(10)]
    gated, every = Counting(), Counting()
    with_gate, without = run(gated, frames, ChangeGate()), run(every, frames, None)
    assert every.calls == 20
    assert gated.calls == 6  # three reads to settle before the move and three after it
    # What settles, and when, is the same as reading every frame:
    assert [s.stable for s in with_gate] == [s.stable for s in without]
    assert [s.seen for s in with_gate] == [s.seen for s in without]
    assert [s.read for s in with_gate] == [True] * 3 + [False] * 7 + [True] * 3 + [False] * 7


def test_a_view_with_unknown_fields_is_read_again_as_often_as_its_reader_asks():
    every, third = Counting(unsure=True), Counting(unsure=True, reread=3)
    run(every, [table(seed=i) for i in range(9)], ChangeGate())
    steps = run(third, [table(seed=i) for i in range(9)], ChangeGate())
    assert every.calls == 9
    # settled on the third frame, read again 3 frames on; that found the same view, so next 6 on
    assert [s.read for s in steps] == [True] * 3 + [False, False, True] + [False] * 3


def test_a_reader_that_rereads_rarely_rereads_ever_more_rarely_while_nothing_changes():
    # reread=2: settle (3 reads), then re-reads 2, 4, 8, 16, 16 frames apart while each finds the
    # same view; a moved die is read at once, and the interval starts over from 2.
    reader = Counting(unsure=True, reread=2)
    still = [table(seed=i) for i in range(3 + 2 + 4 + 8 + 16 + 16)]
    moved = [table(die_at=160, seed=100 + i) for i in range(5)]
    steps = run(reader, still + moved, ChangeGate())
    reads = [i for i, s in enumerate(steps) if s.read]
    assert reads[:8] == [0, 1, 2, 4, 8, 16, 32, 48]
    assert reads[8:] == [49, 50, 51] + [53]  # the moved die read at once, settled, then 2 frames on
    assert REREAD_BACKOFF == 8
