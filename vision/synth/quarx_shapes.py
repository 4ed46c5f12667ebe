"""Quarx cards in many looks, for teaching the sphere classifier what a sphere is (training only).

Domain randomisation: no one look is the card's, so what is left to learn is the shape. Every
shape is shaded per pixel from its surface normals under a random light, in one of several
materials, and its mask is kept, so each blob the counter later cuts out can be labelled:

- spheres in matte, glossy, metal (a random mirrored room), translucent, banded ("toon") and
  flat-with-a-highlight looks, any colour, 5-32 px in radius on the card warped top-down;
- things that are not spheres, in the same materials: eggs and ellipsoids at any angle, flat
  discs and rings, cylinders end-on and from the side, cubes, cones, pyramids, tori, domes seen
  from the side, stars and polygons, and the faint background bubbles;
- paper of any light colour and grain, printed frame lines, a lamp falling off across the card,
  soft or hard shadows in any direction, then the camera: a lower resolution scaled back up (the
  warp from a tilted view), blur, noise and JPEG.

This look is for training only. The counter is measured on `vision.synth.holdout_quarx` (its own
code, kept for testing) and on our footage (`vision.synth.cards`), never on this.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

CARD_W, CARD_H = 240, 340  # the card warped top-down, as vision.games.quarx.cards warps it
SPHERE = "sphere"
DECOYS = ("egg", "disc", "ring", "end_cylinder", "side_cylinder", "cube", "cone", "pyramid", "torus", "dome",
          "star", "polygon")
MATERIALS = ("matte", "glossy", "metal", "glass", "toon", "flat_highlight")


@dataclass
class PlacedShape:
    kind: str  # "sphere", one of DECOYS, or "bubble"
    mask: np.ndarray  # bool, CARD_H x CARD_W: where the shape is drawn


@dataclass
class ShapeCard:
    image: np.ndarray  # CARD_H x CARD_W BGR
    shapes: list[PlacedShape] = field(default_factory=list)

    @property
    def spheres(self) -> int:
        return sum(s.kind == SPHERE for s in self.shapes)


def _unit(v: np.ndarray) -> np.ndarray:
    return v / max(float(np.linalg.norm(v)), 1e-9)


def _grid(r: int) -> tuple[np.ndarray, np.ndarray]:
    yy, xx = np.mgrid[-r:r + 1, -r:r + 1].astype(np.float32)
    return xx, yy


def _rotate(xx: np.ndarray, yy: np.ndarray, angle: float) -> tuple[np.ndarray, np.ndarray]:
    c, s = np.cos(angle), np.sin(angle)
    return c * xx + s * yy, -s * xx + c * yy


def _ellipsoid(r: int, ax: float, ay: float, angle: float) -> tuple[np.ndarray, np.ndarray]:
    """Normals (h x w x 3) and coverage (0..1, anti-aliased) of an ellipsoid of half-axes
    r*ax, r*ay (depth r*min) turned by `angle` in the picture."""
    xx, yy = _grid(r)
    u, v = _rotate(xx, yy, angle)
    u, v = u / (r * ax), v / (r * ay)
    d2 = u * u + v * v
    z = np.sqrt(np.clip(1 - d2, 0, 1))
    nu, nv = u / ax, v / ay  # the gradient of the implicit surface, back in picture axes
    c, s = np.cos(angle), np.sin(angle)
    n = np.dstack([c * nu - s * nv, s * nu + c * nv, z / min(ax, ay)])
    cover = np.clip((1 - np.sqrt(d2)) * r * min(ax, ay) + 0.5, 0, 1)
    return n / np.maximum(np.linalg.norm(n, axis=2, keepdims=True), 1e-6), cover


def _flat_normals(shape: tuple[int, int], tilt: np.ndarray) -> np.ndarray:
    n = np.empty((*shape, 3), np.float32)
    n[:] = _unit(tilt)
    return n


def _room(rng: np.random.Generator) -> dict:
    """A random mirrored room for metal: sky and floor colours and where the horizon lies."""
    return {"sky": rng.uniform(150, 255, 3), "floor": rng.uniform(20, 160, 3), "up": _unit(np.array(
        [rng.uniform(-0.6, 0.6), rng.uniform(-1, -0.2), rng.uniform(-0.3, 0.5)])), "soft": rng.uniform(0.05, 0.4)}


def _shade(n: np.ndarray, colour: np.ndarray, light: np.ndarray, material: str, rng: np.random.Generator,
           under: np.ndarray, room: dict) -> np.ndarray:
    """Colour (h x w x 3 float) of a surface with normals `n` seen from +z; `under` is what lies
    beneath (for glass)."""
    lam = np.clip(n @ light, 0, 1)[..., None]
    half = _unit(light + np.array([0, 0, 1.0]))
    spec = np.clip(n @ half, 0, 1)[..., None]
    amb = rng.uniform(0.1, 0.4)
    if material == "matte":
        return colour * (amb + (1 - amb) * lam)
    if material == "glossy":
        return colour * (amb + (1 - amb) * lam) + rng.uniform(120, 255) * spec ** rng.uniform(15, 80)
    if material == "metal":
        view = np.array([0, 0, 1.0])
        refl = 2 * n[..., 2:3] * n - view  # the mirrored view direction
        t = np.clip((refl @ room["up"]) / room["soft"] * 0.5 + 0.5, 0, 1)[..., None]
        tint = colour / 255 * rng.uniform(0.3, 1.0) + (1 - rng.uniform(0.3, 1.0)) * 0.5
        return (room["floor"] * (1 - t) + room["sky"] * t) * tint * 1.3 + 255 * spec ** rng.uniform(80, 300)
    if material == "glass":
        fres = (1 - np.clip(n[..., 2:3], 0, 1)) ** rng.uniform(1.5, 3)
        body = under * rng.uniform(0.3, 0.7) + colour * rng.uniform(0.3, 0.6)
        caustic = np.clip(-(n @ light), 0, 1)[..., None] ** 4 * rng.uniform(0, 120)
        return body * (1 - 0.6 * fres) + colour * 0.3 * fres + caustic + 255 * spec ** rng.uniform(40, 200)
    if material == "toon":
        bands = int(rng.integers(2, 5))
        q = np.floor(lam * bands) / (bands - 1)
        return colour * (amb + (1 - amb) * np.clip(q, 0, 1))
    # flat_highlight: a flat colour with a highlight and a darker rim, as printed art often is
    rim = np.clip(n[..., 2:3], 0, 1) ** rng.uniform(0.1, 0.6)
    return colour * (0.55 + 0.45 * rim) + rng.uniform(100, 230) * spec ** rng.uniform(30, 120)


def _polygon_cover(r: int, polys: list[np.ndarray]) -> list[np.ndarray]:
    out = []
    for p in polys:
        m = np.zeros((2 * r + 1, 2 * r + 1), np.float32)
        cv2.fillPoly(m, [np.round((p + r) * 4).astype(np.int32)], 1.0, cv2.LINE_AA, shift=2)
        out.append(m)
    return out


def _faceted(r: int, faces: list[tuple[np.ndarray, np.ndarray]], colour, light, material, rng, under, room):
    """A shape made of flat faces: [(polygon centred on 0, its normal)] painted back to front."""
    img = np.zeros((2 * r + 1, 2 * r + 1, 3), np.float32)
    cover = np.zeros((2 * r + 1, 2 * r + 1), np.float32)
    for (poly, normal), m in zip(faces, _polygon_cover(r, [f[0] for f in faces])):
        face = _shade(_flat_normals(m.shape, normal), colour, light, material if material != "glass" else "matte",
                      rng, under, room)
        img = img * (1 - m[..., None]) + face * m[..., None]
        cover = np.maximum(cover, m)
    return img, cover


def _shape(kind: str, r: int, colour: np.ndarray, light: np.ndarray, material: str, rng: np.random.Generator,
           under: np.ndarray, room: dict) -> tuple[np.ndarray, np.ndarray]:
    """(colour, coverage) of one shape in a (2r+1)^2 patch."""
    ang = rng.uniform(0, np.pi)
    xx, yy = _grid(r)
    if kind == SPHERE:
        n, cover = _ellipsoid(r, 1.0, 1.0, 0.0)
        return _shade(n, colour, light, material, rng, under, room), cover
    if kind == "egg":
        n, cover = _ellipsoid(r, rng.uniform(0.5, 0.86), 1.0, ang)
        return _shade(n, colour, light, material, rng, under, room), cover
    if kind == "dome":  # half a ball seen from the side: round above, a flat cut below
        n, cover = _ellipsoid(r, 1.0, 1.0, 0.0)
        u, v = _rotate(xx, yy, ang)
        cover = cover * np.clip(-v / 1.0 + 0.5, 0, 1)
        return _shade(n, colour, light, material, rng, under, room), cover
    if kind in ("disc", "ring", "end_cylinder"):
        squash = rng.uniform(0.8, 1.0) if rng.random() < 0.6 else 1.0
        u, v = _rotate(xx, yy, ang)
        d = np.sqrt(u * u + (v / squash) ** 2)
        cover = np.clip(r * squash - d + 0.5, 0, 1)
        face = _shade(_flat_normals(d.shape, np.array([rng.uniform(-0.2, 0.2), rng.uniform(-0.2, 0.2), 1])),
                      colour, light, material if material in ("matte", "glossy") else "matte", rng, under, room)
        if kind == "ring":
            hole = rng.uniform(0.3, 0.7) * r * squash
            cover = cover * np.clip(d - hole + 0.5, 0, 1)
        if kind == "end_cylinder":
            band = np.clip(d - rng.uniform(0.7, 0.9) * r * squash + 0.5, 0, 1)[..., None]
            face = face * (1 - band) + colour * rng.uniform(0.25, 0.6) * band
        return face, cover
    if kind == "side_cylinder":
        w, h = r * rng.uniform(0.45, 0.8), r * rng.uniform(0.6, 0.95)
        u, v = _rotate(xx, yy, ang)
        body = np.clip(np.minimum(w - np.abs(u), h * 0.8 - np.abs(v)) + 0.5, 0, 1)
        cap = np.clip(1 - np.sqrt((u / w) ** 2 + ((v + h * 0.8) / (w * 0.35)) ** 2), 0, 1) > 0
        cover = np.maximum(body, cap.astype(np.float32))
        s = np.clip(u / w, -1, 1)
        c, si = np.cos(ang), np.sin(ang)
        n = np.dstack([c * s, si * s, np.sqrt(1 - s * s)])
        img = _shade(n, colour, light, material, rng, under, room)
        img[cap] = colour * 1.1
        return img, cover
    if kind == "torus":
        squash = rng.uniform(0.35, 0.9)
        u, v = _rotate(xx, yy, ang)
        d = np.sqrt(u * u + (v / squash) ** 2)
        big, tube = r * rng.uniform(0.55, 0.7), r * rng.uniform(0.2, 0.32)
        t = (d - big) / tube
        cover = np.clip((1 - np.abs(t)) * tube + 0.5, 0, 1)
        tz = np.sqrt(np.clip(1 - t * t, 0, 1))
        n = np.dstack([t * u / np.maximum(d, 1e-3), t * v / np.maximum(d, 1e-3), tz])
        return _shade(n, colour, light, material, rng, under, room), cover
    if kind == "cube":
        a = r * rng.uniform(0.75, 0.95)
        k = [np.array([np.cos(ang + i * np.pi / 2), np.sin(ang + i * np.pi / 2) * 0.5]) * a for i in range(4)]
        top = np.array(k) + [0, -a * 0.4]
        drop = np.array([0, a * 0.9])
        order = np.argsort(top[:, 1])
        lo = top[order[3]]
        faces = []
        for other in (top[order[2]], top[order[1]]):
            side = np.array([lo, other, other + drop, lo + drop])
            mid = (lo + other) / 2
            faces.append((side, np.array([mid[0] / a, 0.6, 0.5])))
        faces.append((top, np.array([0, -0.3, 1.0])))
        return _faceted(r, faces, colour, light, material, rng, under, room)
    if kind in ("cone", "pyramid"):
        h = r * 0.95
        base = [np.array([np.cos(a_), np.sin(a_) * 0.35]) * r * 0.8 + [0, h * 0.55]
                for a_ in np.linspace(0, 2 * np.pi, 4 if kind == "pyramid" else 24, endpoint=False) + ang]
        apex = np.array([rng.uniform(-0.2, 0.2) * r, -h * 0.9])
        faces = [(np.array([apex, p, q]), np.array([(p + q)[0] / (2 * r), 0.2, 0.6]))
                 for p, q in zip(base, base[1:] + base[:1])]
        faces.sort(key=lambda f: f[0][1:, 1].mean())  # far faces first
        return _faceted(r, faces, colour, light, material, rng, under, room)
    # a star or a polygon: flat printed art
    k = int(rng.integers(5, 9)) if kind == "star" else int(rng.integers(3, 8))
    angles = np.linspace(0, 2 * np.pi, 2 * k if kind == "star" else k, endpoint=False) + ang
    radii = np.where(np.arange(len(angles)) % 2 == 0, r * 0.95, r * rng.uniform(0.4, 0.65)) if kind == "star" \
        else np.full(len(angles), r * 0.95)
    poly = np.stack([np.cos(angles) * radii, np.sin(angles) * radii], 1)
    return _faceted(r, [(poly, np.array([0, 0, 1.0]))], colour, light, material, rng, under, room)


def _paper(rng: np.random.Generator) -> np.ndarray:
    base = rng.uniform(190, 255, 3)
    if rng.random() < 0.3:
        base = base * rng.uniform(0.85, 1.0, 3)
    img = np.empty((CARD_H, CARD_W, 3), np.float32)
    img[:] = base
    if rng.random() < 0.5:  # grain
        g = cv2.GaussianBlur(rng.normal(0, 1, (CARD_H, CARD_W)).astype(np.float32), (0, 0), rng.uniform(0.5, 3))
        img += (g / max(float(g.std()), 1e-6) * rng.uniform(1, 6))[..., None]
    if rng.random() < 0.6:  # a printed frame line
        inset = int(rng.integers(1, 22))
        cv2.rectangle(img, (inset, inset), (CARD_W - 1 - inset, CARD_H - 1 - inset),
                      tuple(float(v) for v in rng.uniform(30, 220, 3)), int(rng.integers(1, 4)))
    return img


def _shadow(card: np.ndarray, cover: np.ndarray, x0: int, y0: int, rng: np.random.Generator, offset: np.ndarray,
            blur: float, strength: float) -> None:
    m = np.zeros(card.shape[:2], np.float32)
    h, w = cover.shape
    ox, oy = int(round(offset[0])), int(round(offset[1]))
    ya, xa = max(0, y0 + oy), max(0, x0 + ox)
    yb, xb = min(card.shape[0], y0 + oy + h), min(card.shape[1], x0 + ox + w)
    if yb <= ya or xb <= xa:
        return
    m[ya:yb, xa:xb] = cover[ya - y0 - oy:yb - y0 - oy, xa - x0 - ox:xb - x0 - ox]
    if blur > 0:
        m = cv2.GaussianBlur(m, (0, 0), blur)
    card *= (1 - strength * m)[..., None]


def _camera(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The card as a camera would leave it after the warp: lamp, lower resolution, blur, noise, JPEG."""
    yy, xx = np.mgrid[0:CARD_H, 0:CARD_W].astype(np.float32)
    g = rng.uniform(-0.25, 0.25, 2)
    img = img * (1 + g[0] * (xx / CARD_W - 0.5) + g[1] * (yy / CARD_H - 0.5))[..., None]
    img = img * rng.uniform(0.75, 1.1) * rng.uniform(0.88, 1.12, 3)
    out = np.clip(img, 0, 255).astype(np.uint8)
    s = rng.uniform(0.3, 1.0)  # the card was this many pixels wide per warped pixel
    if s < 0.95:
        small = cv2.resize(out, (max(8, int(CARD_W * s)), max(8, int(CARD_H * s * rng.uniform(0.75, 1.0)))),
                           interpolation=cv2.INTER_AREA)
        small = np.clip(small + rng.normal(0, rng.uniform(0.5, 5), small.shape), 0, 255).astype(np.uint8)
        if rng.random() < 0.6:
            ok, buf = cv2.imencode(".jpg", small, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(40, 95))])
            small = cv2.imdecode(buf, cv2.IMREAD_COLOR)
        out = cv2.resize(small, (CARD_W, CARD_H), interpolation=cv2.INTER_LINEAR)
    if rng.random() < 0.4:
        out = cv2.GaussianBlur(out, (0, 0), rng.uniform(0.4, 1.5))
    return out


def render_shape_card(rng: np.random.Generator, spheres: int | None = None, others: int | None = None,
                      min_gap: int | None = None) -> ShapeCard:
    """One card warped top-down with its shapes' masks. `min_gap`: px kept between shapes
    (negative: they may overlap; None: random, often touching)."""
    spheres = int(rng.integers(0, 10)) if spheres is None else spheres
    others = int(rng.integers(0, 7)) if others is None else others
    gap = int(rng.choice([-6, -2, 0, 2, 4, 8])) if min_gap is None else min_gap
    card = _paper(rng)
    light = _unit(np.array([rng.uniform(-0.9, 0.9), rng.uniform(-0.9, 0.9), rng.uniform(0.4, 1.2)]))
    room = _room(rng)
    look = str(rng.choice(MATERIALS))  # one set of art is mostly one look
    shadow_off = rng.uniform(-5, 5, 2) * (rng.random() < 0.7)
    shadow_blur, shadow_strength = rng.uniform(0, 4), rng.uniform(0.1, 0.45)
    big = int(rng.integers(14, 33))
    kinds = [SPHERE] * spheres + [str(rng.choice(DECOYS)) for _ in range(others)]
    rng.shuffle(kinds)
    placed: list[tuple[int, int, int]] = []
    out = ShapeCard(card, [])
    for kind in kinds:
        for _ in range(60):
            r = int(rng.integers(5, big + 1))
            cx, cy = int(rng.integers(r + 2, CARD_W - r - 2)), int(rng.integers(r + 2, CARD_H - r - 2))
            if all(np.hypot(cx - x, cy - y) > r + rr + gap for x, y, rr in placed):
                break
        else:
            continue
        placed.append((cx, cy, r))
        colour = rng.uniform(10, 245, 3)
        material = look if rng.random() < 0.7 else str(rng.choice(MATERIALS))
        x0, y0 = cx - r, cy - r
        under = card[y0:y0 + 2 * r + 1, x0:x0 + 2 * r + 1].copy()
        img, cover = _shape(kind, r, colour, light, material, rng, under, room)
        if material == "glass" and kind == SPHERE:
            cover = cover * rng.uniform(0.8, 1.0)
        if shadow_strength > 0 and np.any(shadow_off):
            _shadow(card, cover, x0, y0, rng, shadow_off * r / 15, shadow_blur, shadow_strength)
        region = card[y0:y0 + 2 * r + 1, x0:x0 + 2 * r + 1]
        region[:] = region * (1 - cover[..., None]) + np.clip(img, 0, 255) * cover[..., None]
        mask = np.zeros((CARD_H, CARD_W), bool)
        mask[y0:y0 + 2 * r + 1, x0:x0 + 2 * r + 1] = cover > 0.5
        for s in out.shapes:  # a shape drawn over another hides that part of it
            s.mask &= ~mask
        out.shapes.append(PlacedShape(kind, mask))
    for _ in range(int(rng.integers(0, 25))):  # background bubbles: faint, small, never counted
        r = int(rng.integers(2, 6))
        cx, cy = int(rng.integers(r + 1, CARD_W - r - 1)), int(rng.integers(r + 1, CARD_H - r - 1))
        if any(np.hypot(cx - x, cy - y) < r + rr + 2 for x, y, rr in placed):
            continue
        n, cover = _ellipsoid(r, 1.0, 1.0, 0.0)
        tint = rng.uniform(180, 255, 3)
        a = cover * (0.15 + 0.5 * (1 - n[..., 2]) ** 2) * rng.uniform(0.5, 1.0)
        region = card[cy - r:cy + r + 1, cx - r:cx + r + 1]
        region[:] = region * (1 - a[..., None]) + tint * a[..., None]
        mask = np.zeros((CARD_H, CARD_W), bool)
        mask[cy - r:cy + r + 1, cx - r:cx + r + 1] = cover > 0.5
        out.shapes.append(PlacedShape("bubble", mask))
    out.image = _camera(card, rng)
    return out
