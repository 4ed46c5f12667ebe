"""Quarx at a glance: the sphere count per card of the last camera frame, for the page.

Contract: `glance_of(drawn, shape, hand) -> dict`, a small JSON value that changes only when a
count or a doubt changes (cards left to right, no pixel positions), so the page can be told on
every change without being flooded:

    {"cards": [{"spheres": 7 | None, "reason": None | "why unsure"}], "total": 23 | None,
     "reason": None | "why there is no total"}

A card the counter is unsure of has spheres None and a reason a player can act on; "total" is
None whenever any card is unsure ("unsure is shown as unsure, never a guess").
"""
from __future__ import annotations

from typing import Any

from vision.detector.quarx import QuarxCount

TOO_CLOSE = "spheres too close to call: spread the card flat or hold still"
HAND = "a hand is over the table: move your hand"
NOT_WHOLE = "a card is not seen whole: spread the cards apart"
NO_CARDS = "no Quarx cards face up yet"


HIDDEN = "hidden until everyone has laid"


def glance_of(drawn: Any, shape: tuple[int, ...], hand: bool = False, hide_counts: bool = False) -> dict:
    """The glance for one frame of `shape` (h, w, ...) from what the Quarx reader drew.

    `hide_counts`: while players are still counting the rules hide the counts on the shared
    screen (rules.quarx.engine), so the glance keeps which cards are unsure but not the numbers."""
    got = _glance(drawn, hand)
    if hide_counts:
        got = {"cards": [{"spheres": None, "reason": c["reason"], "hidden": True} for c in got["cards"]],
               "total": None, "reason": HIDDEN}
    return got


def _glance(drawn: Any, hand: bool) -> dict:
    if hand:
        return {"cards": [], "total": None, "reason": HAND}
    if not isinstance(drawn, QuarxCount) or not drawn.cards:
        return {"cards": [], "total": None, "reason": NO_CARDS}
    cards = sorted(drawn.cards, key=lambda c: (c.box[0] + c.box[2]) / 2)
    out = [{"spheres": c.spheres, "reason": None} if c.spheres >= 0 else {"spheres": None, "reason": TOO_CLOSE}
           for c in cards]
    if any(c["spheres"] is None for c in out):
        return {"cards": out, "total": None, "reason": "a card is unsure: " + TOO_CLOSE}
    if not drawn.sure:
        return {"cards": out, "total": None, "reason": NOT_WHOLE}
    return {"cards": out, "total": drawn.spheres, "reason": None}
