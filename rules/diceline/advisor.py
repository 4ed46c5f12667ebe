"""The Diceline move advisor: rank the legal moves of the player to move by expected final margin.

Search: determinised rollouts (flat Monte Carlo) with sequential halving at the root. Each legal
move gets rollouts to the end of the game in sampled worlds (rolls to come, bonus and layout deck
orders: see rules.diceline.determinise), played by every seat with the cheap rollout policy of
rules.diceline.policies; the worse half of the moves is dropped after each round and the budget
goes to the rest. The k-th rollout of every move uses the k-th world (common random numbers).

Value of a rollout: the mover's final points minus the best final points among the others
("margin": positive means winning). Expected points: the mover's mean final points.

Contract: `advise` reads only the information set of the state (what every player sees), uses
only the engine's public methods (legal_moves, apply, chance, sample_chance, to_move, is_over,
scores) and the diceline score breakdown, and is deterministic for a given seed and iteration
budget. The optional time cap stops early (then the result depends on the machine's speed).
"""
from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass, field

from rules.core.errors import IllegalMove
from rules.diceline.determinise import World, information_set
from rules.diceline.engine import DicelineEngine
from rules.diceline.moves import Move
from rules.diceline.policies import Policy, rollout_policy, seat_to_move
from rules.diceline.reasons import reason, sources
from rules.diceline.state import DicelineState

DEFAULT_ITERATIONS = 60  # rollouts per advice: about 1 s of one core (CPU time) on the 2-core test machine
MAX_ITERATIONS = 20_000


@dataclass(frozen=True)
class RankedMove:
    """One legal move with what its rollouts expect."""

    move: str
    expected_points: float  # the mover's mean final points
    expected_margin: float  # mean of (mover's final points - best other player's)
    rollouts: int  # how many rollouts this move got (moves dropped early get fewer)
    reason: str


@dataclass(frozen=True)
class Advice:
    """The ranking for the player to move, best first."""

    player: str
    moves: list[RankedMove]
    iterations: int  # rollouts actually run
    seed: int
    stopped_by_time: bool = False


@dataclass
class _Stats:
    n: int = 0
    margin: float = 0.0
    points: float = 0.0
    by_source: dict[str, float] = field(default_factory=dict)

    def mean_margin(self) -> float:
        return self.margin / self.n if self.n else -math.inf


def rollout(engine: DicelineEngine, state: DicelineState, world: World, policy: Policy,
            rng: random.Random) -> DicelineState:
    """Play `state` to the end: chance from `world`, every seat's moves from `policy`."""
    while not engine.is_over(state):
        if engine.chance(state) is not None:
            state = engine.apply(state, world.chance_move(engine, state))
        else:
            state = engine.apply(state, policy(engine, state, engine.legal_moves(state), rng))
    return state


def margin(engine: DicelineEngine, final: DicelineState, who: int) -> tuple[int, int]:
    """(`who`'s final points, those minus the best other player's)."""
    scores = engine.scores(final)
    mine = scores[final.players[who].name]
    others = [v for name, v in scores.items() if name != final.players[who].name]
    return mine, mine - max(others)


def advise(engine: DicelineEngine, state: DicelineState, iterations: int = DEFAULT_ITERATIONS, seed: int = 0,
           time_cap: float | None = None, policy: Policy = rollout_policy) -> Advice:
    """Rank the legal moves of the player to move, best first (see the module docstring).

    Every legal move gets at least one rollout, so at least len(legal moves) rollouts run even
    when `iterations` is smaller. Raises IllegalMove at a chance point or when the game is over.
    """
    if not 1 <= iterations <= MAX_ITERATIONS:
        raise IllegalMove(f"the advisor's budget is 1 to {MAX_ITERATIONS} rollouts, not {iterations}", rule="advice")
    if engine.is_over(state):
        raise IllegalMove("the game is over: there is no move to advise", rule="advice")
    if engine.chance(state) is not None:
        raise IllegalMove(f"no player is to move: the table awaits {engine.chance(state)}", rule="advice")
    info = information_set(state)
    who = seat_to_move(engine, info)
    moves: list[Move] = engine.legal_moves(info)
    afters = [engine.apply(info, m) for m in moves]
    stats = [_Stats() for _ in moves]
    deadline = None if time_cap is None else time.perf_counter() + time_cap
    used, stopped = 0, False

    def run(i: int) -> None:
        nonlocal used
        st = stats[i]
        key = f"{seed}:{st.n}"
        final = rollout(engine, afters[i], World.sample(info, key), policy, random.Random(f"{key}:policy"))
        mine, diff = margin(engine, final, who)
        st.n += 1
        st.points += mine
        st.margin += diff
        for src, v in sources(final, who).items():
            st.by_source[src] = st.by_source.get(src, 0.0) + v
        used += 1

    def out_of_time() -> bool:
        return deadline is not None and time.perf_counter() > deadline

    alive = list(range(len(moves)))
    kept = [0] * len(moves)  # halving rounds each move took part in
    rounds_left = max(1, math.ceil(math.log2(len(moves))))
    while True:
        # Sequential halving (Karnin et al. 2013): an equal share of what is left per round.
        share = max(1, (iterations - used) // (len(alive) * rounds_left))
        for _ in range(share):
            for i in alive:
                if stats[i].n and (used >= iterations or out_of_time()):
                    continue
                run(i)
        stopped = stopped or (out_of_time() and used < iterations)
        for i in alive:
            kept[i] += 1
        rounds_left -= 1
        if rounds_left == 0 or len(alive) == 1 or used >= iterations or stopped:
            break
        alive.sort(key=lambda i: (-stats[i].mean_margin(), i))
        alive = alive[:math.ceil(len(alive) / 2)]
    # Rank: moves kept longer first (they beat the others on equal samples), then by mean margin.
    # (Rollout counts alone would mislead when the time cap cuts a round short.)
    order = sorted(range(len(moves)), key=lambda i: (-kept[i], -stats[i].mean_margin(), i))
    overall: dict[str, float] = {}
    total_n = sum(s.n for s in stats)
    for s in stats:
        for src, v in s.by_source.items():
            overall[src] = overall.get(src, 0.0) + v
    ranked = []
    for i in order:
        st = stats[i]
        gain = {src: st.by_source[src] / st.n - overall[src] / total_n for src in st.by_source}
        why = "the only legal move" if len(moves) == 1 else reason(info, afters[i], who, moves[i], gain)
        ranked.append(RankedMove(str(moves[i]), round(st.points / st.n, 2), round(st.margin / st.n, 2), st.n, why))
    return Advice(info.players[who].name, ranked, used, seed, stopped)
