"""From what the camera sees to a move: a chess board scanner's diff against the legal moves.

The camera reports a TableView (plain JSON data: what is physically on the table). The engine
says what the table must look like now (`expected_view`) and which move sequences would turn
it into the observed one (`explain`). Exactly one explanation: apply it. None or several: show
the candidates to a person and keep watching. A view that already matches changes nothing.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from rules.core.camera import CameraRules, view_matches
from rules.core.engine import Engine

Status = Literal["unchanged", "apply", "ask", "unexplained", "unreadable"]


@dataclass
class Reconciliation:
    """What the camera's view means for the game."""

    status: Status
    moves: list[str] = field(default_factory=list)  # the sequence to apply when status == apply
    candidates: list[list[str]] = field(default_factory=list)  # the choices when status == ask
    reason: str = ""


def reconcile(engine: Engine, state: Any, observed: dict, max_candidates: int = 12) -> Reconciliation:
    """Which legal move (or short sequence) explains the observed table; see the module doc.

    `engine` is a game's Engine; unless it also implements CameraRules the answer is 'unreadable'."""
    if not isinstance(engine, CameraRules):
        return Reconciliation("unreadable", reason=f"{engine.title} is not read by the camera")
    expected = engine.expected_view(state)
    if engine.is_over(state):
        return Reconciliation("unchanged", reason="the game is over")
    if view_matches(expected, observed):
        return Reconciliation("unchanged")
    found = engine.explain(state, observed)
    texts = [[str(m) for m in seq] for seq in found]
    if len(texts) == 1:
        return Reconciliation("apply", moves=texts[0])
    if not texts:
        return Reconciliation("unexplained", reason="no legal move explains what the camera sees")
    return Reconciliation("ask", candidates=texts[:max_candidates], reason=f"{len(texts)} moves fit what the camera sees")
