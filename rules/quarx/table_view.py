"""What a Quarx table looks like to the camera, and which move explains a change.

TableView: {"face_up": [sphere counts of the Quarx cards in the middle, ascending]}.
The number cards are laid face down in finishing order, which the camera cannot tell apart
from a slow hand, so answers are entered on the page; the reveal is read by the camera.
"""
from __future__ import annotations

from rules.core.reconcile import ANY_OF

from rules.quarx.moves import Reveal


def expected_view(state) -> dict:
    """The middle of the table in `state`."""
    if state.phase == "answer":
        return {"face_up": sorted(state.revealed) if state.revealed else None}
    last = state.rounds[-1]["revealed"] if state.rounds else []
    # After scoring, the last round's cards lie there until someone collects them.
    return {ANY_OF: [{"face_up": []}, {"face_up": sorted(last)}]} if last else {"face_up": []}


def reveal_from_view(state, observed: dict, cards_to_turn: int) -> list[Reveal]:
    """A reveal, when the camera sees a new round's cards face up in the middle."""
    seen = observed.get("face_up")
    if state.phase != "reveal" or not seen or len(seen) != cards_to_turn:
        return []
    last = state.rounds[-1]["revealed"] if state.rounds else []
    if sorted(seen) == sorted(last):
        return []  # the last round's cards, not collected yet
    return [Reveal(tuple(sorted(seen)))]
