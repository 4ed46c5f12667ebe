"""Counting spheres on Quarx cards: find the cards, then count spheres in each card crop."""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from rules.quarx.scoring import cards_for
from vision.detector.model import Detector, load_detector
from vision.games.quarx.cards import count_quarx_classical


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
        return {"spheres": self.spheres,
                "cards": [[*(round(v, 1) for v in c.box), c.spheres] for c in self.cards],
                "number_cards": self.number_cards}

    def sentence(self) -> str:
        if not self.sure:
            return "spheres: unsure, a card marked ? is too close to call: spread its spheres out or hold the camera still"
        if self.spheres > 31:
            return f"{self.spheres} spheres: more than 31, show all five cards (16 + 8 + 4 + 2 + 1)"
        if self.spheres == 0:
            return "0 spheres: no number card"
        return f"{self.spheres} = " + " + ".join(str(n) for n in self.number_cards)


def number_cards_for(total: int) -> list[int]:
    """The number cards (16, 8, 4, 2, 1) that sum to `total`; all five above 31."""
    return list(cards_for(total))


def _grow(box, frac: float, w: int, h: int) -> tuple[int, int, int, int]:
    x1, y1, x2, y2 = box
    dx, dy = (x2 - x1) * frac, (y2 - y1) * frac
    return (int(max(0, x1 - dx)), int(max(0, y1 - dy)), int(min(w, x2 + dx)), int(min(h, y2 + dy)))


METHODS = ("auto", "net", "classical")


def _classical(frame: np.ndarray) -> QuarxCount | None:
    """The plain-OpenCV counter (vision.games.quarx.cards), or None where it is unsure."""
    cards = count_quarx_classical(frame)
    if not cards or any(c.spheres is None for c in cards):
        return None
    total = sum(c.spheres for c in cards)
    return QuarxCount(total, [QuarxCard(tuple(float(v) for v in c.box), c.spheres) for c in cards],
                      number_cards_for(total))


def count_quarx(frame: np.ndarray, detector: Detector | None = None, conf: float = 0.4,
                method: str = "auto") -> QuarxCount:
    """Count spheres on the Quarx cards in a BGR frame (bubbles and other shapes do not count).

    method: "net" (detector: cards, then spheres in each card crop), "classical" (plain
    OpenCV; falls back to the net where it is unsure) or "auto" (the same as classical:
    measured more often exact on close-ups, see models/MODEL_CARD.md).
    """
    if method not in METHODS:
        raise ValueError(f"method must be one of {METHODS}")
    if method != "net":
        got = _classical(frame)
        if got is not None:
            return got
    det = detector or load_detector()
    h, w = frame.shape[:2]
    cards = [d for d in det.detect(frame, conf=conf, classes={"quarx_card"})]
    # A card crop is re-run at full network resolution: spheres on a far card are only a few
    # pixels in the whole frame.
    regions = [_grow(c.box, 0.04, w, h) for c in cards] or [(0, 0, w, h)]
    out_cards: list[QuarxCard] = []
    boxes: list[tuple[float, float, float, float]] = []
    for i, (x1, y1, x2, y2) in enumerate(regions):
        crop = frame[y1:y2, x1:x2]
        if crop.size == 0:
            continue
        found = det.detect(crop, conf=conf, classes={"sphere"})
        found = [s for s in found if _inside_card(s.box, cards[i].box if cards else None, x1, y1)]
        boxes += [(s.box[0] + x1, s.box[1] + y1, s.box[2] + x1, s.box[3] + y1) for s in found]
        if cards:
            out_cards.append(QuarxCard(cards[i].box, len(found)))
    total = len(boxes)
    return QuarxCount(total, out_cards, number_cards_for(total), boxes)


def _inside_card(sbox, card, ox: int, oy: int) -> bool:
    if card is None:
        return True
    cx, cy = (sbox[0] + sbox[2]) / 2 + ox, (sbox[1] + sbox[3]) / 2 + oy
    return card[0] <= cx <= card[2] and card[1] <= cy <= card[3]
