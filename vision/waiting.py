"""What the camera waits for next, in the words of a player at the table.

Contract: `waiting_for(game, view, over) -> str`, from the game's public view (the shared
screen's `engine.view(state, None)`), so it never tells a secret. The sentence says what to do
on the table ("roll the dice", "lay your number cards"); for what no camera sees it says where
to do it instead ("say 'done' on the page").
"""
from __future__ import annotations

from typing import Any


def _quarx(v: dict[str, Any]) -> str:
    phase = v.get("phase")
    if phase == "reveal":
        return f"turn over {v.get('cards_to_turn', 4)} Quarx cards and spread them apart"
    if phase == "answer":
        return "lay your number cards face down when you have the total (pass on the page)"
    if phase == "turn":
        return "everybody has laid: turn your number cards over"
    return "deal the cards"


def _diceline(v: dict[str, Any]) -> str:
    phase = v.get("phase")
    turn = v.get("turn") or {}
    who = ", ".join(v.get("to_move") or [])
    if phase == "order rolls":
        return "roll two dice each for the player order (type them on the page)"
    if phase == "start tiles":
        return f"{who}: choose a starting bonus tile on the page"
    if phase == "deal":
        return "deal the layout tiles"
    if phase == "roll":
        return "roll the dice onto the selection board"
    if phase == "select":
        return f"{who}: take a row of dice from the selection board"
    if phase == "actions":
        if turn.get("main_done"):
            return f"{who}: use your bonus tiles, or say 'done' on the page"
        return f"{who}: place a die on an action space or your board"
    if phase == "lines":
        return f"{who}: turn over a line bonus tile"
    return "set up the board"


def _ubongo(v: dict[str, Any]) -> str:
    phase = v.get("phase")
    if phase == "roll":
        return f"{v.get('roller_name', 'the die-roller')}: roll the dice"
    if phase == "take":
        return "grab one black and one white die each"
    if phase == "enter":
        return "fill your area: enter the shapes on the page, then Done"
    return "roll the dice"


_WORDS = {"quarx": _quarx, "diceline": _diceline, "ubongo": _ubongo}


def waiting_for(game: str, view: dict[str, Any], over: bool = False) -> str:
    """The next thing the camera waits to see at a `game` table in public `view`."""
    if over:
        return "the game is over"
    words = _WORDS.get(game)
    if words is None:
        return f"the camera does not read {game}: play on the page"
    return words(view)


def hides_counts(view: dict[str, Any]) -> bool:
    """Whether the shared screen must not show what the cards count: the public `view` hides the
    cards turned over (Quarx while players are still counting shows them as "?")."""
    return "?" in (view.get("revealed") or [])
