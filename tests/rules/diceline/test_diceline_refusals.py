"""Illegal moves are refused with the reason in words a player understands."""
from __future__ import annotations

import pytest
from diceline_helpers import ENGINE, current, play, set_board, set_dice, turn_state

from rules.core.errors import IllegalMove, MoveSyntaxError
from rules.diceline import state as S


def table(red=0, green=0, grey1=0, grey2=0, board=None, n=3):
    st = turn_state(n, 1)
    set_dice(current(st), red, green, grey1, grey2)
    if board:
        set_board(current(st), board)
    return st


@pytest.mark.parametrize("setup,move,words,rule", [
    (dict(green=4), "green 4 -> red 1~5", "a green die goes only in a green action space", "die colour"),
    (dict(red=5), "red 5 -> red 1~3", "red 1~3 takes a red die showing 1 to 3, not 5", "die range"),
    (dict(grey1=3), "grey 3 -> grey 4~6", "grey 4~6 takes a grey die showing 4 to 6, not 3", "die range"),
    (dict(green=4, board=".../D../..O"), "green 4 -> green 4: vp -> r2c1",
     "green 4 needs an open bonus space showing 4", "no open bonus space"),
    (dict(red=1, grey1=2), "grey 2 -> grey 1~6: red 1 -> 6", "may not turn a 1 into a 6", "no 1-6 wrap"),
    (dict(red=2), "red 3 -> red 1~3", "has no red 3 on the player board (dice: red 2)", "your dice"),
    (dict(red=2), "use vp r1c1", "there is no bonus tile on r1c1", "bonus tile"),
    (dict(red=2), "die x2: red 2 -> 5", "die x2 needs 2 die tiles turned face down this turn", "bonus action"),
    (dict(red=2), "tile r1c1 -> r1c2", "no tile moves or order steps are open", "steps"),
    (dict(red=2), "take row 1", "is not possible now", "phase"),
    (dict(red=2), "roll red 1 green 1 grey 1", "none is awaited now", "chance"),
    (dict(grey1=6, green=2), "grey 6 -> grey 6", "say what the action does, e.g. 'grey 6 -> grey 6: green 2 -> red'",
     "action choice"),
    (dict(grey1=5), "grey 5 -> grey 5~6: red 2 -> 3", "takes no further choice", "action choice"),
])
def test_refusals_in_words(setup, move, words, rule):
    """Each refusal says what is wrong and which rule it breaks."""
    with pytest.raises(IllegalMove) as err:
        play(table(**setup), move)
    assert words in err.value.reason and err.value.rule == rule


def test_space_taken_and_no_marker_at_hand():
    """"You may not place a die in an occupied action space." / "...if you do not have any player markers"."""
    st = table(red=2, grey1=5)
    st.spaces["red 1~2"] = [1, "red", 1]
    with pytest.raises(IllegalMove, match="red 1~2 already holds a die .*one die per action space"):
        play(st, "red 2 -> red 1~2")
    st.spaces.clear()
    current(st).hand, current(st).stock = 0, 6
    with pytest.raises(IllegalMove, match="no player marker at hand to place beside red 1~2"):
        play(st, "red 2 -> red 1~2")


def test_not_your_turn_names_whose_turn_it_is():
    """A die of another player cannot be played: it is not that player's turn."""
    st = table(red=2)
    other = next(p for p in st.players if p is not current(st))
    set_dice(other, red=4)
    with pytest.raises(IllegalMove) as err:
        play(st, "red 4 -> red 1~4")
    assert f"it is {current(st).name}'s turn, not {other.name}'s" in err.value.reason


def test_chance_must_come_first():
    """A move while a tile is being drawn is refused until the draw is given."""
    st = table(red=6, grey1=5)
    st = play(st, f"red 6 -> red 1~6: layout {st.layout_display[0]}")
    with pytest.raises(IllegalMove, match="first the table needs the next layout tile"):
        play(st, "done")
    with pytest.raises(IllegalMove, match="no bonus tile is being drawn now"):
        play(st, "reveal bonus vp")


def test_malformed_text_gets_the_expected_forms():
    """Text that is no move at all raises MoveSyntaxError with a hint of the forms."""
    for text in ("fly away", "red 7 -> red 1", "green 4 -> green 9", "grey 2 -> grey 2~6: jump", "take row 0"):
        with pytest.raises(MoveSyntaxError) as err:
            ENGINE.parse_move(turn_state(), text)
        assert "red 2 -> red 1~3" in err.value.reason and err.value.rule == "move text"


def test_texts_are_forgiving_about_spacing_case_and_range_spelling():
    """'RED 2  ->  red 12' names the same move as 'red 2 -> red 1~2'."""
    st = turn_state()
    assert str(ENGINE.parse_move(st, "RED 2  ->  red 12")) == "red 2 -> red 1~2"
    assert str(ENGINE.parse_move(st, "grey 5 -> grey 56")) == "grey 5 -> grey 5~6"
    assert str(ENGINE.parse_move(st, "roll red 3 1 green 2 grey 6 1")) == "roll red 1 3 green 2 grey 1 6"


def test_start_tile_and_selection_refusals():
    """Setup and phase 1 refusals name what is left."""
    st = ENGINE.initial_state(["A", "B", "C"], {})
    with pytest.raises(IllegalMove, match="between 2 and 12"):
        play(st, "order rolls 1 5 6")
    st = play(st, "order rolls 4 5 6")
    assert st.phase == S.START_TILES
