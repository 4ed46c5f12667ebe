"""The Diceline table as the camera sees it: one printed play mat, in top-down millimetres.

ASSUMPTION (all of it): the real game has five separate boards whose printed geometry we do not
have. The camera reads a play mat of ours instead (print it with `render_mat` in
vision/games/diceline/mat.py, 600 x 400 mm, or lay the real boards' dice and tiles on it): ArUco
markers 0-3 in its corners, the selection board, the action spaces, the bonus display and four
player boards. A person who wants to read the real boards measures them and corrects the
numbers here, and nowhere else. Coordinates: x to the right, y down, origin at the outer corner
of marker 0 (top-left); the calibration's four corners are the markers' outer corners.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from rules.diceline.actions import spaces_for
from rules.diceline.components import DICE_BY_PLAYERS, DIE_SPACES

MAT_W, MAT_H = 600.0, 400.0  # mm; the markers' outer corners
PAPER = (236, 238, 240)  # BGR
MARKER = 40.0  # printed marker side, mm
DIE = 16.0  # ASSUMPTION: die edge (the common 16 mm die)
DIE_PITCH = 28.0  # die cell spacing: a 45-degree view must not see one die's side in the next cell
TILE = 22.0  # ASSUMPTION: bonus tile edge
TILE_PITCH = 26.0

SELECTION_ORIGIN = (60.0, 48.0)  # centre of the top-left selection cell
SELECTION_COLUMNS = ("red", "green", "grey", "grey")  # BOOK: red, green, then two grey columns
SELECTION_ROWS = 5  # the 4-player board; 3 players use the top four
ACTIONS_ORIGIN = (224.0, 48.0)  # centre of the first red action space
BONUS_DISPLAY_ORIGIN = (238.0, 150.0)  # centre of the first of four display tiles
BOARDS_ORIGIN = (18.0, 238.0)  # top-left corner of player board 1
BOARD_STEP = 142.0  # player boards side by side, left to right = seat order
BOARD_TILES_DX = 60.0  # the 3x3 bonus grid starts this far right of the die spaces
BOARD_COLOURS = ("pink", "yellow", "orange", "blue")  # BOOK: the four player colours (labels only)
LAYOUT_TILE = 27.0  # ASSUMPTION: layout tile edge (a 3x3 grid of 9 mm squares)
LAYOUT_PITCH = 36.0
LAYOUT_DISPLAY_ORIGIN = (404.0, 48.0)  # the two layout tiles of the red board, right of the red spaces
BOARD_LAYOUTS_DY = 100.0  # each player's open layout tiles lie in a row this far below the board's top
BOARD_LAYOUT_SPOTS = 3  # how many open layout tiles a player's row holds


@dataclass(frozen=True)
class Cell:
    """One place where a die or a tile lies: its centre and side in mm."""

    name: str
    x: float
    y: float
    size: float
    colour: str = ""  # the die colour the space takes ("" for tiles)


@dataclass(frozen=True)
class PlayerBoard:
    """One player's die spaces (components.DIE_SPACES order) and 3x3 bonus spaces (rows top to bottom)."""

    seat: int
    dice: tuple[Cell, ...]
    tiles: tuple[Cell, ...]
    layouts: tuple[Cell, ...] = ()  # where the player's open layout tiles lie, in ascending id order


@dataclass(frozen=True)
class MatLayout:
    """Every cell on the mat."""

    selection: tuple[tuple[Cell, ...], ...]  # rows, each red, green, grey, grey
    spaces: dict[str, Cell]  # action space name -> cell
    bonus_display: tuple[Cell, ...]
    boards: tuple[PlayerBoard, ...]
    layout_display: tuple[Cell, ...] = ()

    def die_cells(self) -> list[Cell]:
        """Every cell a die may lie in."""
        out = [c for row in self.selection for c in row] + list(self.spaces.values())
        return out + [c for b in self.boards for c in b.dice]

    def for_players(self, n: int) -> "MatLayout":
        """The cells in play with `n` players: their boards, the selection rows and action spaces they use."""
        names = {s.name for s in spaces_for(n)}
        rows = DICE_BY_PLAYERS[n]["red"]
        return MatLayout(self.selection[:rows], {k: c for k, c in self.spaces.items() if k in names},
                         self.bonus_display, self.boards[:n], self.layout_display)

    def layout_cells(self) -> list[Cell]:
        """Every place a layout tile may lie."""
        return list(self.layout_display) + [c for b in self.boards for c in b.layouts]

    def tile_cells(self) -> list[Cell]:
        """Every cell a bonus tile may lie in."""
        return list(self.bonus_display) + [c for b in self.boards for c in b.tiles]


def _selection() -> tuple[tuple[Cell, ...], ...]:
    x0, y0 = SELECTION_ORIGIN
    return tuple(tuple(Cell(f"row {r + 1} col {c + 1}", x0 + c * DIE_PITCH, y0 + r * DIE_PITCH, DIE_PITCH, col)
                       for c, col in enumerate(SELECTION_COLUMNS)) for r in range(SELECTION_ROWS))


def _spaces() -> dict[str, Cell]:
    # One row per colour, in the order rules.diceline.actions lists them (4-player spaces last).
    x0, y0 = ACTIONS_ORIGIN
    out: dict[str, Cell] = {}
    for r, colour in enumerate(("red", "green", "grey")):
        names = [s.name for s in spaces_for(4) if s.colour == colour]
        for c, name in enumerate(names):
            out[name] = Cell(name, x0 + c * DIE_PITCH, y0 + r * DIE_PITCH, DIE_PITCH, colour)
    return out


def _board(seat: int) -> PlayerBoard:
    bx, by = BOARDS_ORIGIN[0] + seat * BOARD_STEP, BOARDS_ORIGIN[1]
    dice = tuple(Cell(f"seat {seat + 1} die {i + 1}", bx + DIE_PITCH / 2 + (i % 2) * DIE_PITCH,
                      by + DIE_PITCH / 2 + (i // 2) * DIE_PITCH, DIE_PITCH, colour)
                 for i, colour in enumerate(DIE_SPACES))
    tx = bx + BOARD_TILES_DX
    tiles = tuple(Cell(f"seat {seat + 1} r{i // 3 + 1}c{i % 3 + 1}", tx + TILE_PITCH / 2 + (i % 3) * TILE_PITCH,
                       by + TILE_PITCH / 2 + (i // 3) * TILE_PITCH, TILE_PITCH) for i in range(9))
    layouts = tuple(Cell(f"seat {seat + 1} layout {i + 1}", bx + 22.0 + i * 46.0, by + BOARD_LAYOUTS_DY, LAYOUT_PITCH)
                    for i in range(BOARD_LAYOUT_SPOTS))
    return PlayerBoard(seat, dice, tiles, layouts)


@lru_cache(maxsize=None)
def mat_layout() -> MatLayout:
    """The play mat (all four seats; a 3-player game leaves seat 4 and selection row 5 empty)."""
    x0, y0 = BONUS_DISPLAY_ORIGIN
    display = tuple(Cell(f"display {i + 1}", x0 + i * TILE_PITCH, y0, TILE_PITCH) for i in range(4))
    lx, ly = LAYOUT_DISPLAY_ORIGIN
    layouts = tuple(Cell(f"layout display {i + 1}", lx + i * LAYOUT_PITCH, ly, LAYOUT_PITCH) for i in range(2))
    return MatLayout(_selection(), _spaces(), display, tuple(_board(s) for s in range(4)), layouts)

# ASSUMPTION: how the pieces look, for the reader's colour tests and the renderer. The dice are
# red, green and grey (BOOK) with white pips (a guess); the bonus tiles' faces are told apart by
# their printed ground colour (a guess: the book names only the symbols: die face, arrows, flag,
# starburst; the back reads "BONUS TILE"). BGR.
DIE_BODY = {"red": (40, 40, 185), "green": (60, 140, 45), "grey": (128, 128, 125)}
DIE_PIP = (238, 238, 238)
LAYOUT_MARK = (120, 170, 215)  # ASSUMPTION: the tan of a layout tile's marked squares (the rest white)
LAYOUT_BACK = (95, 110, 125)  # ASSUMPTION: a layout tile's back
TILE_GROUND = {"die": (185, 110, 40), "movement": (60, 150, 60), "order": (40, 190, 230), "vp": (150, 60, 160),
               "back": (50, 60, 80)}
# ASSUMPTION: standard pip positions on a face (fractions of the edge, x then y) and pip radius.
PIP_SPOTS: dict[int, tuple[tuple[float, float], ...]] = {
    1: ((0.5, 0.5),),
    2: ((0.25, 0.25), (0.75, 0.75)),
    3: ((0.25, 0.25), (0.5, 0.5), (0.75, 0.75)),
    4: ((0.25, 0.25), (0.75, 0.25), (0.25, 0.75), (0.75, 0.75)),
    5: ((0.25, 0.25), (0.75, 0.25), (0.5, 0.5), (0.25, 0.75), (0.75, 0.75)),
    6: ((0.25, 0.22), (0.25, 0.5), (0.25, 0.78), (0.75, 0.22), (0.75, 0.5), (0.75, 0.78)),
}
PIP_RADIUS = 0.095  # of the edge

# Blank paper the reader samples for white balance and light fall-off (mm, x then y): the strip
# between the central boards and the player boards, below the player boards, and along the top.
PAPER_SPOTS: tuple[tuple[float, float], ...] = tuple(
    [(x, 204.0) for x in range(30, 571, 60)] + [(x, 376.0) for x in range(60, 541, 60)]
    + [(x, 16.0) for x in range(70, 531, 65)]
)
