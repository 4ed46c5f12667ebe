"""Scoring a round and moving on to the next area: the rulebook's steps 4 and 5."""
from __future__ import annotations

from rules.ubongo.state import OVER, ROLL, UbongoState


def unfinished(state: UbongoState) -> list[str]:
    """Players still working on the current puzzle area, in seating order."""
    return [p for p in state.players if p not in state.finished]


def placement_points(state: UbongoState) -> int:
    """Points for finishing now: the player count, one less for each earlier round in which someone finished."""
    return len(state.players) - state.finish_rounds


def score_round(state: UbongoState, newly_finished: list[str]) -> None:
    """Score the players who filled the area this round, give the consolation point, end the round."""
    gained: dict[str, int] = {}
    if newly_finished:
        pts = placement_points(state)
        for p in newly_finished:
            state.finished[p] = gained[p] = pts
        state.finish_rounds += 1
    left = unfinished(state)
    consolation = None
    # "Have all players but one filled the current puzzle area? Then that player receives 1
    # consolation point." If all remaining players finished together, nobody is left to get it.
    if newly_finished and len(left) == 1:
        consolation = left[0]
        state.finished[consolation] = gained[consolation] = 1
        left = []
    free_black, free_white = list(state.black), list(state.white)
    for b, w in state.taken.values():
        free_black.remove(b)
        free_white.remove(w)
    # The dice as the round leaves them, for the camera (rules.ubongo.table_view).
    dice = {"black": list(state.black), "white": list(state.white), "free_black": free_black,
            "free_white": free_white, "taken": {p: list(d) for p, d in state.taken.items()}}
    state.last = {"area": state.area + 1, "round": state.round, "gained": gained, "consolation": consolation,
                  "dice": dice}
    state.roller = (state.roller + 1) % len(state.players)
    state.black, state.white = [], []
    state.taken, state.unused, state.done = {}, {}, []
    if left:
        state.round += 1
        state.phase = ROLL
        return
    for p in state.players:
        state.points[p].append(state.finished[p])
    state.area += 1
    state.round = 1
    state.filled = {p: [] for p in state.players}
    state.finished = {}
    state.finish_rounds = 0
    state.phase = OVER if state.area >= state.areas else ROLL


def totals(state: UbongoState) -> dict[str, int]:
    """Each player's sum: completed areas plus points already won on the current one."""
    return {p: sum(state.points[p]) + state.finished.get(p, 0) for p in state.players}


def winners(state: UbongoState) -> list[str]:
    """The players with the largest sum once the game is over ("the tied players share the placement")."""
    if state.phase != OVER:
        return []
    sums = totals(state)
    best = max(sums.values())
    return [p for p in state.players if sums[p] == best]


def ranks(state: UbongoState) -> dict[str, int]:
    """Final rank of each player, tied players sharing a rank (1 = first)."""
    sums = totals(state)
    return {p: 1 + sum(1 for q in state.players if sums[q] > sums[p]) for p in state.players}
