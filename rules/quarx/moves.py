"""Quarx moves and their text forms.

    reveal 5 3 7 2          the sphere counts on the cards turned this round (chance move)
    reveal total 17         the same when only the total was counted
    Ann 16+4+2+1            Ann lays these number cards (her total is their sum)
    Ann 23 = 16+4+2+1       ... and announces 23 (a wrong announcement can be recorded too)
    Ben ties 16+4+2+1       Ben finished at the same moment as the answer before his
    Cid passes              Cid lays nothing this round
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from rules.core.errors import MoveSyntaxError
from rules.quarx.components import NUMBER_CARDS

FORMS = "'reveal 5 3 7 2', 'reveal total 17', 'Ann 16+4+2+1', 'Ann 23 = 16+4+2+1', 'Ann ties 16+4', 'Ann passes'"


@dataclass(frozen=True)
class Reveal:
    """The cards turned over: per-card sphere counts, or only their total."""

    counts: tuple[int, ...] = ()
    total_only: int | None = None

    @property
    def total(self) -> int:
        return self.total_only if self.total_only is not None else sum(self.counts)

    def __str__(self) -> str:
        if self.total_only is not None:
            return f"reveal total {self.total_only}"
        return "reveal " + " ".join(str(c) for c in self.counts)


@dataclass(frozen=True)
class Answer:
    """A player lays number cards face down, in finishing order."""

    player: str
    cards: tuple[int, ...]
    announced: int | None = None
    tie: bool = False

    @property
    def card_sum(self) -> int:
        return sum(self.cards)

    def __str__(self) -> str:
        verb = " ties" if self.tie else ""
        said = f"{self.announced} = " if self.announced is not None else ""
        return f"{self.player}{verb} {said}{'+'.join(str(c) for c in self.cards)}"


@dataclass(frozen=True)
class Pass:
    """A player gives up the round and lays nothing."""

    player: str

    def __str__(self) -> str:
        return f"{self.player} passes"


Move = Reveal | Answer | Pass

_INT = re.compile(r"^\d{1,4}$")


def parse(text: str, players: list[str]) -> Move:
    """Read one move; MoveSyntaxError names the accepted forms otherwise."""
    text = " ".join(text.split())
    words = text.split(" ")
    if words[0].lower() == "reveal":
        return _parse_reveal(words[1:])
    # Longest name first, so that "Ann Marie" wins over "Ann".
    for name in sorted(players, key=len, reverse=True):
        if text == name or text.startswith(name + " "):
            return _parse_answer(name, text[len(name):].strip())
    raise MoveSyntaxError(f"{text!r} is not a Quarx move; it starts with a player's name or 'reveal' ({FORMS})", rule="move text")


def _parse_reveal(words: list[str]) -> Reveal:
    if len(words) == 2 and words[0].lower() == "total" and _INT.match(words[1]):
        return Reveal(total_only=int(words[1]))
    if words and all(_INT.match(w) for w in words):
        return Reveal(counts=tuple(int(w) for w in words))
    raise MoveSyntaxError("a reveal lists the spheres on each turned card ('reveal 5 3 7 2') or the total ('reveal total 17')", rule="move text")


def _parse_answer(player: str, rest: str) -> Move:
    if rest.lower() in ("passes", "pass"):
        return Pass(player)
    tie = False
    if rest.lower().startswith("ties "):
        tie, rest = True, rest[5:].strip()
    announced = None
    if "=" in rest:
        said, rest = (part.strip() for part in rest.split("=", 1))
        if not _INT.match(said):
            raise MoveSyntaxError(f"the announced total {said!r} is not a number", rule="move text")
        announced = int(said)
    parts = [p.strip() for p in rest.replace(" ", "").split("+")] if rest else []
    if not parts or not all(_INT.match(p) for p in parts):
        raise MoveSyntaxError(f"{player} lays number cards joined by '+', e.g. '{player} 16+4+2+1' ({FORMS})", rule="move text")
    cards = [int(p) for p in parts]
    for c in cards:
        if c not in NUMBER_CARDS:
            raise MoveSyntaxError(f"there is no number card {c}: the cards are 1, 2, 4, 8 and 16", rule="number cards")
    if len(set(cards)) != len(cards):
        raise MoveSyntaxError(f"{player} has only one card of each number", rule="number cards")
    return Answer(player, tuple(sorted(cards, reverse=True)), announced, tie)
