"""The player order track: stacks of markers, the space-3 bonus, the loop and the new order."""
from __future__ import annotations

from rules.diceline.components import ORDER_BONUS_SPACE, ORDER_LOOP_SPACE
from rules.diceline.state import DicelineState


def position(state: DicelineState, who: int) -> int:
    """The track space of `who`'s marker (0 = START)."""
    for space, stack in enumerate(state.track):
        if who in stack:
            return space
    raise ValueError(f"player {who} has no marker on the order track")


def step_lands_on_bonus(state: DicelineState, who: int) -> bool:
    """True when one Adjust Player Order step would end on the space-3 bonus."""
    here = position(state, who)
    return here != ORDER_LOOP_SPACE and here + 1 == ORDER_BONUS_SPACE


def step(state: DicelineState, who: int) -> str:
    """Move `who` one space on (from the loop space: back to START); returns 'bonus', 'loop' or ''."""
    here = position(state, who)
    state.track[here].remove(who)
    # a marker moving onto a space goes on top of the stack there: it counts as further right
    if here == ORDER_LOOP_SPACE:
        state.track[0].append(who)
        return "loop"
    state.track[here + 1].append(who)
    return "bonus" if here + 1 == ORDER_BONUS_SPACE else ""


def order_from_track(state: DicelineState) -> list[int]:
    """Player order read right to left; on a stack the top marker counts as further right."""
    out: list[int] = []
    for stack in reversed(state.track):
        out.extend(reversed(stack))
    return out
