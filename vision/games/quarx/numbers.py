"""Quarx number cards read with plain OpenCV: whose (the set colour), which side up, which value.

A number card is told from a Quarx card by its colour at the rim: a face-down card is its set's
colour all over (ASSUMPTION, see vision.games.quarx.spec), a face-up one has a band of it round
the edge, while a Quarx card is light paper there. The value is the best match of the card's
ink against our own printed faces (both ways up: players sit on every side). Every doubt
makes the card unsure, and one unsure card makes the whole reading unsure.
"""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from rules.quarx.components import NUMBER_CARDS
from vision.games.quarx.geometry import card_quad, cut_by_frame, portrait_corners
from vision.games.quarx.spec import (
    CARD_H,
    CARD_W,
    PIP_STEP,
    PIP_Y,
    SET_COLOURS,
    face,
)

NW, NH = 64, 92  # a card warped top-down (portrait) for reading
RIM = (2, 5)  # the rim band sampled, px inside the warped card's edge (the face's band is 0-5.6)
NUMBER_RIM, QUARX_RIM = 0.6, 0.3  # inked share of the rim: at least -> number card, at most -> Quarx card
DOWN_CENTRE, UP_CENTRE = 0.62, 0.45  # inked share of the middle: a back is ~0.85, a face ~0.2
HUE_TOLERANCE = 5.0  # set hues lie 13+ apart on OpenCV's 0-180 scale
NUMERAL_ROWS = (24, 68)  # the big numeral's rows in the warped card: the band and pips are alike on all
MATCH_MIN, MATCH_MARGIN = 0.55, 0.08
BACK_EVEN = 0.55  # a back's colour fills every ninth of its inside at least this much (~0.8 seen)
STRAY_MIN_AREA = 150  # px: saturated colour outside every card found (a card cut or half hidden)
STRAY_TABLE = 0.25  # a stray patch this big (fraction of the frame) is the table itself, not a card


@dataclass(frozen=True)
class NumberCard:
    """A number card: its corners in the frame, and what was read (None: unsure)."""

    corners: np.ndarray
    colour: str | None
    face_up: bool | None
    value: int | None  # None when face down, or unread

    @property
    def sure(self) -> bool:
        return self.colour is not None and self.face_up is not None and (not self.face_up or self.value is not None)

    @property
    def box(self) -> tuple[float, float, float, float]:
        (x1, y1), (x2, y2) = self.corners.min(0), self.corners.max(0)
        return float(x1), float(y1), float(x2), float(y2)


def ink(bgr: np.ndarray) -> np.ndarray:
    """How much each pixel is printed colour (0-1): saturation, which paper and shadows lack."""
    hsv = cv2.cvtColor(bgr, cv2.COLOR_BGR2HSV)
    return np.clip((hsv[..., 1].astype(np.float32) - 70) / 80, 0, 1) * (hsv[..., 2] > 60)


def warp(frame: np.ndarray, corners: np.ndarray) -> np.ndarray:
    """The card seen from straight above, NW x NH (corners TL, TR, BR, BL, long side vertical)."""
    dst = np.float32([[0, 0], [NW, 0], [NW, NH], [0, NH]])
    return cv2.warpPerspective(frame, cv2.getPerspectiveTransform(corners.astype(np.float32), dst), (NW, NH))


def _rim(a: np.ndarray) -> np.ndarray:
    m = np.zeros(a.shape[:2], bool)
    m[RIM[0]:-RIM[0], RIM[0]:-RIM[0]] = True
    m[RIM[1]:-RIM[1], RIM[1]:-RIM[1]] = False
    return a[m]


def kind_of(top_down: np.ndarray) -> str | None:
    """'number', 'quarx', or None when the rim is neither clearly coloured nor clearly paper."""
    share = float(_rim(ink(top_down)).mean())
    if share >= NUMBER_RIM:
        return "number"
    return "quarx" if share <= QUARX_RIM else None


@lru_cache(maxsize=1)
def _hues() -> dict[str, float]:
    return {n: float(cv2.cvtColor(np.uint8([[c]]), cv2.COLOR_BGR2HSV)[0, 0, 0]) for n, c in SET_COLOURS.items()}


def _hue_gap(a: float, b: float) -> float:
    d = abs(a - b) % 180
    return min(d, 180 - d)


def colour_of(top_down: np.ndarray) -> str | None:
    """The set colour by the hue of the strongly inked pixels; None when it is between two."""
    hsv = cv2.cvtColor(top_down, cv2.COLOR_BGR2HSV)
    strong = (hsv[..., 1] > 150) & (hsv[..., 2] > 80)
    if strong.sum() < 40:
        return None
    ang = hsv[..., 0][strong].astype(np.float32) * (np.pi / 90)  # the hue circle: red wraps round 0
    hue = float(np.degrees(np.arctan2(np.sin(ang).mean(), np.cos(ang).mean())) / 2) % 180
    name, gap = min(((n, _hue_gap(hue, h)) for n, h in _hues().items()), key=lambda t: t[1])
    return name if gap <= HUE_TOLERANCE else None


@lru_cache(maxsize=1)
def _templates() -> dict[int, np.ndarray]:
    """Our printed faces as ink, at reading size, centred and scaled for correlation."""
    colour = SET_COLOURS["red"]
    return {v: _norm(ink(cv2.resize(face(v, colour), (NW, NH), interpolation=cv2.INTER_AREA))) for v in NUMBER_CARDS}


def _norm(a: np.ndarray) -> np.ndarray:
    a = a[NUMERAL_ROWS[0]:NUMERAL_ROWS[1], RIM[1] + 2:-(RIM[1] + 2)].astype(np.float32)
    a = a - a.mean()
    return a / max(float(np.linalg.norm(a)), 1e-6)


def _pips(seen: np.ndarray) -> int | None:
    """The value by the filled pip of the five (16 8 4 2 1) at the foot of an upright face.

    Sampled at the pips' centres, shifted by up to 3 px (a corner found a little inside
    the rounded one moves them), where the filled pip stands out most."""
    blurred = cv2.blur(seen, (3, 3))
    y0 = PIP_Y * NH / CARD_H
    xs = [(CARD_W / 2 + (i - 2) * PIP_STEP) * NW / CARD_W for i in range(5)]
    best_fills: list[float] = []
    best_gap = -1.0
    for dy in range(-3, 4):
        for dx in (-1, 0, 1):
            fills = [float(blurred[round(y0 + dy), round(x + dx)]) for x in xs]
            top2 = sorted(fills)[-2:]
            if top2[1] - top2[0] > best_gap:
                best_fills, best_gap = fills, top2[1] - top2[0]
    top = int(np.argmax(best_fills))
    others = max(f for i, f in enumerate(best_fills) if i != top)
    return NUMBER_CARDS[top] if best_fills[top] >= 0.6 and others <= 0.35 else None


def value_of(top_down: np.ndarray) -> int | None:
    """The value of a face-up card: the clearly best of our numerals, either way up, and the
    filled pip of that way up saying the same."""
    faces = _templates()
    seen = ink(top_down)
    scores: list[tuple[float, int, np.ndarray]] = []
    for turned in (seen, seen[::-1, ::-1]):
        obs = _norm(turned)
        scores += [(float((obs * t).sum()), v, turned) for v, t in faces.items()]
    scores.sort(key=lambda t: -t[0])
    s1, best, upright = scores[0]
    s2 = max(sc for sc, v, _ in scores if v != best)
    if s1 < MATCH_MIN or s1 - s2 < MATCH_MARGIN:
        return None
    return best if _pips(upright) == best else None


def side_of(top_down: np.ndarray) -> bool | None:
    """True face up, False face down (the set's colour all over), None when unsure.

    A back is told by its colour filling the card evenly, not by its white frame line and ring:
    those thin lines blur away in a compressed video or a webcam's picture (measured: the back's
    pattern correlation fell from ~0.6 to ~0 through mp4v, and every face-down pile read unsure).
    A face's numeral never fills every ninth of the card's inside."""
    a = ink(top_down)
    centre = float(a[NH // 5:-NH // 5, NW // 5:-NW // 5].mean())
    if centre <= UP_CENTRE:
        return True
    if centre < DOWN_CENTRE:
        return None
    inside = a[RIM[1]:-RIM[1], RIM[1]:-RIM[1]]
    ys, xs = np.linspace(0, inside.shape[0], 4).astype(int), np.linspace(0, inside.shape[1], 4).astype(int)
    cells = [float(inside[ys[i]:ys[i + 1], xs[j]:xs[j + 1]].mean()) for i in range(3) for j in range(3)]
    return False if min(cells) >= BACK_EVEN else None


def find_number_cards(frame: np.ndarray, min_area: float = 0.005, max_area: float = 0.08) -> list[np.ndarray]:
    """Corners (TL TR BR BL, long side vertical) of the number cards: card-shaped patches of
    strong colour (a back all over, a face's band round its edge; the holes inside filled).

    By colour rather than by edges: a card's printed frame line, close to its edge, merges
    with the outline there, and a yellow card is as bright as light wood."""
    hsv = cv2.cvtColor(frame, cv2.COLOR_BGR2HSV)
    mask = ((hsv[..., 1] > 165) & (hsv[..., 2] > 90)).astype(np.uint8) * 255
    # Close first: the printed white frame line cuts a thin ring of colour off the card's edge,
    # and after blur or video compression an opening alone erases that ring, so the card was
    # found at its frame line on some frames and at its edge on others.
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    h, w = mask.shape
    out = []
    for c in contours:
        # Far bigger than a card: a table as saturated as the cards' colours (orange wood), not a card.
        if not min_area * h * w <= cv2.contourArea(c) <= max_area * h * w:
            continue
        quad = card_quad(c)
        if quad is not None:
            out.append(portrait_corners(quad))
    return out


def read_number_card(frame: np.ndarray, corners: np.ndarray, top_down: np.ndarray | None = None) -> NumberCard:
    """Colour, side and value of the number card at `corners`; a card cut by the frame is unsure."""
    top_down = warp(frame, corners) if top_down is None else top_down
    if cut_by_frame(corners, frame.shape):
        return NumberCard(corners, None, None, None)
    up = side_of(top_down)
    return NumberCard(corners, colour_of(top_down), up, value_of(top_down) if up else None)


def stray_colour(frame: np.ndarray, cards: list[np.ndarray], min_area: int = STRAY_MIN_AREA) -> float:
    """The largest strongly coloured patch outside every card found, as a fraction of the frame
    (0.0 when none reaches `min_area` px): a number card (or a Quarx card) not found whole, cut by
    the frame or half under something; or, when it is most of the frame, a strongly coloured table."""
    hsv = cv2.cvtColor(frame, cv2.COLOR_BGR2HSV)
    mask = ((hsv[..., 1] > 178) & (hsv[..., 2] > 110)).astype(np.uint8) * 255
    for q in cards:
        cv2.fillConvexPoly(mask, np.round(q).astype(np.int32), 0)
        cv2.polylines(mask, [np.round(q).astype(np.int32)], True, 0, 7)  # the outline's antialiased rim
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    n, _, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    if n <= 1 or stats[1:, cv2.CC_STAT_AREA].max() < min_area:
        return 0.0
    return float(stats[1:, cv2.CC_STAT_AREA].max()) / mask.size


def sizes_agree(cards: list[NumberCard], spread: float = 1.3) -> bool:
    """All number cards are one size: a much smaller one is a card partly hidden."""
    areas = [cv2.contourArea(c.corners.astype(np.float32)) for c in cards]
    if len(areas) < 2:
        return True
    med = float(np.median(areas))
    return all(med / spread <= a <= med * spread for a in areas)


def piles_of(cards: list[NumberCard]) -> list[list] | None:
    """The TableView's `laid`: [[colour, "down" | [values, descending]], ...] by colour; None if unsure."""
    if not all(c.sure for c in cards) or not sizes_agree(cards):
        return None
    by_colour: dict[str, list[NumberCard]] = defaultdict(list)
    for c in cards:
        by_colour[c.colour].append(c)
    laid = []
    for colour in sorted(by_colour):
        pile = by_colour[colour]
        sides = {c.face_up for c in pile}
        if len(sides) != 1:
            return None  # half turned over: wait
        if sides == {True}:
            values = sorted((c.value for c in pile), reverse=True)
            if len(set(values)) != len(values) or len(values) > len(NUMBER_CARDS):
                return None  # a player has one card of each value: a misread
            laid.append([colour, values])
        else:
            laid.append([colour, "down"])
    return laid
