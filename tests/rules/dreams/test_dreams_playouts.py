"""Random playouts for 3 to 6 players: never raise, keep the invariants, replay and round-trip."""
from __future__ import annotations

import copy
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from dreams_play import ENGINE
from rules.core.errors import RulesError
from rules.core.match import Match
from rules.dreams.components import STAR_KINDS, TRACK_MAX
from rules.dreams.views import public_view

NAMES = ["Ada", "Bo", "Cy", "Di", "Ed", "Flo"]


def _secrets_swapped(state):
    """The same state with every secret changed: the public view must not notice."""
    alt = copy.deepcopy(state)
    alt.vision = 1 if state.vision != 1 else 2
    alt.mortal = next(p for p in state.players if p != state.mortal)
    alt.markers = {p: "mortal" for p in state.markers}
    alt.guesses = {p: "9" for p in state.guesses}
    return alt


def _next_text(m: Match, rng: random.Random) -> str:
    """A random move text, as a table would give it: chance, entered markers, any star spot, guesses."""
    state = m.state
    if state.phase == "deal" and (state.markers or rng.random() < 0.3):
        who = next(p for p in state.players if p not in state.markers)
        return f"{who} marker {rng.choice(['1', '2', '3', '4', 'mortal', '2', '2'])}"
    if ENGINE.chance(state) is not None:
        return "random"
    if state.phase == "stars" and rng.random() < 0.7:
        p = state.star_turn()
        return f"{p} places {rng.choice(state.stars_left(p))} at {rng.random():.4f} {rng.random():.4f}"
    return str(rng.choice(ENGINE.legal_moves(state)))


def _check(m: Match, before_scores: dict) -> None:
    state = m.state
    assert ENGINE.from_json(ENGINE.to_json(state)) == state
    for mv in ENGINE.legal_moves(state):
        assert ENGINE.parse_move(state, str(mv)) == mv
    assert all(before_scores[p] <= s <= TRACK_MAX for p, s in state.scores.items())
    for p in state.players:
        kinds = [s.kind for s in state.stars if s.player == p]
        assert len(kinds) == len(set(kinds)) <= len(STAR_KINDS)
    if state.phase in ("deal", "stars", "guess"):
        assert public_view(_secrets_swapped(state)) == public_view(state)
        secret = [t for t in m.moves[-len(state.players) * 5:] if " guesses " in t or t.startswith("deal ")]
        public_log = ENGINE.history_view(state, m.moves)
        current = m.moves[max(i for i, t in enumerate(m.moves) if t.startswith("dreams ")):]
        assert not set(secret) & set(public_log[len(m.moves) - len(current):])
    if ENGINE.is_over(state):
        best = max(state.scores.values())
        assert best >= 16 and ENGINE.winners(state) == [p for p in state.players if state.scores[p] == best]
    else:
        assert ENGINE.winners(state) == []
        assert ENGINE.chance(state) is not None or ENGINE.legal_moves(state)


@settings(derandomize=True, max_examples=30, deadline=None)
@given(n=st.integers(3, 6), seed=st.integers(0, 10**6), steps=st.integers(1, 100))
def test_random_playouts_keep_invariants(n, seed, steps):
    rng = random.Random(seed)
    players = NAMES[:n]
    m = Match(ENGINE, players, {"dealer": rng.choice(players)}, seed=seed)
    for _ in range(steps):
        if ENGINE.is_over(m.state):
            break
        before = dict(m.state.scores)
        m.play(_next_text(m, rng))
        _check(m, before)
    replay = Match(ENGINE, players, dict(m.options), seed, moves=list(m.moves))
    assert replay.state == m.state and replay.moves == m.moves


@settings(derandomize=True, max_examples=25, deadline=None)
@given(n=st.integers(3, 6), seed=st.integers(0, 10**6), texts=st.lists(st.text(max_size=30), max_size=8))
def test_garbage_text_is_refused_in_words(n, seed, texts):
    m = Match(ENGINE, NAMES[:n], seed=seed)
    m.play("random")
    for text in texts:
        try:
            m.play(text)
        except RulesError as exc:  # IllegalMove or MoveSyntaxError, never anything else
            assert exc.reason and exc.rule


def test_whole_games_end_with_a_winner():
    for n in (3, 6):
        rng = random.Random(n)
        m = Match(ENGINE, NAMES[:n], seed=n)
        while not ENGINE.is_over(m.state):
            m.play(_next_text(m, rng))
        assert ENGINE.winners(m.state)
        assert Match(ENGINE, NAMES[:n], seed=n, moves=list(m.moves)).state == m.state
        assert ENGINE.history_view(m.state, m.moves) == m.moves
