"""Quarx: the Quarx cards face up in the middle and the spheres on each; the players' number cards.

The cards are found by plain OpenCV and their spheres counted shape by shape by a small
classifier (vision.games.quarx.cards, .sphere_model), measured better than the detector network
on our footage and on a look it never saw; when unsure about any shape it reports no count at
all, so the game waits (or a person types the reveal) rather than applying a wrong one. The number
cards (vision.games.quarx.numbers) are told apart by colour and never counted as Quarx cards; the
same rule holds: any doubt about any of them and `laid` is None.
"""
from __future__ import annotations

import numpy as np

from vision.detector import QuarxCard, QuarxCount, number_cards_for
from vision.games.quarx.cards import table_cards
from vision.games.quarx.numbers import STRAY_TABLE, piles_of, read_number_card, stray_colour
from vision.pipeline import ReadContext, Reading, Settling


class QuarxReader:
    """The Reader of a Quarx table (vision.pipeline)."""

    # The sphere counts are often unsure while the players' piles are read on every frame:
    # each field settles on its own.
    settle: Settling = "per_field"
    reread = 1  # a card unsure on one frame (noise, glare) is often sure on the next

    def read(self, frame: np.ndarray, context: ReadContext) -> Reading:
        return read_quarx(frame, context.detector)


def read_quarx(frame: np.ndarray, detector=None) -> Reading:
    """{"face_up": ascending sphere counts of the Quarx cards in view | None,
    "laid": [[colour, "down" | [values, descending]], ...] by colour | None}; None = unsure."""
    cards = table_cards(frame)
    counts = [c.spheres for c in cards.quarx]
    # Strong colour outside every card found: a card (of either kind) not found whole. A patch
    # the size of the table is the table's own colour: number cards cannot be told from it
    # (laid unsure), while the Quarx cards, found by their outlines, still count.
    stray = stray_colour(frame, [c.corners for c in cards.quarx] + cards.numbers + cards.unknown)
    table_coloured = stray >= STRAY_TABLE
    face_up_sure = None not in counts and not cards.unknown and (not stray or table_coloured)
    numbers = [read_number_card(frame, c) for c in cards.numbers]
    laid = None if cards.unknown or stray else piles_of(numbers)
    total = sum(counts) if face_up_sure else 0
    labels = [(n.box, _label(n)) for n in numbers]
    drawn = QuarxCount(total, [QuarxCard(c.box, c.spheres if c.spheres is not None else -1) for c in cards.quarx],
                       number_cards_for(total), labels=labels, sure=face_up_sure or not cards.quarx)
    view = {"face_up": sorted(counts) if face_up_sure else None, "laid": laid}
    return Reading(view, drawn)


def _label(card) -> str:
    """What the picture says of a number card: 'red 16', 'red down', or '?' where unsure."""
    if not card.sure:
        return "?"
    return f"{card.colour} {card.value if card.face_up else 'down'}"
