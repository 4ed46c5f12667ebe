"""The exact solver against brute force on small areas, and known polyomino results."""
from __future__ import annotations

import random
from itertools import combinations

import pytest

from rules.ubongo.components import SHAPES, grid
from rules.ubongo.shapes import orientations, same_shape
from rules.ubongo.solver import FillSearch, board, can_fill, count_tilings, min_rounds, placements, tilings
from ubongo_helpers import brute_rounds

PENTOMINOES = {
    "F": ".##/##./.#.", "I": "#####", "L": "#.../####", "N": "##../.###", "P": "##/##/#.", "T": "###/.#./.#.",
    "U": "#.#/###", "V": "#../#../###", "W": "#../##./.##", "X": ".#./###/.#.", "Y": ".#../####", "Z": "##./.#./.##",
}
PIECES = [grid(d) for d in PENTOMINOES.values()]


def rect(rows: int, cols: int) -> frozenset:
    return frozenset((r, c) for r in range(rows) for c in range(cols))


def random_area(rng: random.Random, size: int) -> frozenset:
    """A connected blob of `size` cells grown at random on a 5x5 board."""
    cells = {(2, 2)}
    while len(cells) < size:
        r, c = rng.choice(sorted(cells))
        n = rng.choice(((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)))
        if 0 <= n[0] < 5 and 0 <= n[1] < 5:
            cells.add(n)
    return frozenset(cells)


def test_pentominoes_have_63_fixed_orientations():
    """The 12 free pentominoes give 63 one-sided-and-turned (fixed) shapes."""
    assert sum(len(orientations(p)) for p in PIECES) == 63


@pytest.mark.parametrize("seed", range(6))
def test_placements_match_brute_force(seed):
    """Every placement found, none extra: all cell subsets of the right size that form the shape."""
    rng = random.Random(seed)
    area = random_area(rng, rng.randint(8, 13))
    b = board(area)
    filled = frozenset(rng.sample(sorted(area), 2))
    empty = b.full & ~b.mask(filled)
    for name in ("I1", "I2", "L3", "T4", "S4", "L5", "N5", "W5"):
        shape = grid(SHAPES[name])
        brute = {b.mask(cs) for cs in combinations(sorted(area - filled), len(shape)) if same_shape(shape, frozenset(cs))}
        assert set(placements(area, shape, empty)) == brute, name


def _brute_count(full: int, masks_per_piece: list[list[int]]) -> int:
    """Exact covers by trying every piece in turn: left out, or in each of its placements."""
    def go(i: int, used: int) -> int:
        if i == len(masks_per_piece):
            return int(used == full)
        return go(i + 1, used) + sum(go(i + 1, used | m) for m in masks_per_piece[i] if not m & used)
    return go(0, 0)


@pytest.mark.parametrize("seed", range(5))
def test_tiling_count_matches_brute_force(seed):
    """count_tilings (lowest-empty-cell search) agrees with a piece-by-piece enumeration."""
    rng = random.Random(100 + seed)
    area = random_area(rng, 10)
    pieces = [grid(SHAPES[n]) for n in rng.sample(["I2", "I3", "L3", "O4", "T4", "S4", "L4", "I2", "L3"], 5)]
    masks = [placements(area, p) for p in pieces]
    expected = _brute_count(board(area).full, masks)
    assert count_tilings(area, pieces) == expected == sum(1 for _ in tilings(area, pieces))


def test_two_by_ten_cannot_be_tiled_by_a_three_by_three_square():
    """A 3x3 square has no place in a 2x10 rectangle, so no tiling and no fill."""
    area, square = rect(2, 10), grid("###/###/###")
    assert placements(area, square) == []
    assert count_tilings(area, [square]) == 0
    assert not can_fill(area, board(area).full, [square])
    assert can_fill(area, board(area).full, [grid("##")])


def _canonical(sol, area_rows: int, area_cols: int, area) -> tuple:
    """A solution as a labelled grid, the least of its images under the rectangle's 4 symmetries."""
    b = board(area)
    label = {}
    for piece, m in sol:
        for cell in b.cells_of(m):
            label[cell] = piece
    images = []
    for fr in (False, True):
        for fc in (False, True):
            images.append(tuple(label[(area_rows - 1 - r if fr else r, area_cols - 1 - c if fc else c)]
                                for r in range(area_rows) for c in range(area_cols)))
    return min(images)


def test_pentominoes_tile_3x20_two_ways():
    """The 12 pentominoes fill a 3x20 rectangle in 2 ways up to symmetry, 8 counting mirrors and turns."""
    area = rect(20, 3)  # scanning along the short side keeps the search narrow
    sols = list(tilings(area, PIECES))
    assert len(sols) == 8 == count_tilings(area, PIECES)
    assert len({_canonical(s, 20, 3, area) for s in sols}) == 2


@pytest.mark.slow
def test_pentominoes_tile_4x15():
    """4x15: 368 ways up to symmetry, 1472 in all."""
    area = rect(15, 4)
    sols = list(tilings(area, PIECES))
    assert len(sols) == 1472
    assert len({_canonical(s, 15, 4, area) for s in sols}) == 368


@pytest.mark.slow
def test_pentominoes_tile_6x10():
    """The 12 pentominoes tile a 6x10 rectangle in 2,339 ways up to symmetry, 9,356 in all (about 40 s)."""
    area = rect(10, 6)
    sols = list(tilings(area, PIECES))
    assert len(sols) == 9356
    assert len({_canonical(s, 10, 6, area) for s in sols}) == 2339


@pytest.mark.parametrize("seed", range(6))
def test_min_rounds_matches_brute_force(seed):
    """The fewest rounds (one black and one white shape each) found by search equal a breadth-first count."""
    rng = random.Random(200 + seed)
    area = random_area(rng, rng.randint(7, 11))
    black = [grid(SHAPES[n]) for n in rng.sample(["I4", "O4", "T4", "S4", "L4", "L5", "P5"], 2)]
    white = [grid(SHAPES[n]) for n in rng.sample(["I1", "I2", "I3", "L3"], 2)]
    b = board(area)
    for hole in range(3):
        filled = frozenset(rng.sample(sorted(area), hole))
        empty = b.full & ~b.mask(filled)
        expected = brute_rounds(area, empty, black, white)
        assert min_rounds(area, empty, black, white) == expected


def test_unfillable_is_none():
    """Without a small shape a lone cell can never be filled."""
    area = rect(1, 3)
    assert min_rounds(area, board(area).full, [grid("##")], []) is None
    assert FillSearch(area, (grid("##"),), (grid("#"),)).min_rounds(board(area).full) == 1
