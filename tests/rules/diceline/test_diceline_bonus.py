"""Bonus actions and layout tiles (rulebook "Bonus Tiles", "Bonus Action Overview", "Layout Tiles")."""
from __future__ import annotations

import pytest
from diceline_helpers import current, play, set_board, set_dice, texts, turn_state

from rules.core.errors import IllegalMove
from rules.diceline.board import layout_fits


def table(red=0, green=0, grey1=0, grey2=0, board=None, n=3, seed=1):
    st = turn_state(n, seed)
    set_dice(current(st), red, green, grey1, grey2)
    if board:
        set_board(current(st), board)
    return st


def test_bonus_actions_any_time_during_your_turn():
    """"You may perform bonus actions ... at any point during your turn by turning one or more face up
    bonus tiles on your Player Board face down. You may perform any number of bonus actions during your
    turn.\""""
    st = table(red=2, grey1=5, board="V../.V./..V")
    me = st.order[st.turn]
    st = play(st, "use vp r1c1", "grey 5 -> grey 5~6", "use vp r2c2")
    with pytest.raises(IllegalMove, match="already face down"):
        play(st, "use vp r1c1")
    st = play(st, "use vp r3c3")
    assert st.players[me].points == {"vp tiles": 3, "grey 5~6": 2}
    assert st.players[me].board == ["v", "", "", "", "v", "", "", "", "v"]
    assert st.order[st.turn] != me  # nothing was left to do: the turn passed by itself


def test_vp_tiles_resolve_one_by_one():
    """"Victory Point Bonus Tiles x1 Tile: Score 1 victory point. Resolve the bonus action for each
    victory point bonus tile individually.\""""
    st = play(table(red=2, board="VV./.../..."), "use vp r1c1", "use vp r1c2")
    assert current(st).points["vp tiles"] == 2


def test_die_tiles_x1_x2_x3():
    """"x1 Tile: ... increase or decrease its value by 1." / "x2 Tiles: ... change its value to the result
    of your choice." / "x3 Tiles: ... move it to a different die space.\""""
    st = table(red=1, green=3, board="DDD/.../...")
    with pytest.raises(IllegalMove, match="needs 1 die tile turned face down this turn"):
        play(st, "die x1: red 1 -> 2")
    st = play(st, "use die r1c1")
    with pytest.raises(IllegalMove, match="may not turn a 1 into a 6"):
        play(st, "die x1: red 1 -> 6")
    st = play(st, "die x1: red 1 -> 2", "use die r1c2", "use die r1c3")
    st = play(st, "die x2: green 3 -> 6")
    assert current(st).dice[:2] == [2, 6]
    st = play(table(green=3, board="DDD/.../..."), "use die r1c1", "use die r1c2", "use die r1c3",
              "die x3: green 3 -> grey")
    assert current(st).dice == [0, 0, 3, 0] and current(st).dice_made[2] == "green"


def test_four_die_tiles_example():
    """"Example: On your turn, you turned four die bonus tiles face down. You may choose to do one of the
    following: Option 1: ... three ... and ... one ... Option 2: ... two die bonus tiles face down twice.
    Option 3: ... one die bonus tile face down four times.\""""
    st = table(red=3, green=3, board="DD./DD./...")
    st = play(st, "use die r1c1", "use die r1c2", "use die r2c1", "use die r2c2")
    kinds = {t.split(":")[0] for t in texts(st) if t.startswith("die x")}
    assert kinds == {"die x1", "die x2", "die x3"}
    # option 1: 3 + 1
    o1 = play(st, "die x3: green 3 -> grey", "die x1: red 3 -> 4")
    assert not any(t.startswith("die x") for t in texts(o1))
    # option 2: 2 + 2
    o2 = play(st, "die x2: red 3 -> 6", "die x2: green 3 -> 1")
    assert current(o2).dice[:2] == [6, 1] and not any(t.startswith("die x") for t in texts(o2))
    # option 3: 1 + 1 + 1 + 1
    o3 = play(st, "die x1: red 3 -> 4", "die x1: red 4 -> 5", "die x1: green 3 -> 2", "die x1: green 2 -> 1")
    assert current(o3).dice[:2] == [5, 1]
    # and not more than four: 3 + 2 is refused
    with pytest.raises(IllegalMove, match="die x2 needs 2 die tiles"):
        play(st, "die x3: green 3 -> grey", "die x2: red 3 -> 6")


def test_movement_tiles_one_three_five_steps():
    """"x1 Tile: ... Move Bonus Tiles action once." "x2 Tiles: ... up to three times." "x3 Tiles: ... up
    to five times.\""""
    st = table(red=2, board="MMM/.../...")
    st = play(st, "use movement r1c1")
    st = play(st, "movement x1")
    assert st.steps_left == 1 and st.steps_kind == "tile"
    assert not any(t.startswith("order") for t in texts(st))
    st = play(st, "tile r1c1 -> r2c1")
    assert st.steps_left == 0
    st = play(st, "use movement r1c2", "use movement r1c3", "movement x2")
    assert st.steps_left == 3
    with pytest.raises(IllegalMove, match="moves no bonus tiles|does not adjust player order"):
        play(st, "order +1")


def test_order_tiles_one_three_five_steps():
    """"x3 Tiles: If you turn three player order bonus tiles face down, you may perform the Adjust Player
    Order action up to five times.\""""
    st = table(red=2, board="OOO/.../...")
    who = st.order[st.turn]
    st = play(st, "use order r1c1", "use order r1c2", "use order r1c3", "order x3")
    assert st.steps_left == 5
    st = play(st, "order +1", "order +1", "order +1, turn up r1c1", "order +1", "order +1")
    assert who in st.track[5] and st.steps_left == 0


def test_steps_must_finish_or_stop_before_other_actions():
    """A sequence of steps is finished (or stopped: "up to") before another action starts."""
    st = play(table(red=2, board="MM./.../..."), "use movement r1c1", "movement x1")
    with pytest.raises(IllegalMove, match="take a step, complete a layout tile or 'stop' first"):
        play(st, "red 2 -> red 1~2")
    st = play(st, "stop", "red 2 -> red 1~2")
    assert st.main_done


def test_layout_tile_completed_when_its_five_spaces_hold_tiles_rotated():
    """"you may announce that you have completed a layout tile if the bonus spaces on your Player Board that
    correspond to the marked spaces shown on the tile contain bonus tiles (face up or face down). You may
    rotate your layout tiles.\""""
    st = table(red=2, board="d../d../VDv")  # layout 4 "#../#../###" as printed
    current(st).layouts = [4]
    assert layout_fits(current(st).board, 4)
    set_board(current(st), "ddd/..o/..v")  # the big L turned half a circle
    assert "complete layout 4" in texts(st)
    st = play(st, "complete layout 4")
    assert current(st).completed == [4] and current(st).points["layout tiles"] == 6


def test_extra_tiles_do_not_stop_a_completion():
    """"Even if there are bonus tiles on your Player Board occupying spaces not marked on the tile, you may
    complete a layout tile so long as all five of its marked spaces contain bonus tiles.\""""
    st = table(red=2, board="DDD/DDD/DDD")
    current(st).layouts = [1, 2, 3]
    assert sorted(t for t in texts(st) if t.startswith("complete")) == [
        "complete layout 1", "complete layout 2", "complete layout 3"]
    st = play(st, "complete layout 1", "complete layout 2", "complete layout 3")  # any number per turn
    assert current(st).points["layout tiles"] == 18


def test_layout_points_by_round():
    """"Round 1-3: 6 points. Round 4: 4 points. Round 5: 2 points.\""""
    for rnd, pts in ((1, 6), (3, 6), (4, 4), (5, 2)):
        st = table(red=2, board="DDD/DDD/DDD")
        st.round = rnd
        current(st).layouts = [2]
        st = play(st, "complete layout 2")
        assert current(st).points["layout tiles"] == pts


def test_layout_refused_when_it_does_not_fit_or_is_not_yours():
    """Only "the bonus spaces ... that correspond to the marked spaces shown on the tile" count."""
    st = table(red=2, board="DDD/.../...")
    current(st).layouts = [1]
    with pytest.raises(IllegalMove, match="do not cover the five marked spaces of layout tile 1"):
        play(st, "complete layout 1")
    with pytest.raises(IllegalMove, match="not one of your layout tiles"):
        play(st, "complete layout 9")


def test_move_tiles_then_complete_a_layout_mid_action():
    """"Example: While resolving an action that allows you to move bonus tiles up to three times, you first
    move a bonus tile so that the layout of your bonus tiles matches one of your layout tiles. You may
    complete that layout tile, after which you may continue resolving the action and move bonus tiles
    twice more.\""""
    st = table(grey1=4, board="D../DDD/.D.")  # the plus (layout 1) lacks r1c2
    current(st).layouts = [1]
    st = play(st, "grey 4 -> grey 4~6")
    assert "complete layout 1" not in texts(st)
    st = play(st, "tile r1c1 -> r1c2")
    assert "complete layout 1" in texts(st)
    st = play(st, "complete layout 1")
    assert st.steps_left == 2 and current(st).completed == [1]
    st = play(st, "tile r3c2 -> r3c1", "tile r3c1 -> r3c2")
    assert st.steps_left == 0 and "done" in texts(st)


def test_bonus_only_on_your_own_turn():
    """"You may perform bonus actions ... at any point during your turn" - not during another's."""
    st = table(red=2, grey1=5, board="V../.../...")
    st = play(st, "grey 5 -> grey 5~6", "done")
    nxt = current(st)
    set_board(nxt, ".../.../...")
    with pytest.raises(IllegalMove, match="no bonus tile on r1c1"):
        play(st, "use vp r1c1")
