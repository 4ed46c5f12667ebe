"""The one-line reason for an advised move: what it scores now, and where its rollouts gained.

Words, not numbers alone: "completes layout 7: +6 in round 3", "marker on red 1~2: +4 at the end
as the board stands; by the end: lines +1.2 vs the average move".
"""
from __future__ import annotations

from rules.diceline.components import LAYOUT_POINTS_BY_ROUND, RED_LAYOUT_SPACE, RED_MARKER_SPACES
from rules.diceline.board import cell_name
from rules.diceline.moves import CompleteLayout, Move, Place, ReturnDie, TakeBonus, TakeLayout, UseTile
from rules.diceline.scoring import GREY_56, LAYOUTS, LINES, breakdown
from rules.diceline.state import DicelineState

# Smaller gains than this (in points per game) are rollout noise at the budgets the advisor runs.
NOTABLE_GAIN = 0.5


def sources(state: DicelineState, who: int) -> dict[str, int]:
    """`who`'s points if the game ended now, by source (during the game and at the end)."""
    b = breakdown(state, who)
    return {**b["during_game"], **b["at_end"]}


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def immediate(before: DicelineState, after: DicelineState, who: int, move: Move) -> str | None:
    """What `move` does for `who`'s points at once, in words; None when nothing notable."""
    was, now = sources(before, who), sources(after, who)
    diff = {k: now.get(k, 0) - was.get(k, 0) for k in now}
    total = sum(diff.values())
    if isinstance(move, CompleteLayout):
        return f"completes layout {move.tile}: +{diff.get(LAYOUTS, 0)} in round {before.round}"
    if isinstance(move, Place):
        if move.space in RED_MARKER_SPACES:
            return f"marker on {move.space}: +{diff.get(move.space, 0)} at the end as the board stands"
        if move.space == RED_LAYOUT_SPACE and isinstance(move.effect, TakeLayout):
            pts = LAYOUT_POINTS_BY_ROUND[before.round]
            return f"takes layout {move.effect.tile}: +{pts} if completed this round"
        if isinstance(move.effect, TakeBonus):
            text = f"{move.effect.kind} tile to {cell_name(move.effect.cell)}"
            if diff.get(LINES, 0) > 0:
                text += f": completes {_plural(diff[LINES], 'line')}, +{total} as the board stands"
            return text
        if diff.get(GREY_56, 0):
            return f"grey 5~6: +{diff[GREY_56]} now"
    if isinstance(move, UseTile) and move.kind == "vp":
        return "vp tile: +1 now"
    if isinstance(move, ReturnDie) and move.turn_up is not None:
        return f"returns a die to turn {cell_name(move.turn_up)} face up"
    if total > 0:
        top = max(diff, key=lambda k: diff[k])
        return f"+{total} as the board stands ({top})"
    return None


def long_run(gain: dict[str, float]) -> str | None:
    """The source where this move's rollouts ended furthest above the average move's, if notable."""
    if not gain:
        return None
    top = max(gain, key=lambda k: gain[k])
    if gain[top] < NOTABLE_GAIN:
        return None
    return f"by the end: {top} {gain[top]:+.1f} vs the average move"


def reason(before: DicelineState, after: DicelineState, who: int, move: Move, gain: dict[str, float]) -> str:
    """The one-line reason: the immediate effect and the main long-run gain (either may be absent)."""
    parts = [p for p in (immediate(before, after, who, move), long_run(gain)) if p]
    return "; ".join(parts) if parts else "no gain of its own: ranked by how its rollouts ended"
