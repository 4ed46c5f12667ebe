"""The camera's side of a game: what the table looks like, and which moves explain a change.

A TableView is plain JSON data: what is physically on the table. A game the camera reads
implements `CameraRules` next to its `Engine`; `rules.core.reconcile` uses it to turn a stable
view into moves. A game the camera does not read (Dreams) simply does not implement it.
"""
from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

from rules.core.engine import Engine
from rules.core.errors import IllegalMove

UNKNOWN = None  # an observed field the camera could not read matches anything
ANY_OF = "$any_of"  # an expected view {ANY_OF: [a, b]}: the table may look like a or b


@runtime_checkable
class CameraRules(Protocol):
    """What reconcile asks of a game the camera reads."""

    def expected_view(self, state: Any) -> dict:
        """The TableView the physical table shows in `state`."""

    def chance_from_view(self, state: Any, observed: dict) -> list[Any]:
        """Chance outcomes (a roll, a reveal) that the observed table shows, if one is awaited."""

    def explain(self, state: Any, observed: dict) -> list[list[Any]]:
        """Move sequences that turn `state`'s table into `observed` (often `one_move`)."""


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


def one_move(engine: Engine, camera: CameraRules, state: Any, observed: dict) -> list[list[Any]]:
    """The single moves (legal, or a chance outcome the table shows) that lead to `observed`.

    `engine` and `camera` are usually the same object: a game class implementing both."""
    found = []
    for move in list(engine.legal_moves(state)) + list(camera.chance_from_view(state, observed)):
        try:
            after = engine.apply(state, move)
        except IllegalMove:
            continue
        if view_matches(camera.expected_view(after), observed):
            found.append([move])
    return found
