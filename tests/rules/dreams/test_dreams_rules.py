"""Set-up, phases, the deal, star placement, guesses and the round end, each against the rulebook."""
from __future__ import annotations

import random

import pytest

from dreams_play import ENGINE, book_match, place_all_stars, play_round
from rules.core.errors import IllegalMove
from rules.core.match import Match


def test_three_to_six_players():
    """'There are 18 stars. Each player gets one star of each kind' and 6 crescents: 3 to 6 players."""
    for n in (3, 4, 5, 6):
        st = ENGINE.initial_state([f"P{i}" for i in range(n)], {})
        assert st.scores == {f"P{i}": 0 for i in range(n)}
    for n in (2, 7):
        with pytest.raises(IllegalMove) as exc:
            ENGINE.initial_state([f"P{i}" for i in range(n)], {})
        assert exc.value.rule == "players"


def test_everybody_starts_on_space_0():
    """'He places it on space 0 of the Gods track.'"""
    assert set(book_match().state.scores.values()) == {0}


def test_options_are_checked():
    """Colours are the crescents 'in the player color he has chosen': one per player, all different."""
    with pytest.raises(IllegalMove):
        ENGINE.initial_state(["A", "B", "C"], {"colors": ["blue", "blue", "red"]})
    with pytest.raises(IllegalMove):
        ENGINE.initial_state(["A", "B", "C"], {"colors": ["blue", "pink", "red"]})
    with pytest.raises(IllegalMove):
        ENGINE.initial_state(["A", "B", "C"], {"dealer": "Z"})
    with pytest.raises(IllegalMove):
        ENGINE.initial_state(["A", "B", "C"], {"speed": 2})
    for bad in (5, "blue", None, {"A": "blue"}):
        with pytest.raises(IllegalMove):
            ENGINE.initial_state(["A", "B", "C"], {"colors": bad})
    with pytest.raises(IllegalMove):
        ENGINE.initial_state(["A", "B", "C"], {"dealer": ["A"]})
    st = ENGINE.initial_state(["A", "B", "C"], {"dealer": "B"})
    assert st.players[st.dealer] == "B"


def test_round_begins_with_four_dream_cards():
    """'Lay out 4 Dream cards face up arranged as a square. Place one image number on a corner of each card.'"""
    m = book_match(seed=5)
    assert ENGINE.chance(m.state).startswith("lay out 4 dream cards")
    assert ENGINE.legal_moves(m.state) == []
    m.play("dreams 10 20 30 40")
    assert [(c["image"], c["card"]) for c in ENGINE.view(m.state)["cards"]] == [(1, 10), (2, 20), (3, 30), (4, 40)]


def test_laid_out_cards_are_put_aside():
    """'Put the 4 laid-out Dream cards aside.'"""
    m = book_match(seed=5)
    play_round(m, 1, "Nina", {"Andrea": "red", "Peter": "red", "George": "red", "Nina": "1"}, cards="dreams 1 2 3 4")
    with pytest.raises(IllegalMove) as exc:
        m.play("dreams 4 5 6 7")
    assert exc.value.rule == "lay out dreams"
    for _ in range(50):
        assert not set(ENGINE.sample_chance(m.state, random.Random(_)).cards) & {1, 2, 3, 4}


def test_random_deal_is_one_stack():
    """'Each stack may contain only markers of the same number (one marker less than there are players).
    Mix one Mortal marker into each stack.' A dealt stack: one mortal, every God sees the same number."""
    seen_visions, seen_mortals = set(), set()
    for seed in range(60):
        m = book_match(seed=seed)
        m.play("random")
        m.play("random")
        markers = [ENGINE.view(m.state, p)["me"]["marker"] for p in m.players]
        assert markers.count("mortal") == 1
        assert len({x for x in markers if x != "mortal"}) == 1
        seen_visions.add(m.state.vision)
        seen_mortals.add(m.state.mortal)
    assert seen_visions == {1, 2, 3, 4} and seen_mortals == set(m.players)


def test_each_player_enters_their_own_physical_marker():
    """'Then he deals one marker from this stack face down to each player (himself included).' With real
    markers, each player types what their own marker shows; the deal completes with the last one."""
    m = book_match(seed=6)
    m.play("dreams 1 2 3 4")
    m.play("Peter marker 2")
    assert ENGINE.to_move(m.state) == ["Andrea", "George", "Nina"]
    assert "1 of 4" in ENGINE.chance(m.state)
    with pytest.raises(IllegalMove):
        m.play("random")  # the rest of the stack is in the players' hands
    with pytest.raises(IllegalMove):
        m.play("Peter marker 3")
    m.play("Andrea marker mortal")
    m.play("George marker 2")
    m.play("Nina marker 2")
    assert (m.state.phase, m.state.vision, m.state.mortal) == ("stars", 2, "Andrea")


def test_entered_markers_that_are_no_stack_void_the_deal():
    """Markers from one stack are one Mortal marker and Gods markers of one number; anything else is
    a mistyped deal, voided for everybody alike rather than refused to the last player (which would
    tell him what the others hold)."""
    m = book_match(seed=6)
    m.play("dreams 1 2 3 4")
    for text in ("Peter marker 2", "Andrea marker mortal", "George marker 3", "Nina marker 2"):
        m.play(text)
    assert m.state.phase == "deal" and m.state.markers == {} and m.state.void_deals == 1
    assert ENGINE.view(m.state)["void_deals"] == 1


def test_dealer_places_the_first_star_then_to_the_left():
    """'The player who dealt out the Gods markers begins. He places one star on the firmament. After
    that, his left neighbor has his turn.'"""
    m = Match(ENGINE, ["A", "B", "C"], {"dealer": "B"}, seed=1)
    m.play("random")
    m.play("random")
    order = []
    while m.state.phase == "stars":
        p = ENGINE.to_move(m.state)[0]
        order.append(p)
        m.play(str(ENGINE.legal_moves(m.state)[0]))
    assert order == ["B", "C", "A"] * 3


def test_only_the_player_to_move_places_a_star():
    """'He places one star on the firmament. After that, his left neighbor has his turn.'"""
    m = book_match(seed=1)
    m.play("random")
    m.play("random")
    with pytest.raises(IllegalMove, match="Andrea's turn"):
        m.play("Peter places black at 0.5 0.5")


def test_what_has_been_placed_remains_there():
    """'You may not relocate any star on the firmament or remove it from there. Consequently, on your
    second turn you can only choose between the two stars that you have not placed yet.'"""
    m = book_match(seed=1)
    m.play("random")
    m.play("random")
    for p in ("Andrea", "Peter", "George", "Nina"):
        m.play(f"{p} places clear at 0.5 0.5")
    with pytest.raises(IllegalMove) as exc:
        m.play("Andrea places clear at 0.1 0.1")
    assert exc.value.rule == "place stars" and "grey, black" in exc.value.reason
    assert {str(mv).split()[2] for mv in ENGINE.legal_moves(m.state)} == {"grey", "black"}


def test_stars_only_after_the_deal():
    """The phases run 'Lay out dreams; Determine the vision & the mortal; Place stars; Guess & resolve'."""
    m = book_match(seed=1)
    m.play("random")
    with pytest.raises(IllegalMove) as exc:
        m.play("Andrea places clear at 0.5 0.5")
    assert exc.value.rule == "place stars"
    with pytest.raises(IllegalMove):
        m.play("Andrea guesses red")


def test_any_position_on_the_firmament():
    """'freely choose the place for it on the firmament': any x, y from 0 to 1, kept to a thousandth."""
    m = book_match(seed=1)
    m.play("random")
    m.play("random")
    assert m.play("Andrea places grey at 0 1") == "Andrea places grey at 0.000 1.000"
    assert m.play("Peter places grey at 0.12345 0.9999") == "Peter places grey at 0.123 1.000"
    assert ENGINE.view(m.state)["stars"][1] == {"player": "Peter", "kind": "grey", "x": 0.123, "y": 1.0}


def _to_guessing(mortal="George", vision=3):
    m = book_match(seed=1)
    m.play("dreams 1 2 3 4")
    m.play(f"deal vision {vision} mortal {mortal}")
    place_all_stars(m)
    return m


def test_gods_guess_a_colour_and_the_mortal_an_image():
    """'Each God guesses the player color of the mortal. The mortal guesses the image number of the true vision.'"""
    m = _to_guessing()
    with pytest.raises(IllegalMove, match="you are the mortal"):
        m.play("George guesses red")
    with pytest.raises(IllegalMove, match="you are a God"):
        m.play("Nina guesses 3")
    with pytest.raises(IllegalMove, match="another player's colour"):
        m.play("Nina guesses red")  # her own colour: she knows she is no mortal
    assert sorted(str(x) for x in ENGINE.legal_moves(m.state) if x.player == "George") == [
        f"George guesses {n}" for n in (1, 2, 3, 4)
    ]
    assert sorted(str(x) for x in ENGINE.legal_moves(m.state) if x.player == "Nina") == [
        "Nina guesses blue", "Nina guesses green", "Nina guesses yellow"
    ]


def test_a_locked_guess_cannot_change_and_the_reveal_waits_for_all():
    """'As soon as all players have indicated their guess, reveal your selection tokens simultaneously.'"""
    m = _to_guessing()
    m.play("Nina guesses blue")
    with pytest.raises(IllegalMove, match="locked"):
        m.play("Nina guesses green")
    m.play("George guesses 3")
    m.play("Andrea guesses blue")
    assert m.state.phase == "guess" and m.state.results == [] and ENGINE.to_move(m.state) == ["Peter"]
    m.play("Peter guesses green")
    assert len(m.state.results) == 1


def test_points_exactly_as_written():
    """'The mortal gets 3 Gods points if nobody has guessed his color correctly, 2 if he has guessed the
    image number of the true vision correctly. Each God gets 2 if he has guessed the color of the
    mortal correctly, 1 if nobody has guessed his color.'"""
    m = _to_guessing(mortal="Peter", vision=1)
    for text in ("Peter guesses 1", "Andrea guesses yellow", "George guesses yellow", "Nina guesses green"):
        m.play(text)
    # Peter: suspected (no 3), deciphered (+2). Andrea: uncovered (+2), suspected by Nina (no 1).
    # George: uncovered (+2) and unsuspected (+1). Nina: unsuspected (+1), wrong guess.
    assert ENGINE.scores(m.state) == {"Andrea": 2, "Peter": 2, "George": 3, "Nina": 1}
    m2 = _to_guessing(mortal="Peter", vision=1)
    for text in ("Peter guesses 1", "Andrea guesses red", "George guesses red", "Nina guesses green"):
        m2.play(text)
    assert ENGINE.scores(m2.state)["Peter"] == 5


def test_next_round_dealer_moves_left_and_stars_come_back():
    """'Take your stars back. ... The mixing and dealing of the stacks of Gods markers for the next game
    round is done by the player to the left of the one who did it last time.'"""
    m = book_match(seed=1)
    play_round(m, 2, "Nina", {"Andrea": "red", "Peter": "red", "George": "red", "Nina": "1"})
    st = m.state
    assert st.players[st.dealer] == "Peter" and st.stars == [] and st.round == 2
    assert st.vision is None and st.mortal is None and st.guesses == {}
    m.play("random")
    m.play("random")
    assert ENGINE.to_move(m.state) == ["Peter"]


def test_several_winners_on_a_tie():
    """'The player who is in the lead on the Gods track is the (almost) immortal winner of the game.
    There can be several Go... ahem, winners.'"""
    m = book_match(seed=1)
    m.state.scores.update({"Andrea": 15, "George": 15})
    # Nina is the mortal and suspected by Peter; Andrea and George get 1 each for not being suspected.
    play_round(m, 2, "Nina", {"Andrea": "yellow", "Peter": "red", "George": "yellow", "Nina": "1"})
    assert ENGINE.scores(m.state)["Andrea"] == ENGINE.scores(m.state)["George"] == 16
    assert ENGINE.winners(m.state) == ["Andrea", "George"]
    with pytest.raises(IllegalMove) as exc:
        m.play("random")
    assert exc.value.rule == "end of game"


def test_the_game_ends_only_with_the_round():
    """'The game ends with the completion of the game round in which (at least) one player reaches 16.'
    Points are recorded only at the end of a round, so nobody passes 16 mid-round."""
    m = book_match(seed=1)
    m.state.scores.update({"Peter": 15})
    m.play("random")
    m.play("deal vision 1 mortal Peter")
    place_all_stars(m)
    m.play("Peter guesses 1")
    assert not ENGINE.is_over(m.state)
    for p in ("Andrea", "George", "Nina"):
        m.play(f"{p} guesses yellow")
    assert ENGINE.is_over(m.state) and ENGINE.winners(m.state) == ["Peter"]


def test_the_draw_pile_is_reshuffled_when_spent():
    """72 cards make 18 layouts; after that the cards put aside form a new pile (our assumption)."""
    m = Match(ENGINE, ["A", "B", "C"], seed=1)
    m.state.used_cards.extend(range(1, 73))
    m.play("dreams 1 2 3 4")
    assert m.state.cards == [1, 2, 3, 4]


def test_four_stacks_of_one_number_and_a_mortal():
    """'Divide the 20 Gods markers into four face-down stacks. Each stack may contain only markers of the
    same number (one marker less than there are players). Mix one Mortal marker into each stack.'"""
    from rules.dreams.markers import deal, marker_stacks

    for n in range(3, 7):
        stacks = marker_stacks(n)
        assert len(stacks) == 4 and all(s.count("mortal") == 1 and len(set(s) - {"mortal"}) == 1 for s in stacks)
        assert sum(len(s) - 1 for s in stacks) <= 20
        dealt = deal([f"P{i}" for i in range(n)], 0, random.Random(n))
        assert sorted(dealt) == sorted(f"P{i}" for i in range(n)) and list(dealt.values()).count("mortal") == 1
    assert sum(len(s) - 1 for s in marker_stacks(6)) == 20
