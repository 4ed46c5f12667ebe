"""Benchmark (not a timed test): random full 4-player games through the public engine API.

Run with: .venv/bin/python -m pytest tests/rules/diceline/test_diceline_benchmark.py --benchmark-enable
The figure is in rules/diceline/README.md.
"""
from __future__ import annotations

import random

from diceline_helpers import ENGINE, NAMES


def full_games(count: int, players: int = 4, seed: int = 0) -> int:
    """Play `count` random games (legal_moves + apply, chance from sample_chance); returns the moves made."""
    moves = 0
    for g in range(count):
        rng = random.Random(seed + g)
        st = ENGINE.initial_state(NAMES[:players], {})
        while not ENGINE.is_over(st):
            mv = ENGINE.sample_chance(st, rng) if ENGINE.chance(st) is not None else rng.choice(ENGINE.legal_moves(st))
            st = ENGINE.apply(st, mv)
            moves += 1
    return moves


def test_benchmark_random_four_player_games(benchmark):
    """Ten random 4-player games per round of the benchmark."""
    moves = benchmark.pedantic(full_games, args=(10,), rounds=3, iterations=1)
    assert moves > 10 * 100
