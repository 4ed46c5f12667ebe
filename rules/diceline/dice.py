"""A player's die spaces: which die a text like 'grey 3' names, and where a die may move."""
from __future__ import annotations

from rules.diceline.components import DIE_SPACES
from rules.diceline.state import Player


def slot_of(player: Player, colour: str, value: int) -> int | None:
    """The first die space of `colour` holding a die showing `value`."""
    for i, c in enumerate(DIE_SPACES):
        if c == colour and player.dice[i] == value:
            return i
    return None


def free_slot(player: Player, colour: str, other_than: int | None = None) -> int | None:
    """An empty die space of `colour` (not `other_than`)."""
    for i, c in enumerate(DIE_SPACES):
        if c == colour and not player.dice[i] and i != other_than:
            return i
    return None


def dice_named(player: Player) -> list[tuple[str, int, int]]:
    """(colour, value, slot) of each die a move can name; equal dice in one colour are named once."""
    seen: set[tuple[str, int]] = set()
    out = []
    for i, c in enumerate(DIE_SPACES):
        v = player.dice[i]
        if v and (c, v) not in seen:
            seen.add((c, v))
            out.append((c, v, i))
    return out


def dice_left(player: Player) -> int:
    """Dice still on the player board."""
    return sum(1 for v in player.dice if v)


def describe(player: Player) -> str:
    """'red 2, grey 3, grey 5' (or 'no dice')."""
    names = [f"{c} {player.dice[i]}" for i, c in enumerate(DIE_SPACES) if player.dice[i]]
    return ", ".join(names) if names else "no dice"


def take(player: Player, slot: int) -> tuple[str, int]:
    """Lift the die out of `slot`: (its physical colour, its value)."""
    made, value = player.dice_made[slot], player.dice[slot]
    player.dice[slot], player.dice_made[slot] = 0, ""
    return made, value


def put(player: Player, slot: int, made: str, value: int) -> None:
    """Set a die into `slot`."""
    player.dice[slot], player.dice_made[slot] = value, made
