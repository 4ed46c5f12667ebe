"""The engine contract (after OpenSpiel's games and python-chess).

An engine is stateless: it holds the rules; a state is plain data. Moves are small immutable
values whose `str()` is the readable text that `parse_move` reads back, so the page, the event
log, the tests and error messages all use the same words. Chance (rolls, reveals, deals) is a
move too: in tests a seeded RNG picks it (`sample_chance`), at the table the camera or a person
types the outcome; one code path for all three.

This is the whole of the rules' contract. What each player may see lives apart
(`rules.core.views`), and so does what the camera sees (`rules.core.camera`).
"""
from __future__ import annotations

import copy
import random
from abc import ABC, abstractmethod
from typing import Any, Generic, TypeVar

from rules.core.errors import IllegalMove
from rules.core.names import check_name

S = TypeVar("S")


class Engine(ABC, Generic[S]):
    """Rules of one game. Subclasses implement the abstract methods; the rest has defaults."""

    name: str = ""
    title: str = ""
    min_players: int = 2
    max_players: int = 2
    options_help: dict[str, str] = {}

    # -- setup -------------------------------------------------------------------------
    @abstractmethod
    def initial_state(self, players: list[str], options: dict[str, Any]) -> S:
        """The state before the first move; raise IllegalMove for a bad player count or option."""

    def check_players(self, players: list[str]) -> None:
        """Refuse a player list the game cannot be played with."""
        if not self.min_players <= len(players) <= self.max_players:
            raise IllegalMove(
                f"{self.title} is played by {self.min_players} to {self.max_players} players, "
                f"not {len(players)}",
                rule="players",
            )
        for p in players:
            check_name(p)
        if len(set(players)) != len(players):
            raise IllegalMove("every player needs a different name", rule="players")

    # -- moves -------------------------------------------------------------------------
    @abstractmethod
    def parse_move(self, state: S, text: str) -> Any:
        """Read a move from its text form; MoveSyntaxError if it is not a move of this game."""

    @abstractmethod
    def legal_moves(self, state: S) -> list[Any]:
        """Every legal non-chance move now (empty at a chance point or when the game is over).

        The one truth about legality: `apply` accepts no non-chance move missing from this list
        (tests/rules/test_engine_contract.py checks it on random games of every engine)."""

    @abstractmethod
    def _apply(self, state: S, move: Any) -> None:
        """Check `move` against the rules and apply it to `state` in place; raise IllegalMove."""

    def apply(self, state: S, move: Any) -> S:
        """The state after `move` (a move value or its text); `state` itself is left untouched."""
        if isinstance(move, str):
            move = self.parse_move(state, move)
        if self.is_over(state):
            raise IllegalMove("the game is over", rule="end of game")
        new = copy.deepcopy(state)
        self._apply(new, move)
        return new

    # -- chance ------------------------------------------------------------------------
    def chance(self, state: S) -> str | None:
        """What outcome the game is waiting for (a roll, a reveal, a deal), or None."""
        return None

    def sample_chance(self, state: S, rng: random.Random) -> Any:
        """Draw the awaited chance outcome from `rng` (only when `chance(state)` is not None)."""
        raise IllegalMove("no chance outcome is awaited now", rule="chance")

    # -- results -----------------------------------------------------------------------
    @abstractmethod
    def scores(self, state: S) -> dict[str, int]:
        """Points of each player so far."""

    @abstractmethod
    def is_over(self, state: S) -> bool:
        """True when the game has ended."""

    @abstractmethod
    def winners(self, state: S) -> list[str]:
        """The winners (several on a tie); empty while the game goes on."""

    def to_move(self, state: S) -> list[str]:
        """The players who may act now (several in simultaneous phases)."""
        return []

    # -- serialisation -------------------------------------------------------------------
    @abstractmethod
    def to_json(self, state: S) -> dict:
        """A JSON-ready dict that `from_json` turns back into an equal state."""

    @abstractmethod
    def from_json(self, data: dict) -> S:
        """The state stored by `to_json`."""
