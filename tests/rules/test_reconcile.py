"""rules.core.reconcile: the camera's view against the legal moves; never invent a move."""
from __future__ import annotations

from dataclasses import dataclass

from rules.core import Engine, Match, MoveSyntaxError
from rules.registry import engine_for
from rules.core.camera import ANY_OF, one_move, view_matches
from rules.core.reconcile import reconcile

QUARX = engine_for("quarx")


def test_view_matches_treats_unread_fields_as_unknown():
    assert view_matches({"a": 1, "b": [1, 2]}, {"a": 1})
    assert view_matches({"a": 1, "b": [1, 2]}, {"a": None, "b": [1, None]})
    assert not view_matches({"a": 1, "b": [1, 2]}, {"b": [1, 2, 3]})
    assert not view_matches({"a": 1}, {"a": 2})
    assert view_matches({ANY_OF: [{"a": 1}, {"a": 2}]}, {"a": 2})
    assert not view_matches({ANY_OF: [{"a": 1}, {"a": 2}]}, {"a": 3})


def test_quarx_reveal_is_read_from_the_cards_in_the_middle():
    m = Match(QUARX, ["Ann", "Ben"], seed=1)
    assert reconcile(QUARX, m.state, {"face_up": []}).status == "unchanged"
    r = reconcile(QUARX, m.state, {"face_up": [1, 2, 3, 5]})
    assert r.status == "apply" and r.moves == ["reveal 1 2 3 5"]
    m.play(r.moves[0])
    assert reconcile(QUARX, m.state, {"face_up": [1, 2, 3, 5]}).status == "unchanged"


def test_quarx_wrong_number_of_cards_is_not_a_move():
    m = Match(QUARX, ["Ann", "Ben"], seed=1)
    r = reconcile(QUARX, m.state, {"face_up": [1, 2, 3]})
    assert r.status == "unexplained" and r.moves == []


def test_quarx_cards_left_lying_after_scoring_are_not_a_new_round():
    m = Match(QUARX, ["Ann", "Ben"], seed=1)
    for text in ["reveal 1 2 3 5", "Ann 8+2+1", "Ben passes"]:
        m.play(text)
    assert reconcile(QUARX, m.state, {"face_up": [1, 2, 3, 5]}).status == "unchanged"
    assert reconcile(QUARX, m.state, {"face_up": []}).status == "unchanged"
    assert reconcile(QUARX, m.state, {"face_up": [2, 2, 3, 5]}).moves == ["reveal 2 2 3 5"]


@dataclass(frozen=True)
class Step:
    name: str

    def __str__(self) -> str:
        return self.name


class CounterRules(Engine):
    """A toy game where two different moves leave the same table (its rules only)."""

    name, title, min_players, max_players = "counter", "Counter", 1, 1

    def initial_state(self, players, options):
        return {"n": 0}

    def parse_move(self, state, text):
        if text not in ("add", "add too", "add two"):
            raise MoveSyntaxError("add | add too | add two")
        return Step(text)

    def legal_moves(self, state):
        return [Step("add"), Step("add too"), Step("add two")]

    def _apply(self, state, move):
        state["n"] += 2 if move.name == "add two" else 1

    def scores(self, state):
        return {}

    def is_over(self, state):
        return state["n"] >= 10

    def winners(self, state):
        return []

    def to_json(self, state):
        return dict(state)

    def from_json(self, data):
        return dict(data)



class Counter(CounterRules):
    """The toy game with its camera side: two moves leave the same table, so the camera must ask."""

    def expected_view(self, state):
        return {"n": state["n"]}

    def chance_from_view(self, state, observed):
        return []

    def explain(self, state, observed):
        return one_move(self, self, state, observed)


def test_several_explanations_are_asked_not_applied():
    eng = Counter()
    r = reconcile(eng, eng.initial_state(["a"], {}), {"n": 1})
    assert r.status == "ask" and r.candidates == [["add"], ["add too"]] and r.moves == []
    assert reconcile(eng, eng.initial_state(["a"], {}), {"n": 2}).moves == ["add two"]
    assert reconcile(eng, eng.initial_state(["a"], {}), {"n": 7}).status == "unexplained"


def test_game_without_a_camera_view_is_unreadable():
    assert reconcile(CounterRules(), {"n": 0}, {"n": 1}).status == "unreadable"
