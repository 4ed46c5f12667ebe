"""The move advisor (rules.diceline.advisor): it ranks exactly the legal moves, is fixed by its seed,
and sees only what the player to move could know. Budgets are tiny: these test the contract, not
the strength (that is rules.diceline.advisor_bench)."""
from __future__ import annotations

import copy
import random

import pytest

from rules.core import IllegalMove
from rules.diceline import state as S
from rules.diceline.advisor import advise
from rules.diceline.advisor_bench import Result, play_game
from rules.diceline.determinise import World, information_set
from rules.diceline.moves import CompleteLayout
from rules.diceline.policies import greedy_policy, random_policy, seat_to_move
from rules.diceline.scoring import breakdown
from diceline_helpers import ENGINE, NAMES


def _play_until(seed: int, done, n: int = 4) -> S.DicelineState:
    """Random play (chance and choices from `seed`) until `done(state)` holds at a player's decision."""
    rng = random.Random(seed)
    state = ENGINE.initial_state(NAMES[:n], {})
    while True:
        assert not ENGINE.is_over(state), "the game ended before the wanted spot"
        if ENGINE.chance(state) is not None:
            state = ENGINE.apply(state, ENGINE.sample_chance(state, rng))
            continue
        if done(state):
            return state
        state = ENGINE.apply(state, rng.choice(ENGINE.legal_moves(state)))


def _late_turn(seed: int = 5) -> S.DicelineState:
    # Round 5 keeps the rollouts short; several legal moves keep the ranking meaningful.
    return _play_until(seed, lambda s: s.phase == S.ACTIONS and s.round == 5 and len(ENGINE.legal_moves(s)) >= 4)


def _ranked(advice) -> list[str]:
    return [m.move for m in advice.moves]


@pytest.mark.parametrize("spot", [
    lambda s: s.phase == S.START_TILES,
    lambda s: s.phase == S.SELECT and s.round == 4,
    lambda s: s.phase == S.ACTIONS and s.round == 5 and len(ENGINE.legal_moves(s)) >= 4,
])
def test_it_ranks_exactly_the_legal_moves_of_the_player_to_move(spot):
    """Every legal move once, nothing else; the player named is the one to move."""
    state = _play_until(2, spot)
    advice = advise(ENGINE, state, iterations=2, seed=1)
    ranked = _ranked(advice)
    assert sorted(ranked) == sorted(str(m) for m in ENGINE.legal_moves(state))
    assert len(set(ranked)) == len(ranked)
    assert [advice.player] == ENGINE.to_move(state)
    assert all(m.rollouts >= 1 and m.reason for m in advice.moves)


def test_the_state_it_is_given_is_left_untouched():
    state = _late_turn()
    before = ENGINE.to_json(state)
    advise(ENGINE, state, iterations=8, seed=3)
    assert ENGINE.to_json(state) == before


def test_the_same_seed_gives_the_same_advice():
    state = _late_turn()
    assert advise(ENGINE, state, iterations=12, seed=7) == advise(ENGINE, copy.deepcopy(state), iterations=12, seed=7)


def test_hidden_state_that_differs_under_the_same_view_gives_the_same_ranking():
    """The layout deck's order is hidden from every player: two states that differ only in it look
    the same to the player to move (equal views) and must be advised the same under one seed."""
    state = _play_until(4, lambda s: s.phase == S.ACTIONS and s.round == 4 and len(s.layout_deck) >= 3
                        and len(ENGINE.legal_moves(s)) >= 4)
    other = copy.deepcopy(state)
    other.layout_deck = list(reversed(other.layout_deck))
    assert ENGINE.to_json(other) != ENGINE.to_json(state)  # the hidden part differs ...
    who = ENGINE.to_move(state)[0]
    assert ENGINE.view(other, who) == ENGINE.view(state, who)  # ... what the player sees does not
    # The engine itself would draw differently from the two states with one generator:
    draws = {str(ENGINE.sample_chance(s, random.Random(0))) for s in
             (_with_layout_reveal(state), _with_layout_reveal(other))}
    assert len(draws) == 2
    first, second = advise(ENGINE, state, iterations=10, seed=11), advise(ENGINE, other, iterations=10, seed=11)
    assert _ranked(first) == _ranked(second)
    assert first == second


def _with_layout_reveal(state: S.DicelineState) -> S.DicelineState:
    s = copy.deepcopy(state)
    s.reveals = ["layout"]
    return s


def test_a_world_draws_only_what_the_decks_can_hold():
    """One determinisation shuffles the decks' known contents: all of them, each once."""
    state = _late_turn()
    info = information_set(state)
    world = World.sample(info, "k")
    assert sorted(world.layout_order) == sorted(info.layout_deck)
    assert sorted(world.bonus_order) == sorted(k for k, n in info.bonus_deck.items() for _ in range(n))


def test_completing_a_layout_says_so_in_words():
    """The reason names the layout, its points and the round ("completes layout 7: +6 in round 3")."""
    # Random play seldom fills a layout; seed 22 does, in round 5.
    state = _play_until(22, lambda s: s.phase == S.ACTIONS
                        and any(isinstance(m, CompleteLayout) for m in ENGINE.legal_moves(s)))
    move = next(m for m in ENGINE.legal_moves(state) if isinstance(m, CompleteLayout))
    entry = next(m for m in advise(ENGINE, state, iterations=1, seed=0).moves if m.move == str(move))
    points = {1: 6, 2: 6, 3: 6, 4: 4, 5: 2}[state.round]
    assert entry.reason.startswith(f"completes layout {move.tile}: +{points} in round {state.round}")


def test_a_time_cap_stops_early_but_every_move_is_still_ranked():
    state = _late_turn()
    advice = advise(ENGINE, state, iterations=5_000, seed=0, time_cap=1e-9)
    assert advice.stopped_by_time and advice.iterations < 5_000
    assert sorted(_ranked(advice)) == sorted(str(m) for m in ENGINE.legal_moves(state))


def test_no_advice_at_a_chance_point_or_for_a_bad_budget():
    state = ENGINE.initial_state(NAMES, {})
    with pytest.raises(IllegalMove, match="awaits"):
        advise(ENGINE, state)
    with pytest.raises(IllegalMove, match="budget"):
        advise(ENGINE, _late_turn(), iterations=0)


def test_the_greedy_player_takes_the_best_immediate_points():
    """The benchmark's greedy opponent: no legal move leaves it more points if the game ended now."""
    from_state = _play_until(22, lambda s: s.phase == S.ACTIONS and any(isinstance(m, CompleteLayout)
                                                                         for m in ENGINE.legal_moves(s)))
    who = seat_to_move(ENGINE, from_state)
    moves = ENGINE.legal_moves(from_state)
    pick = greedy_policy(ENGINE, from_state, moves, random.Random(0))
    values = {str(m): breakdown(ENGINE.apply(from_state, m), who)["if_ended_now"] for m in moves}
    assert values[str(pick)] == max(values.values())


@pytest.mark.slow
def test_the_benchmark_plays_a_whole_game_with_the_advisor_seat():
    """Smoke test of rules.diceline.advisor_bench (the figures come from running the module)."""
    res = Result("advisor 1 rollout", "random")
    play_game(ENGINE, 0, 0, 1, random_policy, res)
    assert len(res.margins) == 1 and res.advice_times and len(res.advice_cpu) == len(res.advice_times)
