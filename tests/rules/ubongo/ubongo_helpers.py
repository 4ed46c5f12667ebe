"""Shared helpers for the Ubongo tests: tiny tables where finishing an area is one typed move."""
from __future__ import annotations

from rules.core.match import Match
from rules.ubongo.engine import UbongoEngine
from rules.ubongo.solver import placements

ENGINE = UbongoEngine()

# Every area is a single cell, every white die shows a single square, every black die a domino
# that never fits: a player finishes exactly when they enter their white shape.
ONE_CELL = {
    "sheet": ["#"] * 6,
    "black_dice": [["I2"] * 6] * 4,
    "white_dice": [["I1"] * 6] * 4,
}


def tiny_match(players: list[str], **options) -> Match:
    """A match on the one-cell sheet."""
    return Match(ENGINE, players, {**ONE_CELL, **options}, seed=0)


def play_round(match: Match, finishers: list[str]) -> None:
    """Roll, everyone still playing grabs, `finishers` fill their area and the others stop."""
    st = match.state
    n = st.dice
    match.play(f"roll black {' '.join(['I2'] * n)} white {' '.join(['I1'] * n)}")
    waiting = ENGINE.to_move(match.state)
    for p in waiting:
        match.play(f"{p} takes black I2 white I1")
    for p in waiting:
        if p in finishers:
            match.play(f"{p} enters I1 at r1c1")
        else:
            match.play(f"{p} done")


def random_playout(match: Match, rng, max_moves: int = 4000) -> None:
    """Play random legal moves (and random rolls) until the game ends or `max_moves` are made."""
    for _ in range(max_moves):
        st = match.state
        if ENGINE.is_over(st):
            return
        if ENGINE.chance(st) is not None:
            match.play("random")
            continue
        moves = ENGINE.legal_moves(st)
        # Prefer entering shapes over stopping so that games end in a sensible number of moves.
        enters = [m for m in moves if type(m).__name__ == "Enter"]
        pool = enters if enters and rng.random() < 0.9 else moves
        match.play(str(rng.choice(pool)))


def brute_rounds(area, empty: int, black, white, limit: int = 8) -> int | None:
    """Breadth-first over rounds: each round lays at most one black and one white shape anywhere."""
    bp = [0] + sorted({m for s in black for m in placements(area, s)})
    wp = [0] + sorted({m for s in white for m in placements(area, s)})
    frontier = {empty}
    for rounds in range(limit + 1):
        if 0 in frontier:
            return rounds
        nxt = set()
        for e in frontier:
            for pb in bp:
                if pb & e == pb:
                    for pw in wp:
                        if pw & (e ^ pb) == pw:
                            nxt.add(e ^ pb ^ pw)
        frontier = nxt
    return None
