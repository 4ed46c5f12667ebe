"""What an Ubongo table looks like to the camera, and which moves explain a change.

TableView: {"middle": {"black": [faces], "white": [faces]}, "grabbed": {player: [black, white]}}
with faces sorted (the camera reports them sorted, so that lists compare as multisets). "middle" is the dice lying in the middle of the table; "grabbed" (which the
camera may leave out or leave empty) the dice lying in front of each player. The sheets are
pencil on paper, so entered shapes are typed on the page; the camera reads the roll and the grab.
"""
from __future__ import annotations

from collections import Counter

from rules.core.camera import ANY_OF
from rules.ubongo.moves import Roll
from rules.ubongo.state import ROLL, UbongoState


def view(black: list[str], white: list[str], grabbed: dict[str, list[str]]) -> dict:
    """A TableView from the dice in the middle and in front of the players."""
    return {"middle": {"black": sorted(black), "white": sorted(white)}, "grabbed": {p: list(d) for p, d in grabbed.items()}}


def expected_view(state: UbongoState, free: tuple[list[str], list[str]]) -> dict:
    """The dice on the table in `state` (`free`: the faces not grabbed)."""
    if state.phase != ROLL:
        return view(*free, state.taken)
    # Between rounds the dice are picked up for the roll, or still lie as the last round left them
    # (the book forbids turning a grabbed die, so they show the same faces).
    picked_up = view([], [], {})
    last = state.last.get("dice")
    if not last:
        return picked_up
    return {ANY_OF: [picked_up, view(last["black"], last["white"], {}), view(last["free_black"], last["free_white"], last["taken"])]}


def roll_from_view(state: UbongoState, observed: dict) -> list[Roll]:
    """A roll, when the camera sees every die in play lying in the middle."""
    middle = observed.get("middle") or {}
    black, white = middle.get("black"), middle.get("white")
    if state.phase != ROLL or black is None or white is None:
        return []
    if len(black) != state.dice or len(white) != state.dice:
        return []
    return [Roll(tuple(sorted(black)), tuple(sorted(white)))]


def grabbed_faces(free: list[str], seen: list[str] | None) -> Counter | None:
    """The faces that left the middle (None when the camera sees dice that were not there)."""
    if seen is None:
        return None
    gone = Counter(free) - Counter(seen)
    if Counter(seen) - Counter(free):
        return None
    return gone
