"""Phase 3 and the end of the game (rulebook "Phase 3: Prepare for the Next Round")."""
from __future__ import annotations

import pytest
from diceline_helpers import ENGINE, check_invariants, current, play, set_board, set_dice, texts, turn_state

from rules.core.errors import IllegalMove
from rules.diceline import state as S


def last_turn(boards: dict[int, str] | None = None, n: int = 3, rnd: int = 1) -> S.DicelineState:
    """The last turn of phase 2: only the current player has a die left (a grey 5)."""
    st = turn_state(n, 1)
    st.round = rnd
    for p in st.players:
        set_dice(p)
        set_board(p, ".../.../...")
    set_dice(current(st), grey1=5)
    st.pool = {"red": 4 if n == 3 else 5, "green": 4 if n == 3 else 5, "grey": 8 if n == 3 else 10}
    st.pool["grey"] -= 1
    for who, picture in (boards or {}).items():
        set_board(st.players[who], picture)
    return st


def finish(st: S.DicelineState) -> S.DicelineState:
    """Use the last die; say 'done' if the turn did not pass by itself."""
    st = play(st, "grey 5 -> grey 5~6")
    return play(st, "done") if "done" in texts(st) else st


def test_one_face_down_line_tile_turns_up_per_line():
    """"For each horizontal, vertical, and diagonal line of three bonus tiles on your Player Board, you may
    turn one of your face down bonus tiles face up. You may not turn bonus tiles face up if they are not
    part of a line.\""""
    st = last_turn()
    who = st.order[st.turn]
    set_board(st.players[who], "ddd/d.O/d..")  # two lines (top row, left column), five face-down in them
    st = finish(st)
    assert st.phase == S.LINES and ENGINE.to_move(st) == [st.players[who].name]
    assert sorted(texts(st)) == sorted(f"turn up {c}" for c in ("r1c1", "r1c2", "r1c3", "r2c1", "r3c1"))
    with pytest.raises(IllegalMove, match="part of a line"):
        play(st, "turn up r3c3")
    st = play(st, "turn up r1c2", "turn up r3c1")
    assert st.players[who].board == ["d", "D", "d", "d", "", "O", "D", "", ""]
    assert st.phase == S.ROLL and st.round == 2


def test_line_bonus_without_choice_happens_by_itself():
    """"Example: You have two lines of three bonus tiles on your Player Board. Choose two face down bonus
    tiles and turn them face up." With no more face-down line tiles than lines, nothing is left to choose."""
    st = last_turn()
    who = st.order[st.turn]
    set_board(st.players[who], "dDD/D.O/dv.")  # two lines, two face-down tiles in them, r3c2 outside
    st = finish(st)
    assert st.phase == S.ROLL
    assert st.players[who].board == ["D", "D", "D", "D", "", "O", "D", "v", ""]


def test_dice_return_new_order_from_track_and_round_marker():
    """"Return all dice to the dice pool. Check the player order track to determine the new player order."
    and "If multiple player markers are stacked on the same space of the player order track, the marker on
    top is considered to be further to the right.\""""
    st = last_turn(n=4)
    st.track = [[0], [3, 1], [], [], [2], []]  # Pink furthest right, then Yellow (on top of Orange)
    st = finish(st)
    assert st.round == 2 and st.phase == S.ROLL
    assert [st.players[i].name for i in st.order] == ["Pink", "Yellow", "Orange", "Blue"]
    assert st.pool == {"red": 5, "green": 5, "grey": 10} and st.spaces == {}


def test_game_ends_after_round_5():
    """"The game is played over 5 rounds." and "The game ends at the end of round 5.\""""
    st = finish(last_turn(rnd=5))
    assert ENGINE.is_over(st) and ENGINE.legal_moves(st) == [] and ENGINE.chance(st) is None
    assert ENGINE.winners(st)
    with pytest.raises(IllegalMove, match="the game is over"):
        play(st, "done")


def test_a_full_round_keeps_everything_counted():
    """Every die comes back to the pool in phase 3 ("Return all dice to the dice pool")."""
    st = turn_state(4, 3)
    while st.phase == S.ACTIONS or st.phase == S.LINES:
        st = ENGINE.apply(st, ENGINE.legal_moves(st)[-1] if st.phase == S.LINES else _cheap(st))
        check_invariants(st)
    assert st.round == 2 and sum(st.pool.values()) == 20


def _cheap(st):
    moves = ENGINE.legal_moves(st)
    for m in moves:
        if str(m) == "done" or str(m).startswith("return"):
            return m
    return moves[0]
