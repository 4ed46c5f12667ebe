"""How a Quarx round is judged and scored (rulebook, "End of a Round and Scoring")."""
from __future__ import annotations

from dataclasses import dataclass

from rules.quarx.components import AWARDS_BY_PLAYERS, NUMBER_CARDS


def cards_for(total: int) -> tuple[int, ...]:
    """The number cards that make `total`; over 31 all five (rulebook, "Note")."""
    if total > sum(NUMBER_CARDS):
        return NUMBER_CARDS
    return tuple(c for c in NUMBER_CARDS if total & c)


@dataclass(frozen=True)
class Verdict:
    """One player's answer as judged when the cards are turned up."""

    player: str
    group: int  # finishing position; tied answers share it
    correct: bool
    reason: str


def judge(player: str, group: int, cards: tuple[int, ...] | None, announced: int | None, total: int) -> Verdict:
    """Right total AND right card combination, as the book asks players to check both."""
    if cards is None:
        return Verdict(player, group, False, "passed")
    right_cards = tuple(sorted(cards, reverse=True)) == cards_for(total) and total > 0
    if announced is not None and announced != total:
        return Verdict(player, group, False, f"announced {announced}, the total is {total}")
    if not right_cards:
        if announced is not None:
            return Verdict(player, group, False, f"right total, wrong cards: {total} is {' + '.join(map(str, cards_for(total)))}")
        return Verdict(player, group, False, f"cards make {sum(cards)}, the total is {total}")
    return Verdict(player, group, True, "correct")


def award(verdicts: list[Verdict], players: int, cards_on_table: int) -> dict[str, int]:
    """Points by finishing order: fastest correct first; wrong answers pass the points on.

    "In case of a tie, all tied players receive one point": tied correct players get 1 each
    and use up as many places as they are (ASSUMPTION: the book does not say whether a
    tie uses up the places after it; this keeps the points handed out within the 2/2-1/3-2-1
    scale). Points are Quarx cards taken from the face-up ones, so never more than are there.
    """
    places = list(AWARDS_BY_PLAYERS[players])
    points: dict[str, int] = {}
    left = cards_on_table
    groups = sorted({v.group for v in verdicts})
    for g in groups:
        if not places or left <= 0:
            break
        right = [v.player for v in verdicts if v.group == g and v.correct]
        if not right:
            continue
        if len(right) == 1:
            gained = min(places.pop(0), left)
            points[right[0]] = gained
            left -= gained
        else:
            for p in right:
                if left <= 0:
                    break
                points[p] = 1
                left -= 1
            del places[: len(right)]
    return points
