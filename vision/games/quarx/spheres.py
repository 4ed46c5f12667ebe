"""Spheres on one Quarx card, counted with plain OpenCV on the card warped top-down.

Every printed shape is a blob that differs from the card's paper; a sphere is the blob that
fills its enclosing circle (a cube's hexagon fills at most 83% of it, cones and pyramids far
less), lies on its fitted ellipse (a squat cylinder does not), is round (a torus is a squashed
ellipse) and is larger than the background bubbles, which are also faint. Anything too close
to call makes the card's count None: the game waits rather than take a wrong reveal.
"""
from __future__ import annotations

import cv2
import numpy as np


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


def notches(contour: np.ndarray, depth: float = 2.5) -> int:
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
    if _solidity(contour) >= MERGED_SOLIDITY and notches(contour) < 2:
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
