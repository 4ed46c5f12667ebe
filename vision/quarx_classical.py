"""Quarx cards and their spheres found with plain OpenCV: a check on (and fallback for) the network.

Cards are the large light, low-saturation quadrilaterals on the table. Inside a card seen from
straight above (warped by its four corners), every printed shape is a blob that differs from
the card's paper; a sphere is the blob that fills its enclosing circle (a cube's hexagon fills
at most 83% of it, cones and pyramids far less), is round (a torus is a squashed ellipse) and
is larger than the background bubbles, which are also faint.
"""
from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

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
    return [portrait_corners(q) for q in cards]


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


def card_quad(contour: np.ndarray) -> np.ndarray | None:
    """The four corners of a card-shaped outline (a rectangle 1.15-1.9 long), else None."""
    hull = cv2.convexHull(contour)
    approx = cv2.approxPolyDP(hull, 0.04 * cv2.arcLength(hull, True), True)
    if len(approx) != 4:
        return None
    (rw, rh) = cv2.minAreaRect(approx)[1]
    if min(rw, rh) == 0 or not 1.15 < max(rw, rh) / min(rw, rh) < 1.9:
        return None
    if cv2.contourArea(approx) < 0.85 * rw * rh:
        return None
    return approx.reshape(4, 2).astype(np.float32)


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


def portrait_corners(pts: np.ndarray) -> np.ndarray:
    """Order a rectangle's corners TL, TR, BR, BL with the long side vertical."""
    pts = pts[np.argsort(np.arctan2(pts[:, 1] - pts[:, 1].mean(), pts[:, 0] - pts[:, 0].mean()))]
    pts = np.roll(pts, -int(np.argmin(pts.sum(1))), axis=0)
    if np.linalg.norm(pts[1] - pts[0]) > np.linalg.norm(pts[3] - pts[0]):  # lying landscape
        pts = np.roll(pts, -1, axis=0)
    return pts.astype(np.float32)


def _is_ball(contour: np.ndarray, whole: bool = True) -> bool | None:
    """Round, filled and larger than a bubble: True, False, or None when it is too close to call.

    `whole`: the blob as found, not a part cut out of touching shapes (whose cut side is no
    sphere's outline, so only a sure ball is told from it)."""
    (_, _), r = cv2.minEnclosingCircle(contour)
    if r < 6.0:  # background bubbles are at most 5 px across here
        return False
    roundness = 1.0
    if len(contour) >= 5:
        (_, _), axes, _ = cv2.fitEllipse(contour)
        roundness = min(axes) / max(axes)
    if roundness < 0.85:
        return False
    # The hull, because a specular highlight near the rim can notch a sphere's outline.
    fill = cv2.contourArea(cv2.convexHull(contour)) / (np.pi * r * r)
    if fill < 0.8:  # a cube's outline fills at most ~0.78
        return False
    if _off_ellipse(contour) >= BALL_MAX_OFF:
        # Straight sides and corners: a cylinder seen from the side or a cube, which can fill
        # as much of its circle as a slightly squashed sphere. Filled more than that, still no
        # sure ball (a squat cylinder once filled 0.86).
        return None if fill >= 0.845 or not whole else False
    # A smooth filled ellipse: a ball, or a torus drawn 0.45-0.8 as high as wide but warped by
    # corners found a few px off to 0.87 (seed 20, a sure 5 for 4); a ball that squashed is on
    # a skewed card: too close to call either way.
    if roundness < ROUND_SURE:
        return None
    return True if fill >= 0.845 else None


ROUND_SURE = 0.9  # a ball's fitted ellipse is this round or more (99% of spheres measured)


# How far a sphere's outline (its hull) lies off its fitted ellipse, RMS relative to the radius:
# measured over 6834 spheres in the footage (both layouts, cards warped top-down), at most 0.031,
# the worst at r 11-14 px where the pixel steps count most. Cylinders and cubes that fill
# 0.80-0.845 of their circle: 0.012-0.10, six in seven above this.
BALL_MAX_OFF = 0.04


def _off_ellipse(contour: np.ndarray) -> float:
    """RMS distance of the outline's hull from its fitted ellipse, relative to the ellipse's size.

    The hull, as for the fill: a highlight notching a sphere's rim is no corner of its outline."""
    pts = _dense_hull(contour)
    if len(pts) < 5:
        return 0.0
    (ex, ey), (a, b), ang = cv2.fitEllipse(pts.astype(np.float32))
    if min(a, b) <= 0:
        return 1.0
    pts = pts - (ex, ey)
    t = np.radians(ang)
    u = pts[:, 0] * np.cos(t) + pts[:, 1] * np.sin(t)
    v = -pts[:, 0] * np.sin(t) + pts[:, 1] * np.cos(t)
    rho = np.sqrt((u / (a / 2)) ** 2 + (v / (b / 2)) ** 2)
    return float(np.sqrt(np.mean((rho - 1) ** 2)))


def _dense_hull(contour: np.ndarray) -> np.ndarray:
    """The convex hull's outline as points about 1 px apart (its corners alone would weigh
    a long straight side no more than a short one)."""
    hull = cv2.convexHull(contour).reshape(-1, 2).astype(np.float64)
    out = []
    for p, q in zip(hull, np.roll(hull, -1, axis=0)):
        n = max(1, int(np.ceil(np.hypot(*(q - p)))))
        out.append(p + (q - p) * (np.arange(n)[:, None] / n))
    return np.concatenate(out) if out else hull


def _solidity(contour: np.ndarray) -> float:
    return cv2.contourArea(contour) / max(1.0, cv2.contourArea(cv2.convexHull(contour)))


# Every single printed shape (sphere, cube, cone, pyramid, cylinder, torus) has a convex outer
# outline (measured 0.92-0.98 of its hull); two shapes that touch make a notched one (0.67-0.77).
MERGED_SOLIDITY = 0.88
# A notched blob too thin to hold a disc of this radius hides no sphere (the smallest is r=7):
# a sliver of the card's edge or a torus opened at one side, not shapes that touch.
MERGED_MIN_INSCRIBED = 6.0


# A blob at the edge of the card's inside that is this thick (inscribed radius, px) is a shape
# cut off there, not the rim or the table showing (slivers a few px thick): a card found at its
# printed frame line rather than its outline (after video compression) once lost a sphere so.
CUT_MIN_INSCRIBED = 5.0
# ... and a printed shape's colour, not the table's (a quad found a little outside the card
# shows wood there, as thick but paler).
CUT_MIN_SATURATION = 100


def _notches(contour: np.ndarray, depth: float = 2.5) -> int:
    """Dents in the outline deeper than `depth` px: two shapes overlapping make a waist (two)."""
    if len(contour) < 5:
        return 0
    hull = cv2.convexHull(contour, returnPoints=False)
    try:
        defects = cv2.convexityDefects(contour, hull)
    except cv2.error:  # a self-touching outline: no defects to tell
        return 0
    return 0 if defects is None else int((defects.reshape(-1, 4)[:, 3] / 256.0 >= depth).sum())


def _merged(blob: np.ndarray, contour: np.ndarray, touches_edge: bool = False) -> bool:
    """Shapes that touch: a notched outline thick enough to hold a sphere somewhere.

    A blob at the edge of the card's inside is the table or the card's rim showing (spheres
    keep 10 px from the edge): never merged shapes."""
    if touches_edge:
        return False
    if _solidity(contour) >= MERGED_SOLIDITY and _notches(contour) < 2:
        return False
    return float(cv2.distanceTransform(blob, cv2.DIST_L2, 5).max()) >= MERGED_MIN_INSCRIBED


def _balls_in_blob(blob: np.ndarray, contour: np.ndarray, touches_edge: bool = False) -> int | None:
    """Spheres in one blob: one ball, or balls touching others that an erosion pulls apart.

    None when a part is too close to call: better no count than a wrong one. A notched blob
    is shapes that touch; it counts only when an erosion parts it into whole, convex shapes
    that account for all of it (a sphere merged with a cube of its own colour was once
    counted as one non-sphere, and a reveal applied wrong)."""
    verdict = _is_ball(contour)
    merged = _merged(blob, contour, touches_edge)
    if verdict is not False and not merged:
        return None if verdict is None else 1
    for k in (2, 3, 4, 5, 6):
        disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * k + 1, 2 * k + 1))
        cores = cv2.erode(blob, disc)
        n_parts, _ = cv2.findContours(cores, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
        if len(n_parts) < 2:
            continue
        # Lost: a shape the erosion wiped out, not regrown by dilating what is left.
        lost = np.count_nonzero((blob > 0) & (cv2.dilate(cores, disc) == 0)) > 0.08 * np.count_nonzero(blob)
        parts = _parts(blob, cores)
        if merged and (lost or any(_solidity(c) < MERGED_SOLIDITY for c in parts)):
            return None  # a small shape wiped out, or a part still made of two shapes: unsure
        # A ball touching another shape comes apart from it too; only the round parts count.
        verdicts = [_is_ball(c, whole=False) for c in parts]
        return None if None in verdicts else sum(verdicts)
    return None if merged else 0


def _parts(blob: np.ndarray, cores: np.ndarray) -> list[np.ndarray]:
    """The blob split among its eroded cores: each pixel to the nearest core (a watershed on
    the distance). Two touching discs part at their contact point, each whole, where regrowing
    the cores by the erosion's disc left a small one notched and unround at its neck."""
    _, labels = cv2.distanceTransformWithLabels((cores == 0).astype(np.uint8), cv2.DIST_L2, 5,
                                                labelType=cv2.DIST_LABEL_CCOMP)
    outlines = []
    for lab in np.unique(labels[cores > 0]):
        one = ((labels == lab) & (blob > 0)).astype(np.uint8) * 255
        c, _ = cv2.findContours(one, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
        outlines.append(max(c, key=cv2.contourArea))
    return outlines


def count_spheres_on_card(card: np.ndarray, cuts: tuple[int, ...] = (60, 75, 95)) -> int | None:
    """Spheres on one card already warped top-down to CARD_W x CARD_H; None if unsure.

    Counted at several contrast cuts: a sphere merged with a touching shape at one cut comes
    apart at another, so a count that changes with the cut is no count.
    """
    inner = card[4:-4, 4:-4]  # spheres may come within 10 px of the edge: keep them whole
    paper = np.median(inner.reshape(-1, 3), axis=0)
    diff = np.abs(inner.astype(np.int16) - paper.astype(np.int16)).max(axis=2)
    sat = cv2.cvtColor(inner, cv2.COLOR_BGR2HSV)[..., 1]
    if _edge_share(diff, min(cuts)) > EDGE_SHARE_MAX:
        return None
    counts = {_count_at(diff, cut, sat) for cut in cuts}
    return counts.pop() if len(counts) == 1 else None


# A quad joined to wood grain at its sides takes in wedges of table; its warp squashes the
# spheres into ellipses (seed 2 once read a sphere as none so, sure). Cards found at their
# outline show only their round corners and thin slivers (at most 0.042 of the card, measured).
EDGE_SHARE_MAX = 0.06


def _edge_share(diff: np.ndarray, cut: int) -> float:
    """The share of the card taken by blobs touching its edge: table inside the outline."""
    mask = cv2.morphologyEx((diff > cut).astype(np.uint8), cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    n, _, stats, _ = cv2.connectedComponentsWithStats(mask)
    h, w = mask.shape
    x, y, bw, bh, area = (stats[1:, i] for i in range(5))
    at_edge = (x == 0) | (y == 0) | (x + bw >= w) | (y + bh >= h)
    return float(area[at_edge].sum()) / (h * w)


def _count_at(diff: np.ndarray, cut: int, sat: np.ndarray | None = None) -> int | None:
    mask = (diff > cut).astype(np.uint8) * 255
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    n = 0
    for c in contours:
        x, y, w, h = cv2.boundingRect(c)
        if max(w, h) < 12:
            continue
        blob = np.zeros((h + 16, w + 16), np.uint8)
        cv2.drawContours(blob, [c - [x - 8, y - 8]], -1, 255, -1)
        at_edge = x == 0 or y == 0 or x + w >= diff.shape[1] or y + h >= diff.shape[0]
        if at_edge and sat is not None and float(cv2.distanceTransform(blob, cv2.DIST_L2, 5).max()) >= CUT_MIN_INSCRIBED:
            one = np.zeros(diff.shape, np.uint8)
            cv2.drawContours(one, [c], -1, 255, -1)
            if float(np.median(sat[one > 0])) >= CUT_MIN_SATURATION:
                return None  # a shape cut by the edge found: the card was found inside its real outline
        found = _balls_in_blob(blob, c, at_edge)
        if found is None:
            return None
        n += found
    return n


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


def table_cards(frame: np.ndarray) -> TableCards:
    """Every card in the frame, number cards set apart (their spheres are none of the count).

    Number cards are found by their colour (vision.quarx_numbers); an outline found by its
    edges where a number card lies is that card. Any other outline whose rim is coloured like
    a number card's is a number card not found whole, so neither kind is sure."""
    from vision.quarx_numbers import (  # that module uses card_quad
        find_number_cards,
        kind_of,
        warp,
    )

    dst = np.float32([[0, 0], [CARD_W, 0], [CARD_W, CARD_H], [0, CARD_H]])
    h, w = frame.shape[:2]
    numbers = find_number_cards(frame)
    quarx, unknown = [], []
    for corners in find_cards(frame):
        if any(_overlaps(corners, n) for n in numbers):
            continue
        if kind_of(warp(frame, corners)) != "quarx":
            unknown.append(corners)
            continue
        cut = bool((corners.min(0) < 3).any() or corners[:, 0].max() > w - 4 or corners[:, 1].max() > h - 4)
        top_down = cv2.warpPerspective(frame, cv2.getPerspectiveTransform(corners, dst), (CARD_W, CARD_H))
        unsure = cut or _skew(corners) > SKEW_MAX
        quarx.append(ClassicalCard(corners, _box(corners), None if unsure else count_spheres_on_card(top_down)))
    return TableCards([_none_is_unsure(c) for c in _off_size_unsure(quarx)], numbers, unknown)


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
