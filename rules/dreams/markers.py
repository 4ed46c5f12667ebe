"""The four stacks of Gods markers and the random deal from one of them, as the book does it."""
from __future__ import annotations

import random

from rules.dreams.components import GODS_MARKERS_PER_NUMBER, IMAGE_NUMBERS, MORTAL_MARKERS
from rules.dreams.moves import MORTAL


def marker_stacks(players: int) -> list[list[str]]:
    """One stack per image number: players - 1 Gods markers of that number and one Mortal marker."""
    assert players - 1 <= GODS_MARKERS_PER_NUMBER and len(IMAGE_NUMBERS) <= MORTAL_MARKERS
    return [[str(n)] * (players - 1) + [MORTAL] for n in IMAGE_NUMBERS]

def deal(players: list[str], dealer: int, rng: random.Random) -> dict[str, str]:
    """Mix the stacks, take one, mix it, deal one marker each from the dealer round to the left."""
    stacks = marker_stacks(len(players))
    rng.shuffle(stacks)  # the stacks' positions are changed with eyes closed
    stack = stacks[0]  # the dealer chooses one stack ...
    rng.shuffle(stack)  # ... and mixes it
    n = len(players)
    return {players[(dealer + k) % n]: stack[k] for k in range(n)}
