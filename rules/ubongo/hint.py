"""Which black+white pair of dice to grab: a ranking computed with the exact solver.

For each pair on offer, every way to enter it this round is tried (both shapes, one of them, or
none; every placement on the player's empty cells). What is left is scored by the fewest further
rounds that fill it exactly if each later round brings the best black and white face the dice in
play can show (an optimistic but exact count, `FillSearch.min_rounds`). A pair is worth its best
entry: fewer rounds left first ("0" means the pair fills the area now), then, when one more round
is needed, the higher chance that the next roll of the dice in play shows a black+white pair (or a
single shape) that fills the rest exactly (exact odds over all faces; other players' grabs are
ignored), then fewer empty cells left, then the shape names. Among the entries that leave one
round, the one with the best chance is kept (at most MAX_CANDIDATES are compared). Entries are tried fullest first and a pair stops at the first entry
reaching the lower bound of ceil(cells / (largest black + largest white)), so most pairs cost a
few searches. Each pair has a node budget; a pair that runs out keeps the best entry found so far
and is marked `exact: False` (its rounds are then an upper bound).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from itertools import product

from rules.ubongo.shapes import Cells, cell_name, normalize, orientations
from rules.ubongo.solver import Board, FillSearch, OutOfBudget, placements

DEFAULT_BUDGET = 60_000  # search nodes for the whole hint, shared out among the pairs
MAX_CANDIDATES = 40      # one-round-left entries compared by their chance, per pair


@dataclass(frozen=True)
class DiceOdds:
    """How likely each set of shown faces is after rolling the dice in play, per colour."""

    black: tuple[tuple[frozenset[str], float], ...]
    white: tuple[tuple[frozenset[str], float], ...]
    _folded: dict = field(default_factory=dict, compare=False, hash=False, repr=False)

    def black_folded(self, needed: frozenset[str]) -> dict[frozenset[str], float]:
        """The black odds by which of the `needed` faces show (the others do not matter)."""
        if needed not in self._folded:
            folded: dict[frozenset[str], float] = {}
            for shown, p in self.black:
                folded[shown & needed] = folded.get(shown & needed, 0.0) + p
            self._folded[needed] = folded
        return self._folded[needed]


def dice_odds(black_dice: list[tuple[str, ...]], white_dice: list[tuple[str, ...]]) -> DiceOdds:
    """The exact odds of every set of faces a roll can show (each face of a die equally likely)."""
    def per_colour(dice: list[tuple[str, ...]]) -> tuple[tuple[frozenset[str], float], ...]:
        odds: dict[frozenset[str], float] = {}
        total = 1
        for d in dice:
            total *= len(d)
        for faces in product(*dice):
            key = frozenset(faces)
            odds[key] = odds.get(key, 0.0) + 1.0 / total
        return tuple(sorted(odds.items(), key=lambda kv: sorted(kv[0])))
    return DiceOdds(per_colour(black_dice), per_colour(white_dice))


def _key(cells: Cells) -> tuple:
    """The same value for every turned or mirrored copy of a shape."""
    return _canonical(normalize(cells))


@lru_cache(maxsize=4096)
def _canonical(cells: Cells) -> tuple:
    return min(tuple(sorted(o)) for o in orientations(cells))


def finishing_pairs(search: FillSearch, rest: int, shapes: dict[str, Cells], black: list[str], white: list[str]) -> set[tuple[str | None, str | None]]:
    """The (black, white) faces that fill `rest` exactly in one round (None: that die left unused)."""
    board_ = search.board
    white_by_key: dict[tuple, list[str]] = {}
    for w in white:
        white_by_key.setdefault(_key(shapes[w]), []).append(w)
    found: set[tuple[str | None, str | None]] = set()
    cells = board_.cells_of(rest)
    for w in white_by_key.get(_key(cells), []):
        found.add((None, w))
    for b in black:
        if len(shapes[b]) > len(cells):
            continue
        if len(shapes[b]) == len(cells):
            if _key(shapes[b]) == _key(cells):
                found.add((b, None))
            continue
        for pb in placements(search.area, shapes[b], rest):
            for w in white_by_key.get(_key(board_.cells_of(rest ^ pb)), []):
                found.add((b, w))
    return found


def finish_chance(odds: DiceOdds, finishing: set[tuple[str | None, str | None]]) -> float:
    """The chance that a roll shows some pair in `finishing`."""
    if any(b is None and w is None for b, w in finishing):
        return 1.0
    folded = odds.black_folded(frozenset(b for b, _ in finishing if b is not None))
    total = 0.0
    for shown_b, pb in folded.items():
        if any(w is None and b in shown_b for b, w in finishing):
            total += pb
            continue
        wanted = {w for b, w in finishing if b is None or b in shown_b}
        if wanted:
            total += pb * sum(pw for shown_w, pw in odds.white if shown_w & wanted)
    return total


@dataclass(frozen=True)
class PairHint:
    """How good grabbing `black` and `white` is, and the entry that makes it so."""

    black: str | None
    white: str | None
    rounds_left: int | None   # rounds still needed after this one; None: the cells can never be filled
    cells_left: int
    entry: tuple[tuple[str, int], ...]   # (shape, placement mask) to enter this round
    exact: bool
    chance: float | None = None  # when one round is left: the chance the next roll can finish it

    def to_json(self, board: Board, player: str) -> dict:
        """JSON for the page, with the entry as move texts."""
        moves = [f"{player} enters {s} at {' '.join(cell_name(c) for c in sorted(board.cells_of(m)))}" for s, m in self.entry]
        return {"black": self.black, "white": self.white, "rounds_left": self.rounds_left,
                "cells_left": self.cells_left, "entry": moves, "exact": self.exact,
                "chance": None if self.chance is None else round(self.chance, 4)}

    def key(self) -> tuple:
        return (self.rounds_left is None, self.rounds_left or 0, -(self.chance or 0.0), self.cells_left,
                self.black or "", self.white or "")


def rank_pairs(search: FillSearch, empty: int, black: list[str], white: list[str],
               shapes: dict[str, Cells], budget: int = DEFAULT_BUDGET, odds: DiceOdds | None = None) -> list[PairHint]:
    """Every distinct pair from the offered faces (an empty list: no die of that colour), best first.

    `shapes` names every face in `black`, `white` and `odds`; without `odds` no chance is computed.
    """
    pairs = [(b, w) for b in (sorted(set(black)) or [None]) for w in (sorted(set(white)) or [None])]
    share = max(1, budget // len(pairs))
    memo: dict[int, float] = {}  # chance by the cells left: pairs often leave the same rest
    return sorted((_rate(search, empty, b, w, shapes, share, odds, memo) for b, w in pairs), key=PairHint.key)


def _rate(search: FillSearch, empty: int, b: str | None, w: str | None, shapes: dict[str, Cells], budget: int,
          odds: DiceOdds | None, memo: dict[int, float]) -> PairHint:
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
        chance = None
        if best[0] == 1 and odds is not None:
            chance, best = _likeliest(search, empty, entries, shapes, odds, memo)
    except OutOfBudget:
        exact, chance = False, None
    finally:
        search.budget = None
    rounds, left, pb, pw = best
    entry = tuple((s, m) for s, m in ((b, pb), (w, pw)) if m)
    return PairHint(b, w, rounds, left, entry, exact, 1.0 if rounds == 0 else chance)


def _likeliest(search: FillSearch, empty: int, entries: list, shapes: dict[str, Cells], odds: DiceOdds,
               memo: dict[int, float]) -> tuple[float, tuple]:
    """Among entries that leave one round, the one the next roll most likely finishes, with that chance."""
    black = sorted({f for shown, _ in odds.black for f in shown})
    white = sorted({f for shown, _ in odds.white for f in shown})
    best_chance, best = -1.0, None
    tried = 0
    for _, pb, pw in entries:
        rest = empty & ~(pb | pw)
        if search.lower_bound(rest) > 1:
            break  # fullest first: every later entry leaves at least as many cells
        if not search.fits(rest, 1):
            continue
        if rest not in memo:
            memo[rest] = finish_chance(odds, finishing_pairs(search, rest, shapes, black, white))
        chance = memo[rest]
        if chance > best_chance:
            best_chance, best = chance, (1, rest.bit_count(), pb, pw)
        tried += 1
        if tried >= MAX_CANDIDATES:
            break
    return best_chance, best
