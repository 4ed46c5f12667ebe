"""The camera's side: the expected TableView, rolls and draws read from it, moves explained by it."""
from __future__ import annotations

import copy
import json
import random

from diceline_helpers import ENGINE, current, match_until, play, set_board, set_dice, turn_state

from rules.core.reconcile import reconcile
from rules.diceline import state as S


def test_expected_view_is_plain_json_of_the_table():
    """Dice on the action spaces keep their own colour; tiles show face up or down."""
    st = turn_state(3, 1)
    me = current(st).name
    set_dice(current(st), green=2, grey1=6)
    st = play(st, "grey 6 -> grey 6: green 2 -> red")
    st.main_done = False
    st = play(st, "red 2 -> red 1~2")
    view = ENGINE.expected_view(st)
    json.dumps(view)
    assert view["spaces"]["red 1~2"] == ["green", 2] and view["spaces"]["grey 6"] == ["grey", 6]
    assert view["red_markers"]["red 1~2"] == [me]
    assert view["players"][me]["dice"] == [None, None, None, None]


def test_a_placement_is_explained_by_the_table_it_leaves():
    """Exactly one legal move turns the expected table into the observed one: it is applied."""
    st = turn_state(4, 2)
    rng = random.Random(4)
    for _ in range(25):
        if ENGINE.chance(st):
            st = ENGINE.apply(st, ENGINE.sample_chance(st, rng))
            continue
        move = rng.choice(ENGINE.legal_moves(st))
        after = ENGINE.apply(st, move)
        r = reconcile(ENGINE, st, ENGINE.expected_view(after))
        if str(move) == "done" or ENGINE.expected_view(after) == ENGINE.expected_view(st):
            assert r.status == "unchanged"
        else:
            assert str(move) in r.moves or [str(move)] in r.candidates
        st = after


def test_the_roll_is_read_from_the_selection_board():
    """"Place each group of dice on the Selection Board in ascending order ..." - the camera reads them."""
    st = match_until(3, 2, S.ROLL).state
    observed = {"selection": [[1, 2, 1, 4], [3, 2, 2, 5], [3, 4, 3, 6], [6, 5, 3, 6]]}
    r = reconcile(ENGINE, st, observed)
    assert r.status == "apply" and r.moves == ["roll red 1 3 3 6 green 2 2 4 5 grey 1 2 3 3 4 5 6 6"]
    # dice still being laid out explain nothing yet
    assert reconcile(ENGINE, st, {"selection": [[1, 2, 1, 4], None, None, None]}).status == "unexplained"
    assert reconcile(ENGINE, st, {"selection": [[1, 2, 1, 4]] * 3}).status == "unexplained"


def test_green_action_and_the_refill_in_one_look():
    """A green action and the new bonus tile drawn for the board, seen together, are two moves."""
    st = turn_state(3, 1)
    set_dice(current(st), green=5)
    kind = st.bonus_display[0]
    after = play(st, f"green 5 -> green 5: {kind} -> r2c3")
    refill = copy.deepcopy(after)
    refill = play(refill, "reveal bonus vp" if refill.bonus_deck["vp"] else "reveal bonus die")
    r = reconcile(ENGINE, st, ENGINE.expected_view(refill))
    assert r.status in ("apply", "ask")
    found = [r.moves] if r.status == "apply" else r.candidates
    assert [f"green 5 -> green 5: {kind} -> r2c3", refill_text(after, refill)] in found


def refill_text(before, after) -> str:
    new = sorted(set(after.bonus_display) - set(before.bonus_display)) or [after.bonus_display[-1]]
    return f"reveal bonus {new[0]}"


def test_done_then_the_next_players_move():
    """'done' leaves no trace; the next player's placement explains it with 'done' first."""
    st = turn_state(3, 1)
    set_dice(current(st), grey1=5)
    set_board(current(st), ".../.V./...")
    st = play(st, "grey 5 -> grey 5~6")
    nxt = play(st, "done")
    move = next(m for m in ENGINE.legal_moves(nxt) if str(m).startswith(("red", "green", "grey")))
    seen = ENGINE.expected_view(ENGINE.apply(nxt, move))
    r = reconcile(ENGINE, st, seen)
    found = [r.moves] if r.status == "apply" else r.candidates
    assert ["done", str(move)] in found
