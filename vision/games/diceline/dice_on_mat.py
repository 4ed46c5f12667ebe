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

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace

import cv2
import numpy as np

from rules.diceline.components import COLOURS
from vision.detector.dice import DieReading, read_boxes
from vision.detector.die_crop import CROP_MARGIN, CROP_SIZE
from vision.detector.die_values import DieValueModel
from vision.detector.model import Detection
from vision.detector.profile import DiceProfile
from vision.detector.value_rule import NO_DIE
from vision.games.diceline.cells import DieRead
from vision.games.diceline.spec import DIE

Box = tuple[float, float, float, float]
# A die only the die reader reads must be read this surely, even where the pip counter agrees:
# printed corner marks and a neighbour's side face, seen from nine places, can look like a 1 or a
# 5 to both. On rendered boards (vision.games.diceline.accuracy, seeds 0-3 and 10-19 at 0, 30 and
# 45 degrees, ivory dice): the shipped AGREE (0.4) read 4 empty cells as dice; 0.8 read 1,022 of
# 1,408 dice right, 1 wrong, no empty cell; 0.9 read 1,008, 1 wrong; 0.95 only 738. In the
# hands-free footage at 45 degrees an empty cell was read as a 1 at 0.81, so 0.9.
ADD_SURE = 0.9
# A cell whose middle the classifier calls "no die" at least this surely is not searched further
# (most cells are empty paper: 45 crops a read instead of about 400).
LOOK_FURTHER = 0.9


@dataclass(frozen=True)
class CellLook:
    """One die cell as the die reader looks at it: `around`, the plane of the dice tops about the
    cell's centre warped upright at `ppm` px/mm; `places`, where in it (mm off the centre) a top
    face may lie, the likeliest first; `box(dx, dy)`, the picture box of a top face there."""

    around: np.ndarray
    ppm: float
    places: tuple[tuple[float, float], ...]
    box: Callable[[float, float], Box]

    def crop(self, dx: float, dy: float) -> np.ndarray:
        """The classifier's crop of a top face at (dx, dy), framed as vision.detector.die_crop frames
        one; the place must lie within `around` (a RuntimeError, not a reading, when it does not)."""
        side = CROP_MARGIN * DIE * self.ppm
        c = self.around.shape[0] / 2
        x1, y1 = int(round(c + dx * self.ppm - side / 2)), int(round(c + dy * self.ppm - side / 2))
        n = int(round(side))
        if x1 < 0 or y1 < 0 or x1 + n > self.around.shape[1] or y1 + n > self.around.shape[0]:
            # Not a ValueError: the reader takes that for "no mat in view".
            raise RuntimeError(f"a place {dx:.1f}, {dy:.1f} mm off the centre lies outside the warped cell")
        return cv2.resize(self.around[y1:y1 + n, x1:x1 + n], (CROP_SIZE, CROP_SIZE), interpolation=cv2.INTER_AREA)


def read_at_cells(frame: np.ndarray, looks: list[CellLook], values: DieValueModel,
                  profile: DiceProfile | None = None) -> list[DieReading]:
    """The die reader's reading of each die cell. The pip counter and the colour read the picture
    in the top face's box; the classifier reads the face warped upright (at a steep angle it reads
    those far better than a crop of the picture: 96 against 71 of 102 ivory dice at 45 degrees).
    Where a cell has several places (the cell reader found no face there) and its middle may hold
    a die, the value the classifier finds likeliest over all of them is read where it is surest
    of it (the surest single place is often a part of the die: a corner of a 4 looks like a sure
    1). A cell the classifier calls "no die" gives none; a reading's confidence is the
    classifier's probability for its value."""
    if not looks:
        return []
    first = values.probabilities([look.crop(*look.places[0]) for look in looks], profile)
    further = {i for i, look in enumerate(looks) if len(look.places) > 1 and first[i, NO_DIE] < LOOK_FURTHER}
    rest = values.probabilities([looks[i].crop(*p) for i in sorted(further) for p in looks[i].places[1:]], profile)
    chosen, probs, j = [], [], 0
    for i, look in enumerate(looks):
        here = first[i:i + 1]
        if i in further:
            here = np.vstack([here, rest[j:j + len(look.places) - 1]])
            j += len(look.places) - 1
        k = int(np.argmax(here[:, 1 + int(np.argmax(here[:, 1:].mean(0)))]))
        chosen.append(look.places[k])
        probs.append(here[k])
    found = read_boxes(frame, [Detection("die", look.box(*p), 1.0) for look, p in zip(looks, chosen)], values,
                       "reader", profile, probs=np.array(probs))
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


def game_colour(name: str | None) -> str | None:
    """The Diceline die colour a colour word names, or None (ASSUMPTION: only the game's own
    words count; white or ivory dice could stand for any colour, so they say nothing; an unsure
    colour, None, says nothing either)."""
    if name is None:
        return None
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
