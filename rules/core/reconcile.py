"""From what the camera sees to a move: a chess board scanner's diff against the legal moves.

The camera reports a TableView (plain JSON data: what is physically on the table). The engine
says what the table must look like now (`expected_view`) and which move sequences would turn
it into the observed one (`explain`). Exactly one explanation: apply it. None or several: show
the candidates to a person and keep watching. A view that already matches changes nothing.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rules.core.engine import Engine

UNKNOWN = None  # an observed field the camera could not read matches anything
ANY_OF = "$any_of"  # an expected view {ANY_OF: [a, b]}: the table may look like a or b


def view_matches(expected: Any, observed: Any) -> bool:
    """True when every field the camera read agrees with the expected view."""
    if observed is UNKNOWN:
        return True
    if isinstance(expected, dict) and ANY_OF in expected:
        return any(view_matches(e, observed) for e in expected[ANY_OF])
    if isinstance(observed, dict):
        if not isinstance(expected, dict):
            return False
        return all(view_matches(expected.get(k), v) for k, v in observed.items())
    if isinstance(observed, (list, tuple)):
        if not isinstance(expected, (list, tuple)) or len(expected) != len(observed):
            return False
        return all(view_matches(e, o) for e, o in zip(expected, observed))
    return expected == observed


@dataclass
class Reconciliation:
    """What the camera's view means for the game."""

    status: str  # unchanged | apply | ask | unexplained | unreadable
    moves: list[str] = field(default_factory=list)  # the sequence to apply when status == apply
    candidates: list[list[str]] = field(default_factory=list)  # the choices when status == ask
    reason: str = ""


def reconcile(engine: Engine, state: Any, observed: dict, max_candidates: int = 12) -> Reconciliation:
    """Which legal move (or short sequence) explains the observed table; see the module doc."""
    expected = engine.expected_view(state)
    if expected is None:
        return Reconciliation("unreadable", reason=f"{engine.title} is not read by the camera")
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
