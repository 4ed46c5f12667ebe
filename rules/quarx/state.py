"""A Quarx table as plain data (the rules that change it are in rules.quarx.engine)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final, Literal, TypedDict

Phase = Literal["reveal", "answer", "turn", "over"]
# TURN: everyone has laid, and some cards were laid unseen (Lay): they are turned over next.
REVEAL: Final = "reveal"
ANSWER: Final = "answer"
TURN: Final = "turn"
OVER: Final = "over"


class AnswerRecord(TypedDict):
    """One player's answer this round, in the order laid."""

    player: str
    cards: list[int] | None  # None: passed, or laid unseen and not turned over yet
    announced: int | None  # the total the player called out, if any
    group: int  # finishing place; players who tie share one
    unseen: bool  # laid face down by "Ann lays": `cards` is None until the turn over


class RoundRecord(TypedDict):
    """A scored round, as the table and the page read it back."""

    round: int
    deal: int
    revealed: list[int]
    total: int | None
    turned: int
    verdicts: list[dict]
    points: dict[str, int]
    laid: dict[str, list[int]]  # the number cards as they lie turned up until picked up


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
    answers: list[AnswerRecord] = field(default_factory=list)
    scores: dict[str, int] = field(default_factory=dict)
    rounds: list[RoundRecord] = field(default_factory=list)
