"""Setting up: player order, starting tiles, decks, layout tiles, markers (rulebook "Setting Up")."""
from __future__ import annotations

import pytest
from diceline_helpers import ENGINE, NAMES, check_invariants, match_until, play, texts

from rules.core.errors import IllegalMove
from rules.core.match import Match
from rules.diceline import state as S


def fresh(n: int = 4) -> S.DicelineState:
    return ENGINE.initial_state(NAMES[:n], {})


def test_three_and_four_players_only():
    """Dazzling Diceline for 3 and 4 players (the issue); 'For 3 Players ... For 4 Players'."""
    for n in (2, 5):
        with pytest.raises(IllegalMove):
            ENGINE.initial_state(["A", "B", "C", "D", "E"][:n], {})
    with pytest.raises(IllegalMove):
        ENGINE.initial_state(NAMES[:3], {"variant": 1})


def test_order_by_rolled_totals_highest_first():
    """"The player with the highest total takes the 1st player order tile, the player with the second
    highest total takes the 2nd player order tile, and so on.\""""
    st = play(fresh(4), "order rolls 5 11 7 3")
    assert [st.players[i].name for i in st.order] == ["Yellow", "Pink", "Blue", "Orange"]
    assert ENGINE.to_move(st) == ["Orange"]  # reverse player order chooses starting tiles


def test_tied_totals_roll_again_among_themselves():
    """Ties in the order roll are not covered by the book; the tied players roll again (assumption)."""
    st = play(fresh(4), "order rolls 8 8 5 8")
    assert "again" in ENGINE.chance(st) and "Blue, Yellow, Orange" in ENGINE.chance(st)
    with pytest.raises(IllegalMove, match="one two-dice total for each"):
        play(st, "order rolls 3 4")
    st = play(st, "order rolls 4 9 4")
    st = play(st, "order rolls 6 10")
    assert [st.players[i].name for i in st.order] == ["Yellow", "Orange", "Blue", "Pink"]


def test_markers_stacked_on_start_with_start_player_on_top():
    """"Place one of your player markers on the START space of the player order track. Stack them in
    player order, with the start player's marker on top.\""""
    st = play(fresh(4), "order rolls 5 11 7 3")
    assert st.track[0] == [3, 0, 2, 1]  # bottom -> top: Orange, Blue, Pink, Yellow
    for p in st.players:
        assert (p.hand, p.stock) == (2, 4)  # "Keep two ... next to your Player Board ... the other four ... stock"


def test_starting_tiles_chosen_in_reverse_order_to_the_centre():
    """"Going in reverse player order ..., each player chooses one and places it on the bonus space in
    the center of their Player Board. In a 3 player game, return the remaining bonus tile to the box.\""""
    st = play(fresh(3), "order rolls 5 11 7")  # Yellow, Pink, Blue
    assert ENGINE.to_move(st) == ["Blue"]
    assert sorted(texts(st)) == ["start tile die", "start tile movement", "start tile order", "start tile vp"]
    st = play(st, "start tile vp")
    with pytest.raises(IllegalMove, match="no vp starting tile"):
        play(st, "start tile vp")
    st = play(st, "start tile die", "start tile order")
    assert [p.board[4] for p in st.players] == ["V", "O", "D"]
    assert st.start_tiles == [] and st.phase == S.DEAL
    check_invariants(st)  # the movement tile went back to the box


@pytest.mark.parametrize("n,per_kind", [(3, 5), (4, 7)])
def test_bonus_deck_dice_and_display(n, per_kind):
    """"For 3 Players: 4 types x 5 each = 20 total. For 4 Players: 4 types x 7 each = 28 total." and
    "draw four bonus tiles from the bonus tile deck and place them face up"; dice "Red x4, Green x4,
    Grey x8" / "Red x5, Green x5, Grey x10"."""
    st = match_until(n, 3, S.ROLL).state
    assert sum(st.bonus_deck.values()) == 4 * per_kind - 4 and len(st.bonus_display) == 4
    assert st.pool == ({"red": 4, "green": 4, "grey": 8} if n == 3 else {"red": 5, "green": 5, "grey": 10})


def test_layout_tiles_one_each_in_order_then_two_face_up():
    """"In player order, each player draws one tile from the layout tile deck ... Then draw two tiles from
    the layout tile deck and place them face up in the layout tile spaces on the Red Action Board.\""""
    m = match_until(4, 5, S.DEAL)
    for _ in range(4):
        m.play("random")
    first = m.state.order[0]
    assert "for " + m.state.players[first].name in ENGINE.chance(m.state)
    m.play("reveal layout 13")
    assert m.state.players[first].layouts == [13]
    with pytest.raises(IllegalMove, match="not in the layout deck"):
        m.play("reveal layout 13")
    while m.state.phase == S.DEAL:
        m.play("random")
    assert len(m.state.layout_display) == 2 and len(m.state.layout_deck) == 13 - 4 - 2
    assert all(len(p.layouts) == 1 for p in m.state.players)


def test_round_marker_and_roll_for_phase_one():
    """"Place the round marker on the first space of the round track." and "The start player takes all
    the dice from the dice pool and rolls them.\""""
    st = match_until(3, 2, S.ROLL).state
    assert st.round == 1
    assert "rolls 4 red, 4 green, 8 grey" in ENGINE.chance(st)
    assert ENGINE.legal_moves(st) == []


def test_chance_moves_come_from_seed_camera_or_person_alike():
    """A roll typed by a person is the same move as one drawn by the RNG."""
    m = Match(ENGINE, NAMES[:3], {}, 9)
    drawn = m.play("random")
    typed = Match(ENGINE, NAMES[:3], {}, 0, moves=[drawn])
    assert typed.state == m.state
