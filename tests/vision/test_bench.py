"""The speed bench's timing plan: every path on every frame in each round, in a rotating order."""
import numpy as np

from vision.training.bench import round_medians


def test_each_round_times_every_path_on_every_frame_and_rotates_who_goes_first():
    calls: list[str] = []
    fns = [lambda f, n=n: calls.append(n) for n in "abc"]
    frames = [np.zeros((4, 4, 3), np.uint8)] * 4
    out = round_medians(fns, frames, rounds=3, warmup=1)
    assert out.shape == (3, 3) and (out >= 0).all()
    timed = calls[3:]  # after one warm-up frame through each path
    assert len(timed) == 3 * 3 * 4 and all(timed.count(n) == 12 for n in "abc")
    firsts = [timed[r * 12] for r in range(3)]
    assert sorted(firsts) == ["a", "b", "c"]
