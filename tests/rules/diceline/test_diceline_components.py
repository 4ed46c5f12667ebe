"""The component data file: complete, consistent, and true to the facts the book states."""
from __future__ import annotations

from rules.diceline import components as C
from rules.diceline.actions import spaces_for
from rules.diceline.board import layout_rotations
from rules.diceline.moves import parse


def test_thirteen_layout_tiles_of_five_spaces_all_different_even_rotated():
    """"Layout Tiles x13" ... "Each tile contains a unique arrangement of five marked spaces." and "You may
    rotate your layout tiles.\""""
    assert sorted(C.LAYOUT_PATTERNS) == list(range(1, 14))
    shapes = set()
    for tile_id in C.LAYOUT_PATTERNS:
        rots = layout_rotations(tile_id)
        assert all(len(r) == 5 for r in rots)
        assert not shapes & set(rots), f"layout {tile_id} repeats another tile turned"
        shapes |= set(rots)


def test_bonus_spaces_show_every_green_value_and_the_centre_holds_the_start_tile():
    """"You must place the bonus tile in a bonus space that depicts the value of the die" - green 1 to 6."""
    flat = [v for row in C.BONUS_SPACE_VALUES for v in row]
    assert len(flat) == 9 and flat[C.START_TILE_CELL] == ()
    assert {x for v in flat for x in v} == set(range(1, 7))


def test_dice_bonus_tiles_and_markers_match_the_component_list():
    """"Bonus Tiles x32 (4 types, 8 each)", "Dice x20 (Red x5, Green x5, Grey x10)", "Player Markers x32
    (8 of each color)".\""""
    assert C.DICE_BY_PLAYERS[4] == {"red": 5, "green": 5, "grey": 10}
    assert 4 * C.BONUS_DECK_PER_KIND[4] + 4 == 32
    assert 1 + 1 + C.MARKERS_AT_HAND + C.MARKERS_IN_STOCK == 8
    # a set (one row of the selection board) fills exactly the die spaces of a player board
    assert sorted(C.DIE_SPACES) == sorted(("red", "green", "grey", "grey"))


def test_action_spaces_by_player_count():
    """Six red, six green, six grey spaces for everyone; the four-player-only grey spaces on top."""
    three, four = spaces_for(3), spaces_for(4)
    assert [s.colour for s in three].count("grey") == 6
    assert len(four) - len(three) == sum(1 for g in C.GREY_SPACES if g[3])
    for sp in four:
        assert parse(f"{sp.colour} {sp.high} -> {sp.name}").space == sp.name
