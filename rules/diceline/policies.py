"""Move choosers for Diceline playouts: uniform random, greedy on immediate points, and the
advisor's rollout policy. Each is a `Policy`: (engine, state, legal moves, rng) -> one of the moves.

They use only the engine contract (legal moves, apply) plus the diceline score breakdown, and all
their randomness comes from the `rng` they are given, so a playout is fixed by its seed.
"""
from __future__ import annotations

import random
from typing import Callable

from rules.diceline.engine import DicelineEngine
from rules.diceline.moves import CompleteLayout, Move, Place, ReturnDie
from rules.diceline.scoring import breakdown
from rules.diceline.state import DicelineState

Policy = Callable[[DicelineEngine, DicelineState, list[Move], random.Random], Move]


def seat_to_move(engine: DicelineEngine, state: DicelineState) -> int:
    """The seat index of the one player who acts now (the state must not be at a chance point)."""
    name = engine.to_move(state)[0]
    return next(i for i, p in enumerate(state.players) if p.name == name)


def random_policy(engine: DicelineEngine, state: DicelineState, moves: list[Move], rng: random.Random) -> Move:
    """Any legal move, uniformly."""
    return rng.choice(moves)


def greedy_policy(engine: DicelineEngine, state: DicelineState, moves: list[Move], rng: random.Random) -> Move:
    """The move that leaves the mover the most points if the game ended right after it.

    "Best immediate points" read as the if-ended-now total (points so far plus the end bonus the
    board would give now): points scored during the game alone are zero for most moves, which
    would make greedy play nearly random. Ties are broken uniformly.
    """
    if len(moves) == 1:
        return moves[0]
    who = seat_to_move(engine, state)
    best: list[Move] = []
    top = None
    for m in moves:
        value = breakdown(engine.apply(state, m), who)["if_ended_now"]
        if top is None or value > top:
            top, best = value, [m]
        elif value == top:
            best.append(m)
    return rng.choice(best)


def rollout_policy(engine: DicelineEngine, state: DicelineState, moves: list[Move], rng: random.Random) -> Move:
    """Cheap informed random play for the advisor's rollouts (no look-ahead, so it stays fast).

    A completable layout tile is always completed (its points only fall with the rounds); a die is
    placed rather than returned when it can be (a return only turns one tile face up). Otherwise
    uniform: the rollouts must stay cheap, and the search at the root does the judging.
    """
    completes = [m for m in moves if isinstance(m, CompleteLayout)]
    if completes:
        return completes[0]
    places = [m for m in moves if isinstance(m, Place)]
    if places and any(isinstance(m, ReturnDie) for m in moves):
        return rng.choice(places)
    return rng.choice(moves)


POLICIES: dict[str, Policy] = {"random": random_policy, "greedy": greedy_policy, "rollout": rollout_policy}
