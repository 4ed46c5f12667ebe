"""What each viewer of a Dreams table may know: the public view, a player's view, the redacted log."""
from __future__ import annotations

from dataclasses import asdict
from typing import Any, Callable

from rules.core.errors import RulesError
from rules.dreams.components import GOAL, POSITION_STEPS
from rules.dreams.moves import MORTAL, Deal, Guess, LayOut, MarkerEntry
from rules.dreams.state import LAYOUT, OVER, DreamsState, Star


def _star(s: Star) -> dict:
    return {"player": s.player, "kind": s.kind, "x": s.x / POSITION_STEPS, "y": s.y / POSITION_STEPS}


def _result(r: Any) -> dict:
    d = asdict(r)
    d["stars"] = [_star(s) for s in r.stars]
    return d


def public_view(state: DreamsState) -> dict:
    """The shared screen: cards, stars, turn, scores, who has guessed; no marker, no guess."""
    return {
        "players": list(state.players),
        "colours": dict(zip(state.players, state.colours)),
        "scores": dict(state.scores),
        "goal": GOAL,
        "round": state.round,
        "phase": state.phase,
        "dealer": state.players[state.dealer],
        "cards": [{"image": i + 1, "card": c} for i, c in enumerate(state.cards)],
        "stars": [_star(s) for s in state.stars],
        "stars_left": {p: state.stars_left(p) for p in state.players},
        "turn": state.star_turn(),
        "markers_entered": [p for p in state.players if p in state.markers],
        "void_deals": state.void_deals,
        "guessed": [p for p in state.players if p in state.guesses],
        "results": [_result(r) for r in state.results],
    }


def marker_of(state: DreamsState, player: str) -> str | None:
    """The marker `player` holds this round ("1".."4" or "mortal"), None before the deal."""
    if state.phase == LAYOUT:
        return None
    if state.mortal is not None and state.vision is not None:
        return MORTAL if player == state.mortal else str(state.vision)
    return state.markers.get(player)


def view(state: DreamsState, player: str | None) -> dict:
    """The public view, plus for a player of the table their own marker and guess."""
    out = public_view(state)
    if player is None or player not in state.players:
        return out
    marker = marker_of(state, player)
    out["me"] = {
        "player": player,
        "colour": state.colour_of(player),
        "marker": marker,
        "role": None if marker is None else ("mortal" if marker == MORTAL else "god"),
        "guess": state.guesses.get(player),
    }
    return out


def history(state: DreamsState, moves: list[str], player: str | None, parse: Callable[[str], Any]) -> list[str]:
    """The move log; this round's deal, marker entries and guesses stay hidden until the reveal."""
    if state.phase in (LAYOUT, OVER):
        return list(moves)  # every round in the log has been revealed
    start = _round_start(moves, parse)
    out = list(moves[:start])
    for text in moves[start:]:
        out.append(_redact(text, player, parse))
    return out


def _round_start(moves: list[str], parse: Callable[[str], Any]) -> int:
    """Index of this round's layout: parsed, since a player may be called "dreams"."""
    for i in range(len(moves) - 1, -1, -1):
        try:
            if isinstance(parse(moves[i]), LayOut):
                return i
        except RulesError:  # a line that does not parse is no layout
            continue
    return 0


def _redact(text: str, player: str | None, parse: Callable[[str], Any]) -> str:
    try:
        move = parse(text)
    except RulesError:  # a log line that no longer parses is shown to nobody
        return "(hidden move)"
    if isinstance(move, Deal):
        return "the Gods markers are dealt"
    if isinstance(move, MarkerEntry):
        return text if move.player == player else f"{move.player} has entered their marker"
    if isinstance(move, Guess):
        return text if move.player == player else f"{move.player} has locked a guess"
    return text
