"""Quarx number cards drawn flat: the back in the set's colour, the face a coloured numeral.

The rulebook says only "30 number cards (1, 2, 4, 8, 16 in six colors)"; the art is ours:
- ASSUMPTION: the BACK of each number card is printed in its set's colour (with a white
  frame line and ring), so a face-down pile shows whose it is.
- ASSUMPTION: the FACE is a light card with a band in the set's colour along its edge, the
  value as a big numeral in that colour, a small one in a corner, and five pips in a row
  (16 8 4 2 1, left to right) of which the value's is filled.
- ASSUMPTION: number cards are smaller than Quarx cards (160 x 232 against 240 x 340 art px).
The camera tells them from Quarx cards by the coloured band or back, not by their size.
The reader (vision.games.quarx.numbers) draws its templates with these same functions.
"""
from __future__ import annotations

import cv2
import numpy as np

from rules.quarx.components import NUMBER_CARD_COLOURS, NUMBER_CARDS
from vision.synth.cards import FlatArt, rounded_alpha, table_homography

CARD_W, CARD_H = 160, 232
BAND = (0, 14)  # the face's coloured band: from the edge to 14 px inside it
PAPER = (238, 240, 242)
PIP_Y, PIP_STEP, PIP_R = CARD_H - 38, 25, 9  # the row of pips: 16 8 4 2 1 from left to right

# ASSUMPTION: the printed set colours (BGR), saturated so that hue alone tells them apart
# (red 0, orange 13, yellow 26, green 62, blue 107, purple 143 on OpenCV's 0-180 hue scale).
SET_COLOURS: dict[str, tuple[int, int, int]] = {
    "red": (30, 30, 210), "orange": (20, 120, 245), "yellow": (20, 205, 235),
    "green": (40, 170, 30), "blue": (200, 100, 20), "purple": (160, 30, 130),
}
assert tuple(SET_COLOURS) == NUMBER_CARD_COLOURS


def face(value: int, colour: tuple[int, int, int], paper: tuple[int, int, int] = PAPER) -> np.ndarray:
    """The face of a number card (BGR, CARD_H x CARD_W): band, numerals and pips in `colour`."""
    if value not in NUMBER_CARDS:
        raise ValueError(f"no number card {value}")
    w, h = CARD_W, CARD_H
    img = np.empty((h, w, 3), np.uint8)
    img[:] = paper
    mid = sum(BAND) // 2
    cv2.rectangle(img, (mid, mid), (w - 1 - mid, h - 1 - mid), colour, BAND[1] - BAND[0])
    txt = str(value)
    scale, thick = (4.4, 10) if len(txt) == 1 else (3.0, 9)  # as big as the card allows: read at ~60 px wide
    (tw, th), _ = cv2.getTextSize(txt, cv2.FONT_HERSHEY_DUPLEX, scale, thick)
    cv2.putText(img, txt, ((w - tw) // 2, (h + th) // 2 - 8), cv2.FONT_HERSHEY_DUPLEX, scale, colour, thick, cv2.LINE_AA)
    cv2.putText(img, txt, (26, 46), cv2.FONT_HERSHEY_DUPLEX, 0.8, colour, 2, cv2.LINE_AA)
    for i, v in enumerate(NUMBER_CARDS):
        centre = (w // 2 + (i - 2) * PIP_STEP, PIP_Y)
        cv2.circle(img, centre, PIP_R, colour, -1 if v == value else 2, cv2.LINE_AA)
    return img


def back(colour: tuple[int, int, int]) -> np.ndarray:
    """The back of a number card (BGR): the set's colour with a white frame line and ring."""
    w, h = CARD_W, CARD_H
    img = np.empty((h, w, 3), np.uint8)
    img[:] = colour
    cv2.rectangle(img, (14, 14), (w - 15, h - 15), (245, 245, 245), 3, cv2.LINE_AA)
    cv2.circle(img, (w // 2, h // 2), 34, (245, 245, 245), 6, cv2.LINE_AA)
    return img


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
