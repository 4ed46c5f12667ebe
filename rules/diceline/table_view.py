"""What a Diceline table looks like to the camera (the TableView), and chance read from it.

TableView (plain JSON; a field the camera could not read is None and matches anything):
  "selection":      one entry per selection-board row: [red, green, left grey, right grey] values, or None
                    for an empty row
  "spaces":         {action space name: [die colour, value] or None}; the colour is the die's own
                    (a grey die moved to a red die space and placed in red 1~3 is still grey)
  "players":        {name: {"dice": one [die colour, value] or None per die space (red, green, grey,
                    grey), "tiles": 9 strings ("D" face-up die tile, "d" face down, "" open; M/O/V
                    likewise), "layouts": open layout tile ids ascending, "completed": how many}}
  "red_markers":    {red action: player names of the markers beside it, ascending}
  "bonus_display":  face-up bonus tile kinds on the green & grey board, ascending
  "layout_display": layout tile ids on the red board, ascending
"""
from __future__ import annotations

from collections import Counter

from rules.diceline import state as S
from rules.diceline.actions import spaces_for
from rules.diceline.components import DICE_BY_PLAYERS
from rules.diceline.moves import Move, RevealBonus, RevealLayout, Roll
from rules.diceline.state import DicelineState


def expected_view(state: DicelineState) -> dict:
    """The physical table in `state`."""
    names = [p.name for p in state.players]
    rows = DICE_BY_PLAYERS[len(names)]["red"]
    selection = [None if r is None else list(r) for r in state.rows] if state.phase == S.SELECT else [None] * rows
    return {
        "selection": selection,
        "spaces": {sp.name: (None if sp.name not in state.spaces else state.spaces[sp.name][1:])
                   for sp in spaces_for(len(names))},
        "players": {
            p.name: {
                "dice": [[made, v] if v else None for made, v in zip(p.dice_made, p.dice)],
                "tiles": list(p.board),
                "layouts": sorted(p.layouts),
                "completed": len(p.completed),
            }
            for p in state.players
        },
        "red_markers": {space: sorted(names[w] for w in who) for space, who in state.red_vp.items()},
        "bonus_display": sorted(state.bonus_display),
        "layout_display": sorted(state.layout_display),
    }


def chance_from_view(state: DicelineState, observed: dict) -> list[Move]:
    """The roll laid out on the selection board, or the tile drawn to a display, when one is awaited."""
    if state.phase == S.ROLL:
        roll = _roll(state, observed.get("selection"))
        return [roll] if roll else []
    if not state.reveals:
        return []
    if state.reveals[0] == "bonus":
        new = _added(state.bonus_display, observed.get("bonus_display"))
        return [RevealBonus(new)] if new is not None and state.bonus_deck.get(new) else []
    target = state.reveals[0]
    if ":" in target:
        who = state.players[int(target.split(":")[1])]
        seen = (observed.get("players") or {}).get(who.name) or {}
        new = _added(who.layouts, seen.get("layouts"))
    else:
        new = _added(state.layout_display, observed.get("layout_display"))
    return [RevealLayout(new)] if new in state.layout_deck else []


def _added(before: list, seen: list | None):
    """The one item `seen` has beyond `before`, else None."""
    if seen is None or None in seen:
        return None
    extra = Counter(seen) - Counter(before)
    if sum(extra.values()) != 1 or Counter(before) - Counter(seen):
        return None
    return next(iter(extra))


def _roll(state: DicelineState, rows: list | None) -> Roll | None:
    """A roll from a full selection board (the columns as laid out)."""
    if not rows or any(r is None or None in r or len(r) != 4 for r in rows):
        return None
    red = tuple(sorted(r[0] for r in rows))
    green = tuple(sorted(r[1] for r in rows))
    grey = tuple(sorted([r[2] for r in rows] + [r[3] for r in rows]))
    if any(not 1 <= v <= 6 for v in red + green + grey):
        return None
    if (len(red), len(green), len(grey)) != (state.pool["red"], state.pool["green"], state.pool["grey"]):
        return None
    return Roll(red, green, grey)
