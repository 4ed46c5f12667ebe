"""A player's 3x3 bonus-space grid: cells, lines, tile moves and layout-tile matching.

A board is a list of 9 strings, read left to right, top to bottom: "" is an open space, a
capital letter a face-up tile and a small letter a face-down one (D/d die, M/m movement,
O/o order, V/v victory point). Plain strings keep copies cheap and JSON exact.
"""
from __future__ import annotations

import re
from functools import lru_cache

from rules.diceline.components import BONUS_KINDS, BONUS_SPACE_VALUES, LAYOUT_PATTERNS

LETTER = {"die": "D", "movement": "M", "order": "O", "vp": "V"}
KIND_OF = {v: k for k, v in LETTER.items()}
assert set(LETTER) == set(BONUS_KINDS)

# The die values each bonus space shows, by index.
BONUS_SPACE_VALUES_FLAT: tuple[tuple[int, ...], ...] = tuple(v for row in BONUS_SPACE_VALUES for v in row)

ROWS = ((0, 1, 2), (3, 4, 5), (6, 7, 8))
COLUMNS = ((0, 3, 6), (1, 4, 7), (2, 5, 8))
DIAGONALS = ((0, 4, 8), (2, 4, 6))
_CELL_RE = re.compile(r"r([1-3])c([1-3])$")


def cell_name(i: int) -> str:
    """'r2c3' for index 5."""
    return f"r{i // 3 + 1}c{i % 3 + 1}"


def parse_cell(text: str) -> int | None:
    """Index of a cell written 'r2c3', or None."""
    m = _CELL_RE.match(text.strip().lower())
    return None if not m else (int(m.group(1)) - 1) * 3 + int(m.group(2)) - 1


def tile(kind: str, up: bool = True) -> str:
    """The board string for a tile of `kind`."""
    letter = LETTER[kind]
    return letter if up else letter.lower()


def kind_of(cell: str) -> str:
    """The bonus kind of a board string ('D' or 'd' -> 'die')."""
    return KIND_OF[cell.upper()]


def face_up(cell: str) -> bool:
    """True for a face-up tile."""
    return cell.isupper()


def full_lines(board: list[str], groups) -> list[tuple[int, int, int]]:
    """The lines among `groups` whose three spaces all hold tiles."""
    return [g for g in groups if board[g[0]] and board[g[1]] and board[g[2]]]


def hv_lines(board: list[str]) -> int:
    """Horizontal and vertical lines of three tiles."""
    return len(full_lines(board, ROWS + COLUMNS))


def diagonal_lines(board: list[str]) -> int:
    """Diagonal lines of three tiles."""
    return len(full_lines(board, DIAGONALS))


def line_cells(board: list[str]) -> set[int]:
    """Every space that is part of a full line."""
    return {i for g in full_lines(board, ROWS + COLUMNS + DIAGONALS) for i in g}


def tile_count(board: list[str]) -> int:
    """Tiles on the board, face up or down."""
    return sum(1 for c in board if c)


def neighbours(i: int) -> list[int]:
    """Orthogonally adjacent spaces."""
    r, c = divmod(i, 3)
    out = []
    for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
        rr, cc = r + dr, c + dc
        if 0 <= rr < 3 and 0 <= cc < 3:
            out.append(rr * 3 + cc)
    return out


def tile_steps(board: list[str]) -> list[tuple[int, int]]:
    """Every (from, to) of one Move Bonus Tiles action."""
    return [(i, j) for i in range(9) if board[i] for j in neighbours(i) if not board[j]]


def _rotate(cells: frozenset[int]) -> frozenset[int]:
    # a quarter turn clockwise: (r, c) -> (c, 2 - r)
    return frozenset((i % 3) * 3 + (2 - i // 3) for i in cells)


@lru_cache(maxsize=None)
def layout_rotations(tile_id: int) -> tuple[frozenset[int], ...]:
    """The marked spaces of a layout tile in each of its four rotations."""
    rows = LAYOUT_PATTERNS[tile_id].split("/")
    cells = frozenset(r * 3 + c for r in range(3) for c in range(3) if rows[r][c] == "#")
    out = [cells]
    for _ in range(3):
        out.append(_rotate(out[-1]))
    return tuple(dict.fromkeys(out))


def layout_fits(board: list[str], tile_id: int) -> bool:
    """True when some rotation of the tile has a bonus tile on each of its marked spaces."""
    return any(all(board[i] for i in cells) for cells in layout_rotations(tile_id))
