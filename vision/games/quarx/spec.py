"""The printed Quarx number cards: sizes, set colours and the flat art of both sides.

The reader (vision.games.quarx.numbers) matches against this art; the renderer
(vision.synth.number_cards) lays it on rendered tables. The renderer imports this module,
never the other way.

The rulebook says only "30 number cards (1, 2, 4, 8, 16 in six colors)"; the art is ours:
- ASSUMPTION: the BACK of each number card is printed in its set's colour (with a white
  frame line and ring), so a face-down pile shows whose it is.
- ASSUMPTION: the FACE is a light card with a band in the set's colour along its edge, the
  value as a big numeral in that colour, a small one in a corner, and five pips in a row
  (16 8 4 2 1, left to right) of which the value's is filled.
- ASSUMPTION: number cards are smaller than Quarx cards (160 x 232 against 240 x 340 art px).
The camera tells them from Quarx cards by the coloured band or back, not by their size.
"""
from __future__ import annotations

import cv2
import numpy as np

from rules.quarx.components import NUMBER_CARD_COLOURS, NUMBER_CARDS

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
