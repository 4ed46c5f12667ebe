"""Random legal playouts for 3 and 4 players: no errors, invariants kept, JSON and replay exact."""
from __future__ import annotations

import itertools
import json
import random

import pytest
from diceline_helpers import ENGINE, NAMES, check_invariants, random_game
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.core.errors import IllegalMove
from rules.core.match import Match
from rules.diceline import state as S
from rules.diceline.components import BONUS_KINDS, COLOURS
from rules.diceline.moves import (
    CompleteLayout, DieBonus, DieMove, DieSet, Done, OrderStep, Place, ReturnDie, SPACE_NAMES, Step, StepBonus,
    Stop, TakeBonus, TakeLayout, TileStep, UseTile,
)


def _finished(state: S.DicelineState) -> None:
    assert ENGINE.is_over(state) and state.round == 5
    assert ENGINE.legal_moves(state) == [] and ENGINE.chance(state) is None
    assert all(v >= 0 for v in ENGINE.scores(state).values())
    assert ENGINE.winners(state)


@settings(derandomize=True, max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32), n=st.sampled_from([3, 4]))
def test_random_playouts_never_raise_and_keep_invariants(seed, n):
    """Dice, tiles and markers counted after every move; the game ends after round 5."""
    state, _ = random_game(n, seed, check_invariants)
    _finished(state)


@settings(derandomize=True, max_examples=6, deadline=None)
@given(seed=st.integers(0, 2**32), n=st.sampled_from([3, 4]))
def test_every_legal_move_text_reads_back_exactly(seed, n):
    """A move's str() is the text parse_move reads back, for every legal move of a whole game."""
    def check(state):
        for move in ENGINE.legal_moves(state):
            assert ENGINE.parse_move(state, str(move)) == move, str(move)
    random_game(n, seed, check)


@settings(derandomize=True, max_examples=6, deadline=None)
@given(seed=st.integers(0, 2**32), n=st.sampled_from([3, 4]))
def test_json_round_trip_and_replay_give_the_same_state(seed, n):
    """to_json/from_json give an equal state at every move (and the views are JSON); replaying the log
    gives the same game."""
    def check(state):
        assert ENGINE.from_json(json.loads(json.dumps(ENGINE.to_json(state)))) == state
        json.dumps(ENGINE.view(state))
        json.dumps(ENGINE.expected_view(state))
    final, log = random_game(n, seed, check)
    replay = Match(ENGINE, NAMES[:n], {}, 0, moves=log)
    assert replay.state == final and replay.moves == log
    json.dumps(ENGINE.view(final))  # the page's view is plain JSON


def test_match_random_chance_is_seeded():
    """The same seed draws the same rolls and tiles."""
    def run(seed):
        m = Match(ENGINE, NAMES[:4], {}, seed)
        rng = random.Random(7)
        while not ENGINE.is_over(m.state) and len(m.moves) < 200:
            m.play("random" if ENGINE.chance(m.state) else str(rng.choice(ENGINE.legal_moves(m.state))))
        return m.moves
    assert run(11) == run(11)
    assert run(11) != run(12)


def _candidates(state: S.DicelineState, rng: random.Random, k: int) -> list:
    """A sample of well-formed phase-2 moves of every kind, most of them illegal here."""
    dice = [(c, v) for c in COLOURS for v in range(1, 7)]
    cells = range(9)
    effects: list = [None]
    effects += [TakeLayout(t) for t in range(1, 14)]
    effects += [TakeBonus(kd, c) for kd in BONUS_KINDS for c in cells]
    effects += [DieMove(c, v, to) for (c, v) in dice for to in COLOURS]
    effects += [DieSet(c, v, to) for (c, v) in dice for to in range(1, 7)]
    effects += [TileStep(a, b) for a, b in itertools.product(cells, cells) if a != b]
    effects += [OrderStep(None)] + [OrderStep(c) for c in cells]
    die_effects = [e for e in effects if isinstance(e, (DieMove, DieSet))]
    steps = [e for e in effects if isinstance(e, (TileStep, OrderStep))]
    others = [Stop(), Done()] + [CompleteLayout(t) for t in range(1, 14)]
    others += [StepBonus(kd, n) for kd in ("movement", "order") for n in (1, 2, 3)]
    out = []
    for _ in range(k):
        c, v = rng.choice(dice)
        pick = rng.randrange(6)
        if pick == 0:
            out.append(ReturnDie(c, v, rng.choice([None, *cells])))
        elif pick == 1:
            out.append(UseTile(rng.choice(BONUS_KINDS), rng.choice(cells)))
        elif pick == 2:
            out.append(DieBonus(rng.choice((1, 2, 3)), rng.choice(die_effects)))
        elif pick == 3:
            out.append(Step(rng.choice(steps)))
        elif pick == 4:
            out.append(rng.choice(others))
        else:
            out.append(Place(c, v, rng.choice(SPACE_NAMES), rng.choice(effects)))
    return out


@pytest.mark.parametrize("n,seed", [(3, 1), (4, 2)])
def test_legal_moves_are_exactly_the_moves_apply_accepts(n, seed):
    """legal_moves is the one source of truth: every listed move applies, sampled others are refused."""
    rng = random.Random(seed)
    checked = 0

    def check(state):
        nonlocal checked
        if state.phase != S.ACTIONS or ENGINE.chance(state) or rng.random() > 0.25:
            return
        legal = ENGINE.legal_moves(state)
        assert len(set(legal)) == len(legal)
        for move in legal:
            ENGINE.apply(state, move)
        listed = set(legal)
        for move in _candidates(state, rng, 80):
            try:
                ENGINE.apply(state, move)
            except IllegalMove:
                assert move not in listed
            else:
                assert move in listed, f"{move} applies but is not listed"
        checked += 1

    random_game(n, seed, check)
    assert checked > 20


@pytest.mark.slow
@pytest.mark.parametrize("n", [3, 4])
def test_thousands_of_random_playouts(n):
    """The long run: 1,500 games per player count with every invariant checked after every move."""
    for seed in range(1500):
        state, _ = random_game(n, 10_000 * n + seed, check_invariants)
        _finished(state)


def _containers(obj, seen=None) -> dict[int, object]:
    """Every list, dict and dataclass instance reachable from obj, by id."""
    seen = {} if seen is None else seen
    if isinstance(obj, (list, dict)) or hasattr(obj, "__dataclass_fields__"):
        if id(obj) in seen:
            return seen
        seen[id(obj)] = obj
        items = obj.values() if isinstance(obj, dict) else obj if isinstance(obj, list) else vars(obj).values()
        for item in items:
            _containers(item, seen)
    return seen


def test_the_fast_state_copy_is_deep_and_equal():
    """Engine.apply deep-copies; the hand-made copy must share nothing mutable with the original."""
    import copy

    def check(state):
        dup = copy.deepcopy(state)
        assert dup == state
        assert not set(_containers(dup)) & set(_containers(state))

    random_game(4, 3, check)
