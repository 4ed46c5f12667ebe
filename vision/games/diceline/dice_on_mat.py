"""The one die reader (vision.detector.read_boxes) on the Diceline mat, beside the cell reader.

The cell reader (vision.games.diceline.cells) finds a die by its coloured body against the paper
and reads the game's own dice well; it cannot see a die whose body is as pale as the paper (ivory
or white dice). The die reader reads dice of any body with the crop classifier checked by the pip
counter, and with a taught profile it knows the user's own dice. The mat already says where a
die can lie, so the die reader is shown each die cell's top face (read_at_cells) rather than
searching the whole frame with the detector: 45 crops instead of 29 detector passes on a
1280x720 frame (about 1.5 s of CPU a read). Per die cell the two are merged so that neither
makes a guess:

  both read a value           equal: kept; different: unsure (seen, not present)
  only the cell reader        kept (the die reader may have missed or been unsure of it)
  only the die reader         present with its value when the classifier is ADD_SURE of it;
                              its colour when that is a game colour (a profile's colour word
                              or the measured name), else None; not when that colour is not
                              the colour the rules fix for the cell (a neighbour's side face,
                              seen at a steep angle)
  the die reader is unsure    nothing changes: an unsure reading is no evidence

A die reading counts for the cell its box's middle falls in (the middle of a die's box is near
its top face at the angles the mat is filmed from).
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace

import numpy as np

from rules.diceline.components import COLOURS
from vision.detector.dice import DieReading, read_boxes
from vision.detector.die_values import DieValueModel
from vision.detector.model import Detection
from vision.detector.profile import DiceProfile
from vision.games.diceline.cells import DieRead

Box = tuple[float, float, float, float]
# A die only the die reader reads must be read this surely, even where the pip counter agrees:
# printed corner marks and a neighbour's edge, seen from nine places, can look like a 1 or a 2 to
# both. Chosen on rendered boards (vision.games.diceline.accuracy's seeds 0-3 and 10-19 at 0, 30
# and 45 degrees, once with the game's dice and once with ivory dice): with the shipped AGREE
# (0.4), 4 empty cells read as a die and 4 dice read wrong; at 0.8, none and 1, for 2 fewer of
# 1,408 ivory dice read.
ADD_SURE = 0.8
Face = tuple[Box, np.ndarray]  # a top face's picture box and its crop warped upright


def read_at_cells(frame: np.ndarray, faces: list[list[Face]], values: DieValueModel,
                  profile: DiceProfile | None = None) -> list[DieReading]:
    """The die reader's reading of each die cell; `faces` holds, per cell, where its top face
    may lie: the picture box there (the pip counter and the colour read the picture) and the
    classifier's crop of that face warped upright (at a steep angle the classifier reads those
    far better than a crop of the picture: 96 against 70 of 102 ivory dice at 45 degrees).
    Where a cell has several places (the cell reader found no face there), the value the
    classifier finds likeliest over all of them is read where it is surest of it (the surest
    single place is often a part of the die: a corner of a 4 looks like a sure 1). A cell the
    classifier calls "no die" gives none; a reading's confidence is the classifier's
    probability for its value."""
    places = [face for options in faces for face in options]
    if not places:
        return []
    probs = values.probabilities([crop for _, crop in places], profile)
    chosen, i = [], 0
    for options in faces:
        here = probs[i:i + len(options)]
        k = int(np.argmax(here[:, 1 + int(np.argmax(here[:, 1:].mean(0)))]))
        chosen.append(options[k])
        i += len(options)
    found = read_boxes(frame, [Detection("die", box, 1.0) for box, _ in chosen], values, "reader", profile,
                       crops=[crop for _, crop in chosen])
    return [replace(r, confidence=r.crop_prob) for r in found]


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
          cells, fixed: Mapping[str, str] | None = None) -> dict[str, DieRead]:
    """The die cells after merging the die reader's `readings` in (see the module doc).

    fixed: the colour of the dice a cell can hold (cell name -> colour), where the rules fix it:
    "A die may only be placed in an action space of its color", and each column of the selection
    board holds dice of one colour. Not the player boards' die spaces: a die moved by a grey 6 "is
    now considered to be the color of the die space" but keeps its body.

    A cell two die readings fall in is left as the cell reader read it: two dice cannot share a
    cell, so one of the boxes is wrong and neither is trusted."""
    fixed = fixed or {}
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
        colour = game_colour(found[0].color)
        if found[0].confidence < ADD_SURE or (colour is not None and colour != fixed.get(name, colour)):
            # At 45 degrees a red die's side face, three pips on it, lies over the green action
            # space in front of it, and the classifier was sure of a 3 there.
            continue
        out[name] = DieRead(True, colour or got.colour, value, found[0].confidence)
    return out
