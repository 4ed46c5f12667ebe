"""Hands-free Quarx end to end: rendered footage with hands and noise -> the whole camera path -> engine.

No move is ever invented, and the final scores equal the script's; a reveal the camera is
unsure of is typed by a person (counted), as at a real table.
"""
from __future__ import annotations

import pytest

from server.handsfree_eval import run_quarx


@pytest.mark.parametrize("seed", [3])
def test_scripted_quarx_game_is_scored_by_the_camera(seed):
    result = run_quarx(seed, rounds=2)
    assert result.wrong == 0, f"camera invented moves: {result.camera_moves} vs {result.expected}"
    assert result.camera_moves == result.expected and result.typed == 0
    assert result.scores == result.expected_scores


def test_a_reveal_the_camera_is_unsure_of_is_typed_and_nothing_is_invented():
    result = run_quarx(1, rounds=2)  # round 1 has a shape the counter will not call
    assert result.wrong == 0 and result.typed == 1 and result.recognised == 1
    assert result.scores == result.expected_scores
