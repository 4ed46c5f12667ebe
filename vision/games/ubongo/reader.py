"""Ubongo: every die's colour and top-face shape, and whether it lies in the middle or in front of a player.

Classical, no model needed: the table area is warped top-down with the calibration (four clicks
or ArUco markers; without one the frame is taken as the table seen from above). There every
die's top face is a square, and the die's silhouette is that square swept toward the camera by
the die's height (its visible sides). Dice are found as dark (black) or pale, grey (white) blobs
that a wooden or coloured table is not: white dice are told from the table by low saturation,
not brightness. The top square is fitted to each silhouette, warped from the frame, thresholded,
and matched against every rotation and mirror of the shapes on the dice of that colour.

Zones (configurable, `Zones`): in table-area coordinates u (0 left .. 1 right) and v (0 far ..
1 near the camera), the middle is a central box; any other die belongs to the seat whose edge is
nearest. Seats go clockwise from the near (bottom) edge in the order the table lists its players
(rules.ubongo: clockwise from the first die-roller): 2 players bottom, top; 3 bottom, left, top;
4 bottom, left, top, right.

Known limits: dice touching dice of the same colour merge into one blob that is no die: the
frame is then unreadable (no view), never misread; a die half out of the table area is ignored.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

import cv2
import numpy as np

from rules.ubongo.components import DEFAULT, Components, grid
from rules.ubongo.shapes import orientations
from vision.detector.model import Detection
from vision.pipeline import ReadContext, Reading, Settling

# ASSUMPTION (the real dice are not published): a face's shape squares are drawn this fraction
# of the face's side wide, the shape centred on the face. A person with real dice corrects it here.
DIE_ART_CELL = 0.17
ART_GAP = 0.08  # ASSUMPTION: the thin gap between a shape's squares, as a fraction of a square, each side
INK_LEVEL = 0.6  # where ink starts, between the body (0) and the darkest/brightest ink (1)
SEAT_EDGES: dict[int, tuple[str, ...]] = {1: ("bottom",), 2: ("bottom", "top"), 3: ("bottom", "left", "top"),
                                          4: ("bottom", "left", "top", "right")}


@dataclass(frozen=True)
class Zones:
    """The middle as a box (u0, v0, u1, v1) of the table area; seats by edge, per player count."""

    middle: tuple[float, float, float, float] = (0.25, 0.25, 0.75, 0.75)
    seats: dict[int, tuple[str, ...]] = field(default_factory=lambda: dict(SEAT_EDGES))

    def zone_of(self, u: float, v: float, players: int) -> str | int:
        """'middle', or the index of the seat whose edge is nearest."""
        u0, v0, u1, v1 = self.middle
        if u0 <= u <= u1 and v0 <= v <= v1:
            return "middle"
        gap = {"bottom": 1 - v, "top": v, "left": u, "right": 1 - u}
        edges = self.seats.get(players, SEAT_EDGES[4])
        return min(range(len(edges)), key=lambda i: gap[edges[i]])


@dataclass(frozen=True)
class UbongoConfig:
    """What the reader assumes about the dice and the table."""

    zones: Zones = field(default_factory=Zones)
    comps: Components = DEFAULT
    cell: float = DIE_ART_CELL
    # Printed dice differ from the assumed square size: try these multiples, shared by all dice in view.
    cell_search: tuple[float, ...] = (0.8, 0.9, 1.0, 1.1, 1.25)
    die_range: tuple[float, float] = (0.03, 0.14)  # a die's side as a fraction of the table area's width
    min_fit: float = 0.8       # silhouette IoU below this: not one die (two touching, an arm, clutter)
    min_match: float = 0.4     # shape IoU below this: the face is unreadable
    # Let a detector model veto blobs it does not box as ubongo_die. Off: the model of 29 Nov 2026
    # boxed so few rendered Ubongo dice that 13 of 108 moves were left (docs/handsfree_ubongo.md).
    use_detector: bool = False
    patch: int = 48


@dataclass
class SeenDie:
    """One die: colour, top-face shape (None: unreadable), confidence, top face in image px, zone."""

    colour: str
    face: str | None
    confidence: float
    corners: np.ndarray
    u: float
    v: float
    zone: str | int = "middle"

    @property
    def box(self) -> tuple[float, float, float, float]:
        (x0, y0), (x1, y1) = self.corners.min(0), self.corners.max(0)
        return float(x0), float(y0), float(x1), float(y1)


def _masks(top: np.ndarray) -> dict[str, np.ndarray]:
    """Black-die and white-die candidate pixels of the top-down picture."""
    hsv = cv2.cvtColor(cv2.GaussianBlur(top, (5, 5), 0), cv2.COLOR_BGR2HSV)
    s, v = hsv[..., 1], hsv[..., 2]
    table = float(np.median(v[::4, ::4]))  # the table fills most of the picture: a sample will do
    dark = v < max(45.0, 0.42 * table)
    # A white die and its shaded sides are grey at any brightness; wood and felt are coloured.
    # Against a grey table only brightness is left, and it finds the top face (enough: see
    # fit_top_face); a white die on a white table is not found.
    table_s = float(np.median(s[::4, ::4]))
    if table_s >= 22:
        pale = (s < min(30.0, 0.5 * table_s)) & ~dark
    else:
        pale = (s < 30) & (v > 1.12 * table)
    kernel = np.ones((3, 3), np.uint8)
    out = {}
    for colour, m in (("black", dark), ("white", pale)):
        m = cv2.morphologyEx(m.astype(np.uint8) * 255, cv2.MORPH_OPEN, kernel)
        out[colour] = cv2.morphologyEx(m, cv2.MORPH_CLOSE, kernel)
    return out


def _square(centre: np.ndarray, side: float, theta: float) -> np.ndarray:
    c, s = np.cos(theta), np.sin(theta)
    half = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]], np.float64) * side / 2
    return centre + half @ np.array([[c, s], [-s, c]])


def _iou(a: np.ndarray, b: np.ndarray) -> float:
    inter, _ = cv2.intersectConvexConvex(a.astype(np.float32), b.astype(np.float32))
    union = cv2.contourArea(a.astype(np.float32)) + cv2.contourArea(b.astype(np.float32)) - inter
    return float(inter / union) if union > 0 else 0.0


def fit_top_face(hull: np.ndarray) -> tuple[np.ndarray, float]:
    """The top square of a cube silhouette (upright: the camera below), and how well it fits.

    The silhouette is the top square swept down by the die's height: every edge of its outline
    that is not the sweep's vertical runs along a side of the square, which gives the turn; the
    height beyond the width is the sweep; the area then fixes the square's size, the centroid its place."""
    pts = hull.reshape(-1, 2).astype(np.float64)
    (x0, y0), (x1, y1) = pts.min(0), pts.max(0)
    edges = np.roll(pts, -1, axis=0) - pts
    angle = np.arctan2(edges[:, 1], edges[:, 0])
    length = np.hypot(edges[:, 0], edges[:, 1])
    upright = np.abs(np.abs(np.sin(angle)) - 1) < 0.01  # within 8 degrees of vertical: the sweep
    weight = np.where(upright, 0.0, length ** 2)  # long edges: the rounded corners' short ones mislead
    if weight.sum() == 0:
        return None, 0.0
    # Sides are a quarter turn apart: average the angle times four.
    theta = np.arctan2((weight * np.sin(4 * angle)).sum(), (weight * np.cos(4 * angle)).sum()) / 4 % (np.pi / 2)

    # Size and place from the area and the centroid: rounded corners pull the extremes in.
    c, s = abs(np.cos(theta)), abs(np.sin(theta))
    drop = max(0.0, (y1 - y0) - (x1 - x0))
    m = cv2.moments(pts.astype(np.float32))
    if m["m00"] <= 0:
        return None, 0.0
    reach = drop * (c + s)  # the area is side^2 + side * reach
    side = (-reach + np.sqrt(reach * reach + 4 * m["m00"])) / 2
    centre = np.array([m["m10"] / m["m00"], m["m01"] / m["m00"] - drop / 2])
    top = _square(centre, side, theta)
    swept = cv2.convexHull(np.vstack([top, top + [0, drop]]).astype(np.float32)).reshape(-1, 2)
    return top, _iou(swept, pts)


@lru_cache(maxsize=64)
def _templates(names: tuple[tuple[str, str], ...], size: int, cell: float) -> tuple[np.ndarray, list[str], np.ndarray]:
    """Soft masks (0..1) of every orientation of every shape, centred on a size x size face; (rows, cols) of each."""
    masks, labels, dims = [], [], []
    fine = 4  # draw at 4x and shrink: the gaps between squares are under a pixel wide
    for name, drawing in names:
        for cells in orientations(grid(drawing)):
            rows, cols = 1 + max(r for r, _ in cells), 1 + max(c for _, c in cells)
            m = np.zeros((size * fine, size * fine), np.float32)
            step = cell * size * fine
            x0, y0 = size * fine / 2 - cols * step / 2, size * fine / 2 - rows * step / 2
            g = ART_GAP * step
            for r, c in cells:
                m[int(round(y0 + r * step + g)):int(round(y0 + (r + 1) * step - g)),
                  int(round(x0 + c * step + g)):int(round(x0 + (c + 1) * step - g))] = 1.0
            masks.append(cv2.resize(m, (size, size), interpolation=cv2.INTER_AREA))
            labels.append(name)
            dims.append((rows, cols))
    return np.stack(masks), labels, np.array(dims, np.float64)


def face_ink(patch: np.ndarray, colour: str) -> np.ndarray | None:
    """The shape's squares on a top-down face patch (grey) as a mask centred on the patch; None if blank."""
    p = patch.shape[0]
    g = patch.astype(np.float32)
    ring = np.ones_like(g, bool)
    a, b = int(p * 0.04), int(p * 0.12)
    ring[b:p - b, b:p - b] = False
    ring[:a], ring[p - a:], ring[:, :a], ring[:, p - a:] = False, False, False, False
    body = float(np.median(g[ring]))
    inner = g[int(p * 0.1):p - int(p * 0.1), int(p * 0.1):p - int(p * 0.1)]
    ink = float(np.percentile(inner, 97 if colour == "black" else 3))
    if abs(ink - body) < 25:
        return None
    mid = body + (ink - body) * INK_LEVEL
    fg = (g > mid) if colour == "black" else (g < mid)
    fg[:b], fg[p - b:], fg[:, :b], fg[:, p - b:] = False, False, False, False
    ys, xs = np.nonzero(fg)
    if len(xs) == 0:
        return None
    # Centre the ink on the patch: the shape is printed centred, the fitted square may be off a little.
    dx, dy = p / 2 - (xs.min() + xs.max() + 1) / 2, p / 2 - (ys.min() + ys.max() + 1) / 2
    shift = np.float32([[1, 0, dx], [0, 1, dy]])
    return cv2.warpAffine(fg.astype(np.uint8), shift, (p, p), flags=cv2.INTER_NEAREST) > 0


def match_shape(fg: np.ndarray, candidates: dict[str, str], cell: float) -> tuple[str, float, float]:
    """The best shape for an ink mask: (name, IoU, the best other shape's IoU), any turn or mirror."""
    masks, labels, dims = _templates(tuple(sorted(candidates.items())), fg.shape[0], round(cell, 4))
    inter = (masks * fg).sum((1, 2))
    iou = inter / np.maximum(masks.sum((1, 2)) + fg.sum() - inter, 1)
    # Blur rounds a single square into a blob that a domino covers as well: the ink's extent in
    # squares rules out shapes a square or more longer or shorter, whatever their overlap.
    ys, xs = np.nonzero(fg)
    if len(xs):
        extent = np.array([ys.max() - ys.min() + 1, xs.max() - xs.min() + 1]) / (cell * fg.shape[0])
        fits = (np.abs(dims - extent) <= 0.6).all(1)
        if fits.any():
            iou = np.where(fits, iou, 0.0)
    best_by_name: dict[str, float] = {}
    for name, score in zip(labels, iou):
        best_by_name[name] = max(best_by_name.get(name, 0.0), float(score))
    ranked = sorted(best_by_name.items(), key=lambda kv: -kv[1])
    return ranked[0][0], ranked[0][1], ranked[1][1] if len(ranked) > 1 else 0.0


def read_face(patch: np.ndarray, colour: str, candidates: dict[str, str], config: UbongoConfig,
              cell: float | None = None) -> tuple[str | None, float]:
    """The shape on a top-down face patch (grey), matched against `candidates` {name: drawing}."""
    fg = face_ink(patch, colour)
    if fg is None:
        return None, 0.0
    name, score, runner = match_shape(fg, candidates, cell or config.cell)
    if score < config.min_match:
        return None, score
    # Confidence: how well it matches, discounted when another shape matches nearly as well.
    return name, float(np.clip(score * min(1.0, (score - runner) / 0.15), 0.0, 1.0))


def shared_cell(inks: list[tuple[np.ndarray, dict[str, str]]], config: UbongoConfig) -> float:
    """The shape-square size that fits all dice in view best (all dice of a game are printed alike)."""
    if not inks or not config.cell_search:
        return config.cell
    def fit(f: float) -> float:
        return float(np.mean([match_shape(fg, cands, config.cell * f)[1] for fg, cands in inks]))

    # Another size must fit clearly better: near-ties flip between frames and turn L4 into L5.
    best = max(config.cell_search, key=fit)
    return config.cell * (best if fit(best) > fit(1.0) + 0.03 else 1.0)


def _faces_of(colour: str, comps: Components) -> dict[str, str]:
    dice = comps.black_dice if colour == "black" else comps.white_dice
    names = {f for d in dice for f in d}
    return {n: d for n, d in comps.shapes if n in names}


def find_dice(frame: np.ndarray, calibration=None, config: UbongoConfig | None = None,
              players: int = 4) -> list[SeenDie]:
    """Every die in the table area: colour, top-face shape, zone (see the module text)."""
    config = config or UbongoConfig()
    h_img, w_img = frame.shape[:2]
    if calibration is not None:
        hom = calibration.homography
        size = (calibration.width, calibration.height)
        top = cv2.warpPerspective(frame, hom, size, flags=cv2.INTER_LINEAR)
    else:
        hom, size, top = np.eye(3), (w_img, h_img), frame
    inv = np.linalg.inv(hom)
    tw, th = size
    lo, hi = config.die_range[0] * tw, config.die_range[1] * tw
    gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    p = config.patch
    dst = np.float32([[0, 0], [p, 0], [p, p], [0, p]])
    found = []
    for colour, mask in _masks(top).items():
        contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        for cnt in contours:
            area = cv2.contourArea(cnt)
            if area < lo * lo or area > 3 * hi * hi:
                continue
            x, y, bw, bh = cv2.boundingRect(cnt)
            if x <= 1 or y <= 1 or x + bw >= tw - 1 or y + bh >= th - 1:
                continue  # cut by the table area's edge (or an arm reaching in)
            hull = cv2.convexHull(cnt).reshape(-1, 2).astype(np.float64)
            centre = hull.mean(0)
            up = _up_direction(centre, hom, inv)
            rot = np.array([[-up[1], up[0]], [-up[0], -up[1]]])  # turns `up` into (0, -1)
            square, fit = fit_top_face((hull - centre) @ rot.T)
            (u0, v0), (u1, v1) = hull.min(0), hull.max(0)
            u, v = (u0 + u1) / 2 / tw, (v0 + v1) / 2 / th
            side = 0.0 if square is None else float(np.linalg.norm(square[1] - square[0]))
            if square is None or fit < config.min_fit or not lo <= side <= hi:
                # Die-sized but not one die (two touching, a die on its edge): left out, it would
                # look like a die taken from the middle, so it makes the frame unreadable instead.
                box = np.array([[u0, v0], [u1, v0], [u1, v1], [u0, v1]])
                corners = cv2.perspectiveTransform(box.reshape(-1, 1, 2), inv).reshape(-1, 2)
                found.append((colour, None, 0.0, corners, u, v, side))
                continue
            square = square @ rot + centre
            corners = cv2.perspectiveTransform(square.reshape(-1, 1, 2), inv).reshape(-1, 2)
            warp = cv2.getPerspectiveTransform(corners.astype(np.float32), dst)
            patch = cv2.warpPerspective(gray, warp, (p, p), flags=cv2.INTER_LINEAR)
            found.append((colour, patch, fit, corners, u, v, side))
    inks = [(fg, _faces_of(c, config.comps)) for c, patch, *_ in found
            if patch is not None and (fg := face_ink(patch, c)) is not None]
    cell = shared_cell(inks, config)
    good = [(c, u * tw, v * th, side) for c, patch, _, _, u, v, side in found if patch is not None]

    def part_of_a_die(u: float, v: float) -> bool:
        # Blur merges a black die's pale shape into a die-sized blob, or cuts a white die's shaded
        # side off: such a piece lies within a die found whole, unlike a die that is not one.
        return any(np.hypot(x - u * tw, y - v * th) < side for _, x, y, side in good)

    found = [f for f in found if f[1] is not None or not part_of_a_die(f[4], f[5])]
    seen: list[SeenDie] = []
    for colour, patch, fit, corners, u, v, _ in found:
        face, conf = (None, 0.0) if patch is None else read_face(patch, colour, _faces_of(colour, config.comps), config, cell)
        seen.append(SeenDie(colour, face, conf * fit, corners, u, v, config.zones.zone_of(u, v, players)))
    return seen


def _up_direction(point: np.ndarray, hom: np.ndarray, inv: np.ndarray) -> np.ndarray:
    """The top-down picture's direction of 'up in the frame' at `point`: where die tops lean."""
    img = cv2.perspectiveTransform(point.reshape(1, 1, 2), inv).reshape(2)
    pair = cv2.perspectiveTransform(np.array([[img], [img - [0, 10]]], np.float64), hom).reshape(2, 2)
    d = pair[1] - pair[0]
    n = np.linalg.norm(d)
    return d / n if n > 0 else np.array([0.0, -1.0])


def _keep_detected(dice: list[SeenDie], detector, frame: np.ndarray) -> list[SeenDie]:
    """With a detector model: keep the dice it also sees (it vetoes clutter); without: all."""
    detect = getattr(detector, "detect", None)
    if detect is None:
        return dice
    boxes = [d.box for d in detect(frame) if d.cls == "ubongo_die"]
    if not boxes:
        return dice

    def inside(die: SeenDie) -> bool:
        cx, cy = die.corners.mean(0)
        for x0, y0, x1, y1 in boxes:
            mx, my = (x1 - x0) * 0.3, (y1 - y0) * 0.3
            if x0 - mx <= cx <= x1 + mx and y0 - my <= cy <= y1 + my:
                return True
        return False

    return [d for d in dice if inside(d)]


def view_of(dice: list[SeenDie], players: list[str] | None) -> dict | None:
    """The Ubongo TableView (rules.ubongo.table_view) of the dice; None when a face is unreadable."""
    if any(d.face is None for d in dice):
        return None
    middle = {"black": sorted(d.face for d in dice if d.zone == "middle" and d.colour == "black"),
              "white": sorted(d.face for d in dice if d.zone == "middle" and d.colour == "white")}
    grabbed: dict[str, list[str]] = {}
    for seat in sorted({d.zone for d in dice if d.zone != "middle"}):
        here = [d for d in dice if d.zone == seat]
        name = players[seat] if players and seat < len(players) else f"seat {seat + 1}"
        black = [d.face for d in here if d.colour == "black"]
        white = [d.face for d in here if d.colour == "white"]
        # Anything but one die of each colour is no grab: report it so that it matches no move.
        grabbed[name] = [black[0], white[0]] if len(black) == len(white) == 1 else sorted(f"{d.colour} {d.face}" for d in here)
    return {"middle": middle, "grabbed": grabbed}


@dataclass(frozen=True)
class UbongoReader:
    """The Reader of an Ubongo table (vision.pipeline); the roll and the grabs are one view."""

    config: UbongoConfig = field(default_factory=UbongoConfig)
    settle: Settling = "whole"
    reread = 1  # every frame, as before: its views settle sure, so the gate rarely needs this

    def read(self, frame: np.ndarray, context: ReadContext) -> Reading:
        return read_ubongo(frame, context.detector, context.calibration, list(context.players) or None, self.config)


def read_ubongo(frame: np.ndarray, detector=None, calibration=None, players: list[str] | None = None,
                config: UbongoConfig | None = None) -> Reading:
    """The Ubongo TableView of a frame, a confidence per zone, and a box per die to draw."""
    config = config or UbongoConfig()
    n = len(players) if players else 4
    dice = find_dice(frame, calibration, config, n)
    if config.use_detector:
        dice = _keep_detected(dice, detector, frame)
    view = view_of(dice, players)
    draw = [Detection(f"{d.colour} {d.face or '?'}", d.box, d.confidence) for d in dice]
    return Reading(view, draw)
