"""Hands-free Quarx end to end: rendered footage with hands and noise -> the whole camera path -> engine.

The final state and scores must equal the script's: every reveal found, no move invented.
"""
from __future__ import annotations

import pytest

from vision.detector import NoModelError, load_detector


def _loader():
    try:
        load_detector()
    except NoModelError as exc:
        pytest.skip(f"needs the shipped detector: {exc}")
    return load_detector


@pytest.mark.parametrize("seed", [1, 2])
def test_scripted_quarx_game_is_scored_by_the_camera(seed):
    from server.handsfree_eval import run_quarx

    result = run_quarx(seed, _loader(), rounds=2)
    assert result.wrong == 0, f"camera invented moves: {result.camera_moves} vs {result.expected}"
    assert result.camera_moves == result.expected
    assert result.scores == result.expected_scores
