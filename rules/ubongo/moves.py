"""Ubongo moves and their text forms.

    roll black L5 P5 white I1 L3        the faces on top after the roll (chance move; any order)
    Ann takes black L5 white I1         Ann grabs one black and one white die
    Ann enters L5 at r1c1 r2c1 r3c1 r4c1 r4c2
                                        Ann draws a shape on these cells of her puzzle area
                                        (cells counted from the top left of the area drawing)
    Ann done                            Ann enters nothing more this round
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from rules.core.errors import MoveSyntaxError
from rules.ubongo.components import SHAPE_NAME
from rules.ubongo.shapes import Cell, cell_name

FORMS = ("'roll black L5 P5 white I1 L3', 'Ann takes black L5 white I1', "
         "'Ann enters L3 at r1c1 r2c1 r2c2', 'Ann done'")


@dataclass(frozen=True)
class Roll:
    """The shapes on top of the rolled dice, per colour (sorted: the dice are told apart by their faces)."""

    black: tuple[str, ...]
    white: tuple[str, ...]

    def __str__(self) -> str:
        return f"roll black {' '.join(self.black)} white {' '.join(self.white)}"


@dataclass(frozen=True)
class Take:
    """A player grabs one black and one white die."""

    player: str
    black: str
    white: str

    def __str__(self) -> str:
        return f"{self.player} takes black {self.black} white {self.white}"


@dataclass(frozen=True)
class Enter:
    """A player draws one grabbed shape into the puzzle area; cells sorted top to bottom, left to right."""

    player: str
    shape: str
    cells: tuple[Cell, ...]

    def __str__(self) -> str:
        return f"{self.player} enters {self.shape} at {' '.join(cell_name(c) for c in self.cells)}"


@dataclass(frozen=True)
class Done:
    """A player stops entering shapes for this round."""

    player: str

    def __str__(self) -> str:
        return f"{self.player} done"


Move = Roll | Take | Enter | Done

_NAME = SHAPE_NAME.pattern
_ROLL = re.compile(rf"^roll black((?: {_NAME})*) white((?: {_NAME})*)$", re.IGNORECASE)
_TAKE = re.compile(rf"^(?:takes|take) black ({_NAME}) white ({_NAME})$", re.IGNORECASE)
_ENTER = re.compile(rf"^(?:enters|enter) ({_NAME}) at ((?:r\d{{1,2}}c\d{{1,2}} ?)+)$", re.IGNORECASE)
_CELL = re.compile(r"r(\d{1,2})c(\d{1,2})", re.IGNORECASE)


def parse(text: str, players: list[str]) -> Move:
    """Read one move; MoveSyntaxError names the accepted forms otherwise."""
    text = " ".join(text.split())
    if text.lower().startswith("roll"):
        m = _ROLL.match(text)
        if not m:
            raise MoveSyntaxError("a roll names the black faces, then the white ones: 'roll black L5 P5 white I1 L3'", rule="move text")
        return Roll(tuple(sorted(m.group(1).split())), tuple(sorted(m.group(2).split())))
    # Longest name first, so that "Ann Marie" wins over "Ann".
    for name in sorted(players, key=len, reverse=True):
        if text.startswith(name + " "):
            return _parse_player_move(name, text[len(name) + 1:])
    raise MoveSyntaxError(f"{text!r} is not an Ubongo move; it starts with 'roll' or a player's name ({FORMS})", rule="move text")


def _parse_player_move(player: str, rest: str) -> Move:
    if rest.lower() in ("done", "passes", "pass"):
        return Done(player)
    m = _TAKE.match(rest)
    if m:
        return Take(player, m.group(1), m.group(2))
    m = _ENTER.match(rest)
    if m:
        cells = sorted({(int(r) - 1, int(c) - 1) for r, c in _CELL.findall(m.group(2))})
        if any(r < 0 or c < 0 for r, c in cells):
            raise MoveSyntaxError("rows and columns are counted from 1: 'r1c1' is the top left", rule="move text")
        return Enter(player, m.group(1), tuple(cells))
    raise MoveSyntaxError(
        f"{player} takes dice ('{player} takes black L5 white I1'), enters a shape "
        f"('{player} enters L3 at r1c1 r2c1 r2c2') or stops ('{player} done')",
        rule="move text",
    )
