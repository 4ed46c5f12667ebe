"""Perft (after python-chess): fixed positions, given by their move logs, with the exact number of
move sequences of depth 1 and 2. A roll or a draw ends a sequence (it counts as one leaf): chance is
not a player's choice. The counts were taken from this engine once and hand-checked where small (start
tiles 4 then 4x3; a 3-player return of one of 4 sets, then 3 sets to take); a change means the rules
changed, on purpose or not."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from diceline_helpers import ENGINE

from rules.core.match import Match

POSITIONS = json.loads((Path(__file__).parent / "perft_diceline.json").read_text())


def perft(state, depth: int) -> int:
    """Leaves of the move tree `depth` plies deep; a chance point or the end is a leaf."""
    if depth == 0 or ENGINE.is_over(state) or ENGINE.chance(state) is not None:
        return 1
    return sum(perft(ENGINE.apply(state, m), depth - 1) for m in ENGINE.legal_moves(state))


@pytest.mark.parametrize("pos", POSITIONS, ids=[p["name"] for p in POSITIONS])
def test_perft(pos):
    """The counts in perft_diceline.json."""
    state = Match(ENGINE, pos["players"], {}, 0, moves=pos["moves"]).state
    for depth, expected in pos["depth"].items():
        assert perft(state, int(depth)) == expected, f"depth {depth}"


def test_hand_counted_positions():
    """Start tiles with 4 players: 4, then 3 for each; a 3-player return: 4 sets, then 3 to take."""
    by_name = {p["name"]: p["depth"] for p in POSITIONS}
    assert by_name["4 players choose starting tiles"] == {"1": 4, "2": 12}
    assert by_name["3 players: the start player returns a set"] == {"1": 4, "2": 12}
