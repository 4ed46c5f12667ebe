"""Quarx number cards laid on rendered tables: random ink and paper, placed in rows by each seat.

The printed art itself (sizes, set colours, both sides) is vision.games.quarx.spec.
"""
from __future__ import annotations

import numpy as np

from vision.games.quarx.spec import CARD_H, CARD_W, SET_COLOURS, back, face
from vision.synth.cards import FlatArt, rounded_alpha, table_homography


def number_card_art(rng: np.random.Generator, colour: str, value: int, face_up: bool) -> FlatArt:
    """A printed number card of set `colour`, with a little random ink and paper variation."""
    ink = tuple(int(np.clip(c * rng.uniform(0.92, 1.05), 0, 255)) for c in SET_COLOURS[colour])
    paper = tuple(int(v) for v in rng.uniform([225, 230, 232], [250, 252, 254]))
    img = face(value, ink, paper) if face_up else back(ink)
    return FlatArt(img, rounded_alpha(CARD_H, CARD_W, 10))


SCALE = 0.36  # art px to frame px: a number card is about 58 x 84 px in the 640 x 480 footage
SEAT_YAW = (0.0, np.pi, np.pi / 2, -np.pi / 2)  # seat 0 at the bottom edge, 1 top, 2 left, 3 right


def seat_anchor(seat: int, w: int, h: int) -> tuple[float, float]:
    """Roughly where a seat's cards lie: the middle of its band along its edge of the frame."""
    return [(w / 2, h - 45), (w / 2, 45), (45, h / 2), (w - 45, h / 2)][seat]


def row_homographies(seat: int, n: int, tilt: float, rng: np.random.Generator, w: int, h: int,
                     crowded: bool = False) -> list[np.ndarray]:
    """Placements of n cards side by side in a row near the seat's edge, facing that player.

    Rows keep 18+ px from the frame edge and gaps of 12+ px between cards, so every card shows
    a whole outline; `crowded` (3-4 players) keeps the rows off the corners."""
    cw, ch = CARD_W * SCALE, CARD_H * SCALE
    gap = rng.uniform(12, 20)
    margin = rng.uniform(18, 26)  # off the frame edge: a new pile touching it looks like an arm reaching in
    if seat < 2:
        step = cw + gap
        spread = max(0.0, min(50.0 if crowded else 140.0, (w - 16 - n * step) / 2))
        c = w / 2 + rng.uniform(-spread, spread)
        across = h - margin - ch * np.cos(tilt) / 2 if seat == 0 else margin + ch * np.cos(tilt) / 2
    else:
        step = cw * np.cos(tilt) + gap
        c = h / 2 + rng.uniform(-30, 30)
        across = margin + ch / 2 if seat == 2 else w - margin - ch / 2
    out = []
    for k in range(n):
        along = c + (k - (n - 1) / 2) * step
        x, y = (along, across) if seat < 2 else (across, along)
        out.append(cards_homography(x + rng.uniform(-2, 2), y + rng.uniform(-2, 2),
                                    SEAT_YAW[seat] + rng.uniform(-0.05, 0.05), tilt))
    return out


def cards_homography(x: float, y: float, yaw: float, tilt: float) -> np.ndarray:
    """A number card lying on the table centred at (x, y) in the frame."""
    return table_homography(x, y, SCALE, yaw, tilt, 0.0, CARD_W, CARD_H)
