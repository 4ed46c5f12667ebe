"""What a stable camera view means for a table, acted on: one move played, several asked, none said.

The server's own camera (server.watcher) and an edge camera worker (server.routes.worker) both
end here, so a move from either is played, logged and shown the same way. A worker's view comes
with an id: the moves it explains are played with move ids made from it, so a worker that sends
the same view again (its answer was lost with the network) plays nothing twice.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from rules.core import RulesError
from rules.core.reconcile import Reconciliation, reconcile
from server.service import TableService

# What the camera does at this table: reading, a hand in the way, waiting for a click.
Outcome = Literal["watching", "ask"]


@dataclass(frozen=True)
class Acted:
    """What became of one stable view."""

    status: str  # the Reconciliation's: apply, ask, unexplained, nothing; or repeated (played before)
    state: Outcome
    detail: str
    moves: list[str] = field(default_factory=list)  # played now
    candidates: list[list[str]] = field(default_factory=list)  # awaiting one click on the page


def act_on(service: TableService, tid: str, result: Reconciliation, move_id: str | None = None) -> Acted:
    """Play one explanation, or ask which of several, or say why nothing fits. `move_id`: the
    prefix of the move ids the played moves get (the i-th move: "<move_id>.<i>")."""
    if result.status == "apply":
        try:
            for i, text in enumerate(result.moves):
                service.play(tid, text, source="camera", move_id=None if move_id is None else f"{move_id}.{i}")
        except RulesError as exc:  # the game moved on by hand meanwhile: ask instead
            service.set_candidates(tid, [result.moves], f"could not play it: {exc.reason}")
            return Acted("ask", "ask", exc.reason, candidates=[list(result.moves)])
        service.set_candidates(tid, [], "")
        return Acted("apply", "watching", f"camera played: {'; '.join(result.moves)}", moves=list(result.moves))
    if result.status == "ask":
        service.set_candidates(tid, result.candidates, result.reason)
        return Acted("ask", "ask", result.reason, candidates=[list(c) for c in result.candidates])
    if result.status == "unexplained":
        return Acted("unexplained", "watching", result.reason)
    return Acted(result.status, "watching", "")


def act_on_view(service: TableService, tid: str, view: dict, view_id: str) -> Acted:
    """A worker's stable view of `tid`, reconciled with the table as the log has it now.
    ValueError when the view does not fit this game's TableView."""
    if service.knows_move_id(tid, f"{view_id}.0"):
        return Acted("repeated", "watching", "")
    match = service.match(tid)
    try:
        result = reconcile(match.engine, match.state, view)
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
        raise ValueError(f"the view does not fit a {match.engine.name} table: {type(exc).__name__}: {exc}") from None
    return act_on(service, tid, result, move_id=view_id)
