"""Hidden information: the public view, each player's view, the redacted log and who makes which move."""
from __future__ import annotations

import json

from dreams_play import ENGINE, book_match, place_all_stars
from rules.dreams.moves import Deal, Guess, MarkerEntry, PlaceStar


def _round_in_guessing():
    m = book_match(seed=1)
    m.play("dreams 1 2 3 4")
    m.play("deal vision 3 mortal George")
    place_all_stars(m)
    m.play("George guesses 2")
    m.play("Andrea guesses yellow")
    return m


def test_public_view_shows_no_role_and_no_guess():
    """'Now have a look at your own Gods marker. Don't let any other player know what you see on your marker.'"""
    m = _round_in_guessing()
    pub = ENGINE.view(m.state)
    text = json.dumps(pub)
    assert "me" not in pub and "mortal" not in text and "vision" not in text and "yellow\"" not in json.dumps(pub["guessed"])
    assert pub["guessed"] == ["Andrea", "George"]
    assert pub["stars"] and pub["turn"] is None and pub["phase"] == "guess"


def test_player_view_holds_only_their_own_marker_and_guess():
    """'Gods see a number on their marker. ... The mortal sees the symbol of the mortal on his marker.'"""
    m = _round_in_guessing()
    george, nina, andrea = (ENGINE.view(m.state, p) for p in ("George", "Nina", "Andrea"))
    assert george["me"] == {"player": "George", "colour": "blue", "marker": "mortal", "role": "mortal", "guess": "2"}
    assert nina["me"] == {"player": "Nina", "colour": "red", "marker": "3", "role": "god", "guess": None}
    assert andrea["me"]["guess"] == "yellow"
    for v in (george, nina, andrea):
        rest = {k: x for k, x in v.items() if k != "me"}
        assert rest == ENGINE.view(m.state)


def test_a_piecewise_marker_is_seen_by_its_player_only():
    m = book_match(seed=1)
    m.play("dreams 1 2 3 4")
    m.play("Nina marker 3")
    assert ENGINE.view(m.state, "Nina")["me"]["marker"] == "3"
    assert ENGINE.view(m.state, "Peter")["me"]["marker"] is None
    assert ENGINE.view(m.state)["markers_entered"] == ["Nina"]
    assert ENGINE.history_view(m.state, m.moves) == ["dreams 1 2 3 4", "Nina has entered their marker"]
    assert ENGINE.history_view(m.state, m.moves, "Nina")[-1] == "Nina marker 3"


def test_log_is_redacted_until_the_reveal():
    """'As soon as all players have indicated their guess, reveal your selection tokens simultaneously,
    and reveal your Gods markers.' Until then the log hides the deal and the guesses."""
    m = _round_in_guessing()
    public = ENGINE.history_view(m.state, m.moves)
    assert "the Gods markers are dealt" in public
    assert public[-2:] == ["George has locked a guess", "Andrea has locked a guess"]
    assert not any("vision" in t or "guesses" in t for t in public)
    assert ENGINE.history_view(m.state, m.moves, "George")[-2:] == ["George guesses 2", "Andrea has locked a guess"]
    m.play("Peter guesses blue")
    m.play("Nina guesses blue")
    assert ENGINE.history_view(m.state, m.moves) == m.moves  # revealed: everybody reads it all
    m.play("random")
    m.play("random")
    later = ENGINE.history_view(m.state, m.moves)
    assert later[: len(later) - 1] == m.moves[:-1] and later[-1] == "the Gods markers are dealt"


def test_moves_each_viewer_may_play():
    m = _round_in_guessing()
    assert ENGINE.legal_moves_view(m.state) == []  # the shared screen sends no guess
    assert sorted(ENGINE.legal_moves_view(m.state, "Nina")) == ["Nina guesses blue", "Nina guesses green", "Nina guesses yellow"]
    assert ENGINE.legal_moves_view(m.state, "George") == []  # locked
    m2 = book_match(seed=1)
    m2.play("random")
    assert ENGINE.legal_moves_view(m2.state) == []
    assert ENGINE.legal_moves_view(m2.state, "Peter") == [f"Peter marker {x}" for x in ("1", "2", "3", "4", "mortal")]
    m2.play("random")
    assert ENGINE.legal_moves_view(m2.state) == ENGINE.legal_moves_view(m2.state, "Peter") != []


def test_private_player_of_each_move():
    st = book_match().state
    assert ENGINE.private_player(st, Guess("Nina", "blue")) == "Nina"
    assert ENGINE.private_player(st, MarkerEntry("Peter", "mortal")) == "Peter"
    assert ENGINE.private_player(st, "Peter marker 2") == "Peter"
    assert ENGINE.private_player(st, Deal(2, "Nina")) is None  # the public 'random' deal, logged but redacted
    assert ENGINE.private_player(st, PlaceStar("Nina", "grey", 1, 2)) is None


def test_undo_refusal_for_locked_guesses_and_dealt_markers():
    m = _round_in_guessing()
    assert ENGINE.undo_refusal(m.state, m.moves[-1]) == "a locked guess cannot be taken back"
    m2 = book_match(seed=1)
    m2.play("random")
    assert ENGINE.undo_refusal(m2.state, m2.moves[-1]) is None
    m2.play("random")
    assert "dealt" in ENGINE.undo_refusal(m2.state, m2.moves[-1])
    place_all_stars(m2)
    assert ENGINE.undo_refusal(m2.state, m2.moves[-1]) is None


def test_a_player_called_dreams_does_not_open_the_log():
    from rules.core.match import Match

    m = Match(ENGINE, ["dreams", "deal", "Bo"], seed=1)
    m.play("dreams 1 2 3 4")
    m.play("deal vision 2 mortal dreams")
    place_all_stars(m)
    m.play("dreams guesses 2")
    public = ENGINE.history_view(m.state, m.moves)
    assert "deal vision 2 mortal dreams" not in public and public[-1] == "dreams has locked a guess"
