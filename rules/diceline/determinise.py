"""What the player to move can know, and one sampled world consistent with it.

Diceline has no private hands: every board, die, marker and face-down tile is on the table. What
nobody can see is the future: the dice still to be rolled and the order of the two face-down decks.
Their *contents* are public by elimination (every tile that left a deck went face up in front of
everyone), so the decks' contents are read and their order never is.

`information_set` drops what a player cannot know from a state (the order the engine happens to
keep the layout deck in); `World` is one determinisation: a shuffled deck order and a seed per
round of dice, drawn only from the information set and the advisor's own seed, never from the
match's RNG or seed (which fix the real rolls to come).
"""
from __future__ import annotations

import copy
import random
from dataclasses import dataclass

from rules.diceline import state as S
from rules.diceline.engine import DicelineEngine
from rules.diceline.moves import Move, RevealBonus, RevealLayout
from rules.diceline.state import DicelineState


def information_set(state: DicelineState) -> DicelineState:
    """A copy of `state` holding only what every player can know; equal for equal views.

    The layout deck's list order is an engine detail that a player cannot see; it is sorted so
    that two states differing only in it search the same way under the same seed.
    """
    out = copy.deepcopy(state)
    out.layout_deck = sorted(out.layout_deck)
    return out


@dataclass
class World:
    """One determinisation: deck orders and per-round roll seeds fixed for a whole rollout.

    Every root move's k-th rollout uses the k-th world, so the moves are compared under the same
    dice and draws (common random numbers): the spread between moves is the moves', not luck's.
    """

    key: str
    bonus_order: list[str]
    layout_order: list[int]
    _bonus_at: int = 0
    _layout_at: int = 0

    @classmethod
    def sample(cls, info: DicelineState, key: str) -> "World":
        """Shuffle the decks' known contents with a generator seeded by `key`."""
        rng = random.Random(f"{key}:decks")
        bonus = [k for k in sorted(info.bonus_deck) for _ in range(info.bonus_deck[k])]
        layouts = sorted(info.layout_deck)
        rng.shuffle(bonus)
        rng.shuffle(layouts)
        return cls(key, bonus, layouts)

    def chance_move(self, engine: DicelineEngine, state: DicelineState) -> Move:
        """The outcome this world gives for the chance point `state` is at."""
        if state.reveals:
            if state.reveals[0] == "bonus":
                while self._bonus_at < len(self.bonus_order):
                    kind = self.bonus_order[self._bonus_at]
                    self._bonus_at += 1
                    if state.bonus_deck.get(kind):
                        return RevealBonus(kind)
            else:
                while self._layout_at < len(self.layout_order):
                    tile = self.layout_order[self._layout_at]
                    self._layout_at += 1
                    if tile in state.layout_deck:
                        return RevealLayout(tile)
            # The world's order is used up (cannot happen from a consistent root): draw fresh.
            return engine.sample_chance(state, random.Random(f"{self.key}:extra:{len(state.reveals)}"))
        if state.phase == S.ROLL:
            return engine.sample_chance(state, random.Random(f"{self.key}:roll:{state.round}"))
        return engine.sample_chance(state, random.Random(f"{self.key}:order:{len(state.ranking)}"))
