"""Hands-free Diceline end to end: rendered footage with hands, noise and light drift -> TableWatcher
-> reader -> stabiliser -> reconcile -> engine. Every move the table shows is found, none invented.
Classical reader only: no model needed."""
from __future__ import annotations

import pytest

from server.evaluation.handsfree_diceline import run_diceline
from vision.synth.footage_diceline import diceline_script


def test_script_is_a_real_game_with_visible_moves():
    script = diceline_script(4, max_moves=9)
    assert script.moves[0].startswith("roll ")
    assert any(m.startswith("take row") for m in script.moves)
    assert any(" -> " in m for m in script.moves)  # a phase-2 placement
    assert script.visible[0] and len(script.visible) == len(script.moves)


@pytest.mark.parametrize("seed", [4])
def test_roll_selection_and_placements_read_by_the_camera(seed):
    # The roll, the set selection and the first placements of a seeded game (a 30-degree camera).
    run = run_diceline(seed, max_moves=9, tilt=30.0)
    assert run.wrong == [], f"camera invented moves: {run.wrong}"
    assert run.exact, (run.camera, run.clicked, run.typed, run.late)
    assert run.late == [], f"moves the camera should have seen: {run.late}"
    assert run.camera[0].startswith("roll ") and any(" -> " in m for m in run.camera)
    # Only what no camera can see is typed: 'done', 'stop', a die back to the pool. No click either:
    # the layout tile a red 1~6 die takes, and the one drawn after it, are read too.
    assert all(m in ("done", "stop") or m.startswith("return ") for m in run.typed)
    assert run.clicks == 0, run.clicked


def test_four_players_roll_and_selection():
    # Five selection rows and the four-player action spaces: the roll and every set taken.
    run = run_diceline(3, max_moves=6, tilt=30.0, players=["Ann", "Ben", "Cat", "Dan"])
    assert run.wrong == [] and run.exact and run.late == [], (run.camera, run.typed, run.late)
    assert run.camera[0].startswith("roll red ") and sum(m.startswith("take row") for m in run.camera) == 3
