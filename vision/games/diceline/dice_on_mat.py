"""The one die reader (vision.detector.read_dice) on the Diceline mat, beside the cell reader.

The cell reader (vision.games.diceline.cells) finds a die by its coloured body against the paper
and reads the game's own dice well; it cannot see a die whose body is as pale as the paper (ivory
or white dice). The die reader finds dice of any body with the detector and reads their value
with the crop classifier checked by the pip counter, and with a taught profile it knows the
user's own dice. Per die cell the two are merged so that neither makes a guess:

  both read a value           equal: kept; different: unsure (seen, not present)
  only the cell reader        kept (the die reader may have missed or been unsure of it)
  only the die reader         present with its value; its colour when that is a game colour
                              (a profile's colour word or the measured name), else None
  the die reader is unsure    nothing changes: an unsure reading is no evidence

A die reading counts for the cell its box's middle falls in (the middle of a die's box is near
its top face at the angles the mat is filmed from).
"""
from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from rules.diceline.components import COLOURS
from vision.detector.dice import DieReading
from vision.games.diceline.cells import DieRead


def cell_of(reading: DieReading, to_mat: np.ndarray, cells) -> str | None:
    """The name of the die cell whose square holds the middle of `reading`'s box, or None."""
    x1, y1, x2, y2 = reading.box
    p = to_mat @ np.array([(x1 + x2) / 2, (y1 + y2) / 2, 1.0])
    x, y = p[:2] / p[2]
    cell = min(cells, key=lambda c: (c.x - x) ** 2 + (c.y - y) ** 2)
    if abs(cell.x - x) < cell.size / 2 and abs(cell.y - y) < cell.size / 2:
        return cell.name
    return None


def game_colour(name: str) -> str | None:
    """The Diceline die colour a colour word names, or None (ASSUMPTION: only the game's own
    words count; white or ivory dice could stand for any colour, so they say nothing)."""
    word = name.strip().lower().replace("gray", "grey")
    return word if word in COLOURS else None


def merge(cell_reads: dict[str, DieRead], readings: Iterable[DieReading], to_mat: np.ndarray,
          cells) -> dict[str, DieRead]:
    """The die cells after merging the die reader's `readings` in (see the module doc).

    A cell two die readings fall in is left as the cell reader read it: two dice cannot share a
    cell, so one of the boxes is wrong and neither is trusted."""
    by_cell: dict[str, list[DieReading]] = {}
    for r in readings:
        name = cell_of(r, to_mat, cells)
        if name is not None:
            by_cell.setdefault(name, []).append(r)
    out = dict(cell_reads)
    for name, found in by_cell.items():
        if len(found) != 1 or found[0].value is None:
            continue
        value, got = found[0].value, cell_reads[name]
        if got.present:
            if got.value != value:
                out[name] = DieRead(False, got.colour, None, 0.0, seen=True)
            continue
        colour = game_colour(found[0].color) or got.colour
        out[name] = DieRead(True, colour, value, found[0].confidence)
    return out
