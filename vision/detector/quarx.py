"""What a Quarx count is: spheres per card and in total, and the number cards that make it.

The counting itself is vision.games.quarx.photo (a photo) and vision.games.quarx.reader (the
camera at a table)."""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from rules.quarx.scoring import cards_for


@dataclass(frozen=True)
class QuarxCard:
    """One card: its box in original pixels and the spheres counted on it."""

    box: tuple[float, float, float, float]
    spheres: int


@dataclass(frozen=True)
class QuarxCount:
    """Spheres per card and in total, and the number cards that make the total."""

    spheres: int
    cards: list[QuarxCard]
    number_cards: list[int]
    sphere_boxes: list[tuple[float, float, float, float]] = field(default_factory=list)
    # Other things read on the table, drawn on the picture only: [(box, label)] (the number cards).
    labels: list[tuple[tuple[float, float, float, float], str]] = field(default_factory=list)
    sure: bool = True  # False: some card's spheres were too close to call, so there is no total

    def to_json(self) -> dict:
        """{"spheres", "cards": [[x1, y1, x2, y2, spheres]], "number_cards"}; unsure is null (a
        card's spheres, and then the total, with no number cards)."""
        return {"spheres": self.spheres if self.sure else None,
                "cards": [[*(round(v, 1) for v in c.box), c.spheres if c.spheres >= 0 else None] for c in self.cards],
                "number_cards": self.number_cards if self.sure else []}

    def sentence(self) -> str:
        if not self.sure and not self.cards:
            return ("spheres: unsure, no Quarx card seen whole and the spheres in view too close to call: "
                    "lay the cards flat and apart, all of each in view")
        if not self.sure:
            return "spheres: unsure, a card marked ? is too close to call: spread its spheres out or hold the camera still"
        where = "" if self.cards else " in the whole picture (no card seen whole)"
        if self.spheres > 31:
            return f"{self.spheres} spheres{where}: more than 31, show all five cards (16 + 8 + 4 + 2 + 1)"
        if self.spheres == 0:
            return f"0 spheres{where}: no number card"
        return f"{self.spheres}{where} = " + " + ".join(str(n) for n in self.number_cards)


def number_cards_for(total: int) -> list[int]:
    """The number cards (16, 8, 4, 2, 1) that sum to `total`; all five above 31."""
    return list(cards_for(total))
