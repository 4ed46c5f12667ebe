"""Ubongo: Das Würfelspiel component facts: the die faces and the puzzle sheet.

The rulebook says only "8 Ubongo dice (4 black and 4 white)" and that each sheet shows "6 puzzle
areas (numbered 1 to 6)". Everything below marked ASSUMPTION is a plausible stand-in (DESIGN.md,
"What the rulebooks leave out"); a person holding the real game corrects it here, or loads their
own sheet and dice from a TOML file at table creation (`load_toml`, `Components.to_options`).

A person's own file looks like this (every key optional; missing ones keep the defaults below):

    black_dice = [["I4", "O4", "T4", "S4", "L4", "L5"], ...]   # 6 faces per die
    white_dice = [["I1", "I2", "I2", "I3", "L3", "L3"], ...]
    sheet = ["##./###/###", ...]  # the puzzle areas in play order, rows split by '/'
    [shapes]                      # extra or changed shapes: name = drawing ('#' a square, '.' a gap)
    Z4 = "##./.##"
"""
from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rules.ubongo.shapes import Cells, is_connected, parse_grid, render

# ASSUMPTION: the shapes on the dice. DESIGN.md points at the original Ubongo pieces (I2, I3, L3,
# I4, O4, T4, S4, L4, L5, P5, Y5 and an S-shaped 5-cell piece, here N5); the die game also needs
# a single square (the rulebook's "1 to 5 squares" reading of the faces, and it lets every area be
# finished in the end) and, for variety on 24 black faces, a few more pentominoes (T5, U5, V5, W5, Z5).
SHAPES: dict[str, str] = {
    "I1": "#",
    "I2": "##",
    "I3": "###",
    "L3": "#./##",
    "I4": "####",
    "O4": "##/##",
    "T4": "###/.#.",
    "S4": ".##/##.",
    "L4": "#../###",
    "L5": "#.../####",
    "P5": "##/##/#.",
    "Y5": ".#../####",
    "N5": "##../.###",
    "T5": "###/.#./.#.",
    "U5": "#.#/###",
    "V5": "#../#../###",
    "W5": "#../##./.##",
    "Z5": "##./.#./.##",
}

# ASSUMPTION: the faces of the 4 black dice (4 and 5 squares: "black dice carry the larger
# shapes", DESIGN.md). Each die is different; a die may repeat a shape.
BLACK_DICE: tuple[tuple[str, ...], ...] = (
    ("I4", "O4", "T4", "S4", "L4", "L5"),
    ("L4", "T4", "S4", "P5", "Y5", "N5"),
    ("O4", "L4", "P5", "U5", "V5", "T5"),
    ("I4", "S4", "L5", "Y5", "W5", "Z5"),
)

# ASSUMPTION: the faces of the 4 white dice (1 to 3 squares). Every white die has one single
# square so that any leftover hole can be filled in the end and a game always finishes.
WHITE_DICE: tuple[tuple[str, ...], ...] = (
    ("I1", "I2", "I2", "I3", "L3", "L3"),
    ("I1", "I2", "I3", "I3", "L3", "L3"),
    ("I1", "I2", "I2", "I3", "I3", "L3"),
    ("I1", "I1", "I2", "I3", "L3", "L3"),
)

# ASSUMPTION: which dice a smaller game keeps. The book says "2 players: 2 black dice and 2 white
# dice" without naming them; we keep the first ones listed above.
DICE_BY_PLAYERS = {2: 2, 3: 3, 4: 4}

# ASSUMPTION: the 6 puzzle areas of one sheet (14 to 21 cells, growing in size as a real pad
# does). Drawn row by row, '#' a cell of the area; cells are named r<row>c<col> from the top left.
SHEET: tuple[str, ...] = (
    ".###/####/####/###.",                 # area 1: 14 cells
    "###../#####/#####/...##",             # area 2: 15 cells
    ".####/#####/####./.###.",             # area 3: 16 cells
    "###.../######/######/...###",         # area 4: 18 cells
    ".####./######/######/.####.",         # area 5: 20 cells
    ".###.../#######/#######/...####",     # area 6: 21 cells
)

# Shape names are typed in move texts ("Ann enters L5 at ..."), so they are short plain words.
SHAPE_NAME = re.compile(r"[A-Za-z0-9_\-]{1,12}")

# From the rulebook: "the game may optionally be played with only 5 puzzle areas" (2 players).
AREAS_PER_GAME = 6
AREAS_SHORT_GAME = 5


def grid(drawing: str) -> Cells:
    """The cells of a drawing written with '/' between rows."""
    return parse_grid("\n".join(drawing.split("/")))


def drawing(cells: Cells) -> str:
    """The one-line drawing of `cells`, rows split by '/'."""
    return render(cells).replace("\n", "/")


@dataclass(frozen=True)
class Components:
    """The dice and sheet a table plays with (defaults above, or a person's own)."""

    shapes: tuple[tuple[str, str], ...]
    black_dice: tuple[tuple[str, ...], ...]
    white_dice: tuple[tuple[str, ...], ...]
    sheet: tuple[str, ...]

    def shape(self, name: str) -> Cells:
        """The cells of the shape called `name`."""
        return grid(dict(self.shapes)[name])

    def area(self, index: int) -> Cells:
        """The cells of puzzle area `index` (0-based)."""
        return grid(self.sheet[index])

    def to_options(self) -> dict[str, Any]:
        """Table options that carry these components (JSON-ready)."""
        return {
            "shapes": dict(self.shapes),
            "black_dice": [list(d) for d in self.black_dice],
            "white_dice": [list(d) for d in self.white_dice],
            "sheet": list(self.sheet),
        }


DEFAULT = Components(tuple(SHAPES.items()), BLACK_DICE, WHITE_DICE, SHEET)


def from_options(options: dict[str, Any]) -> Components:
    """The components named in table options, defaults where an option is missing; ValueError if broken."""
    shapes = dict(SHAPES)
    shapes.update({str(k): str(v) for k, v in (options.get("shapes") or {}).items()})
    black = tuple(tuple(str(f) for f in d) for d in options.get("black_dice") or BLACK_DICE)
    white = tuple(tuple(str(f) for f in d) for d in options.get("white_dice") or WHITE_DICE)
    sheet = tuple(str(a) for a in options.get("sheet") or SHEET)
    comps = Components(tuple(sorted(shapes.items())), black, white, sheet)
    check(comps)
    return comps


def check(comps: Components) -> None:
    """Raise ValueError naming the first broken component (unknown face, split shape, empty area)."""
    names = dict(comps.shapes)
    for name, text in names.items():
        if not SHAPE_NAME.fullmatch(name):
            raise ValueError(f"shape name {name!r}: 1 to 12 letters, digits, '_' or '-' (it is typed in moves)")
        cells = grid(text)
        if not cells or not is_connected(cells):
            raise ValueError(f"shape {name} must be one piece of squares, not {text!r}")
    for colour, dice in (("black", comps.black_dice), ("white", comps.white_dice)):
        if len(dice) < max(DICE_BY_PLAYERS.values()):
            raise ValueError(f"the game needs {max(DICE_BY_PLAYERS.values())} {colour} dice, not {len(dice)}")
        for die in dice:
            if len(die) != 6:
                raise ValueError(f"a {colour} die has 6 faces, not {len(die)}: {die}")
            for face in die:
                if face not in names:
                    raise ValueError(f"a {colour} die shows {face!r}, which is not a known shape")
    if len(comps.sheet) < AREAS_PER_GAME:
        raise ValueError(f"a sheet has {AREAS_PER_GAME} puzzle areas, not {len(comps.sheet)}")
    for i, text in enumerate(comps.sheet):
        if not grid(text):
            raise ValueError(f"puzzle area {i + 1} has no cells: {text!r}")


def load_toml(path: str | Path) -> dict[str, Any]:
    """Table options for a person's own dice and sheet, read from a TOML file (see the module text)."""
    with open(path, "rb") as f:
        data = tomllib.load(f)
    options = {k: data[k] for k in ("shapes", "black_dice", "white_dice", "sheet") if k in data}
    from_options(options)  # refuse a broken file now, not at the table
    return options
