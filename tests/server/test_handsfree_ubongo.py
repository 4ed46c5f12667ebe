"""Hands-free Ubongo end to end: rendered footage (oblique camera, hands, light drift, noise) ->
the whole camera path -> engine. Classical reader: no detector model needed, so it always runs.

Every roll and grab must be found by the camera and no move invented; the final scores must
equal those of the same game typed by hand.
"""
from __future__ import annotations

import pytest

import server.evaluation.handsfree_ubongo as harness
from server.evaluation.handsfree_ubongo import run_ubongo
from vision.games.readers import READERS
from vision.pipeline import Reading


@pytest.mark.parametrize("seed, tilt_deg", [(1, 45.0), (2, None)])
def test_scripted_ubongo_game_is_read_by_the_camera(seed, tilt_deg):
    import math

    result = run_ubongo(seed, rounds=2, tilt=None if tilt_deg is None else math.radians(tilt_deg))
    assert result.wrong == 0, f"camera invented moves: {result.camera_moves} vs {result.expected}"
    assert result.camera_moves == result.expected, f"typed by a person: {result.typed}"
    assert result.clicks == 0
    assert result.scores == result.expected_scores


def test_moves_the_camera_misses_are_typed_and_counted_as_clicks(monkeypatch):
    class Blind:
        settle = "whole"
        reread = 1

        def read(self, frame, context):
            return Reading(None)

    monkeypatch.setattr(harness, "READERS", {**READERS, "ubongo": Blind()})  # a blind camera
    result = run_ubongo(3, rounds=1)
    assert result.camera_moves == [] and result.wrong == 0
    assert result.typed == result.expected and result.clicks == len(result.expected)
    assert result.scores == result.expected_scores
