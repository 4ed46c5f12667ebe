"""Solver speed on the largest area (21 cells). Run with --benchmark-enable to get figures."""
from __future__ import annotations

from rules.core.match import Match
from rules.ubongo.components import DEFAULT, SHEET, grid
from rules.ubongo.solver import FillSearch, board, compute_placements
from ubongo_helpers import ENGINE

AREA = grid(SHEET[5])  # area 6, 21 cells
BLACK = tuple(DEFAULT.shape(f) for d in DEFAULT.black_dice for f in d)
WHITE = tuple(DEFAULT.shape(f) for d in DEFAULT.white_dice for f in d)


def _two_shapes() -> int:
    return len(compute_placements(AREA, DEFAULT.shape("P5"))) + len(compute_placements(AREA, DEFAULT.shape("L3")))


def test_bench_placements_of_two_shapes(benchmark):
    """All placements of P5 and L3 in the 21-cell area, computed afresh (no cache)."""
    assert benchmark(_two_shapes) > 0


def _fill_questions(empty: int) -> tuple[bool, int | None]:
    search = FillSearch(AREA, BLACK, WHITE)  # fresh memory every call
    return search.can_fill(empty), search.min_rounds(empty)


def test_bench_can_it_be_filled(benchmark):
    """Can the 21-cell area with one P5 entered still be filled, and in how few rounds (fresh search)."""
    b = board(AREA)
    empty = b.full & ~b.mask({(1, 0), (1, 1), (1, 2), (0, 1), (0, 2)})
    fillable, rounds = benchmark(_fill_questions, empty)
    assert fillable and rounds == 2


def test_bench_hint_four_players(benchmark):
    """The hint for one player choosing among 4 black and 4 white faces on area 6."""
    match = Match(ENGINE, ["Ann", "Bob", "Cid", "Dee"], {}, seed=0)
    match.state.area = 5
    match.play("roll black L5 P5 U5 Z5 white I1 I2 I3 L3")
    hints = benchmark(ENGINE.hint, match.state, "Ann")
    assert len(hints) == 16 and hints[0]["rounds_left"] is not None


def test_bench_hint_before_the_roll(benchmark):
    """The heaviest hint: 4 players before the roll on area 1 (56 face pairs, most one round from full, so
    the finishing chance is computed over every roll of 4 black and 4 white dice)."""
    match = Match(ENGINE, ["Ann", "Bob", "Cid", "Dee"], {}, seed=0)
    hints = benchmark(ENGINE.hint, match.state, "Ann")
    assert len(hints) == 56 and hints[0]["rounds_left"] == 1 and hints[0]["chance"] > 0.9
