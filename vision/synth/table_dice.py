"""Dice on a table by the sphere scenes' ray caster: a second training look for the die reader.

The die reader's training renders (`vision.synth.scene`, `cube`) draw every die with one
drawing code, and a detector trained on them learns that code's look as well as dice. This
renderer draws dice another way: cubes cast by `vision.synth.table_scenes` (a lamp with shadows
from hard to soft, a tinted fill light, a clear coat that mirrors the room, glass), each face
painted with its pips in face coordinates (flat paint, or engraved: a dimple that turns the
normal, painted or not), among the same renderer's spheres, eggs, boxes, cylinders, discs and
cones, on its cloths, seen from 25 to 88 degrees above the table. Each die in sight is labelled
by its top face's outline, as the real set labels it.

It shares no code with `vision.synth.holdout_dice`, the dice look kept for testing.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from vision.detector.classes import CLASS_ID
from vision.detector.geometry import pixel_box
from vision.synth import effects
from vision.synth.readability import SAMPLING_BLUR, picture_blur, pips_resolved
from vision.synth.scene import Label, RenderedImage
from vision.synth.table_scenes import DECOYS, SPHERE, Camera, Solid, cast, random_solid, shade, turn_z
from vision.synth.variety import lamp

# Pip centres on a face in face coordinates (-1..1 across the face), by value
PIPS: dict[int, tuple[tuple[float, float], ...]] = {
    1: ((0, 0),), 2: ((-1, -1), (1, 1)), 3: ((-1, -1), (0, 0), (1, 1)),
    4: ((-1, -1), (1, -1), (-1, 1), (1, 1)), 5: ((-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)),
    6: ((-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)),
}
PIP_OFFSET = 0.5  # a corner pip's centre, in face coordinates
# A die is labelled only when this share of its top face is in sight: a top face mostly hidden
# behind another solid is what a reader may miss.
MIN_TOP_SHARE = 0.6
MIN_TOP_PX = 12  # ... and its top face covers at least this many pixels
BODY_MATERIALS = ("matte", "glossy", "glass")


@dataclass(frozen=True)
class DieFaces:
    """How a die's faces are painted: values[axis][0] on the face toward -axis, [1] toward +axis
    (opposite faces add up to 7), pip radius in face coordinates, the pips' colour, how deep
    they are engraved (0: flat paint; a dimple's slope otherwise), whether they are painted at
    all (an engraved pip may be the body's colour), and each face's layout turned a quarter."""

    values: tuple[tuple[int, int], tuple[int, int], tuple[int, int]]
    radius: float
    ink: np.ndarray
    depth: float
    painted: bool
    turned: tuple[bool, ...]

    def surface(self, s: Solid, p: np.ndarray, n: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The table_scenes surface hook: albedo, normals and which points are paint."""
        local = (p - s.centre) @ s.axes.T / s.size  # -1..1 on every face
        n_local = n @ s.axes.T
        axis = np.argmax(np.abs(n_local), 1)
        sign = (n_local[np.arange(len(n)), axis] > 0).astype(int)
        albedo = np.tile(s.colour, (len(p), 1))
        out_n = n.copy()
        paint = np.zeros(len(p), bool)
        for ax in range(3):
            u_ax, v_ax = [a for a in range(3) if a != ax]
            for sg in (0, 1):
                m = (axis == ax) & (sign == sg)
                if not m.any():
                    continue
                u, v = local[m, u_ax], local[m, v_ax]
                turned = self.turned[2 * ax + sg]
                du, dv, inside = self._nearest_pip(self.values[ax][sg], v if turned else u, -u if turned else v)
                if turned:  # the offset back in the face's own (u, v)
                    du, dv = -dv, du
                k = np.nonzero(m)[0][inside]
                if self.painted:
                    albedo[k] = self.ink
                    paint[k] = True
                else:
                    albedo[k] = s.colour * 0.55
                if self.depth > 0:  # a dimple: the normal leans toward the pip's centre
                    out_n[k] -= self.depth * (du[inside, None] * s.axes[u_ax] + dv[inside, None] * s.axes[v_ax]) / self.radius
        out_n /= np.maximum(np.linalg.norm(out_n, axis=1, keepdims=True), 1e-12)
        return albedo, out_n, paint

    def _nearest_pip(self, value: int, u: np.ndarray, v: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Offset from the nearest pip of `value` and whether the point lies on it."""
        best = np.full(len(u), np.inf)
        du, dv = np.zeros(len(u)), np.zeros(len(u))
        r = self.radius * (1.35 if value == 1 else 1.0)
        for cu, cv in PIPS[value]:
            eu, ev = u - cu * PIP_OFFSET, v - cv * PIP_OFFSET
            d = eu * eu + ev * ev
            nearer = d < best
            best = np.where(nearer, d, best)
            du, dv = np.where(nearer, eu, du), np.where(nearer, ev, dv)
        return du, dv, best <= r * r


def random_faces(rng: np.random.Generator, top: int, body: np.ndarray) -> DieFaces:
    """A die showing `top`, its other faces in a right-handed or mirrored order, pips painted in
    a colour far from the body's lightness (or engraved in the body's colour)."""
    rest = [v for v in range(1, 7) if v not in (top, 7 - top)]
    a = int(rng.choice([v for v in rest if v <= 3]))
    b = [v for v in rest if v not in (a, 7 - a)][int(rng.integers(2))]
    values = ((7 - a, a), (7 - b, b), (7 - top, top))
    light = float(body @ [0.11, 0.59, 0.3])
    if rng.random() < 0.5:
        ink = np.full(3, 0.92 if light < 0.5 else 0.08) + rng.normal(0, 0.04, 3)
    else:
        ink = rng.uniform(0, 1, 3)
        for _ in range(20):
            if abs(float(ink @ [0.11, 0.59, 0.3]) - light) > 0.28:
                break
            ink = rng.uniform(0, 1, 3)
    engraved = rng.random() < 0.5
    return DieFaces(values, float(rng.uniform(0.15, 0.24)), np.clip(ink, 0, 1),
                    float(rng.uniform(0.3, 0.9)) if engraved else 0.0,
                    not engraved or rng.random() < 0.8, tuple(bool(t) for t in rng.random(6) < 0.5))


@dataclass
class PlacedDie:
    """A die in a scene: its index among the scene's solids, the value on its top face and its
    pips' radius (face coordinates)."""

    index: int
    value: int
    pip_radius: float


def render_table_dice(seed: int, idx: int, size: tuple[int, int] = (320, 240)) -> RenderedImage:
    """One training picture: 1-10 dice lying flat, 0-5 other solids, labels for the dice whose
    top face is in sight (class die_<value>, the top face's outline boxed). Deterministic."""
    rng = np.random.default_rng([seed, idx, 6161])
    w, h = size
    elev, azim = np.radians(rng.uniform(25, 88)), rng.uniform(0, 2 * np.pi)
    spread = rng.uniform(1.5, 3.5)
    dist = spread * rng.uniform(2.0, 3.6)
    eye = dist * np.array([np.cos(elev) * np.cos(azim), np.cos(elev) * np.sin(azim), np.sin(elev)])
    cam = Camera(eye, (w / 2) / np.tan(np.radians(rng.uniform(35, 60)) / 2), w, h, *rng.uniform(-0.5, 0.5, 2))

    solids: list[Solid] = []
    dice: list[PlacedDie] = []
    half = rng.uniform(0.08, 0.4)  # a set's dice are one size
    body_any = rng.random() < 0.6
    set_body = rng.uniform(0.03, 1.0, 3)
    set_faces_seed = int(rng.integers(1 << 30))

    def free(x: float, y: float, reach: float) -> bool:
        return all(np.hypot(x - s.centre[0], y - s.centre[1]) > reach + s.size.max() * 1.45 + 0.02 for s in solids)

    for _ in range(int(rng.choice(np.arange(1, 11), p=np.array([14, 14, 12, 12, 10, 10, 8, 8, 6, 6]) / 100))):
        for _ in range(60):
            x, y = rng.uniform(-spread, spread, 2)
            if free(x, y, half * 1.45):
                body = rng.uniform(0.03, 1.0, 3) if body_any else np.clip(set_body * rng.uniform(0.95, 1.05), 0, 1)
                value = int(rng.integers(1, 7))
                faces = random_faces(rng if body_any else np.random.default_rng([set_faces_seed, value]), value, body)
                if not body_any:  # one set: the same pips, only the faces' order and turns differ
                    faces = replace(faces, turned=tuple(bool(t) for t in rng.random(6) < 0.5))
                material = str(rng.choice(BODY_MATERIALS, p=[0.55, 0.35, 0.1]))
                axes = turn_z(float(rng.uniform(0, 2 * np.pi)))
                solids.append(Solid("die", "box", np.array([x, y, half]), axes, np.full(3, half), body, material,
                                    surface=faces.surface))
                dice.append(PlacedDie(len(solids) - 1, value, faces.radius))
                break
    for _ in range(int(rng.integers(0, 6))):
        kind = SPHERE if rng.random() < 0.3 else str(rng.choice(DECOYS))
        scale = half * rng.uniform(0.8, 2.5)
        for _ in range(60):
            x, y = rng.uniform(-spread, spread, 2)
            if free(x, y, scale * 1.3):
                solids.append(random_solid(rng, kind, float(x), float(y), float(scale), eye))
                break

    dirs = cam.rays()
    origin = np.broadcast_to(eye, dirs.shape)
    t, which, normal = cast(solids, origin, dirs)
    image = shade(rng, None, solids, origin, dirs, t, which, normal, spread).reshape(h, w, 3)
    if rng.random() < 0.5:
        image = lamp(image, rng)
    length, sigma = 0, 0.0
    if rng.random() < 0.2:
        length = effects.motion_length(rng, 6)
        image = effects.motion_blur(image, rng, 6, length)
    if rng.random() < 0.85:
        sigma = effects.defocus_sigma(rng)
        image = effects.noise(effects.jpeg(effects.defocus(image, rng, sigma), rng), rng)
    blur = picture_blur(sigma, length)
    ids, normals = which.reshape(h, w), normal.reshape(h, w, 3)
    tops = [(d, top_face_label(cam, solids[d.index], d, ids, normals, blur)) for d in dice]
    return RenderedImage(image, [lb for _, lb in tops if lb is not None], "table_dice",
                         ignore=[b for d, lb in tops if lb is None and (b := pixel_box(ids == d.index))])


def top_face_label(cam: Camera, s: Solid, d: PlacedDie, ids: np.ndarray, normals: np.ndarray,
                   blur: float = SAMPLING_BLUR) -> Label | None:
    """The die's label if its top face is in sight (at least MIN_TOP_SHARE of it, by the pixels
    `ids` shows it at with an upward normal) and inside the picture: the projected face's box,
    and whether a picture blurred by `blur` resolves its pips (`pips_resolved`); else None."""
    corners = np.array([s.centre + s.size[0] * (sx * s.axes[0] + sy * s.axes[1]) + s.size[2] * s.axes[2]
                        for sx, sy in ((-1, -1), (1, -1), (1, 1), (-1, 1))])
    px = cam.project(corners)
    x = px[:, 0]
    y = px[:, 1]
    area = 0.5 * abs(float(np.dot(x, np.roll(y, 1)) - np.dot(y, np.roll(x, 1))))
    seen = int(((ids == d.index) & (normals[..., 2] > 0.7)).sum())
    if area < MIN_TOP_PX or seen < MIN_TOP_SHARE * area:
        return None
    box = (float(x.min()) + 0.5, float(y.min()) + 0.5, float(x.max()) + 0.5, float(y.max()) + 0.5)
    if box[0] < 0 or box[1] < 0 or box[2] > cam.w or box[3] > cam.h:
        return None  # cut by the picture's edge: the reader needs the whole face
    # face coordinates run -1..1: a radius of half as much as a share of the side
    return Label(CLASS_ID[f"die_{d.value}"], box, pips_seen=pips_resolved(d.pip_radius / 2, px[:, :2], blur))
