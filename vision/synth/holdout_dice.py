"""A second dice render style, kept for testing only: no model is ever trained on it.

It shares no drawing code with the training renderer (`vision.synth.scene` and `cube`): dice
are rounded squares mapped through a camera homography with a rim of side face, engraved pips
(a dark ring around a light floor), colours from a palette of its own (mustard, maroon, navy,
mint, lavender, cream, charcoal; some translucent), on gingham, checked cloth, ruled paper or
speckled laminate, under a coloured lamp with a soft vignette, then noise, blur and JPEG. A
figure measured here says how the reader does on a look it never learned.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

# name -> (BGR body, the colour name a person would give it, pip BGR choices)
BODIES: dict[str, tuple[tuple[int, int, int], str, list[tuple[int, int, int]]]] = {
    "mustard": ((30, 175, 215), "yellow", [(25, 25, 25), (120, 40, 30)]),
    "maroon": ((40, 30, 120), "red", [(235, 235, 235), (60, 200, 230)]),
    "navy": ((110, 50, 25), "blue", [(60, 200, 230), (235, 235, 235)]),
    "mint": ((150, 215, 140), "green", [(30, 30, 30), (40, 40, 160)]),
    "lavender": ((200, 130, 150), "purple", [(250, 250, 250), (40, 30, 50)]),
    "cream": ((200, 235, 245), "white", [(40, 40, 190), (140, 60, 20), (20, 20, 20)]),
    "charcoal": ((45, 45, 50), "black", [(50, 60, 220), (240, 240, 240), (60, 200, 230)]),
}
PIP_LAYOUT = {1: [(0, 0)], 2: [(-1, -1), (1, 1)], 3: [(-1, -1), (0, 0), (1, 1)],
              4: [(-1, -1), (1, -1), (-1, 1), (1, 1)], 5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
              6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)]}


@dataclass
class HoldoutDie:
    """One die as drawn: top-face box (x1, y1, x2, y2) in image pixels, value, colour name."""

    box: tuple[float, float, float, float]
    value: int
    color: str
    side: float


@dataclass
class HoldoutImage:
    image: np.ndarray
    dice: list[HoldoutDie] = field(default_factory=list)


@dataclass(frozen=True)
class Style:
    """One dice set on one table: a body from BODIES, its pip colour (index), a cloth kind 0-3
    and the cloth's base colour; the colour word is the body's own name (what its owner says)."""

    body: str
    pip: int
    cloth: int
    cloth_bgr: tuple[int, int, int]


def _cloth(rng: np.random.Generator, h: int, w: int, style: Style | None = None) -> np.ndarray:
    kind = int(rng.integers(4)) if style is None else style.cloth
    base = np.array(rng.uniform(120, 245, 3) if style is None else style.cloth_bgr, np.float32)
    img = np.empty((h, w, 3), np.float32)
    img[:] = base
    yy, xx = np.mgrid[0:h, 0:w]
    if kind == 0:  # gingham: two stripe sets, darker where they cross
        p = int(rng.integers(14, 40))
        ink = np.array(rng.uniform(30, 200, 3), np.float32)
        a = ((xx // p) % 2).astype(np.float32)[..., None]
        b = ((yy // p) % 2).astype(np.float32)[..., None]
        img = img * (1 - 0.35 * a) * (1 - 0.35 * b) + ink * 0.2 * (a + b) / 2
    elif kind == 1:  # checkerboard cloth
        p = int(rng.integers(20, 60))
        other = np.array(rng.uniform(40, 220, 3), np.float32)
        m = (((xx // p) + (yy // p)) % 2).astype(np.float32)[..., None]
        img = img * (1 - m) + other * m
    elif kind == 2:  # ruled paper with scribbles
        p = int(rng.integers(16, 30))
        img[(yy % p) == 0] = (200, 160, 120)
        for _ in range(int(rng.integers(3, 9))):
            pts = np.cumsum(rng.normal(0, 8, (12, 2)), 0) + rng.uniform([0, 0], [w, h])
            cv2.polylines(img, [pts.astype(np.int32)], False, tuple(float(v) for v in rng.uniform(20, 120, 3)), 1)
    else:  # speckled laminate
        img += rng.normal(0, 18, (h, w, 1)).astype(np.float32)
        spots = rng.random((h, w)) < 0.01
        img[spots] *= 0.5
    return np.clip(img, 0, 255)


def _face_points(cx: float, cy: float, side: float, angle: float, tilt: float) -> np.ndarray:
    """The four top-face corners: a square turned by `angle`, squashed by the camera tilt."""
    c, s = np.cos(angle), np.sin(angle)
    sq = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]], np.float32) * side / 2
    rot = sq @ np.array([[c, s], [-s, c]], np.float32)
    rot[:, 1] *= np.cos(tilt)
    return rot + [cx, cy]


def _draw_die(img: np.ndarray, rng: np.random.Generator, cx: float, cy: float, side: float,
              tilt: float, value: int, body: np.ndarray, pip: np.ndarray,
              alpha: float) -> tuple[np.ndarray, np.ndarray]:
    """Draw one die; returns the new image and the top face's four corners."""
    angle = float(rng.uniform(0, np.pi / 2))
    top = _face_points(cx, cy, side, angle, tilt)
    rim = side * np.sin(tilt) * 0.95  # the front side faces, seen below the top face
    lower = top + [0, rim]
    hull = cv2.convexHull(np.concatenate([top, lower]).astype(np.float32))
    # Soft contact shadow first.
    sh = np.zeros(img.shape[:2], np.float32)
    cv2.fillConvexPoly(sh, np.round((hull + [side * 0.15, side * 0.12]) * 4).astype(np.int32), 1.0, cv2.LINE_AA, 2)
    sh = cv2.GaussianBlur(sh, (0, 0), max(side * 0.12, 1))
    img *= (1 - 0.35 * sh)[..., None]
    layer = img.copy()
    cv2.fillConvexPoly(layer, np.round(hull * 4).astype(np.int32), tuple(float(v) for v in body * 0.62),
                       cv2.LINE_AA, 2)
    # Top face: a rounded square with a gentle light gradient across it.
    mask = np.zeros(img.shape[:2], np.uint8)
    cv2.fillConvexPoly(mask, np.round(top * 4).astype(np.int32), 255, cv2.LINE_AA, 2)
    mask = cv2.GaussianBlur(mask, (0, 0), max(side * 0.05, 0.6))
    x0, y0 = top.min(0)
    x1, y1 = top.max(0)
    yy, xx = np.mgrid[0:img.shape[0], 0:img.shape[1]]
    grad = 1.05 - 0.2 * np.clip(((xx - x0) / max(x1 - x0, 1) + (yy - y0) / max(y1 - y0, 1)) / 2, 0, 1)
    face = body[None, None, :] * grad[..., None]
    m = (mask.astype(np.float32) / 255)[..., None]
    layer = layer * (1 - m) + face * m
    # Engraved pips: a dark ring, then the pip colour slightly inside it.
    c, s = np.cos(angle), np.sin(angle)
    for px, py in PIP_LAYOUT[value]:
        off = np.array([px, py], np.float32) * side * 0.27
        off = off @ np.array([[c, s], [-s, c]], np.float32)
        off[1] *= np.cos(tilt)
        centre = (cx + off[0], cy + off[1])
        r = side * 0.085
        axes = (r, r * np.cos(tilt))
        ring = tuple(float(v) for v in body * 0.35)
        c4 = tuple(int(v) for v in np.round(np.array(centre) * 4))
        ax = np.array(axes)
        cv2.ellipse(layer, c4, tuple(int(v) for v in np.round(ax * 4)), 0, 0, 360, ring, -1, cv2.LINE_AA, 2)
        cv2.ellipse(layer, (c4[0] + 1, c4[1] + 1), tuple(int(v) for v in np.round(ax * 0.8 * 4)), 0, 0, 360,
                    tuple(float(v) for v in pip), -1, cv2.LINE_AA, 2)
    return (img * (1 - alpha) + layer * alpha if alpha < 1 else layer), top


def render_holdout(seed: int, index: int, width: int = 640, height: int = 480,
                   style: Style | None = None, n_dice: int | None = None) -> HoldoutImage:
    """Image number `index` of the hold-out style drawn from `seed` (deterministic); with a
    `style`, every die and the table follow it and each die's colour is the body's own name.
    `n_dice`: roll that many (as many as fit) instead of 1 to 8."""
    rng = np.random.default_rng([seed, index, 4242])
    img = _cloth(rng, height, width, style)
    tilt = float(rng.uniform(0, np.radians(50)))
    n = int(rng.integers(1, 9)) if n_dice is None else n_dice
    lo, hi = (14, 90) if rng.random() < 0.7 else (30, 150)
    dice: list[HoldoutDie] = []
    boxes: list[np.ndarray] = []
    for _ in range(n):
        side = float(np.exp(rng.uniform(np.log(lo), np.log(hi))))
        for _ in range(30):
            cx, cy = rng.uniform(side, width - side), rng.uniform(side, height - side * 1.6)
            b = np.array([cx - side * 0.75, cy - side * 0.75, cx + side * 0.75, cy + side * 1.3])
            if all(b[2] < o[0] or b[0] > o[2] or b[3] < o[1] or b[1] > o[3] for o in boxes):
                break
        else:
            continue
        boxes.append(b)
        name = list(BODIES)[int(rng.integers(len(BODIES)))] if style is None else style.body
        body_bgr, colour, pips = BODIES[name]
        body = np.array(body_bgr, np.float32) * rng.uniform(0.9, 1.1, 3)
        pip = np.array(pips[int(rng.integers(len(pips))) if style is None else style.pip % len(pips)], np.float32)
        colour = colour if style is None else name
        alpha = float(rng.uniform(0.6, 0.85)) if rng.random() < 0.15 else 1.0
        value = int(rng.integers(1, 7))
        img, top = _draw_die(img, rng, cx, cy, side, tilt, value, np.clip(body, 0, 255), pip, alpha)
        (x1, y1), (x2, y2) = top.min(0), top.max(0)  # the top face's extent, as in every label we use
        dice.append(HoldoutDie((float(x1), float(y1), float(x2), float(y2)), value, colour, side))
    # A coloured lamp with a vignette, then camera effects.
    lamp = np.array(rng.uniform(0.85, 1.15, 3), np.float32)
    yy, xx = np.mgrid[0:height, 0:width]
    vig = 1 - 0.35 * (((xx - width * rng.uniform(0.3, 0.7)) / width) ** 2 + ((yy - height * rng.uniform(0.3, 0.7)) / height) ** 2)
    img = img * lamp * vig[..., None] * rng.uniform(0.7, 1.15)
    img = np.clip(img + rng.normal(0, rng.uniform(1, 7), img.shape), 0, 255).astype(np.uint8)
    if rng.random() < 0.3:
        k = int(rng.integers(1, 3)) * 2 + 1
        img = cv2.GaussianBlur(img, (k, k), 0)
    ok, enc = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(40, 95))])
    return HoldoutImage(cv2.imdecode(enc, cv2.IMREAD_COLOR), dice)
