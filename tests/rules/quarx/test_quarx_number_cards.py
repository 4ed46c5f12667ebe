"""Number cards laid face down, then turned over: by hand and through the camera's TableView.

Rulebook lines checked: "lay them face down on the playing surface and announce out loud the
order in which you finished" and "When all players have placed number cards face down,
everyone reveals them".
"""
from __future__ import annotations

import pytest

from rules.core import IllegalMove, Match, MoveSyntaxError
from rules.core.reconcile import reconcile
from rules.registry import engine_for

QUARX = engine_for("quarx")


def revealed(players=("Ann", "Ben"), counts="3 4 5 7") -> Match:
    m = Match(QUARX, list(players), seed=1)
    m.play(f"reveal {counts}")  # 19 spheres: 16+2+1
    return m


def camera(m: Match, view: dict):
    """Reconcile `view` and apply the one explanation, as the watcher does."""
    result = reconcile(QUARX, m.state, view)
    if result.status == "apply":
        for text in result.moves:
            m.play(text)
    return result


def test_lay_and_tie_texts_round_trip():
    m = revealed()
    for text in ("Ann lays", "turn over: Ann 16+2+1, Ben 8+4"):
        assert str(QUARX.parse_move(m.state, text)) == text
    m.play("Ann lays")
    assert str(QUARX.parse_move(m.state, "Ben ties")) == "Ben ties"
    # Listed in any order, a turn over reads back in seat order.
    assert str(QUARX.parse_move(m.state, "turn over Ben 4+8, Ann 1+2+16")) == "turn over: Ann 16+2+1, Ben 8+4"


@pytest.mark.parametrize("text", ["turn over: Ann 3", "turn over: Ann 16, Ann 8", "turn over: Ann ties 16", "turn over:"])
def test_malformed_turn_overs_are_refused_with_the_form(text):
    with pytest.raises(MoveSyntaxError):
        QUARX.parse_move(revealed().state, text)


def test_everyone_reveals_when_all_have_laid_face_down():
    # "When all players have placed number cards face down, everyone reveals them"
    m = revealed()
    m.play("Ann lays")
    assert m.state.phase == "answer"
    m.play("Ben lays")
    assert m.state.phase == "turn" and QUARX.chance(m.state).startswith("turn over")
    with pytest.raises(IllegalMove) as err:
        m.play("Ann 16+2+1")
    assert err.value.rule == "no changes"
    m.play("turn over: Ann 16+2+1, Ben 8+4")
    assert m.state.scores == {"Ann": 2, "Ben": 0} and m.state.phase == "reveal"
    assert m.state.rounds[-1]["laid"] == {"Ann": [16, 2, 1], "Ben": [8, 4]}


def test_the_turn_over_names_exactly_those_who_laid_unseen():
    m = revealed()
    m.play("Ann 16+2+1")  # typed: the cards are known
    m.play("Ben lays")
    with pytest.raises(IllegalMove) as err:
        m.play("turn over: Ann 16+2+1, Ben 16+2+1")
    assert err.value.rule == "turn over" and "Ben" in err.value.reason
    m.play("turn over: Ben 16+2+1")
    # "In case of a tie" does not apply: Ann finished first, both right.
    assert m.state.scores == {"Ann": 2, "Ben": 0}


def test_all_typed_answers_score_at_once_as_before():
    m = revealed()
    m.play("Ann 8+4")
    m.play("Ben 16+2+1")
    assert m.state.phase == "reveal" and m.state.scores == {"Ann": 0, "Ben": 2}


def test_a_tie_laid_unseen_scores_one_point_each():
    m = revealed(("Ann", "Ben", "Cid"), "1 2 2 3 4 5")  # 17 = 16+1
    m.play("Ann lays")
    m.play("Ben ties")
    m.play("Cid passes")
    m.play("turn over: Ann 16+1, Ben 16+1")
    assert m.state.scores == {"Ann": 1, "Ben": 1, "Cid": 0}


def test_the_shared_screen_hides_cards_until_turned_over():
    m = revealed()
    m.play("Ann lays")
    m.play("Ben 8+4")
    view = QUARX.view(m.state)
    assert view["phase"] == "turn" and view["total"] == 19
    assert view["answers"] == [{"player": "Ann", "group": 1}, {"player": "Ben", "group": 2}]
    assert QUARX.history_view(m.state, m.moves)[-2:] == ["Ann laid cards (place 1)", "Ben laid cards (place 2)"]
    assert view["colours"] == {"Ann": "red", "Ben": "orange"}


# -- the camera ---------------------------------------------------------------------------
FACE_UP = [3, 4, 5, 7]


def test_the_camera_follows_a_whole_round_and_scores_it():
    m = Match(QUARX, ["Ann", "Ben"], seed=1)
    assert camera(m, {"face_up": [], "laid": []}).status == "unchanged"
    assert camera(m, {"face_up": FACE_UP, "laid": []}).moves == ["reveal 3 4 5 7"]
    assert camera(m, {"face_up": FACE_UP, "laid": [["red", "down"]]}).moves == ["Ann lays"]
    assert camera(m, {"face_up": FACE_UP, "laid": [["orange", "down"], ["red", "down"]]}).moves == ["Ben lays"]
    assert camera(m, {"face_up": FACE_UP, "laid": [["orange", [8, 4]], ["red", "down"]]}).status == "unexplained"
    result = camera(m, {"face_up": FACE_UP, "laid": [["orange", [8, 4]], ["red", [16, 2, 1]]]})
    assert result.moves == ["turn over: Ann 16+2+1, Ben 8+4"]
    assert m.state.scores == {"Ann": 2, "Ben": 0}
    # The cards lie there, then are collected in any order: nothing happens.
    for view in ({"face_up": FACE_UP, "laid": [["orange", [8, 4]], ["red", [16, 2, 1]]]},
                 {"face_up": [], "laid": [["orange", [8, 4]], ["red", [16, 2, 1]]]},
                 {"face_up": FACE_UP, "laid": []}, {"face_up": [], "laid": []}):
        assert camera(m, view).status == "unchanged"
    assert camera(m, {"face_up": [1, 2, 2, 9], "laid": []}).moves == ["reveal 1 2 2 9"]


def test_two_piles_seen_at_once_are_asked_not_guessed():
    m = revealed()
    result = camera(m, {"face_up": FACE_UP, "laid": [["orange", "down"], ["red", "down"]]})
    assert result.status == "ask"
    assert sorted(result.candidates) == sorted([["Ann lays", "Ben lays"], ["Ben lays", "Ann lays"], ["Ann lays", "Ben ties"]])
    assert m.moves == ["reveal 3 4 5 7"]


def test_a_pile_laid_before_the_camera_saw_the_cards_alone():
    m = Match(QUARX, ["Ann", "Ben"], seed=1)
    assert camera(m, {"face_up": FACE_UP, "laid": [["orange", "down"]]}).moves == ["reveal 3 4 5 7", "Ben lays"]


def test_typed_cards_that_disagree_with_the_table_are_not_scored_by_the_camera():
    m = revealed()
    m.play("Ann 16+2+1")
    m.play("Ben lays")
    result = camera(m, {"face_up": FACE_UP, "laid": [["orange", [8, 4]], ["red", [16, 4]]]})
    assert result.status == "unexplained" and m.state.phase == "turn"
    assert camera(m, {"face_up": FACE_UP, "laid": [["orange", [8, 4]], ["red", [16, 2, 1]]]}).moves == ["turn over: Ben 8+4"]


def test_a_pass_is_typed_and_the_passer_lays_nothing():
    m = revealed()
    m.play("Ben passes")
    assert camera(m, {"face_up": FACE_UP, "laid": [["red", "down"]]}).moves == ["Ann lays"]
    assert camera(m, {"face_up": FACE_UP, "laid": [["red", [16, 2, 1]]]}).moves == ["turn over: Ann 16+2+1"]
    assert m.state.scores == {"Ann": 2, "Ben": 0}


@pytest.mark.parametrize("laid", [
    [["blue", "down"]],                      # a colour nobody at this table plays
    [["red", "down"], ["red", "down"]],      # one colour twice
    [["red", [3, 5]]],                       # no such number cards
    None,                                    # the camera is unsure: nothing to explain
])
def test_impossible_or_unsure_piles_change_nothing(laid):
    m = revealed()
    assert camera(m, {"face_up": FACE_UP, "laid": laid}).status in ("unexplained", "unchanged")
    assert m.moves == ["reveal 3 4 5 7"]


def test_random_playouts_through_the_turn_over_keep_scores_within_the_cards():
    import random

    for seed in range(30):
        rng = random.Random(seed)
        m = Match(QUARX, ["Ann", "Ben", "Cid"], seed=seed)
        while not QUARX.is_over(m.state):
            if QUARX.chance(m.state):
                m.play("random")
            else:
                lays = [t for t in QUARX.legal_moves_view(m.state) if t.endswith((" lays", " ties", " passes"))]
                m.play(rng.choice(lays))
        assert sum(m.state.scores.values()) <= 30
        replay = Match(QUARX, ["Ann", "Ben", "Cid"], seed=seed)
        for text in m.moves:
            replay.play(text)
        assert QUARX.to_json(replay.state) == QUARX.to_json(m.state)
