"""A test reading in words: what the camera read on the table just now, one line per thing a
player would name, unsure things said to be unsure.

Contract: `describe(game, view) -> list[str]` from one frame's TableView (rules/<game>/table_view.py;
a field the reader was unsure of is None). An empty view means nothing was found.
"""
from __future__ import annotations

from typing import Any


def _quarx(v: dict[str, Any]) -> list[str]:
    out = []
    faces = v.get("face_up")
    if faces is None:
        out.append("Quarx cards: unsure (spread them apart and hold still)")
    elif faces:
        out.append(f"Quarx cards: {' + '.join(map(str, faces))} = {sum(faces)} spheres")
    else:
        out.append("Quarx cards: none face up")
    laid = v.get("laid")
    if laid is None:
        out.append("number cards: unsure (lay them flat, apart from the Quarx cards)")
    for colour, cards in laid or []:
        out.append(f"{colour} number cards: {'face down' if cards == 'down' else ' + '.join(map(str, cards))}")
    return out


def _ubongo(v: dict[str, Any]) -> list[str]:
    middle = v.get("middle") or {}
    out = [f"{colour} dice in the middle: {', '.join(middle.get(colour) or []) or 'none'}" for colour in ("black", "white")]
    for who, dice in (v.get("grabbed") or {}).items():
        out.append(f"{who} grabbed {' + '.join(dice)}")
    return out


def _die(d: Any) -> str:
    if d is None:
        return "unsure"
    if isinstance(d, dict):
        value = d.get("value")
        return f"{d.get('colour', '')} {value if value is not None else '?'}".strip()
    return str(d)


def _diceline(v: dict[str, Any]) -> list[str]:
    out = []
    rows = [r for r in v.get("selection") or [] if r is not None]
    out.append(f"selection board: {len(rows)} row{'s' if len(rows) != 1 else ''} of dice")
    used = {name: d for name, d in (v.get("spaces") or {}).items() if d}
    out.append(f"action spaces with a die: {', '.join(f'{n} ({_die(d)})' for n, d in used.items()) or 'none'}")
    for who, board in (v.get("players") or {}).items():
        dice = [d for d in board.get("dice") or [] if d]
        out.append(f"{who}'s board: {len(dice)} dice")
    return out


_WORDS = {"quarx": _quarx, "ubongo": _ubongo, "diceline": _diceline}


def describe(game: str, view: dict[str, Any] | None) -> list[str]:
    """What a player would say is on the `game` table in `view`."""
    if view is None:
        return ["unsure: the camera could not read the table (move your hand, check the light)"]
    if not view:
        return ["nothing found: is the board (with its markers) in view?"]
    return _WORDS.get(game, lambda _v: [f"the camera does not read {game}"])(view)
