"""Polyominoes as sets of (row, col) cells: reading them from text, and all their rotations and mirrors."""
from __future__ import annotations

from functools import lru_cache

Cell = tuple[int, int]
Cells = frozenset[Cell]

FILLED = "#"
EMPTY = "."


def parse_grid(text: str) -> Cells:
    """The cells marked '#' in a drawing of rows ('.' or a space is empty); rows top to bottom."""
    lines = [line.rstrip() for line in text.strip("\n").splitlines()]
    lines = [line for line in lines if line.strip()]
    indent = min((len(line) - len(line.lstrip()) for line in lines), default=0)
    cells = {(r, c) for r, line in enumerate(lines) for c, ch in enumerate(line[indent:]) if ch == FILLED}
    bad = {ch for line in lines for ch in line[indent:]} - {FILLED, EMPTY, " "}
    if bad:
        raise ValueError(f"a grid uses only '#' (cell) and '.' (no cell), not {sorted(bad)}")
    return normalize(frozenset(cells))


def render(cells: Cells) -> str:
    """The drawing of `cells` that parse_grid reads back."""
    cells = normalize(cells)
    if not cells:
        return ""
    rows = 1 + max(r for r, _ in cells)
    cols = 1 + max(c for _, c in cells)
    return "\n".join("".join(FILLED if (r, c) in cells else EMPTY for c in range(cols)) for r in range(rows))


def normalize(cells: frozenset[Cell] | set[Cell]) -> Cells:
    """The same cells moved so that the topmost row and leftmost column are 0."""
    if not cells:
        return frozenset()
    r0 = min(r for r, _ in cells)
    c0 = min(c for _, c in cells)
    return frozenset((r - r0, c - c0) for r, c in cells)


@lru_cache(maxsize=1024)
def orientations(cells: Cells) -> tuple[Cells, ...]:
    """Every distinct rotation and mirror image of a shape (1 to 8), normalised, in a fixed order."""
    found: dict[Cells, None] = {}
    for mirrored in (False, True):
        current = frozenset((r, -c) for r, c in cells) if mirrored else frozenset(cells)
        for _ in range(4):
            found.setdefault(normalize(current), None)
            current = frozenset((c, -r) for r, c in current)  # a quarter turn clockwise
    return tuple(sorted(found, key=lambda s: sorted(s)))


def same_shape(a: frozenset[Cell], b: frozenset[Cell]) -> bool:
    """True when `b` is `a` moved, turned or mirrored (the book allows mirrored entry)."""
    return len(a) == len(b) and normalize(b) in orientations(normalize(a))


def is_connected(cells: frozenset[Cell]) -> bool:
    """True when every cell can be reached from every other through edge-sharing neighbours."""
    if not cells:
        return True
    start = next(iter(cells))
    seen = {start}
    todo = [start]
    while todo:
        r, c = todo.pop()
        for n in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
            if n in cells and n not in seen:
                seen.add(n)
                todo.append(n)
    return len(seen) == len(cells)


def cell_name(cell: Cell) -> str:
    """The text of a cell: row and column counted from 1, 'r2c3'."""
    return f"r{cell[0] + 1}c{cell[1] + 1}"
