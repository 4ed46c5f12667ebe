"""Random playouts: never raise, keep the invariants; move texts, JSON and the move log round-trip."""
from __future__ import annotations

import json
import random

from hypothesis import given, settings, strategies as st

from rules.core.match import Match
from rules.core.reconcile import reconcile
from rules.ubongo.moves import Enter
from rules.ubongo.solver import board
from ubongo_helpers import ENGINE, random_playout


def check_invariants(match: Match, before: dict[str, int] | None = None) -> None:
    st_ = match.state
    n = len(st_.players)
    scores = ENGINE.scores(st_)
    if before is not None:
        assert all(scores[p] >= before[p] for p in st_.players)  # points are never taken away
    assert not set(ENGINE.to_move(st_)) & set(st_.finished) or st_.phase == "roll"  # finished players wait
    area = ENGINE.area_cells(st_) if st_.phase != "over" else None
    for p in st_.players:
        if area is not None:
            cells = [tuple(c) for e in st_.filled[p] for c in e["cells"]]
            assert len(cells) == len(set(cells)) and set(cells) <= area
        assert all(1 <= pts <= n for pts in st_.points[p])
        assert len(st_.points[p]) == st_.area
    # Every completed area gave out the top score to someone.
    for i in range(st_.area):
        assert max(st_.points[p][i] for p in st_.players) == n
    assert sorted(ENGINE.scores(st_)) == sorted(st_.players)
    if st_.phase == "take":
        black, white = ENGINE.free_dice(st_)
        assert len(black) == len(white) == st_.dice - len(st_.taken)


def check_camera(prev, match: Match) -> None:
    """The table after a roll or a grab, as the camera would see it, explains exactly that move."""
    last = match.moves[-1]
    # (A last grab can end the round at once when nothing fits; then the dice are between rounds.)
    if (last.startswith("roll") or " takes " in last) and match.state.phase in ("take", "enter"):
        seen = ENGINE.expected_view(match.state)
        result = reconcile(ENGINE, prev, seen)
        assert (result.status, result.moves) == ("apply", [last])
        assert reconcile(ENGINE, match.state, seen).status == "unchanged"


def check_texts(match: Match) -> None:
    for move in ENGINE.legal_moves(match.state):
        assert ENGINE.parse_move(match.state, str(move)) == move


@settings(derandomize=True, max_examples=12, deadline=None)
@given(st.integers(2, 4), st.integers(0, 10_000))
def test_random_playouts_keep_invariants_and_replay(players, seed):
    rng = random.Random(seed)
    names = ["Ann", "Bob Lee", "Cid", "Dee"][:players]
    match = Match(ENGINE, names, {"areas": 5} if players == 2 and seed % 2 else {}, seed=seed)
    steps = 0
    while not ENGINE.is_over(match.state) and steps < 400:
        before, prev = ENGINE.scores(match.state), match.state
        random_playout(match, rng, max_moves=1)
        check_invariants(match, before)
        check_camera(prev, match)
        check_texts(match)
        steps += 1
    data = ENGINE.to_json(match.state)
    assert ENGINE.from_json(json.loads(json.dumps(data))) == match.state
    replay = Match(ENGINE, names, dict(match.options), seed=seed, moves=list(match.moves))
    assert replay.state == match.state
    assert json.dumps(ENGINE.view(match.state, names[0]))


@settings(derandomize=True, max_examples=3, deadline=None)
@given(st.integers(0, 10_000))
def test_whole_games_finish(seed):
    """A game of random moves reaches its end and someone wins."""
    rng = random.Random(seed)
    match = Match(ENGINE, ["Ann", "Bob", "Cid"], {}, seed=seed)
    random_playout(match, rng, max_moves=5000)
    assert ENGINE.is_over(match.state)
    assert ENGINE.winners(match.state)
    assert sum(len(v) for v in match.state.points.values()) == 3 * 6


def test_sampled_rolls_round_trip():
    """A drawn roll prints as text that reads back as the same roll."""
    match = Match(ENGINE, ["Ann", "Bob", "Cid", "Dee"], {}, seed=3)
    for i in range(30):
        roll = ENGINE.sample_chance(match.state, random.Random(i))
        assert ENGINE.parse_move(match.state, str(roll)) == roll
        ENGINE.apply(match.state, roll)


def test_legal_enters_are_exactly_the_fitting_placements():
    """Legal 'enters' moves are one per placement of each grabbed shape on the player's empty cells."""
    match = Match(ENGINE, ["Ann", "Bob"], {}, seed=0)
    for text in ("roll black I4 P5 white I1 L3", "Ann takes black P5 white L3", "Bob takes black I4 white I1"):
        match.play(text)
    moves = [m for m in ENGINE.legal_moves(match.state) if isinstance(m, Enter) and m.player == "Ann"]
    area = ENGINE.area_cells(match.state)
    b = board(area)
    got = {(m.shape, b.mask(m.cells)) for m in moves}
    for m in moves:
        ENGINE.apply(match.state, m)  # each one is accepted
    assert len(got) == len(moves)
    assert {s for s, _ in got} == {"P5", "L3"}


def test_move_counts_perft():
    """Pinned legal-move counts at fixed positions (python-chess perft style); placements are checked against brute force in test_ubongo_solver."""
    match = Match(ENGINE, ["Ann", "Bob", "Cid"], {}, seed=0)
    match.play("roll black I4 P5 U5 white I1 I2 L3")
    assert len(ENGINE.legal_moves(match.state)) == 3 * 3 * 3
    for text in ("Ann takes black U5 white L3", "Bob takes black I4 white I1", "Cid takes black P5 white I2"):
        match.play(text)
    counts: dict[tuple[str, str], int] = {}
    for m in ENGINE.legal_moves(match.state):
        key = (m.player, getattr(m, "shape", "done"))
        counts[key] = counts.get(key, 0) + 1
    assert counts == {("Ann", "U5"): 16, ("Ann", "L3"): 30, ("Ann", "done"): 1, ("Bob", "I4"): 4, ("Bob", "I1"): 14,
                      ("Bob", "done"): 1, ("Cid", "P5"): 36, ("Cid", "I2"): 20, ("Cid", "done"): 1}
    per_area = []
    for area in range(6):
        match.state.area = area
        per_area.append(len(ENGINE.legal_moves(match.state)))
    assert per_area == [123, 119, 144, 155, 205, 196]
