"""Which black+white pair of dice to grab: a ranking computed with the exact solver.

For each pair on offer, every way to enter it this round is tried (both shapes, one of them, or
none; every placement on the player's empty cells). What is left is scored by the fewest further
rounds that fill it exactly if each later round brings the best black and white face the dice in
play can show (an optimistic but exact count, `FillSearch.min_rounds`). A pair is worth its best
entry: fewer rounds left first ("0" means the pair fills the area now), then fewer empty cells
left, then the shape names. Entries are tried fullest first and a pair stops at the first entry
reaching the lower bound of ceil(cells / (largest black + largest white)), so most pairs cost a
few searches. Each pair has a node budget; a pair that runs out keeps the best entry found so far
and is marked `exact: False` (its rounds are then an upper bound).
"""
from __future__ import annotations

from dataclasses import dataclass

from rules.ubongo.shapes import Cells, cell_name
from rules.ubongo.solver import Board, FillSearch, OutOfBudget, placements

DEFAULT_BUDGET = 60_000  # search nodes for the whole hint, shared out among the pairs


@dataclass(frozen=True)
class PairHint:
    """How good grabbing `black` and `white` is, and the entry that makes it so."""

    black: str | None
    white: str | None
    rounds_left: int | None   # rounds still needed after this one; None: the cells can never be filled
    cells_left: int
    entry: tuple[tuple[str, int], ...]   # (shape, placement mask) to enter this round
    exact: bool

    def to_json(self, board: Board, player: str) -> dict:
        """JSON for the page, with the entry as move texts."""
        moves = [f"{player} enters {s} at {' '.join(cell_name(c) for c in sorted(board.cells_of(m)))}" for s, m in self.entry]
        return {"black": self.black, "white": self.white, "rounds_left": self.rounds_left,
                "cells_left": self.cells_left, "entry": moves, "exact": self.exact}

    def key(self) -> tuple:
        return (self.rounds_left is None, self.rounds_left or 0, self.cells_left, self.black or "", self.white or "")


def rank_pairs(search: FillSearch, empty: int, black: list[str], white: list[str],
               shapes: dict[str, Cells], budget: int = DEFAULT_BUDGET) -> list[PairHint]:
    """Every distinct pair from the offered faces (an empty list: no die of that colour), best first."""
    pairs = [(b, w) for b in (sorted(set(black)) or [None]) for w in (sorted(set(white)) or [None])]
    share = max(1, budget // len(pairs))
    return sorted((_rate(search, empty, b, w, shapes, share) for b, w in pairs), key=PairHint.key)


def _rate(search: FillSearch, empty: int, b: str | None, w: str | None, shapes: dict[str, Cells], budget: int) -> PairHint:
    area = search.area
    bp = [0] + (placements(area, shapes[b], empty) if b else [])
    wp = [0] + (placements(area, shapes[w], empty) if w else [])
    entries = sorted(((pb | pw).bit_count(), pb, pw) for pb in bp for pw in wp if not pb & pw)
    entries.reverse()  # fullest first
    best: tuple[int | None, int, int, int] = (None, empty.bit_count(), 0, 0)
    search.budget, exact = search.nodes + budget, True
    try:
        for filled, pb, pw in entries:
            rest = empty & ~(pb | pw)
            bound = search.lower_bound(rest)
            if best[0] is not None and bound >= best[0]:
                break  # later entries fill fewer cells, so their bound is no better
            cap = None if best[0] is None else best[0] - 1
            rounds = search.min_rounds(rest, at_most=cap)
            if rounds is not None:
                best = (rounds, rest.bit_count(), pb, pw)
    except OutOfBudget:
        exact = False
    finally:
        search.budget = None
    rounds, left, pb, pw = best
    entry = tuple((s, m) for s, m in ((b, pb), (w, pw)) if m)
    return PairHint(b, w, rounds, left, entry, exact)
