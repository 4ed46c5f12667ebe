"""The Gods points of a round, exactly as the book awards them."""
from __future__ import annotations

from rules.dreams.components import GOD_UNCOVERED, GOD_UNSUSPECTED, MORTAL_DECIPHERED, MORTAL_UNDETECTED
from rules.dreams.state import Award

UNDETECTED = "remained undetected as the mortal"
DECIPHERED = "deciphered the true vision"
UNCOVERED = "uncovered the mortal"
UNSUSPECTED = "was not suspected"


def awards(order: list[str], colours: dict[str, str], mortal: str, vision: int, guesses: dict[str, str]) -> list[Award]:
    """Each player's points in `order` (the mortal first, then to the left), with the reasons."""
    # Only Gods guess colours; the mortal's guess is an image number and suspects nobody.
    suspected = {g for p, g in guesses.items() if p != mortal}
    out = []
    for player in order:
        award = Award(player, 0)
        unsuspected = colours[player] not in suspected
        if player == mortal:
            if unsuspected:
                award.points += MORTAL_UNDETECTED
                award.reasons.append(UNDETECTED)
            if guesses.get(player) == str(vision):
                award.points += MORTAL_DECIPHERED
                award.reasons.append(DECIPHERED)
        else:
            if guesses.get(player) == colours[mortal]:
                award.points += GOD_UNCOVERED
                award.reasons.append(UNCOVERED)
            if unsuspected:
                award.points += GOD_UNSUSPECTED
                award.reasons.append(UNSUSPECTED)
        out.append(award)
    return out
