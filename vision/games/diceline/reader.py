"""Dazzling Diceline: the dice and bonus tiles on the play mat (vision/games/diceline/spec.py) as a TableView.

Read (rules.diceline.table_view): the selection rows, the dice in the action spaces, each
player's die spaces, 3x3 bonus tiles (face-up kinds) and open layout tiles, the bonus display and
the red board's layout tiles. Left out (not read): completed counts, red markers. The TableView cannot say "empty" (None
matches anything), so an empty die space is None too: a die going back to the pool is not seen.
A face-down tile's kind cannot be seen either (every back reads "BONUS TILE"): it is None.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import partial

import numpy as np

from rules.diceline.actions import spaces_for
from rules.diceline.board import LETTER
from rules.diceline.components import DICE_BY_PLAYERS
from vision.calibration import Calibration
from vision.detector.die_crop import CROP_MARGIN, CROP_SIZE
from vision.detector.die_values import DieValueModel, load_value_model
from vision.detector.profile import DiceProfile
from vision.games.diceline.cells import PPM, SLACK, WINDOW, DieRead, read_die, read_layout, read_tile
from vision.games.diceline.dice_on_mat import CellLook, merge, read_at_cells
from vision.games.diceline.geometry import mat_pose, paper_model
from vision.detector.model import Detection
from vision.games.diceline.spec import DIE, LAYOUT_PITCH, PAPER_SPOTS, TILE_PITCH, mat_layout
from vision.pipeline import ReadContext, Reading, Settling

# Where a die the cell reader did not find may lie in its cell (mm off the centre): a hand
# leaves a die up to SLACK off, and the classifier's crops tolerate about a quarter of a face.
SEARCH = ((0.0, 0.0), *((dx, dy) for dy in (-4.0, 0.0, 4.0) for dx in (-4.0, 0.0, 4.0) if dx or dy))
# mm of the tops plane warped for the die reader about a cell's centre: a face SLACK off, with its margin.
REACH = 2 * SLACK + CROP_MARGIN * DIE + 1.0
# px/mm of that warp: a classifier's crop is then exactly twice CROP_SIZE, halved by averaging.
LOOK_PPM = 2 * CROP_SIZE / (CROP_MARGIN * DIE)
DEFAULT_PLAYERS = ("pink", "yellow", "orange")  # seat names when the caller gives none (the board colours)


@dataclass
class MatReading:
    """Every cell of the mat as read: dice by cell name, tiles by cell name ('' open, a kind, 'back', None)."""

    dice: dict[str, DieRead] = field(default_factory=dict)
    tiles: dict[str, str | None] = field(default_factory=dict)
    layouts: dict[str, int | str | None] = field(default_factory=dict)  # spot -> id, '', 'back' or None
    confidence: dict[str, float] = field(default_factory=dict)
    # Where each die cell lies in the picture (x1, y1, x2, y2), for drawing what was read there.
    boxes: dict[str, tuple[float, float, float, float]] = field(default_factory=dict)


def read_cells(frame: np.ndarray, calibration: Calibration | None = None, seats: int = 4,
               values: DieValueModel | None = None, profile: DiceProfile | None = None) -> MatReading:
    """Read the die and tile cells in play with `seats` players; ValueError when the mat is not found.

    With the die value classifier `values`, the one die reader (vision.detector.read_boxes, with
    the taught `profile`) reads each die cell's top face too and is merged in per cell
    (vision.games.diceline.dice_on_mat): it adds dice the cell reader cannot see and makes a die
    the two read differently unsure."""
    pose = mat_pose(frame, calibration)
    paper = paper_model(frame, pose, PAPER_SPOTS)
    layout = mat_layout()
    cells = layout.for_players(seats)
    out = MatReading()
    looks = []
    for cell in cells.die_cells():
        window = pose.warp(frame, pose.tops, cell.x, cell.y, WINDOW, PPM)
        toward = pose.camera_foot - np.array([cell.x, cell.y])
        toward = toward / max(1e-6, float(np.linalg.norm(toward)))
        got = read_die(window, toward, paper(cell.x, cell.y))
        out.dice[cell.name], out.confidence[cell.name] = got, got.confidence
        out.boxes[cell.name] = _box(pose.tops, cell.x, cell.y)
        if values is not None:
            # Where the cell reader found the face, read there; else wherever in the cell a die may lie.
            places = (got.offset,) if got.offset is not None else SEARCH
            around = pose.warp(frame, pose.tops, cell.x, cell.y, REACH, LOOK_PPM)
            looks.append(CellLook(around, LOOK_PPM, places, partial(_face_box, pose.tops, cell.x, cell.y)))
    for cell in cells.tile_cells():
        look, c = read_tile(pose.warp(frame, pose.table, cell.x, cell.y, TILE_PITCH, PPM), paper(cell.x, cell.y))
        out.tiles[cell.name], out.confidence[cell.name] = look, c
    for cell in cells.layout_cells():
        out.layouts[cell.name] = read_layout(pose.warp(frame, pose.table, cell.x, cell.y, LAYOUT_PITCH, PPM),
                                             paper(cell.x, cell.y))
    if values is not None:
        readings = read_at_cells(frame, looks, values, profile)
        fixed = {c.name: c.colour for c in [*(c for row in cells.selection for c in row), *cells.spaces.values()]}
        out.dice = merge(out.dice, readings, np.linalg.inv(pose.tops), cells.die_cells(), fixed)
        out.confidence.update({name: d.confidence for name, d in out.dice.items()})
    return out


class DicelineReader:
    """The Reader of a Diceline table on its printed mat (vision.pipeline)."""

    settle: Settling = "whole"
    reread = 4  # None is mostly an empty space, which more frames cannot fill

    def read(self, frame: np.ndarray, context: ReadContext) -> Reading:
        # The die reader runs where the server has its die models (the detector stands for them);
        # on the mat it needs only the classifier, as the mat says where dice lie.
        values = load_value_model() if context.detector is not None else None
        return read_diceline(frame, values, context.calibration, list(context.players) or None, context.profile)


def read_diceline(frame: np.ndarray, values: DieValueModel | None = None, calibration: Calibration | None = None,
                  players: list[str] | None = None, profile: DiceProfile | None = None) -> Reading:
    """The Diceline TableView of `frame`; players are named in seat order (board 1 = players[0]).
    values: the die value classifier, to read dice of any look (read_cells); None: the cell reader alone."""
    names = list(players or DEFAULT_PLAYERS)
    try:
        cells = read_cells(frame, calibration, len(names), values, profile)
    except ValueError:  # no mat in view: nothing is read, so nothing can match wrongly
        return Reading({})
    layout = mat_layout()
    rows = DICE_BY_PLAYERS[len(names)]["red"]
    view = {
        "selection": [_row([cells.dice[c.name] for c in layout.selection[r]]) for r in range(rows)],
        "spaces": {sp.name: _die_entry(cells.dice[layout.spaces[sp.name].name]) for sp in spaces_for(len(names))},
        "players": {name: {"dice": [_die_entry(cells.dice[c.name]) for c in layout.boards[seat].dice],
                           "tiles": [_tile_entry(cells.tiles[c.name]) for c in layout.boards[seat].tiles],
                           "layouts": _open_layouts([cells.layouts[c.name] for c in layout.boards[seat].layouts])}
                    for seat, name in enumerate(names)},
        "layout_display": _open_layouts([cells.layouts[c.name] for c in layout.layout_display]),
    }
    display = [cells.tiles[c.name] for c in layout.bonus_display]
    view["bonus_display"] = None if any(k is None or k == "back" for k in display) else sorted(k for k in display if k)
    return Reading(view, _drawn(cells))


def _face_box(plane: np.ndarray, x: float, y: float, dx: float, dy: float) -> tuple[float, float, float, float]:
    """_box of a top face (dx, dy) mm off the point (x, y)."""
    return _box(plane, x + dx, y + dy)


def _box(plane: np.ndarray, x: float, y: float) -> tuple[float, float, float, float]:
    """The picture box around a die's top face centred at mat (x, y) mm on `plane` (mm -> pixels)."""
    half = DIE * 0.6
    pts = np.array([[x - half, y - half, 1], [x + half, y - half, 1], [x + half, y + half, 1], [x - half, y + half, 1]]).T
    img = plane @ pts
    img = img[:2] / img[2]
    return float(img[0].min()), float(img[1].min()), float(img[0].max()), float(img[1].max())


def _drawn(cells: MatReading) -> list[Detection]:
    """Each die found on the mat as the picture labels it: 'red 4', or 'unsure: red die' (short:
    a mat holds dozens of dice) where its colour or value could not be read."""
    out = []
    for name, die in cells.dice.items():
        if not (die.present or die.seen) or name not in cells.boxes:
            continue
        sure = die.present and die.colour is not None and die.value is not None
        out.append(Detection(f"{die.colour} {die.value}" if sure else f"unsure: {die.colour + ' ' if die.colour else ''}die",
                             cells.boxes[name], die.confidence))
    return out


def _row(dice: list[DieRead]) -> list | None:
    """A selection row: None when no die is read in it, else its values (None for a die not read)."""
    if not any(d.present for d in dice):
        return None
    return [(d.value if d.present else None) for d in dice]


def _open_layouts(spots: list) -> list[int] | None:
    """Face-up layout tile ids ascending (a back is a completed tile: not open); None when a spot is unsure."""
    if any(t is None for t in spots):
        return None
    return sorted(t for t in spots if isinstance(t, int))


def _die_entry(d: DieRead) -> list | None:
    return [d.colour, d.value] if d.present else None


def _tile_entry(look: str | None) -> str | None:
    """A bonus space as the TableView writes it ('' open, 'D' face-up die tile); None for a back or unsure."""
    if look is None or look == "back":
        return None
    return look if look == "" else LETTER[look]


def readable(view: dict) -> dict:
    """What this reader can see of an expected view: the same shape, unread fields dropped, empties None."""
    players = {}
    for name, p in view["players"].items():
        players[name] = {"dice": [d if d else None for d in p["dice"]],
                         "tiles": [t if (t == "" or t.isupper()) else None for t in p["tiles"]],
                         "layouts": sorted(p["layouts"])}
    return {
        "selection": list(view["selection"]),
        "spaces": dict(view["spaces"]),
        "players": players,
        "bonus_display": sorted(view["bonus_display"]),
        "layout_display": sorted(view["layout_display"]),
    }
