"""The engine contract for every game: `legal_moves` is the one truth that `apply` follows.

python-chess's rule: a move that `push` accepts is in `legal_moves`. Here: on random games of
every engine, every non-chance move that `apply` accepts is listed, and every listed move is
accepted. Candidate moves come from the legal lists of other states of the same game, so
they are well-formed moves that are legal somewhere (the likeliest to slip through).
"""
from __future__ import annotations

import random

import pytest
from hypothesis import given, settings, strategies as st

from rules.core import Match, RulesError
from rules.core.camera import CameraRules
from rules.core.engine import Engine
from rules.core.views import Observer
from rules.registry import ENGINES

NAMES = ["Ann", "Ben", "Cid", "Dee", "Eve", "Fay"]
STATES_PER_GAME = 25
CANDIDATES_PER_STATE = 30


def _playout(engine: Engine, players: int, seed: int) -> list:
    """The states of one random game (chance drawn from the seed, moves picked at random)."""
    rng = random.Random(seed)
    match = Match(engine, NAMES[:players], seed=seed)
    states = [match.state]
    while not engine.is_over(match.state) and len(states) < STATES_PER_GAME:
        if engine.chance(match.state) is not None:
            match.play("random")
        else:
            moves = engine.legal_moves(match.state)
            if not moves:
                break
            match.play(rng.choice(moves))
        states.append(match.state)
    return states


@pytest.mark.parametrize("game", sorted(ENGINES))
@settings(derandomize=True, max_examples=4, deadline=None)
@given(seed=st.integers(0, 10_000), extra=st.integers(0, 4))
def test_every_move_apply_accepts_is_listed(game, seed, extra):
    engine = ENGINES[game]
    players = min(engine.min_players + extra, engine.max_players)
    states = _playout(engine, players, seed)
    pool = {str(m): m for s in states for m in engine.legal_moves(s)}
    rng = random.Random(seed)
    for state in states:
        if engine.chance(state) is not None or engine.is_over(state):
            continue
        listed = {str(m) for m in engine.legal_moves(state)}
        for text in listed:
            engine.apply(state, text)  # every listed move is accepted (raises otherwise)
        for text in rng.sample(sorted(pool), min(CANDIDATES_PER_STATE, len(pool))):
            try:
                engine.apply(state, pool[text])
            except RulesError:
                continue
            assert text in listed, f"{game}: apply accepted {text!r}, which legal_moves does not list"


def test_engines_split_rules_views_and_camera():
    """Every game is an Engine and an Observer; the games the camera reads are CameraRules."""
    for game, engine in ENGINES.items():
        assert isinstance(engine, Engine) and isinstance(engine, Observer)
    assert {g for g, e in ENGINES.items() if isinstance(e, CameraRules)} == {"quarx", "diceline", "ubongo"}
