"""Move texts: every legal move reads back exactly; malformed text gets a hint of the expected form."""
from __future__ import annotations

import pytest

from dreams_play import ENGINE, book_match, place_all_stars
from rules.core.errors import MoveSyntaxError
from rules.dreams.moves import Deal, Guess, LayOut, MarkerEntry, PlaceStar


def test_text_forms():
    st = book_match().state
    assert str(LayOut((17, 40, 5, 66))) == "dreams 17 40 5 66"
    assert str(Deal(3, "Nina")) == "deal vision 3 mortal Nina"
    assert str(MarkerEntry("Nina", "mortal")) == "Nina marker mortal"
    assert str(PlaceStar("Andrea", "clear", 250, 400)) == "Andrea places clear at 0.250 0.400"
    assert str(Guess("Nina", "yellow")) == "Nina guesses yellow"
    for move in (LayOut((17, 40, 5, 66)), Deal(3, "Nina"), MarkerEntry("Nina", "2"), PlaceStar("Andrea", "black", 0, 1000),
                 Guess("George", "2"), Guess("Nina", "blue")):
        assert ENGINE.parse_move(st, str(move)) == move


def test_every_legal_move_round_trips():
    m = book_match(seed=9)
    m.play("random")
    m.play("random")
    seen = 0
    while not ENGINE.is_over(m.state) and m.state.round == 1:
        for mv in ENGINE.legal_moves(m.state):
            assert ENGINE.parse_move(m.state, str(mv)) == mv
            seen += 1
        if m.state.phase == "stars":
            place_all_stars(m)
        else:
            m.play(str(ENGINE.legal_moves(m.state)[0]))
    assert seen > 0


def test_words_are_case_insensitive_and_names_canonical():
    st = book_match().state
    assert str(ENGINE.parse_move(st, "nina GUESSES Yellow")) == "Nina guesses yellow"
    assert str(ENGINE.parse_move(st, "DEAL VISION 2 MORTAL george")) == "deal vision 2 mortal George"


def test_a_god_may_name_the_suspect_and_the_colour_is_logged():
    st = book_match().state
    assert str(ENGINE.parse_move(st, "Nina guesses peter")) == "Nina guesses yellow"
    st2 = ENGINE.initial_state(["Mary Ann", "Bo", "Cy"], {})
    assert str(ENGINE.parse_move(st2, "Bo guesses Mary Ann")) == "Bo guesses blue"


def test_names_with_spaces_and_verbs():
    st = ENGINE.initial_state(["Mary Ann", "deal", "Bo"], {})
    assert ENGINE.parse_move(st, "Mary Ann places grey at 0.5 0.5") == PlaceStar("Mary Ann", "grey", 500, 500)
    assert ENGINE.parse_move(st, "deal guesses 3") == Guess("deal", "3")
    assert ENGINE.parse_move(st, "deal vision 2 mortal Mary Ann") == Deal(2, "Mary Ann")


@pytest.mark.parametrize("text, hint", [
    ("", "one of"),
    ("dreams 1 2 3", "four different dream cards"),
    ("dreams 1 1 2 3", "four different dream cards"),
    ("dreams 0 2 3 73", "four different dream cards"),
    ("deal vision 5 mortal Nina", "deal vision 3 mortal Nina"),
    ("deal vision 2 mortal Zoe", "a player of this table"),
    ("Nina marker 7", "Nina marker 3"),
    ("Andrea places gold at 0.5 0.5", "clear, grey or black"),
    ("Andrea places clear at 1.5 0.5", "between 0"),
    ("Andrea places clear at x 0.5", "a position from 0 to 1"),
    ("Andrea places clear at nan 0.5", "between 0"),
    ("Nina guesses pink", "guesses <colour>"),
    ("Nina guesses 9", "guesses <colour>"),
    ("Nina dances", "places"),
    ("Zoe guesses red", "starts with a player's name"),
])
def test_malformed_text_names_the_expected_form(text, hint):
    with pytest.raises(MoveSyntaxError) as exc:
        ENGINE.parse_move(book_match().state, text)
    assert hint in exc.value.reason and exc.value.rule == "move text"
