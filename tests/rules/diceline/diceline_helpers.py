"""Shared helpers for the Diceline tests: quick tables in a chosen spot, random playouts, invariants."""
from __future__ import annotations

import copy
import random
from functools import lru_cache

from rules.core.match import Match
from rules.diceline import state as S
from rules.diceline.components import (
    BONUS_DECK_PER_KIND, DICE_BY_PLAYERS, LAYOUT_PATTERNS, MARKERS_AT_HAND, MARKERS_IN_STOCK, RED_MARKER_SPACES,
)
from rules.diceline.engine import DicelineEngine
from rules.diceline.scoring import breakdown

ENGINE = DicelineEngine()
NAMES = ["Blue", "Yellow", "Pink", "Orange"]


def match_until(n: int, seed: int, phase: str) -> Match:
    """A seeded game played at random (chance from the seed, choices: the first legal move) up to `phase`."""
    m = Match(ENGINE, NAMES[:n], {}, seed)
    while m.state.phase != phase:
        if ENGINE.chance(m.state) is not None:
            m.play("random")
        else:
            m.play(str(ENGINE.legal_moves(m.state)[0]))
    return m


@lru_cache(maxsize=None)
def _first_turn(n: int, seed: int) -> S.DicelineState:
    return match_until(n, seed, S.ACTIONS).state


def turn_state(n: int = 3, seed: int = 1) -> S.DicelineState:
    """A fresh copy of a phase-2 state at the first turn of round 1."""
    return copy.deepcopy(_first_turn(n, seed))


def current(state: S.DicelineState) -> S.Player:
    """The player whose turn it is."""
    return state.players[state.order[state.turn]]


def set_dice(player: S.Player, red: int = 0, green: int = 0, grey1: int = 0, grey2: int = 0) -> None:
    """Put dice of the given values (0 = none) in the red, green and two grey die spaces."""
    player.dice = [red, green, grey1, grey2]
    player.dice_made = [c if v else "" for c, v in zip(("red", "green", "grey", "grey"), player.dice)]


def set_board(player: S.Player, picture: str) -> None:
    """Lay tiles from a picture like 'D.v/.O./...': capital = face up, small = face down, '.' = open."""
    cells = picture.replace("/", "")
    assert len(cells) == 9
    player.board = ["" if c == "." else c for c in cells]


def texts(state: S.DicelineState) -> list[str]:
    """The legal move texts."""
    return [str(m) for m in ENGINE.legal_moves(state)]


def play(state: S.DicelineState, *moves: str) -> S.DicelineState:
    """Apply the move texts one after another."""
    for text in moves:
        state = ENGINE.apply(state, text)
    return state


def random_game(n: int, seed: int, check=None) -> tuple[S.DicelineState, list[str]]:
    """A whole game with uniformly random choices and chance from `seed`; `check(state)` after each move."""
    rng = random.Random(seed)
    st = ENGINE.initial_state(NAMES[:n], {})
    log: list[str] = []
    while not ENGINE.is_over(st):
        if ENGINE.chance(st) is not None:
            mv = ENGINE.sample_chance(st, rng)
        else:
            mv = rng.choice(ENGINE.legal_moves(st))
        st = ENGINE.apply(st, mv)
        log.append(str(mv))
        if check:
            check(st)
    return st, log


def check_invariants(st: S.DicelineState) -> None:
    """Dice, bonus tiles, layout tiles and markers are all accounted for; scores add up."""
    n = len(st.players)
    dice = dict(st.pool)
    for row in st.rows:
        if row is not None:
            for colour, _ in zip(("red", "green", "grey", "grey"), row):
                dice[colour] += 1
    for p in st.players:
        for made in p.dice_made:
            if made:
                dice[made] += 1
    for _, made, _ in st.spaces.values():
        dice[made] += 1
    assert dice == DICE_BY_PLAYERS[n], dice

    tiles = sum(st.bonus_deck.values()) + len(st.bonus_display) + len(st.start_tiles)
    tiles += sum(1 for p in st.players for c in p.board if c)
    starting = 4 if (n == 4 or st.phase in (S.ORDER_ROLLS, S.START_TILES)) else 3
    assert tiles == 4 * BONUS_DECK_PER_KIND[n] + starting

    layouts = st.layout_deck + st.layout_display + [t for p in st.players for t in p.layouts + p.completed]
    assert sorted(layouts) == sorted(LAYOUT_PATTERNS)

    on_track = sorted(w for stack in st.track for w in stack)
    assert on_track == (list(range(n)) if st.order else [])
    for i, p in enumerate(st.players):
        on_red = sum(st.red_vp[s].count(i) for s in RED_MARKER_SPACES)
        assert p.hand + p.stock + on_red == MARKERS_AT_HAND + MARKERS_IN_STOCK
        assert p.hand >= 0 and p.stock >= 0
        b = breakdown(st, i)
        assert all(v >= 0 for v in b["during_game"].values()) and all(v >= 0 for v in b["at_end"].values())
        assert b["so_far"] == sum(b["during_game"].values())
        assert b["if_ended_now"] == b["so_far"] + sum(b["at_end"].values())
    assert 1 <= st.round <= 5
