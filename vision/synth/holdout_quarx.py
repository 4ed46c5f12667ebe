"""A second Quarx scene style, kept for testing only: no model or threshold is ever fitted on it.

It shares no drawing code with the training renderer (`vision.synth.cards`, `vision.synth.scene`):
shapes are shaded here per pixel from a surface normal and a light direction, the way a 3D
renderer would, in looks our renderer never draws:

- spheres: matte (Lambert with a soft highlight) or metal (a mirrored sky-and-floor
  environment with a sharp highlight), any colour;
- decoys that a sphere counter must not count: eggs (a shaded ellipsoid 0.7-0.85 as wide as
  high), flat discs seen face-on (round, flat shading), cylinders seen end-on (a flat face and a
  rim), cylinders seen from the side, cubes (three shaded faces) and tori;
- cards: cream or white rounded rectangles, some with a printed frame, on checked, gingham,
  wood-grain or felt cloth, under a warm or cold lamp with a vignette, seen at up to 35 degrees,
  then noise, blur and JPEG.

Each picture records how many spheres lie on each card. A figure measured here says how the
sphere counter does on a look it never learned.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from rules.quarx.components import SPHERES_ON_CARDS

CARD = (240, 336)  # a card drawn flat (w, h) before it is laid into the scene
DECOYS = ("egg", "disc", "end_cylinder", "side_cylinder", "cube", "torus")


@dataclass
class HoldoutCard:
    corners: np.ndarray  # 4 x 2 image pixels, clockwise from the top left of the card
    spheres: int
    decoys: list[str] = field(default_factory=list)


@dataclass
class HoldoutScene:
    image: np.ndarray
    cards: list[HoldoutCard]

    @property
    def spheres(self) -> int:
        return sum(c.spheres for c in self.cards)


def _light(rng: np.random.Generator) -> np.ndarray:
    v = np.array([rng.uniform(-0.7, 0.7), rng.uniform(-0.8, -0.1), 1.0])
    return v / np.linalg.norm(v)


def _ball_normals(r: int, sx: float = 1.0, sy: float = 1.0) -> tuple[np.ndarray, np.ndarray]:
    """Unit normals of an ellipsoid seen along z, on a (2r+1)^2 grid, and its inside mask."""
    yy, xx = np.mgrid[-r:r + 1, -r:r + 1].astype(np.float32)
    u, v = xx / (r * sx), yy / (r * sy)
    inside = u ** 2 + v ** 2 <= 1.0
    z = np.sqrt(np.clip(1.0 - u ** 2 - v ** 2, 0, 1))
    n = np.dstack([u, v, z])
    return n / np.maximum(np.linalg.norm(n, axis=2, keepdims=True), 1e-6), inside


def _paste(canvas: np.ndarray, patch: np.ndarray, mask: np.ndarray, cx: int, cy: int) -> None:
    h, w = mask.shape
    y0, x0 = cy - h // 2, cx - w // 2
    region = canvas[y0:y0 + h, x0:x0 + w]
    m = mask[..., None].astype(np.float32)
    region[:] = (region * (1 - m) + patch * m).astype(canvas.dtype)


def _shade_ball(rng, r: int, colour: np.ndarray, light: np.ndarray, metal: bool, sx=1.0, sy=1.0):
    n, inside = _ball_normals(r, sx, sy)
    lam = np.clip(n @ light, 0, 1)[..., None]
    spec = np.clip((n @ (light + np.array([0, 0, 1.0])) / np.linalg.norm(light + np.array([0, 0, 1.0]))), 0, 1)
    if metal:  # a mirrored world: bright sky above the horizon, the table's colour below
        sky = np.array([235, 225, 210], np.float32) * rng.uniform(0.8, 1.0)
        floor = colour * 0.35
        t = np.clip(-n[..., 1:2] * 2.5 + 0.5, 0, 1)
        img = (floor * (1 - t) + sky * t) * 0.55 + colour * 0.45 * lam
        img += 255 * (spec[..., None] ** 60)
    else:
        img = colour * (0.18 + 0.82 * lam) + 200 * (spec[..., None] ** rng.uniform(12, 30)) * rng.uniform(0.2, 0.6)
    soft = cv2.GaussianBlur(inside.astype(np.float32), (3, 3), 0)
    return np.clip(img, 0, 255), soft


def _flat(r: int, colour, rim: bool, light) -> tuple[np.ndarray, np.ndarray]:
    yy, xx = np.mgrid[-r:r + 1, -r:r + 1].astype(np.float32)
    d = np.sqrt(xx ** 2 + yy ** 2)
    inside = (d <= r).astype(np.float32)
    img = np.empty((2 * r + 1, 2 * r + 1, 3), np.float32)
    img[:] = colour * (0.75 + 0.2 * light[2])
    if rim:  # a cylinder's end: its flat face ringed by a darker band of side wall
        band = (d > r * 0.82) & (d <= r)
        img[band] = colour * 0.45
    return img, cv2.GaussianBlur(inside, (3, 3), 0)


def _polygon_shape(r: int, colour, kind: str, light, rng) -> tuple[np.ndarray, np.ndarray]:
    size = 2 * r + 1
    img = np.zeros((size, size, 3), np.float32)
    mask = np.zeros((size, size), np.float32)
    c = r
    if kind == "cube":
        a = r * 0.95
        top = [(c, c - a), (c + a * 0.87, c - a / 2), (c, c), (c - a * 0.87, c - a / 2)]
        left = [(c - a * 0.87, c - a / 2), (c, c), (c, c + a), (c - a * 0.87, c + a / 2)]
        right = [(c, c), (c + a * 0.87, c - a / 2), (c + a * 0.87, c + a / 2), (c, c + a)]
        for poly, k in ((top, 1.0), (left, 0.6 + 0.3 * light[0]), (right, 0.6 - 0.3 * light[0])):
            pts = np.round(np.array(poly)).astype(np.int32)
            cv2.fillPoly(img, [pts], tuple(float(v) for v in colour * k))
            cv2.fillPoly(mask, [pts], 1.0)
    elif kind == "side_cylinder":
        w, h = r * 0.8, r * 0.95
        xx = np.arange(size, dtype=np.float32) - c
        shade = np.clip(0.35 + 0.65 * np.sqrt(np.clip(1 - (xx / w) ** 2, 0, 1)) * (0.8 + 0.2 * np.sign(-xx * light[0])), 0, 1)
        body = (np.abs(xx) <= w)[None, :] & (np.abs(np.arange(size)[:, None] - c) <= h * 0.75)
        img[body] = (colour[None, None, :] * shade[None, :, None] * np.ones((size, 1, 1)))[body]
        mask[body] = 1.0
        cv2.ellipse(img, (c, int(c - h * 0.75)), (int(w), int(w * 0.35)), 0, 0, 360, tuple(float(v) for v in colour * 1.1), -1)
        cv2.ellipse(mask, (c, int(c - h * 0.75)), (int(w), int(w * 0.35)), 0, 0, 360, 1.0, -1)
        cv2.ellipse(img, (c, int(c + h * 0.75)), (int(w), int(w * 0.35)), 0, 0, 180, tuple(float(v) for v in colour * 0.5), -1)
        cv2.ellipse(mask, (c, int(c + h * 0.75)), (int(w), int(w * 0.35)), 0, 0, 180, 1.0, -1)
    else:  # torus: a shaded ring seen from above at a slant
        yy, xx = np.mgrid[-r:r + 1, -r:r + 1].astype(np.float32)
        squash = rng.uniform(0.55, 0.85)
        d = np.sqrt(xx ** 2 + (yy / squash) ** 2)
        ring = np.abs(d - r * 0.65) <= r * 0.3
        tube = np.clip(1 - ((d - r * 0.65) / (r * 0.3)) ** 2, 0, 1)
        img[ring] = (colour[None, None, :] * (0.3 + 0.7 * tube[..., None]))[ring]
        mask[ring] = 1.0
    return np.clip(img, 0, 255), cv2.GaussianBlur(mask, (3, 3), 0)


def _cloth(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    kind = int(rng.integers(4))
    a = rng.uniform(40, 220, 3)
    b = rng.uniform(40, 220, 3)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    if kind == 0:  # checked
        cell = rng.uniform(14, 45)
        chk = ((xx // cell + yy // cell) % 2)[..., None]
        img = a * chk + b * (1 - chk)
    elif kind == 1:  # gingham: see-through stripes both ways
        cell = rng.uniform(10, 30)
        sx = ((xx // cell) % 2)[..., None]
        sy = ((yy // cell) % 2)[..., None]
        img = np.full((h, w, 3), 245.0) * (1 - 0.45 * sx) * (1 - 0.45 * sy) * (a / 255 * 0.5 + 0.5)
    elif kind == 2:  # wood grain
        grain = np.sin(yy / rng.uniform(3, 9) + 3 * np.sin(xx / rng.uniform(40, 120)) + rng.uniform(0, 6))[..., None]
        base = np.array([60, 110, 160]) * rng.uniform(0.6, 1.2)
        img = base * (0.8 + 0.2 * grain)
    else:  # felt
        img = np.broadcast_to(a, (h, w, 3)).copy()
        img += rng.normal(0, 9, (h, w, 1))
    return np.clip(img, 0, 255).astype(np.float32)


def _card_art(rng: np.random.Generator, spheres: int, decoys: list[str], big: int = 30) -> np.ndarray:
    w, h = CARD
    paper = np.array([rng.uniform(225, 250), rng.uniform(235, 252), rng.uniform(238, 255)])
    art = np.empty((h, w, 3), np.float32)
    art[:] = paper
    if rng.random() < 0.5:  # a printed frame
        cv2.rectangle(art, (10, 10), (w - 11, h - 11), tuple(float(v) for v in rng.uniform(60, 200, 3)), 2)
    light = _light(rng)
    kinds = ["sphere"] * spheres + decoys
    rng.shuffle(kinds)
    placed: list[tuple[int, int, int]] = []
    for kind in kinds:
        for _ in range(200):
            r = int(rng.integers(12, big))
            cx, cy = int(rng.integers(18 + r, w - 18 - r)), int(rng.integers(18 + r, h - 18 - r))
            if all((cx - x) ** 2 + (cy - y) ** 2 > (r + rr + 4) ** 2 for x, y, rr in placed):
                break
        else:
            raise RuntimeError("no room on the card")
        placed.append((cx, cy, r))
        colour = rng.uniform(30, 230, 3).astype(np.float32)
        if kind == "sphere":
            patch, mask = _shade_ball(rng, r, colour, light, metal=rng.random() < 0.4)
        elif kind == "egg":
            patch, mask = _shade_ball(rng, r, colour, light, metal=False, sx=rng.uniform(0.7, 0.85))
        elif kind in ("disc", "end_cylinder"):
            patch, mask = _flat(r, colour, kind == "end_cylinder", light)
        else:
            patch, mask = _polygon_shape(r, colour, kind, light, rng)
        shadow = cv2.GaussianBlur(mask, (0, 0), 3) * 0.25
        _paste(art, art[cy - r:cy + r + 1, cx - r:cx + r + 1] * 0 + paper * 0.6, shadow, cx + 3, cy + 4)
        _paste(art, patch, mask, cx, cy)
    return art


def render_quarx_holdout(seed: int, idx: int, size: tuple[int, int] = (640, 480)) -> HoldoutScene:
    """One scene of the hold-out style: 1-3 cards, each with the spheres of a real Quarx card
    (1-9, rules.quarx.components) and 1-5 decoys."""
    rng = np.random.default_rng([seed, idx, 4242])
    w, h = size
    img = _cloth(rng, h, w)
    n_cards = int(rng.integers(1, 4))
    scale = rng.uniform(0.45, 0.62) if n_cards > 1 else rng.uniform(0.6, 0.85)
    cw, ch = CARD[0] * scale * h / 480, CARD[1] * scale * h / 480
    gap = (w - n_cards * cw) / (n_cards + 1)
    cards: list[HoldoutCard] = []
    # a slight tilt of the whole table: the camera sees it at up to 35 degrees
    tilt = np.deg2rad(rng.uniform(0, 35))
    for k in range(n_cards):
        spheres = int(rng.choice(SPHERES_ON_CARDS))
        decoys = [str(d) for d in rng.choice(DECOYS, size=int(rng.integers(1, 6)))]
        big = 30
        while True:
            try:
                art = _card_art(rng, spheres, decoys, big)
                break
            except RuntimeError:  # no room: fewer decoys, then smaller shapes
                decoys, big = (decoys[:-1], big) if len(decoys) > 1 else (decoys, max(16, big - 4))
        x0 = gap + k * (cw + gap) + rng.uniform(-gap * 0.3, gap * 0.3)
        y0 = (h - ch) / 2 + rng.uniform(-0.1, 0.1) * h
        angle = np.deg2rad(rng.uniform(-12, 12))
        centre = np.array([x0 + cw / 2, y0 + ch / 2])
        rot = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
        flat = np.array([[-cw / 2, -ch / 2], [cw / 2, -ch / 2], [cw / 2, ch / 2], [-cw / 2, ch / 2]]) @ rot.T + centre
        # foreshortening toward the top of the picture
        squeeze = 1 - np.sin(tilt) * 0.35 * (1 - flat[:, 1:2] / h)
        corners = np.hstack([w / 2 + (flat[:, :1] - w / 2) * squeeze, h * 0.15 + (flat[:, 1:2] - h * 0.15) * np.cos(tilt) ** 0.5])
        src = np.array([[0, 0], [CARD[0] - 1, 0], [CARD[0] - 1, CARD[1] - 1], [0, CARD[1] - 1]], np.float32)
        m = cv2.getPerspectiveTransform(src, corners.astype(np.float32))
        warped = cv2.warpPerspective(art, m, (w, h), flags=cv2.INTER_LINEAR)
        mask = cv2.warpPerspective(np.ones(art.shape[:2], np.float32), m, (w, h))[..., None]
        img = img * (1 - mask) + warped * mask
        cards.append(HoldoutCard(corners, spheres, decoys))
    # a lamp: its colour, falling off from a point, then camera noise, blur and JPEG
    lamp = np.array([rng.uniform(0.85, 1.0), rng.uniform(0.9, 1.0), rng.uniform(0.9, 1.1)])
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    px, py = rng.uniform(0, w), rng.uniform(0, h)
    fall = 1 - 0.35 * ((xx - px) ** 2 + (yy - py) ** 2) / (w ** 2 + h ** 2)
    img = img * lamp * fall[..., None] + rng.normal(0, rng.uniform(1, 5), img.shape)
    img = np.clip(img, 0, 255).astype(np.uint8)
    if rng.random() < 0.5:
        img = cv2.GaussianBlur(img, (0, 0), rng.uniform(0.5, 1.3))
    ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(55, 92))])
    return HoldoutScene(cv2.imdecode(buf, cv2.IMREAD_COLOR), cards)
