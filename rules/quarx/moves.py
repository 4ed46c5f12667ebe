"""Quarx moves and their text forms.

    reveal 5 3 7 2          the sphere counts on the cards turned this round (chance move)
    reveal total 17         the same when only the total was counted
    Ann 16+4+2+1            Ann lays these number cards (her total is their sum)
    Ann 23 = 16+4+2+1       ... and announces 23 (a wrong announcement can be recorded too)
    Ben ties 16+4+2+1       Ben finished at the same moment as the answer before his
    Cid passes              Cid lays nothing this round
    Ann lays                Ann lays her cards face down; which ones is seen when they are turned over
    Ben ties                ... at the same moment as the answer before his
    turn over: Ann 16+4+2+1, Ben 8+4
                            everyone turns their cards over: the cards of those who laid unseen
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from rules.core.errors import MoveSyntaxError
from rules.quarx.components import NUMBER_CARDS

FORMS = ("'reveal 5 3 7 2', 'reveal total 17', 'Ann 16+4+2+1', 'Ann 23 = 16+4+2+1', 'Ann ties 16+4', 'Ann passes', "
         "'Ann lays', 'Ann ties', 'turn over: Ann 16+4, Ben 8+1'")


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


@dataclass(frozen=True)
class Lay:
    """A player lays number cards face down in finishing order; nobody sees which yet."""

    player: str
    tie: bool = False

    def __str__(self) -> str:
        return f"{self.player} {'ties' if self.tie else 'lays'}"


@dataclass(frozen=True)
class TurnOver:
    """Everyone turns their number cards over: the cards of each player who laid unseen."""

    cards: tuple[tuple[str, tuple[int, ...]], ...]

    def __str__(self) -> str:
        return "turn over: " + ", ".join(f"{p} {'+'.join(str(c) for c in cards)}" for p, cards in self.cards)


Move = Reveal | Answer | Pass | Lay | TurnOver

_INT = re.compile(r"^\d{1,4}$")


def parse(text: str, players: list[str]) -> Move:
    """Read one move; MoveSyntaxError names the accepted forms otherwise."""
    text = " ".join(text.split())
    words = text.split(" ")
    if words[0].lower() == "reveal":
        return _parse_reveal(words[1:])
    if text.lower().startswith("turn over"):
        return _parse_turn_over(text[len("turn over"):].lstrip(" :"), players)
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


def _parse_turn_over(rest: str, players: list[str]) -> TurnOver:
    """'Ann 16+4+2+1, Ben 8+4': each player who laid unseen and the cards turned up."""
    seen: list[tuple[str, tuple[int, ...]]] = []
    for part in (p.strip() for p in rest.split(",")):
        move = parse(part, players) if part else None
        if not isinstance(move, Answer) or move.tie or move.announced is not None:
            raise MoveSyntaxError("a turn over lists each player's cards: 'turn over: Ann 16+4+2+1, Ben 8+4'", rule="move text")
        if move.player in dict(seen):
            raise MoveSyntaxError(f"{move.player} is listed twice in the turn over", rule="move text")
        seen.append((move.player, move.cards))
    order = {p: i for i, p in enumerate(players)}
    return TurnOver(tuple(sorted(seen, key=lambda pc: order[pc[0]])))


def _parse_answer(player: str, rest: str) -> Move:
    if rest.lower() in ("passes", "pass"):
        return Pass(player)
    if rest.lower() in ("lays", "lay", "ties", "tie"):
        return Lay(player, tie=rest.lower().startswith("tie"))
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
