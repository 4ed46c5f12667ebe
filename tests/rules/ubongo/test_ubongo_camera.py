"""The camera's side: the dice the table shows, and which roll or grab explains what the camera sees."""
from __future__ import annotations

from rules.core.match import Match
from rules.core.reconcile import reconcile
from ubongo_helpers import ENGINE


def middle(black: list[str], white: list[str], grabbed: dict | None = None) -> dict:
    """A TableView as the camera reports it (faces sorted, as the format asks)."""
    view = {"middle": {"black": black, "white": white}}
    if grabbed is not None:
        view["grabbed"] = grabbed
    return view


def rolled() -> Match:
    match = Match(ENGINE, ["Ann", "Bob"], {}, seed=0)
    match.play("roll black I4 P5 white I1 L3")
    return match


def test_all_dice_in_the_middle_are_the_roll():
    """"The die-roller rolls all the dice at the same time in the middle of the table": the camera reads the roll."""
    match = Match(ENGINE, ["Ann", "Bob"], {}, seed=0)
    result = reconcile(ENGINE, match.state, middle(["I4", "P5"], ["I1", "L3"]))
    assert result.status == "apply" and result.moves == ["roll black I4 P5 white I1 L3"]
    assert reconcile(ENGINE, match.state, middle(["W5", "W5"], ["I1", "L3"])).status == "unexplained"
    assert reconcile(ENGINE, match.state, middle(["P5"], ["L3"])).status == "unexplained"  # still rolling


def test_a_grab_seen_with_its_player_is_applied():
    """"Now each player grabs 2 dice: exactly one black die and one white die.\""""
    match = rolled()
    assert reconcile(ENGINE, match.state, middle(["I4", "P5"], ["I1", "L3"])).status == "unchanged"
    result = reconcile(ENGINE, match.state, middle(["I4"], ["I1"], {"Ann": ["P5", "L3"]}))
    assert result.status == "apply" and result.moves == ["Ann takes black P5 white L3"]


def test_a_grab_without_its_player_asks():
    """Dice gone from the middle but nobody seen holding them: ask which player grabbed."""
    result = reconcile(ENGINE, rolled().state, middle(["I4"], ["I1"]))
    assert result.status == "ask"
    assert result.candidates == [["Ann takes black P5 white L3"], ["Bob takes black P5 white L3"]]


def test_both_grabs_between_two_frames():
    """Everyone grabs at once ("in the hustle and bustle"): both grabs are applied when the camera sees who holds what."""
    result = reconcile(ENGINE, rolled().state, middle([], [], {"Ann": ["I4", "L3"], "Bob": ["P5", "I1"]}))
    assert result.status == "apply"
    assert result.moves == ["Ann takes black I4 white L3", "Bob takes black P5 white I1"]
    assert reconcile(ENGINE, rolled().state, middle([], ["I1"])).status == "unexplained"  # one black, no white


def test_dice_left_lying_after_the_round_change_nothing():
    """"the dice must not be turned": after the round the grabbed dice still show the rolled faces, which is no new roll."""
    match = rolled()
    for text in ("Ann takes black P5 white L3", "Bob takes black I4 white I1", "Ann done", "Bob done"):
        match.play(text)
    assert match.state.phase == "roll"
    assert reconcile(ENGINE, match.state, middle(["I4", "P5"], ["I1", "L3"], {})).status == "unchanged"
    assert reconcile(ENGINE, match.state, middle([], [], {"Ann": ["P5", "L3"], "Bob": ["I4", "I1"]})).status == "unchanged"
    assert reconcile(ENGINE, match.state, middle([], [])).status == "unchanged"
    result = reconcile(ENGINE, match.state, middle(["L4", "S4"], ["I1", "I2"]))
    assert result.moves == ["roll black L4 S4 white I1 I2"]
