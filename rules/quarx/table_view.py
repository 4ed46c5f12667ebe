"""What a Quarx table looks like to the camera, and which moves explain a change.

TableView:
    {"face_up": [sphere counts of the Quarx cards in the middle, ascending],
     "laid": [[colour, "down" | [number cards, descending]], ...] sorted by colour}

Number cards are told apart by their set's colour (rules.quarx.components; player i in seat
order has colour i). A pile appearing face down is a player finishing: the camera sees the
order in which piles appear, which is the finishing order the book has players call out.
Two piles that appear between the same two stable views cannot be ordered by the camera:
those few orders (and the tie) go to a person for one click. Turned up, the cards are read.
A player who passes lays nothing, which no camera sees: passes are typed.
"""
from __future__ import annotations

from itertools import permutations
from typing import TypedDict

from rules.core.camera import ANY_OF, view_matches
from rules.core.engine import Engine
from rules.core.errors import IllegalMove
from rules.quarx.components import NUMBER_CARD_COLOURS, NUMBER_CARDS
from rules.quarx.moves import Lay, Reveal, TurnOver
from rules.quarx.state import QuarxState

DOWN = "down"


class QuarxTableView(TypedDict):
    """The TableView (see the module doc); the camera reports None for a field it is unsure of."""

    face_up: list[int] | None  # sphere counts, ascending
    laid: list[list] | None  # [colour, "down" | [values, descending]] per pile, by colour

MAX_NEW_PILES = 3  # more piles at once than this: too many orders to offer, a person types them


def colour_of(state: QuarxState, player: str) -> str:
    """The colour of `player`'s number cards: seat order through the six sets."""
    return NUMBER_CARD_COLOURS[state.players.index(player)]


def _laid(state: QuarxState, shown: dict[str, list[int] | None]) -> list:
    """The laid entries for {player: cards face up, or None for a face-down pile}."""
    return sorted([colour_of(state, p), DOWN if cards is None else sorted(cards, reverse=True)] for p, cards in shown.items())


def expected_view(state: QuarxState) -> QuarxTableView | dict:
    """The table in `state` (after scoring, {ANY_OF: [...]}: the round's cards may still lie there)."""
    if state.phase in ("answer", "turn"):
        face_up = sorted(state.revealed) if state.revealed else None
        return {"face_up": face_up, "laid": _laid(state, {a["player"]: None for a in state.answers if not _passed(a)})}
    last = state.rounds[-1] if state.rounds else None
    if last is None:
        return {"face_up": [], "laid": []}
    # After scoring, the round's cards lie there until someone collects them, in any order.
    faces = [[], sorted(last["revealed"])] if last["revealed"] else [[]]
    laid = [[], _laid(state, last["laid"])] if last["laid"] else [[]]
    return {ANY_OF: [{"face_up": f, "laid": lay} for f in faces for lay in laid]}


def _passed(answer: dict) -> bool:
    return answer["cards"] is None and not answer["unseen"]


def reveal_from_view(state: QuarxState, observed: dict, cards_to_turn: int) -> list[Reveal]:
    """A reveal, when the camera sees a new round's cards face up in the middle."""
    seen = observed.get("face_up")
    if state.phase != "reveal" or not seen or len(seen) != cards_to_turn:
        return []
    last = state.rounds[-1]["revealed"] if state.rounds else []
    if sorted(seen) == sorted(last):
        return []  # the last round's cards, not collected yet
    return [Reveal(tuple(sorted(seen)))]


def turn_over_from_view(state: QuarxState, observed: dict, unseen: list[str]) -> list[TurnOver]:
    """The turn over, when every laid pile lies face up and the typed answers read as typed."""
    seen = observed.get("laid")
    if state.phase != "turn" or not seen:
        return []
    by_colour = {colour: cards for colour, cards in seen}
    if len(by_colour) != len(seen):
        return []
    laid = [a for a in state.answers if not _passed(a)]
    if set(by_colour) != {colour_of(state, a["player"]) for a in laid}:
        return []
    cards: dict[str, tuple[int, ...]] = {}
    for a in laid:
        shown = by_colour[colour_of(state, a["player"])]
        if shown == DOWN or not _valid_cards(shown):
            return []  # still being turned over, or misread
        if not a["unseen"] and sorted(shown) != sorted(a["cards"]):
            return []  # the table disagrees with what was typed: a person must look
        cards[a["player"]] = tuple(sorted(shown, reverse=True))
    return [TurnOver(tuple((p, cards[p]) for p in unseen))]


def _valid_cards(cards) -> bool:
    return isinstance(cards, list) and bool(cards) and len(set(cards)) == len(cards) and all(c in NUMBER_CARDS for c in cards)


def explain_view(engine: Engine[QuarxState], state: QuarxState, observed: dict) -> list[list]:
    """Move sequences from `state` to the observed table (see the module doc); `engine` is Quarx's."""
    if state.phase == "reveal":
        found = []
        for reveal in engine.chance_from_view(state, observed):
            after = engine.apply(state, reveal)
            if view_matches(engine.expected_view(after), observed):
                found.append([reveal])
            else:  # a fast player laid before the camera saw the cards alone
                found += [[reveal, *seq] for seq in _explain_piles(engine, after, observed)]
        return found
    if state.phase == "answer":
        return _explain_piles(engine, state, observed)
    if state.phase == "turn":
        return [[t] for t in engine.chance_from_view(state, observed)
                if view_matches(engine.expected_view(engine.apply(state, t)), observed)]
    return []


def _explain_piles(engine: Engine[QuarxState], state: QuarxState, observed: dict) -> list[list]:
    """New piles, in every finishing order the camera cannot rule out; then a turn over if all lie face up."""
    seen = observed.get("laid")
    if seen is None or state.phase != "answer":
        return []
    if observed.get("face_up") is not None and observed["face_up"] != sorted(state.revealed):
        return []
    owner = {colour_of(state, p): p for p in state.players}
    colours = [colour for colour, _ in seen]
    if len(set(colours)) != len(colours) or any(c not in owner for c in colours):
        return []
    waiting = set(engine.to_move(state))
    new = [p for p in state.players if p in waiting and colour_of(state, p) in colours]  # seat order
    if not new or len(new) > MAX_NEW_PILES:
        return []
    found = []
    for seq in _orders(new):
        after = state
        try:
            for move in seq:
                after = engine.apply(after, move)
        except IllegalMove:  # an order the rules refuse is simply not an explanation
            continue
        if view_matches(engine.expected_view(after), observed):
            found.append(seq)
        elif after.phase == "turn":  # the last pile went down and everyone turned up at once
            for t in turn_over_from_view(after, observed, engine.unseen_players(after)):
                if view_matches(engine.expected_view(engine.apply(after, t)), observed):
                    found.append([*seq, t])
    return found


def _orders(players: list[str]) -> list[list[Lay]]:
    """Every finishing order of `players` (in seat order) as lays and ties; tied players in seat order.

    A pile that appears on its own, after a stable view without it, was laid later than the
    piles already there, so the first new pile never ties with them."""
    seat = {p: i for i, p in enumerate(players)}
    out: list[list[Lay]] = []
    seen: set[tuple] = set()
    for perm in permutations(players):
        for ties in range(1 << (len(perm) - 1)):
            groups: list[list[str]] = [[perm[0]]]
            for i, p in enumerate(perm[1:]):
                if ties >> i & 1:
                    groups[-1].append(p)
                else:
                    groups.append([p])
            key = tuple(tuple(sorted(g, key=seat.get)) for g in groups)
            if key in seen:
                continue
            seen.add(key)
            out.append([Lay(p, tie=j > 0) for g in key for j, p in enumerate(g)])
    return out
