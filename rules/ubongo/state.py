"""The state of an Ubongo table: plain data, JSON round-trippable."""
from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Final, Literal

from rules.ubongo.components import Components, from_options

Phase = Literal["roll", "take", "enter", "over"]
ROLL: Final = "roll"
TAKE: Final = "take"
ENTER: Final = "enter"
OVER: Final = "over"


@dataclass
class UbongoState:
    """Where the game stands; players are listed clockwise from the first die-roller."""

    players: list[str]
    comps: Components
    areas: int                    # puzzle areas played: 6, or 5 in the two-player option
    dice: int                     # dice of each colour in play
    area: int = 0                 # the current puzzle area, 0-based
    round: int = 1                # the round within the current area, from 1
    roller: int = 0               # index of the die-roller
    phase: Phase = ROLL
    black: list[str] = field(default_factory=list)   # black faces showing on the table, sorted
    white: list[str] = field(default_factory=list)
    taken: dict[str, list[str]] = field(default_factory=dict)    # player -> [black, white] grabbed
    unused: dict[str, list[str]] = field(default_factory=dict)   # grabbed shapes not yet entered
    done: list[str] = field(default_factory=list)                # players who stopped entering
    filled: dict[str, list[dict]] = field(default_factory=dict)  # player -> [{"shape", "cells"}] this area
    finished: dict[str, int] = field(default_factory=dict)       # points won on this area so far
    finish_rounds: int = 0        # rounds of this area in which someone finished
    points: dict[str, list[int]] = field(default_factory=dict)   # points of each completed area
    last: dict = field(default_factory=dict)                     # what the last scored round gave


def to_json(state: UbongoState) -> dict:
    """A JSON-ready dict of the state."""
    data = asdict(state)
    data["comps"] = state.comps.to_options()
    return data


def from_json(data: dict) -> UbongoState:
    """The state stored by to_json."""
    fields = dict(data)
    fields["comps"] = from_options(data["comps"])
    return UbongoState(**fields)
