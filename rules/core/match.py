"""A game in progress: the engine, the players, the move log and the states it produced."""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from rules.core.engine import Engine
from rules.core.errors import IllegalMove

RANDOM = "random"


@dataclass
class Match:
    """One table's game. The log of move texts is the truth; states are its replay."""

    engine: Engine
    players: list[str]
    options: dict[str, Any] = field(default_factory=dict)
    seed: int | str = 0
    moves: list[str] = field(default_factory=list)
    _states: list[Any] = field(default_factory=list, repr=False)

    def __post_init__(self) -> None:
        if not self._states:
            self._states = [self.engine.initial_state(list(self.players), dict(self.options))]
        logged, self.moves = self.moves, []
        for text in logged:
            self.play(text)

    @property
    def state(self) -> Any:
        return self._states[-1]

    @property
    def states(self) -> tuple[Any, ...]:
        """Every state of the game: before the first move, then after each move."""
        return tuple(self._states)

    def rng_for_next(self) -> random.Random:
        """The RNG for the next chance move: fixed by the seed and the move number."""
        return random.Random(f"{self.seed}:{len(self.moves)}")

    def canonical(self, text: str) -> Any:
        """The move `text` stands for now; `random` draws the awaited chance outcome."""
        text = " ".join(text.split())
        if self.engine.is_over(self.state):
            raise IllegalMove("the game is over", rule="end of game")
        if text.lower() == RANDOM:
            if self.engine.chance(self.state) is None:
                raise IllegalMove("'random' only answers a chance point (a roll, a reveal, a deal)", rule="chance")
            return self.engine.sample_chance(self.state, self.rng_for_next())
        return self.engine.parse_move(self.state, text)

    def play(self, move: Any) -> str:
        """Apply a move (its text, or a value from `canonical`); returns the logged text."""
        if isinstance(move, str):
            move = self.canonical(move)
        new_state = self.engine.apply(self.state, move)
        self._states.append(new_state)
        self.moves.append(str(move))
        return str(move)

    def undo(self) -> str:
        """Take back the last move and return its text."""
        if not self.moves:
            raise IllegalMove("there is no move to undo", rule="undo")
        self._states.pop()
        return self.moves.pop()
