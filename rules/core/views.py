"""Hidden information: what each player may see (OpenSpiel's Observer, boardgame.io's playerView).

Kept apart from the rules (`rules.core.engine`): a game without secrets takes `OpenViews` as it
is; a game with secrets (Dreams, Quarx's face-down cards) overrides what it must. The server
shows nothing of a state except through these methods.
"""
from __future__ import annotations

from typing import Any, Protocol, runtime_checkable


@runtime_checkable
class Observer(Protocol):
    """What the server asks of a game about who sees what."""

    # True for hidden-information games: their random draws must not follow from a seed
    # that players can read or choose (the server derives a secret one).
    secret_chance: bool

    def view(self, state: Any, player: str | None = None) -> dict:
        """What `player` may see of `state` (None: the public view for the shared screen)."""

    def history_view(self, state: Any, moves: list[str], player: str | None = None) -> list[str]:
        """The move log as `player` may read it (hidden-information games redact it)."""

    def legal_moves_view(self, state: Any, player: str | None = None) -> list[str]:
        """The legal move texts `player` may see and play (None: the shared screen)."""

    def private_player(self, state: Any, move: Any) -> str | None:
        """The player whose own private link must make `move` (a secret guess), or None."""

    def undo_refusal(self, state: Any, last_move: str) -> str | None:
        """Why `last_move` (just played, leading to `state`) must not be taken back, or None.

        Hidden-information games refuse to undo what would leak or re-roll a secret (a locked
        guess, a deal already looked at)."""


class OpenViews:
    """The Observer of a game with nothing hidden: everyone sees the whole state and log.

    A mixin for an `Engine` (it uses the engine's `to_json` and `legal_moves`)."""

    secret_chance: bool = False

    def view(self, state: Any, player: str | None = None) -> dict:
        return self.to_json(state)  # type: ignore[attr-defined]

    def history_view(self, state: Any, moves: list[str], player: str | None = None) -> list[str]:
        return list(moves)

    def legal_moves_view(self, state: Any, player: str | None = None) -> list[str]:
        return [str(m) for m in self.legal_moves(state)]  # type: ignore[attr-defined]

    def private_player(self, state: Any, move: Any) -> str | None:
        return None

    def undo_refusal(self, state: Any, last_move: str) -> str | None:
        return None
