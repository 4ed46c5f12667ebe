"""The state of a Dreams game: plain data, with its JSON form."""
from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Final, Literal, get_args

from rules.dreams.components import STAR_KINDS

# Phases of a round, in order; "over" once the game has ended.
Phase = Literal["layout", "deal", "stars", "guess", "over"]
LAYOUT: Final = "layout"
DEAL: Final = "deal"
STARS: Final = "stars"
GUESS: Final = "guess"
OVER: Final = "over"
PHASES: tuple[Phase, ...] = get_args(Phase)


@dataclass
class Star:
    """A star on the firmament; x and y in thousandths of its width and height."""

    player: str
    kind: str
    x: int
    y: int


@dataclass
class Award:
    """The Gods points one player got in a round, with the book's reasons."""

    player: str
    points: int
    reasons: list[str] = field(default_factory=list)


@dataclass
class RoundResult:
    """A finished round as everybody saw it at the reveal."""

    number: int
    dealer: str
    cards: list[int]
    stars: list[Star]
    vision: int
    mortal: str
    guesses: dict[str, str]
    awards: list[Award]  # in award order, beginning with the mortal
    scores: dict[str, int]  # after the round


@dataclass
class DreamsState:
    """One canonical state; the secrets (vision, mortal, markers, guesses) are hidden by the views."""

    players: list[str]
    colours: list[str]  # colours[i] is the crescent colour of players[i]
    scores: dict[str, int]
    dealer: int  # seat of this round's dealer
    round: int = 1
    phase: Phase = LAYOUT
    cards: list[int] = field(default_factory=list)  # cards[i] shows image number i + 1
    used_cards: list[int] = field(default_factory=list)  # put aside in earlier rounds
    vision: int | None = None  # secret until the reveal
    mortal: str | None = None  # secret until the reveal
    markers: dict[str, str] = field(default_factory=dict)  # secret piecewise marker entries
    void_deals: int = 0  # piecewise deals refused in this round because the markers did not match
    stars: list[Star] = field(default_factory=list)
    guesses: dict[str, str] = field(default_factory=dict)  # secret until the reveal
    results: list[RoundResult] = field(default_factory=list)

    def colour_of(self, player: str) -> str:
        """The crescent colour of `player`."""
        return self.colours[self.players.index(player)]

    def player_of(self, colour: str) -> str:
        """The player who has the crescent of `colour`."""
        return self.players[self.colours.index(colour)]

    def seat_order(self, first: int) -> list[str]:
        """All players in turn order (to the left) beginning with seat `first`."""
        n = len(self.players)
        return [self.players[(first + k) % n] for k in range(n)]

    def star_turn(self) -> str | None:
        """Who places the next star (the dealer begins), or None outside the star phase."""
        if self.phase != STARS:
            return None
        return self.players[(self.dealer + len(self.stars)) % len(self.players)]

    def stars_left(self, player: str) -> list[str]:
        """The kinds of star `player` has not placed yet this round."""
        placed = {s.kind for s in self.stars if s.player == player}
        return [k for k in STAR_KINDS if k not in placed]


def to_json(state: DreamsState) -> dict:
    """A JSON-ready dict of the whole state, secrets included (for storage, not for viewers)."""
    return asdict(state)


def from_json(data: dict) -> DreamsState:
    """The state that `to_json` wrote."""
    d = dict(data)
    d["stars"] = [Star(**s) for s in d.get("stars", [])]
    d["results"] = [
        RoundResult(**{**r, "stars": [Star(**s) for s in r["stars"]], "awards": [Award(**a) for a in r["awards"]]})
        for r in d.get("results", [])
    ]
    return DreamsState(**d)
