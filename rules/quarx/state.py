"""A Quarx table as plain data (the rules that change it are in rules.quarx.engine)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final, Literal

Phase = Literal["reveal", "answer", "turn", "over"]
# TURN: everyone has laid, and some cards were laid unseen (Lay): they are turned over next.
REVEAL: Final = "reveal"
ANSWER: Final = "answer"
TURN: Final = "turn"
OVER: Final = "over"


@dataclass
class QuarxState:
    """The whole table: piles, the cards face up, the answers laid so far, the points."""

    players: list[str]
    target: int | None
    piles: dict[str, int]
    deck: list[int]  # sphere counts still face down in the piles; only the random reveal reads it
    out_of_play: int
    round: int = 1
    deal: int = 1
    phase: Phase = REVEAL
    revealed: list[int] = field(default_factory=list)
    turned: int = 0  # cards face up this round (a reveal may give only the total)
    total: int | None = None
    # {"player", "cards", "announced", "group", "unseen"}: cards None = passed; unseen = laid by
    # "Ann lays", so `cards` is None until the turn over.
    answers: list[dict] = field(default_factory=list)
    scores: dict[str, int] = field(default_factory=dict)
    rounds: list[dict] = field(default_factory=list)
