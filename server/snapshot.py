"""The shape of a table in the HTTP API, built from a match and what `player` may see."""
from __future__ import annotations

from typing import Any, TypedDict

from rules.core.match import Match
from rules.core.views import Observer
from vision.waiting import waiting_for


class MatchSnapshot(TypedDict):
    """The game part of GET /api/tables/{id} (the service adds the table's own fields)."""

    game: str
    title: str
    players: list[str]
    options: dict[str, Any]
    scores: dict[str, int]
    to_move: list[str]
    legal_moves: list[str]
    chance: str | None
    over: bool
    winners: list[str]
    history: list[str]
    view: dict
    camera_waits_for: str
    score_timeline: list[dict[str, int]] | None


def match_snapshot(match: Match, player: str | None = None) -> MatchSnapshot:
    """The match as `player` may see it (None: the shared screen), through the game's Observer."""
    eng, st = match.engine, match.state
    seen: Observer = eng  # every registered engine is also its own Observer (rules.core.views)
    over = eng.is_over(st)
    view = seen.view(st, player)
    return {
        "game": eng.name,
        "title": eng.title,
        "players": list(match.players),
        "options": dict(match.options),
        "scores": eng.scores(st),
        "to_move": eng.to_move(st),
        "legal_moves": seen.legal_moves_view(st, player) if not over else [],
        "chance": None if over else eng.chance(st),
        "over": over,
        "winners": eng.winners(st),
        "history": seen.history_view(st, match.moves, player),
        "view": view,
        # What the camera waits for now, in the table's words (vision.waiting; public view only).
        "camera_waits_for": waiting_for(eng.name, seen.view(st, None) if player is not None else view, over),
        # The end-of-game chart: the scores before the first move and after each one (scores are
        # public in every game). Only once the game is over: a live snapshot stays small.
        "score_timeline": [eng.scores(s) for s in match.states] if over else None,
    }
