"""The frame-path benchmark runs every game's footage through the live path (timings are reported, not tested)."""
from __future__ import annotations

import pytest

from server.evaluation.frame_bench import time_game


@pytest.mark.parametrize("game", ["quarx", "ubongo", "diceline"])
def test_frame_path_benchmark_runs(game):
    timing = time_game(game, n=3)
    assert timing.frames == 3 and timing.median_ms > 0 and timing.fps > 0
