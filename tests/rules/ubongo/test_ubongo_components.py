"""The component data: dice and sheet as DESIGN.md describes them, and loading a person's own."""
from __future__ import annotations

import pytest

from rules.core.errors import IllegalMove
from rules.core.match import Match
from rules.ubongo import components
from rules.ubongo.components import BLACK_DICE, DEFAULT, SHEET, WHITE_DICE, grid
from rules.ubongo.solver import board
from ubongo_helpers import ENGINE


def test_four_black_and_four_white_dice_of_six_faces():
    """"8 Ubongo dice (4 black and 4 white)\""""
    assert len(BLACK_DICE) == len(WHITE_DICE) == 4
    assert all(len(d) == 6 for d in BLACK_DICE + WHITE_DICE)


def test_faces_have_one_to_five_squares_black_larger():
    """DESIGN.md: faces are polyominoes of 1 to 5 squares, black dice carry the larger shapes."""
    size = {f: len(DEFAULT.shape(f)) for d in BLACK_DICE + WHITE_DICE for f in d}
    assert all(1 <= s <= 5 for s in size.values())
    assert min(size[f] for d in BLACK_DICE for f in d) > max(size[f] for d in WHITE_DICE for f in d)


def test_sheet_has_six_areas_of_14_to_21_cells():
    """"Each sheet shows 6 puzzle areas (numbered 1 to 6)." (14-21 cells: DESIGN.md)"""
    assert len(SHEET) == 6
    assert all(14 <= len(grid(a)) <= 21 for a in SHEET)


@pytest.mark.parametrize("players", [2, 4])
def test_every_area_can_be_filled_in_a_few_rounds(players):
    """Each area can be filled exactly with the dice in play, in 2 or 3 rounds at best."""
    match = Match(ENGINE, [f"P{i}" for i in range(players)], {})
    for i in range(6):
        match.state.area = i
        search = ENGINE.fill_search(match.state)
        assert search.min_rounds(board(ENGINE.area_cells(match.state)).full) in (2, 3)


def test_own_sheet_and_dice_from_toml(tmp_path):
    """A person's own dice and sheet load from one TOML file into table options."""
    path = tmp_path / "mine.toml"
    path.write_text(
        'sheet = ["##/##", "###", "#", "#", "#", "##"]\n'
        'white_dice = [["I1","I1","I1","I1","I1","J2"]]\n'
        '[shapes]\nJ2 = "##"\n'
    )
    with pytest.raises(ValueError, match="needs 4 white dice"):
        components.load_toml(path)
    path.write_text('sheet = ["##/##", "###", "#", "#", "#", "##"]\n[shapes]\nJ2 = "#./##"\n')
    options = components.load_toml(path)
    match = Match(ENGINE, ["Ann", "Bob"], options)
    assert ENGINE.area_cells(match.state) == frozenset({(0, 0), (0, 1), (1, 0), (1, 1)})
    assert match.state.comps.shape("J2") == frozenset({(0, 0), (1, 0), (1, 1)})
    assert ENGINE.from_json(ENGINE.to_json(match.state)) == match.state


def test_broken_components_are_refused():
    """A die face that names no shape is refused when the table is set up."""
    with pytest.raises(IllegalMove, match="not a known shape"):
        Match(ENGINE, ["Ann", "Bob"], {"black_dice": [["Q9"] * 6] * 4})
    with pytest.raises(IllegalMove, match="one piece"):
        Match(ENGINE, ["Ann", "Bob"], {"shapes": {"Q2": "#.#"}})


def test_shape_names_must_be_typeable():
    """Shape names appear in move texts, so a name with spaces is refused at set-up."""
    with pytest.raises(IllegalMove, match="shape name"):
        Match(ENGINE, ["Ann", "Bob"], {"shapes": {"big L": "#./##"}})
