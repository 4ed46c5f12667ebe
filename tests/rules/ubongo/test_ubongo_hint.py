"""The dice hint: its ranking agrees with a brute-force count of rounds after every possible entry."""
from __future__ import annotations

import random

import pytest

from rules.core.match import Match
from rules.ubongo.components import grid
from rules.ubongo.hint import rank_pairs
from rules.ubongo.solver import FillSearch, board, placements
from ubongo_helpers import ENGINE, brute_rounds

SHAPES = {n: grid(d) for n, d in {"O4": "##/##", "L4": "#../###", "T4": "###/.#.", "I1": "#", "I2": "##", "L3": "#./##"}.items()}
BLACK, WHITE = ["O4", "L4", "T4"], ["I1", "I2", "L3"]


@pytest.mark.parametrize("seed", range(4))
def test_pair_ranking_matches_brute_force(seed):
    """Each pair's rounds left is the best over all its entries, counted breadth-first; the list is sorted."""
    rng = random.Random(seed)
    area = grid(rng.choice(["####/####", "###./####/.##.", "####/###./##.."]))
    b = board(area)
    empty = b.full & ~b.mask(rng.sample(sorted(area), rng.randint(0, 2)))
    search = FillSearch(area, tuple(SHAPES[n] for n in BLACK), tuple(SHAPES[n] for n in WHITE))
    ranked = rank_pairs(search, empty, BLACK, WHITE, SHAPES)
    assert len(ranked) == 9 and all(h.exact for h in ranked)
    assert [h.key() for h in ranked] == sorted(h.key() for h in ranked)
    future_b, future_w = [SHAPES[n] for n in BLACK], [SHAPES[n] for n in WHITE]
    for h in ranked:
        options = [
            empty ^ pb ^ pw
            for pb in [0] + placements(area, SHAPES[h.black], empty)
            for pw in [0] + placements(area, SHAPES[h.white], empty)
            if not pb & pw
        ]
        counts = [r for r in (brute_rounds(area, rest, future_b, future_w) for rest in options) if r is not None]
        assert h.rounds_left == (min(counts) if counts else None)
        rest = empty
        for _, m in h.entry:
            assert m & rest == m
            rest ^= m
        assert brute_rounds(area, rest, future_b, future_w) == h.rounds_left
        assert rest.bit_count() == h.cells_left


def test_hint_prefers_a_pair_that_fills_now():
    """A pair that fills the area this round comes first, with its entry as move texts."""
    match = Match(ENGINE, ["Ann", "Bob"], {"sheet": ["###/#..", "#", "#", "#", "#", "#"]})
    match.play("roll black L4 S4 white I1 I3")
    hints = ENGINE.hint(match.state, "Ann")
    assert hints[0]["black"] == "L4" and hints[0]["rounds_left"] == 0
    assert hints[0]["entry"] == ["Ann enters L4 at r1c1 r1c2 r1c3 r2c1"]
    match.play("Ann takes black L4 white I1")
    match.play("Bob takes black S4 white I3")
    match.play(hints[0]["entry"][0])
    match.play("Bob done")
    assert match.state.points == {"Ann": [2], "Bob": [1]}


def test_hint_after_grabbing_covers_own_dice_only():
    """After the grab the hint rates only the player's own dice and says how to enter them."""
    match = Match(ENGINE, ["Ann", "Bob"], {}, seed=0)
    for text in ("roll black I4 P5 white I1 L3", "Ann takes black P5 white L3", "Bob takes black I4 white I1"):
        match.play(text)
    hints = ENGINE.hint(match.state, "Ann")
    assert [(h["black"], h["white"]) for h in hints] == [("P5", "L3")]
    assert len(hints[0]["entry"]) == 2 and hints[0]["rounds_left"] == 1
    for text in hints[0]["entry"]:
        match.play(text)
    assert ENGINE.hint(match.state, "Ann") == []  # Ann is done for this round


def test_finish_chance_matches_enumerating_every_roll():
    """The chance that the next roll can finish the rest equals a count over all 6^4 rolls of the dice in play."""
    from itertools import product

    from rules.ubongo.hint import dice_odds, finish_chance, finishing_pairs

    black_dice = [("O4", "L4", "T4", "O4", "L4", "T4"), ("L4", "L4", "T4", "T4", "O4", "O4")]
    white_dice = [("I1", "I2", "L3", "I1", "I2", "L3"), ("I2", "I2", "L3", "L3", "I1", "I1")]
    area = grid("####/###.")
    b = board(area)
    search = FillSearch(area, tuple(SHAPES[n] for n in BLACK), tuple(SHAPES[n] for n in WHITE))
    odds = dice_odds(black_dice, white_dice)
    for removed in ([], [(0, 0)], [(0, 3), (1, 2)], [(0, 0), (0, 1), (1, 0)]):
        rest = b.full & ~b.mask(removed)
        got = finish_chance(odds, finishing_pairs(search, rest, SHAPES, BLACK, WHITE))
        hits = 0
        rolls = list(product(*black_dice, *white_dice))
        for roll in rolls:
            shown_b, shown_w = roll[:2], roll[2:]
            hits += any(
                brute_rounds(area, rest, [SHAPES[x] for x in bs], [SHAPES[y] for y in ws], limit=1) is not None
                for bs in [[], *[[x] for x in shown_b]] for ws in [[], *[[y] for y in shown_w]]
            )
        assert abs(got - hits / len(rolls)) < 1e-9, removed
