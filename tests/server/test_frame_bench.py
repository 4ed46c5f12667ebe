"""The frame-path benchmark runs every game's footage through the live path (timings are reported, not tested)."""
from __future__ import annotations

import pytest

from server.evaluation.frame_bench import time_diceline_die_reader, time_game


@pytest.mark.parametrize("game", ["quarx", "ubongo", "diceline"])
def test_frame_path_benchmark_runs(game):
    timing = time_game(game, n=3)
    assert timing.frames == 3 and timing.median_ms > 0 and timing.fps > 0


def test_the_diceline_die_reader_is_timed_both_ways_on_the_same_frames():
    both = time_diceline_die_reader(n=2)
    assert both is not None  # the shipped die models are installed
    at_cells, whole = both
    assert at_cells > 0 and whole > 0  # the ratio is reported by `tablesight bench-frames`, not tested
