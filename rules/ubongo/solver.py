"""An exact polyomino solver on bitboards: placements, exact covers and the fewest dice rounds.

An area's cells are numbered row by row and a set of cells is an int with one bit per cell, so
"does this piece fit on the empty cells" is `piece & empty == piece`. The searches are Knuth's
Algorithm X specialised to polyominoes: the lowest empty cell is the column with the fewest
candidates in practice, and every piece covering it must have it as its own lowest cell, so the
candidates are looked up by that one bit.
"""
from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from functools import lru_cache

from rules.ubongo.shapes import Cell, Cells, normalize, orientations


@dataclass(frozen=True)
class Board:
    """The cells of one area numbered as bits, row by row."""

    cells: tuple[Cell, ...]
    index: dict[Cell, int] = field(compare=False, hash=False, repr=False)

    @property
    def full(self) -> int:
        return (1 << len(self.cells)) - 1

    def mask(self, cells: Iterable[Cell]) -> int:
        """The bits of `cells` (KeyError for a cell outside the area)."""
        m = 0
        for c in cells:
            m |= 1 << self.index[c]
        return m

    def cells_of(self, mask: int) -> Cells:
        """The cells whose bits are set in `mask`."""
        return frozenset(c for i, c in enumerate(self.cells) if mask >> i & 1)


@lru_cache(maxsize=256)
def board(area: Cells) -> Board:
    """The bit numbering of an area (cached: areas are few and immutable)."""
    cells = tuple(sorted(area))
    return Board(cells, {c: i for i, c in enumerate(cells)})


def compute_placements(area: Cells, shape: Cells) -> tuple[int, ...]:
    """Every way to lay `shape` (any rotation or mirror) on cells of `area`, as bit masks, sorted."""
    b = board(area)
    found: set[int] = set()
    for orient in orientations(normalize(shape)):
        anchor_r, anchor_c = min(orient)
        for r, c in b.cells:
            dr, dc = r - anchor_r, c - anchor_c
            m = 0
            for sr, sc in orient:
                i = b.index.get((sr + dr, sc + dc))
                if i is None:
                    break
                m |= 1 << i
            else:
                found.add(m)
    return tuple(sorted(found))


placements_in_area = lru_cache(maxsize=4096)(compute_placements)
placements_in_area.__doc__ = "compute_placements, cached per (area, shape): both are immutable."


def placements(area: Cells, shape: Cells, empty: int | None = None) -> list[int]:
    """Every placement of `shape` on the empty cells (`empty`: bit mask; None: the whole area)."""
    all_ = placements_in_area(area, normalize(shape))
    if empty is None:
        return list(all_)
    return [m for m in all_ if m & empty == m]


def _by_low_bit(options: Iterable[tuple[int, int]]) -> dict[int, list[tuple[int, int]]]:
    """Candidates (group, mask) filed under their lowest cell, larger pieces first."""
    table: dict[int, list[tuple[int, int]]] = {}
    for group, m in sorted(options, key=lambda o: (-o[1].bit_count(), o)):
        table.setdefault(m & -m, []).append((group, m))
    return table


# -- exact covers with each piece at most once (pentomino puzzles, brute-force checks) ---------

def tilings(area: Cells, pieces: list[Cells], empty: int | None = None) -> Iterator[tuple[tuple[int, int], ...]]:
    """Every exact cover of the empty cells by pieces used at most once each: ((piece index, mask), ...)."""
    b = board(area)
    empty = b.full if empty is None else empty
    table = _by_low_bit((i, m) for i, p in enumerate(pieces) for m in placements(area, p, empty))
    yield from _tile(empty, table, [1] * len(pieces), ())


def _tile(empty: int, table: dict, left: list[int], chosen: tuple) -> Iterator[tuple]:
    if not empty:
        yield chosen
        return
    for group, m in table.get(empty & -empty, ()):
        if left[group] and m & empty == m:
            left[group] -= 1
            yield from _tile(empty ^ m, table, left, chosen + ((group, m),))
            left[group] += 1


def count_tilings(area: Cells, pieces: list[Cells], empty: int | None = None) -> int:
    """How many exact covers `tilings` finds (every rotation and mirror of a solution counts)."""
    b = board(area)
    empty = b.full if empty is None else empty
    table = _by_low_bit((i, m) for i, p in enumerate(pieces) for m in placements(area, p, empty))
    return _count(empty, table, [1] * len(pieces))


def _count(empty: int, table: dict, left: list[int]) -> int:
    if not empty:
        return 1
    total = 0
    for group, m in table.get(empty & -empty, ()):
        if left[group] and m & empty == m:
            left[group] -= 1
            total += _count(empty ^ m, table, left)
            left[group] += 1
    return total


# -- filling with dice shapes (any number of copies) ---------------------------------------------

BLACK, WHITE = 0, 1


class OutOfBudget(Exception):
    """The search visited more positions than it was allowed."""


@dataclass
class FillSearch:
    """The fill questions for one area and one set of die faces, with memory shared across questions."""

    area: Cells
    black: tuple[Cells, ...]
    white: tuple[Cells, ...]
    budget: int | None = None
    nodes: int = 0
    _table: dict = field(default_factory=dict, repr=False)
    _failed: set = field(default_factory=set, repr=False)
    _unfillable: set = field(default_factory=set, repr=False)

    def __post_init__(self) -> None:
        self.black = tuple(dict.fromkeys(normalize(s) for s in self.black))
        self.white = tuple(dict.fromkeys(normalize(s) for s in self.white))
        options = [(BLACK, m) for s in self.black for m in placements(self.area, s)]
        options += [(WHITE, m) for s in self.white for m in placements(self.area, s)]
        self._table = _by_low_bit(set(options))
        self.board = board(self.area)
        self.bmax = max((len(s) for s in self.black), default=0)
        self.wmax = max((len(s) for s in self.white), default=0)

    def _tick(self) -> None:
        self.nodes += 1
        if self.budget is not None and self.nodes > self.budget:
            raise OutOfBudget

    def can_fill(self, empty: int) -> bool:
        """True when the empty cells can be covered exactly by die shapes, as many as needed."""
        if not empty:
            return True
        if empty in self._unfillable:
            return False
        self._tick()
        for _, m in self._table.get(empty & -empty, ()):
            if m & empty == m and self.can_fill(empty ^ m):
                return True
        self._unfillable.add(empty)
        return False

    def lower_bound(self, empty: int) -> int:
        """Rounds needed at least: each round enters at most one black and one white shape."""
        per_round = self.bmax + self.wmax
        return 0 if not empty else -(-empty.bit_count() // per_round) if per_round else 1 << 30

    def fits(self, empty: int, rounds: int) -> bool:
        """True when the empty cells can be covered with at most `rounds` black and `rounds` white shapes."""
        return self._fits(empty, rounds, rounds)

    def _fits(self, empty: int, lb: int, lw: int) -> bool:
        if not empty:
            return True
        if empty.bit_count() > lb * self.bmax + lw * self.wmax:
            return False
        key = (empty, lb, lw)
        if key in self._failed:
            return False
        self._tick()
        for colour, m in self._table.get(empty & -empty, ()):
            if m & empty == m:
                if colour == BLACK:
                    if lb and self._fits(empty ^ m, lb - 1, lw):
                        return True
                elif lw and self._fits(empty ^ m, lb, lw - 1):
                    return True
        self._failed.add(key)
        return False

    def min_rounds(self, empty: int, at_most: int | None = None) -> int | None:
        """The fewest rounds that fill the empty cells exactly (None: never, or not within `at_most`)."""
        if not self.can_fill(empty):
            return None
        top = empty.bit_count() if at_most is None else min(at_most, empty.bit_count())
        for r in range(self.lower_bound(empty), top + 1):
            if self.fits(empty, r):
                return r
        return None


def can_fill(area: Cells, empty: int, shapes: Iterable[Cells]) -> bool:
    """True when the empty cells of `area` can be covered exactly by copies of `shapes`."""
    return FillSearch(area, tuple(shapes), ()).can_fill(empty)


def min_rounds(area: Cells, empty: int, black: Iterable[Cells], white: Iterable[Cells]) -> int | None:
    """The fewest rounds (one black and one white shape each at most) that fill the empty cells exactly."""
    return FillSearch(area, tuple(black), tuple(white)).min_rounds(empty)
