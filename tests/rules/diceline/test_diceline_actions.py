"""Phase 2 and every action space (rulebook "Phase 2: Perform Dice Actions", "Dice Action Overview")."""
from __future__ import annotations

import pytest
from diceline_helpers import ENGINE, current, play, set_board, set_dice, texts, turn_state

from rules.core.errors import IllegalMove
from rules.diceline import state as S
from rules.diceline.board import tile
from rules.diceline.components import RED_VP_SPACES


def table(n=3, red=0, green=0, grey1=0, grey2=0, board=None, seed=1):
    st = turn_state(n, seed)
    p = current(st)
    set_dice(p, red, green, grey1, grey2)
    if board:
        set_board(p, board)
    return st


def test_a_die_goes_to_its_colour_within_the_range():
    """"A die may only be placed in an action space of its color, and its value must fall within the
    range shown to the left of the action space.\""""
    st = table(red=3, green=4, grey1=5, grey2=2)
    moves = texts(st)
    assert "red 3 -> red 1~3" in moves and "red 3 -> red 1~2" not in moves
    assert "grey 5 -> grey 5~6" in moves and "grey 2 -> grey 5~6" not in moves
    with pytest.raises(IllegalMove, match="red 1~2 takes a red die showing 1 to 2, not 3"):
        play(st, "red 3 -> red 1~2")
    with pytest.raises(IllegalMove, match="a green die goes only in a green action space"):
        play(st, "green 4 -> red 1~5")
    with pytest.raises(IllegalMove, match="green 5 takes a green die showing 5, not 4"):
        play(st, "green 4 -> green 5: die -> r2c3")


def test_one_die_per_action_space():
    """"Each action space can only hold one die. You may not place a die in an occupied action space.\""""
    st = table(grey1=5, grey2=6)
    st = play(st, "grey 5 -> grey 5~6", "done")
    other = current(st)
    set_dice(other, grey1=6)
    with pytest.raises(IllegalMove, match="grey 5~6 already holds a die"):
        play(st, "grey 6 -> grey 5~6")
    assert "grey 6 -> grey 5~6" not in texts(st)


def test_no_passing_and_one_die_per_turn():
    """"On your turn, you must choose a die to place in an action space or return to the dice pool; you may
    not choose to pass.\""""
    st = table(red=3, grey1=5)
    with pytest.raises(IllegalMove, match="you may not pass"):
        play(st, "done")
    st = play(st, "grey 5 -> grey 5~6")
    with pytest.raises(IllegalMove, match="one die per turn"):
        play(st, "red 3 -> red 1~3")
    assert texts(st)[-1] == "done"


def test_done_only_when_something_else_could_still_be_done():
    """"After performing a dice action or returning a die to the dice pool, let the other players know that
    you have finished your turn." 'done' is that word; with no bonus action or layout tile left to use,
    the turn passes by itself (the camera cannot hear 'done')."""
    st = table(red=3, grey1=5, board=".../.V./...")
    me = st.order[st.turn]
    st = play(st, "grey 5 -> grey 5~6")
    assert st.order[st.turn] == me and texts(st) == ["use vp r2c2", "done"]
    st = play(st, "use vp r2c2")
    assert st.order[st.turn] != me


def test_turns_follow_player_order_until_every_die_is_used():
    """"During this phase, players take turns according to player order." ... "Play passes to the next
    player in player order.\""""
    st = turn_state(4, 2)
    names = [st.players[i].name for i in st.order]
    seen = []
    while st.phase == S.ACTIONS:
        seen.append(ENGINE.to_move(st)[0])
        p = current(st)
        die = next(f"{c} {v}" for c, v in zip(("red", "green", "grey", "grey"), p.dice) if v)
        st = play(st, f"return {die}" + (", turn up r2c2" if p.board[4].islower() else ""), "done")
    assert seen == names * 4
    assert st.phase == S.LINES or st.phase == S.ROLL


def test_red_marker_action_places_a_marker():
    """"Place one of your player markers in an unoccupied additional victory point space to the right of
    the action space.\""""
    st = table(red=2)
    who = st.order[st.turn]
    st = play(st, "red 2 -> red 1~2")
    assert st.red_vp["red 1~2"] == [who] and st.players[who].hand == 1


def test_red_action_refused_when_its_spaces_are_full():
    """"You may not place a die in a red action space if all of its additional victory point spaces have
    been filled.\""""
    st = table(red=1)
    st.red_vp["red 1"] = [1, 2, 1][:RED_VP_SPACES[3]]
    assert "red 1 -> red 1" not in texts(st)
    with pytest.raises(IllegalMove, match="all 3 additional VP spaces of red 1 are filled"):
        play(st, "red 1 -> red 1")


def test_red_action_refused_without_a_marker_at_hand():
    """"You may not place a die in a red action space if you do not have any player markers to place in
    the corresponding additional victory point space.\""""
    st = table(red=1)
    current(st).hand = 0
    current(st).stock = 6  # keep the marker count whole
    with pytest.raises(IllegalMove, match="no player marker at hand"):
        play(st, "red 1 -> red 1~4")
    assert not any(t.startswith("red 1 -> red 1") and "1~6" not in t for t in texts(st))


def test_red_1_6_takes_a_layout_tile_and_refills_while_the_deck_lasts():
    """"Take one of the two layout tiles from the Red Action Board ... Then draw a layout tile from the
    layout tile deck ..." and "If the layout tile deck is depleted, layout tiles can no longer be
    replenished.\""""
    st = table(red=6)
    shown = st.layout_display[0]
    st = play(st, f"red 6 -> red 1~6: layout {shown}")
    assert shown in current(st).layouts
    assert "layout tile from the deck" in ENGINE.chance(st) and ENGINE.legal_moves(st) == []
    st = play(st, f"reveal layout {st.layout_deck[0]}")
    assert len(st.layout_display) == 2 and ENGINE.chance(st) is None

    st2 = table(red=6)
    st2.layout_deck = []
    keep = st2.layout_display[1]
    st2 = play(st2, f"red 6 -> red 1~6: layout {st2.layout_display[0]}")
    assert ENGINE.chance(st2) is None and st2.layout_display == [keep]
    with pytest.raises(IllegalMove, match="not on the red board"):
        play(table(red=6), "red 6 -> red 1~6: layout 99")


def test_green_places_a_tile_on_a_space_showing_its_value():
    """"You must place the bonus tile in a bonus space that depicts the value of the die you placed in
    the green action space." (values per space: components.BONUS_SPACE_VALUES)"""
    st = table(green=5)
    kind = st.bonus_display[0]
    assert f"green 5 -> green 5: {kind} -> r2c3" in texts(st)
    with pytest.raises(IllegalMove, match="r1c1 shows 1"):
        play(st, f"green 5 -> green 5: {kind} -> r1c1")
    st = play(st, f"green 5 -> green 5: {kind} -> r2c3")
    assert current(st).board[5] == tile(kind)  # face up
    assert ENGINE.chance(st).startswith("the next bonus tile")


def test_green_refused_without_an_open_space_showing_the_value():
    """"You may not place a die in a green action space if there are no open bonus spaces depicting its
    value on your Player Board.\""""
    st = table(green=4, board=".../D.O/..V")  # both spaces showing 4 (r2c1, r3c3) hold tiles
    assert not any(t.startswith("green 4 ->") for t in texts(st))
    with pytest.raises(IllegalMove, match="green 4 needs an open bonus space showing 4"):
        play(st, "green 4 -> green 4: vp -> r2c1")


def test_green_refill_stops_when_the_deck_is_empty():
    """"If the bonus tile deck is depleted, bonus tiles can no longer be replenished.\""""
    st = table(green=1)
    st.bonus_deck = {k: 0 for k in st.bonus_deck}
    st = play(st, f"green 1 -> green 1: {st.bonus_display[0]} -> r1c1")
    assert ENGINE.chance(st) is None and len(st.bonus_display) == 3


def test_grey_6_moves_a_die_and_it_takes_the_space_colour():
    """"Grey 6: Choose a die on your Player Board and move it to a different die space. That die is now
    considered to be the color of the die space you moved it to. ... You may move a grey die to a
    different grey die space.\""""
    st = table(green=3, grey1=6)  # red space and one grey space are empty after placing
    moves = texts(st)
    assert "grey 6 -> grey 6: green 3 -> red" in moves and "grey 6 -> grey 6: green 3 -> grey" in moves
    st = play(st, "grey 6 -> grey 6: green 3 -> red")
    p = current(st)
    assert p.dice == [3, 0, 0, 0] and p.dice_made == ["green", "", "", ""]
    st2 = table(red=2, green=3, grey1=6, grey2=4)
    with pytest.raises(IllegalMove, match="no empty green die space"):
        play(st2, "grey 6 -> grey 6: red 2 -> green")
    assert "grey 6 -> grey 6: grey 4 -> grey" in texts(st2)  # the grey 6 left its grey space


def test_a_moved_die_is_used_as_its_new_colour():
    """"That die is now considered to be the color of the die space you moved it to.\""""
    st = table(green=2, grey1=6, grey2=2)
    st = play(st, "grey 6 -> grey 6: green 2 -> red")
    st.main_done = False  # as on a later turn of the same player
    assert "red 2 -> red 1~2" in texts(st)
    st = play(st, "red 2 -> red 1~2")
    assert st.spaces["red 1~2"][1:] == ["green", 2]


def test_grey_5_6_scores_two():
    """"Grey 5~6: Score 2 victory points.\""""
    st = play(table(grey1=5), "grey 5 -> grey 5~6")
    assert current(st).points == {"grey 5~6": 2}


def test_grey_4_6_any_combination_up_to_three_times():
    """"Grey 4~6: Perform any combination of the Move Bonus Tiles and Adjust Player Order actions up to
    three times.\""""
    st = table(grey1=4, board=".../.D./...")
    who = st.order[st.turn]
    st = play(st, "grey 4 -> grey 4~6")
    assert st.steps_left == 3 and "stop" in texts(st) and "done" not in texts(st)
    st = play(st, "tile r2c2 -> r1c2", "order +1", "tile r1c2 -> r1c1")
    assert st.steps_left == 0 and current(st).board[0] == "D"
    assert any(who in stack for stack in st.track[1:2])
    st = play(table(grey1=4), "grey 4 -> grey 4~6", "order +1", "stop")
    assert st.steps_left == 0 and "done" in texts(st)


def test_grey_3_6_sets_any_value_and_grey_1_6_changes_by_one():
    """"Grey 3~6: Choose a die on your Player Board and change its value to the result of your choice."
    and "Grey 1~6: Choose a die on your Player Board and increase or decrease its value by 1.\""""
    st = table(red=2, grey1=3)
    st = play(st, "grey 3 -> grey 3~6: red 2 -> 6")
    assert current(st).dice[0] == 6
    st = table(red=2, grey1=1)
    assert {t for t in texts(st) if t.startswith("grey 1 -> grey 1~6")} == {
        "grey 1 -> grey 1~6: red 2 -> 1", "grey 1 -> grey 1~6: red 2 -> 3"}


def test_grey_1_6_never_wraps():
    """"You may not change a 1 to a 6, nor a 6 to a 1. A die with a value of 1 can only be increased by 1
    to 2, and a die with a value of 6 can only be decreased by 1 to 5.\""""
    st = table(red=1, green=6, grey1=2)
    with pytest.raises(IllegalMove, match="may not turn a 1 into a 6"):
        play(st, "grey 2 -> grey 1~6: red 1 -> 6")
    with pytest.raises(IllegalMove, match="may not turn a 6 into a 1"):
        play(st, "grey 2 -> grey 1~6: green 6 -> 1")
    with pytest.raises(IllegalMove, match="exactly 1"):
        play(st, "grey 2 -> grey 1~6: green 6 -> 4")


def test_grey_2_6_either_moves_a_tile_or_adjusts_order():
    """"Grey 2~6: Perform either the Move Bonus Tiles action or the Adjust Player Order action.\""""
    st = table(grey1=2, board=".../.D./...")
    moves = [t for t in texts(st) if t.startswith("grey 2 -> grey 2~6")]
    assert sorted(moves) == sorted(["grey 2 -> grey 2~6: order +1"] + [
        f"grey 2 -> grey 2~6: tile r2c2 -> {c}" for c in ("r1c2", "r3c2", "r2c1", "r2c3")])
    with pytest.raises(IllegalMove, match="say what the action does"):
        play(st, "grey 2 -> grey 2~6")


def test_move_bonus_tiles_only_to_an_adjacent_open_space():
    """"Move a bonus tile on your Player Board to an orthogonally adjacent bonus space. You may not move a
    bonus tile to a bonus space that already contains a bonus tile, nor can you exchange the two tiles.\""""
    st = table(grey1=2, board="V../.D./...")
    with pytest.raises(IllegalMove, match="not orthogonally next"):
        play(st, "grey 2 -> grey 2~6: tile r2c2 -> r1c1")
    set_board(current(st), "VD./.../...")
    with pytest.raises(IllegalMove, match="already holds a bonus tile: tiles move only to open spaces and never swap"):
        play(st, "grey 2 -> grey 2~6: tile r1c1 -> r1c2")


def test_adjust_order_space_3_bonus_and_loop_bonus():
    """"Space 3 Bonus: Turn one of your face down bonus tiles face up." and "If you perform this action
    when your player marker is in the space marked with the loop symbol, move your player marker back to
    the START space ... Loop Bonus: Take one of your player markers from the stock and place it next to
    your Player Board.\""""
    st = table(grey1=4, board=".../.d./...")
    who = st.order[st.turn]
    st = play(st, "grey 4 -> grey 4~6", "order +1", "order +1")
    assert "order +1, turn up r2c2" in texts(st)
    with pytest.raises(IllegalMove, match="turns a face-down bonus tile face up"):
        play(st, "order +1")
    st = play(st, "order +1, turn up r2c2")
    assert current(st).board[4] == "D"
    for stack in st.track:
        if who in stack:
            stack.remove(who)
    st.track[5].append(who)  # on the loop space
    st.steps_left, st.steps_kind = 1, "order"
    hand, stock = current(st).hand, current(st).stock
    st = play(st, "order +1")
    assert st.track[0][-1] == who and (current(st).hand, current(st).stock) == (hand + 1, stock - 1)


def test_loop_with_an_empty_stock_gives_nothing():
    """"If you don't have any player markers in the stock, you cannot get any more player markers.\""""
    st = table(grey1=2)
    who = st.order[st.turn]
    p = current(st)
    p.stock, p.hand = 0, 6
    st.track = [[w for w in s if w != who] for s in st.track]
    st.track[5].append(who)
    st = play(st, "grey 2 -> grey 2~6: order +1")
    assert current(st).hand == 6 and who in st.track[0]


def test_return_a_die_to_turn_a_tile_face_up():
    """"Instead of placing a die and performing a dice action, you may return a die to the dice pool in
    order to turn one of your face down bonus tiles face up." and "If there are no face down bonus tiles
    on your player board, returning a die to the dice pool has no effect.\""""
    st = table(red=6, board="d../.o./...")
    assert {t for t in texts(st) if t.startswith("return")} == {
        "return red 6, turn up r1c1", "return red 6, turn up r2c2"}
    before = st.pool["red"]
    st = play(st, "return red 6, turn up r1c1")
    assert current(st).board[0] == "D" and st.pool["red"] == before + 1
    st2 = table(red=6, board=".../.O./...")
    assert "return red 6" in texts(st2)
    with pytest.raises(IllegalMove, match="turns nothing up"):
        play(st2, "return red 6, turn up r2c2")


def test_return_is_forced_when_no_space_takes_a_die():
    """"If there are no action spaces in which you can place a die, you must return a die to the dice
    pool.\""""
    st = table(green=4, board=".../DOO/..V")
    for sp in ("green 4",):
        st.spaces[sp] = [1, "green", 4]
    moves = [t for t in texts(st) if "->" in t and not t.startswith(("use", "die"))]
    assert moves == [] and "return green 4" in texts(st)


def test_four_player_only_grey_spaces():
    """"Grey Action Spaces for Four Player Games Only." (which ones: components.GREY_SPACES)"""
    st3 = table(3, grey1=1)
    with pytest.raises(IllegalMove, match="only in four-player games"):
        play(st3, "grey 1 -> grey 1~6 #2")
    st4 = table(4, red=3, grey1=1)
    assert "grey 1 -> grey 1~6 #2: red 3 -> 4" in texts(st4)
