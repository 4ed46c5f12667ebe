"""The public view of a Diceline table for the page: plain words, per-player score breakdowns."""
from __future__ import annotations

from rules.diceline import state as S
from rules.diceline.actions import spaces_for
from rules.diceline.board import BONUS_SPACE_VALUES_FLAT, LETTER, cell_name, face_up, kind_of
from rules.diceline.components import DIE_SPACES, LAYOUT_PATTERNS, RED_VP_SPACES
from rules.diceline.scoring import breakdown
from rules.diceline.track import position
from rules.diceline.state import DicelineState


def _board(cells: list[str]) -> list[dict]:
    return [
        {"cell": cell_name(i), "shows": list(BONUS_SPACE_VALUES_FLAT[i]),
         "tile": kind_of(c) if c else None, "face_up": face_up(c) if c else None}
        for i, c in enumerate(cells)
    ]


def public_view(state: DicelineState, to_move: list[str], chance: str | None) -> dict:
    """Everything on the table in words."""
    names = [p.name for p in state.players]
    n = len(names)
    players = []
    for i, p in enumerate(state.players):
        players.append({
            "name": p.name,
            "dice": [{"space": DIE_SPACES[k], "value": v, "made": p.dice_made[k]}
                     for k, v in enumerate(p.dice) if v],
            "board": _board(p.board),
            "layouts": [{"tile": t, "pattern": LAYOUT_PATTERNS[t]} for t in p.layouts],
            "completed": list(p.completed),
            "markers_at_hand": p.hand,
            "markers_in_stock": p.stock,
            "order_space": position(state, i) if state.order else 0,
            "score": breakdown(state, i),
        })
    return {
        "scores": {p["name"]: {"so_far": p["score"]["so_far"], "if_ended_now": p["score"]["if_ended_now"]}
                   for p in players},
        "round": state.round,
        "phase": state.phase,
        "to_move": to_move,
        "chance": chance,
        "order": [names[i] for i in state.order],
        "order_track": [[names[i] for i in stack] for stack in state.track],
        "players": players,
        "selection_rows": [None if r is None else {"red": r[0], "green": r[1], "grey": [r[2], r[3]]}
                           for r in state.rows],
        "action_spaces": [
            {"space": sp.name, "colour": sp.colour, "range": sp.range_text(),
             "die": None if sp.name not in state.spaces else {
                 "player": names[state.spaces[sp.name][0]], "made": state.spaces[sp.name][1],
                 "value": state.spaces[sp.name][2]},
             "markers": [names[w] for w in state.red_vp.get(sp.name, [])] if sp.name in state.red_vp else None,
             "marker_spaces": RED_VP_SPACES[n] if sp.name in state.red_vp else None}
            for sp in spaces_for(n)
        ],
        "bonus_display": list(state.bonus_display),
        "bonus_deck_left": sum(state.bonus_deck.values()),
        "layout_display": [{"tile": t, "pattern": LAYOUT_PATTERNS[t]} for t in state.layout_display],
        "layout_deck_left": len(state.layout_deck),
        "pool": dict(state.pool),
        "turn": {
            "main_done": state.main_done,
            "unspent_tiles": {k: v for k, v in state.credits.items() if v},
            "steps_left": state.steps_left,
            "steps": {"tile": "move bonus tiles", "order": "adjust player order",
                      "any": "move bonus tiles / adjust player order", "": None}[state.steps_kind],
        } if state.phase == S.ACTIONS else None,
        "tile_letters": LETTER,
    }
