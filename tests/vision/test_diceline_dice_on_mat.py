"""The one die reader merged into the Diceline cells: it adds dice the cell reader cannot see and
never turns a disagreement into a guess (vision.games.diceline.dice_on_mat)."""
from __future__ import annotations

from dataclasses import replace

import numpy as np

from vision.detector.dice import DieReading
from vision.games.diceline.cells import DieRead
from vision.games.diceline.dice_on_mat import ADD_SURE, cell_of, game_colour, merge
from vision.games.diceline.spec import Cell

CELLS = (Cell("a", 10.0, 10.0, 16.0), Cell("b", 40.0, 10.0, 16.0))
IDENTITY = np.eye(3)  # picture = mat in these tests


def die(x: float, y: float, value: int | None, colour: str = "red") -> DieReading:
    return DieReading(value, colour, (x - 5, y - 5, x + 5, y + 5), 0.95, 0, value)


def test_a_box_counts_for_the_cell_its_middle_falls_in():
    assert cell_of(die(12, 9, 3), IDENTITY, CELLS) == "a"
    assert cell_of(die(41, 12, 3), IDENTITY, CELLS) == "b"
    assert cell_of(die(25, 10, 3), IDENTITY, CELLS) is None  # between the cells: no cell's


def test_only_the_games_colour_words_name_a_diceline_die():
    assert game_colour("Red") == "red" and game_colour("gray") == "grey"
    assert game_colour("ivory") is None and game_colour("white") is None and game_colour(None) is None


def test_a_die_only_the_die_reader_sees_is_added_with_its_value():
    cells = {"a": DieRead(False), "b": DieRead(False)}
    out = merge(cells, [die(10, 10, 5, "white"), die(40, 10, 2, "green")], IDENTITY, CELLS)
    assert out["a"].present and out["a"].value == 5 and out["a"].colour is None  # an ivory die: colour unsure
    assert out["b"].present and (out["b"].colour, out["b"].value) == ("green", 2)


def test_a_disagreement_is_unsure_and_agreement_or_an_unsure_reader_keeps_the_cell_reading():
    cells = {"a": DieRead(True, "red", 4), "b": DieRead(True, "grey", 6)}
    out = merge(cells, [die(10, 10, 3), die(40, 10, None)], IDENTITY, CELLS)
    assert not out["a"].present and out["a"].value is None and out["a"].seen
    assert out["b"] == cells["b"]
    assert merge(cells, [die(10, 10, 4)], IDENTITY, CELLS)["a"] == cells["a"]


def test_two_boxes_in_one_cell_are_not_trusted():
    cells = {"a": DieRead(False), "b": DieRead(False)}
    out = merge(cells, [die(8, 10, 5), die(12, 10, 6)], IDENTITY, CELLS)
    assert out == cells


def test_a_die_is_not_added_when_unsure_or_of_a_colour_the_rules_forbid_in_that_cell():
    cells = {"a": DieRead(False), "b": DieRead(False)}
    unsure = replace(die(10, 10, 5, "white"), confidence=ADD_SURE - 0.01)
    assert merge(cells, [unsure], IDENTITY, CELLS) == cells
    # A red die's side face over a green action space is no die there; a green die is.
    fixed = {"a": "green"}
    assert merge(cells, [die(10, 10, 3, "red")], IDENTITY, CELLS, fixed) == cells
    assert merge(cells, [die(10, 10, 3, "green")], IDENTITY, CELLS, fixed)["a"].present
    assert merge(cells, [die(10, 10, 3, "white")], IDENTITY, CELLS, fixed)["a"].present  # no game colour: no judgement
    # Where the rules fix no colour (a player's die space: a grey 6 moves dice between colours), any colour.
    assert merge(cells, [die(40, 10, 3, "red")], IDENTITY, CELLS, fixed)["b"].present
