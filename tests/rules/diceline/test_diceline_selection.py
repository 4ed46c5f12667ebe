"""Phase 1: the selection board and choosing sets (rulebook "Phase 1: Select Dice")."""
from __future__ import annotations

import pytest
from diceline_helpers import ENGINE, match_until, play, texts

from rules.core.errors import IllegalMove
from rules.diceline import state as S
from rules.diceline.selection import rows_from_roll


def test_columns_by_colour_ascending_grey_left_then_right():
    """"Place each group of dice on the Selection Board in ascending order of result from top to bottom in
    the column of its color. Place grey dice in ascending order beginning from the top of the left grey
    column; when you reach the bottom, continue from the top of the right grey column.\""""
    rows = rows_from_roll([6, 1, 3, 3], [2, 5, 4, 1], [6, 1, 5, 2, 2, 4, 3, 6])
    assert rows == [[1, 1, 1, 4], [3, 2, 2, 5], [3, 4, 2, 6], [6, 5, 3, 6]]


def rolled(n: int = 4):
    st = match_until(n, 4, S.ROLL).state
    roll = "roll red 6 1 3 3 2 green 2 5 4 1 6 grey 6 1 5 2 2 4 3 6 1 1"
    if n == 3:
        roll = "roll red 6 1 3 3 green 2 5 4 1 grey 6 1 5 2 2 4 3 6"
    return play(st, roll)


def test_each_row_is_a_set_and_start_player_returns_one_first():
    """"Each row of four dice makes a single set. The start player chooses one set of dice and returns it
    to the dice pool.\""""
    st = rolled(4)
    start = st.players[st.order[0]].name
    assert ENGINE.to_move(st) == [start]
    assert texts(st) == [f"return row {i}" for i in range(1, 6)]
    with pytest.raises(IllegalMove, match="first the start player returns a set"):
        play(st, "take row 1")
    st = play(st, "return row 2")
    assert st.pool == {"red": 1, "green": 1, "grey": 2}


def test_others_choose_in_reverse_order_and_start_player_takes_the_last():
    """"In reverse player order, each player chooses one set of dice: first the 4th player, then the 3rd
    player, then the 2nd player. The start player takes the remaining set of dice.\""""
    st = play(rolled(4), "return row 1")
    order = [st.players[i].name for i in st.order]
    seen = []
    for row in (5, 4, 3):
        seen.append(ENGINE.to_move(st)[0])
        st = play(st, f"take row {row}")
    assert seen == [order[3], order[2], order[1]]
    assert st.phase == S.ACTIONS
    start = st.players[st.order[0]]
    # rows: [1,1,1,3] [2,2,1,4] [3,4,1,5] [3,5,2,6] [6,6,2,6]; row 2 is left for the start player
    assert start.dice == [2, 2, 1, 4]
    assert st.players[st.order[3]].dice == [6, 6, 2, 6]
    with pytest.raises(IllegalMove, match="not possible now"):
        play(st, "take row 2")


def test_a_row_cannot_be_taken_twice():
    """One set per player: a returned or taken row is gone from the board."""
    st = play(rolled(3), "return row 1")
    with pytest.raises(IllegalMove, match="row 1 is not on the selection board"):
        play(st, "take row 1")
    with pytest.raises(IllegalMove, match="already returned"):
        play(st, "return row 2")


def test_roll_must_match_the_pool():
    """"The start player takes all the dice from the dice pool and rolls them.\""""
    st = match_until(3, 4, S.ROLL).state
    with pytest.raises(IllegalMove, match="4 red dice"):
        play(st, "roll red 1 2 3 green 1 2 3 4 grey 1 2 3 4 5 6 1 2")
