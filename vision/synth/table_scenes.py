"""Training scenes for counting spheres where no card is in sight: objects standing on a table.

A photo may show no Quarx card whole (a close-up, a card off the picture) or no card at all, as
other renderers draw "how many spheres?" scenes: spheres among cubes, cylinders, eggs and discs
on a floor, seen at a slant. A counter that knows only cards warped top-down answers nothing
there. This renderer draws such scenes for training, by analytic ray casting: spheres,
ellipsoids (eggs, lentils, lying or standing), boxes, cylinders (upright, lying, discs at any
turn, also face-on to the camera) and cones on a table cloth from `vision.synth.textures` and
`vision.synth.variety`, lit by a lamp with shadows from hard to soft and a coloured fill light,
matte, glossy (a clear coat that mirrors its neighbours), metal or glass (the table seen through
it, bent), seen from 20-70 degrees above the table, with a lamp's colour cast and our camera
effects. The fourth look (its own random stream, so the third look's layouts stay as they were)
turns some decoys into rings, paints any solid with stripes, spots, segments or marble, hammers
some rough, lays paper, pens and cables flat on the cloth and puts a wall beyond the table. The
fifth look is the third with only the fourth look's finishes on its spheres (painted, hammered):
a painted ball is a sphere, with no more sphere-like decoys than the third look has. Each
sphere's visible part is its label.

It shares no code with `vision.synth.holdout_scenes`, the ray-marched look kept for testing.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace

import cv2
import numpy as np

from vision.detector.geometry import pixel_box
from vision.synth import effects
from vision.synth.clutter import blank_square, cable, laptop, note, pen, usb_stick
from vision.synth.textures import background
from vision.synth.variety import lamp, pattern

SPHERE = "sphere"
DECOYS = ("egg", "lentil", "lying_egg", "box", "cylinder", "lying_cylinder", "disc", "cone")
# Eggs and discs count double: seen from above an upright egg, and face-on a disc, is round, the
# hardest decoys to tell from a sphere.
DECOY_WEIGHTS = np.array([2, 1, 1, 1, 1, 1, 2, 1]) / 10
MATERIALS = ("matte", "glossy", "metal", "glass")
MIN_VISIBLE_PX = 40  # a sphere showing less than this is not labelled (a sliver, not countable)
MIN_VISIBLE_SHARE = 0.3  # ... nor one with less than this share of its disc in sight


FINISHES = ("plain", "stripes", "spots", "segments", "marble")


@dataclass(frozen=True)
class Solid:
    kind: str  # SPHERE, one of DECOYS, or "torus" (a decoy of the fourth look)
    shape: str  # the canonical solid: "ellipsoid", "box", "cylinder", "cone", "torus"
    centre: np.ndarray  # world (z up, the table at z = 0)
    axes: np.ndarray  # 3 x 3, rows: the solid's own x, y, z in world coordinates
    # radii (ellipsoid), half sides (box), radius, radius, half height (cylinder, cone), outer
    # radius, outer radius, tube radius (torus)
    size: np.ndarray
    colour: np.ndarray  # BGR 0..1
    material: str  # one of MATERIALS
    finish: str = "plain"  # one of FINISHES: a pattern painted on in a second colour, `ink`
    ink: np.ndarray = field(default_factory=lambda: np.zeros(3))
    turn: np.ndarray = field(default_factory=lambda: np.eye(3))  # the pattern's own axes
    freq: float = 0.0  # the pattern's stripes or spots across the solid
    bump: float = 0.0  # how far a hammered or rough surface tilts the normal
    # Paint and relief of its own (a die's pips, vision.synth.table_dice): (solid, surface
    # points, world normals) -> (albedo, normals, which points are paint: matte on any material)
    surface: Callable[["Solid", np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray, np.ndarray]] | None = None


@dataclass
class TableScene:
    image: np.ndarray  # BGR uint8
    solids: list[Solid]
    ids: np.ndarray  # h x w, the index of the solid seen at each pixel, -1 the table or beyond
    full_px: list[float]  # each solid's disc in pixels were nothing in front of it (spheres only)

    @property
    def spheres(self) -> int:
        """The spheres drawn, in sight or not (those labelled are sphere_boxes())."""
        return sum(s.kind == SPHERE for s in self.solids)

    def sphere_boxes(self) -> list[tuple[float, float, float, float]]:
        """(x1, y1, x2, y2) of each labelled sphere's visible part, in pixels."""
        out = []
        for i, s in enumerate(self.solids):
            if s.kind != SPHERE:
                continue
            mask = self.ids == i
            seen = int(np.count_nonzero(mask))
            if seen < MIN_VISIBLE_PX or seen < MIN_VISIBLE_SHARE * self.full_px[i]:
                continue
            out.append(pixel_box(mask))
        return out


@dataclass(frozen=True)
class Camera:
    """A pinhole camera at `eye` looking at the table's centre (world z up): focal length `f` in
    pixels, a w x h picture, the grid shifted by (jx, jy) pixels."""

    eye: np.ndarray
    f: float
    w: int
    h: int
    jx: float = 0.0
    jy: float = 0.0

    @property
    def fwd(self) -> np.ndarray:
        return -self.eye / np.linalg.norm(self.eye)

    @property
    def right(self) -> np.ndarray:
        r = np.cross(self.fwd, [0, 0, 1.0])
        return r / np.linalg.norm(r)

    @property
    def up(self) -> np.ndarray:
        return np.cross(self.right, self.fwd)

    def rays(self) -> np.ndarray:
        """Unit directions through every pixel centre, row by row (h * w x 3)."""
        yy, xx = np.mgrid[0:self.h, 0:self.w].astype(np.float64)
        fwd, right, up = self.fwd, self.right, self.up
        d = (fwd[None] * self.f + right[None] * (xx.reshape(-1, 1) - self.w / 2 + self.jx)
             - up[None] * (yy.reshape(-1, 1) - self.h / 2 + self.jy))
        return d / np.linalg.norm(d, axis=1, keepdims=True)

    def project(self, points: np.ndarray) -> np.ndarray:
        """World points (N x 3) to pixel coordinates (N x 2), pixel centres at whole numbers."""
        rel = points - self.eye
        depth = rel @ self.fwd
        x = self.f * (rel @ self.right) / depth + self.w / 2 - self.jx
        y = -self.f * (rel @ self.up) / depth + self.h / 2 - self.jy
        return np.stack([x, y], 1)


def turn_z(a: float) -> np.ndarray:
    """A solid's own axes (rows, in world coordinates) turned by `a` radians about the table's z."""
    c, s = np.cos(a), np.sin(a)
    return np.array([[c, s, 0.0], [-s, c, 0.0], [0.0, 0.0, 1.0]])


def _lay_down(axes: np.ndarray) -> np.ndarray:
    """The solid's own z turned to lie along its own x: lying on its side."""
    return np.stack([axes[2], axes[1], -axes[0]])


def _hit_local(shape: str, size: np.ndarray, o: np.ndarray, d: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Nearest positive hit distance (inf where none) and the normal there, in the solid's frame."""
    n_rays = len(o)
    t_best = np.full(n_rays, np.inf)
    normal = np.zeros((n_rays, 3))
    eps = 1e-4
    if shape == "ellipsoid":
        os, ds = o / size, d / size
        a = np.sum(ds * ds, 1)
        b = 2 * np.sum(os * ds, 1)
        c = np.sum(os * os, 1) - 1
        disc = b * b - 4 * a * c
        ok = disc >= 0
        sq = np.sqrt(np.where(ok, disc, 0))
        t0, t1 = (-b - sq) / (2 * a), (-b + sq) / (2 * a)
        t = np.where(t0 > eps, t0, np.where(t1 > eps, t1, np.inf))
        t_best = np.where(ok, t, np.inf)
        p = o + d * np.where(np.isfinite(t_best), t_best, 0)[:, None]
        normal = p / (size * size)
    elif shape == "box":
        inv = 1.0 / np.where(np.abs(d) < 1e-12, 1e-12, d)
        t1, t2 = (-size - o) * inv, (size - o) * inv
        tmin, tmax = np.minimum(t1, t2), np.maximum(t1, t2)
        near, far = tmin.max(1), tmax.min(1)
        ok = (far >= near) & (far > eps)
        t_best = np.where(ok, np.where(near > eps, near, far), np.inf)
        axis = np.argmax(tmin, 1)
        normal[np.arange(n_rays), axis] = -np.sign(d[np.arange(n_rays), axis])
    elif shape == "torus":
        t_best, normal = _hit_torus(size[0] - size[2], size[2], o, d)
    else:  # cylinder or cone along the own z, half height size[2]
        r, hh = size[0], size[2]
        if shape == "cylinder":
            k = 0.0
            a = d[:, 0] ** 2 + d[:, 1] ** 2
            b = 2 * (o[:, 0] * d[:, 0] + o[:, 1] * d[:, 1])
            c = o[:, 0] ** 2 + o[:, 1] ** 2 - r * r
        else:  # cone: radius r at z = -hh, apex at z = +hh
            k = r / (2 * hh)
            zz0 = hh - o[:, 2]
            a = d[:, 0] ** 2 + d[:, 1] ** 2 - (k * d[:, 2]) ** 2
            b = 2 * (o[:, 0] * d[:, 0] + o[:, 1] * d[:, 1] + k * k * zz0 * d[:, 2])
            c = o[:, 0] ** 2 + o[:, 1] ** 2 - (k * zz0) ** 2
        disc = b * b - 4 * a * c
        ok = (disc >= 0) & (np.abs(a) > 1e-12)
        sq = np.sqrt(np.where(ok, disc, 0))
        a_safe = np.where(np.abs(a) > 1e-12, a, 1.0)
        for t in ((-b - sq) / (2 * a_safe), (-b + sq) / (2 * a_safe)):
            z = o[:, 2] + d[:, 2] * t
            good = ok & (t > eps) & (np.abs(z) <= hh) & (t < t_best)
            t_best = np.where(good, t, t_best)
            p = o + d * t[:, None]
            side = np.stack([p[:, 0], p[:, 1], (k * k * (hh - p[:, 2])) if shape == "cone" else np.zeros(n_rays)], 1)
            normal = np.where(good[:, None], side, normal)
        caps = ((-hh, -1.0), (hh, 1.0)) if shape == "cylinder" else ((-hh, -1.0),)
        for zc, sign in caps:
            t = (zc - o[:, 2]) / np.where(np.abs(d[:, 2]) < 1e-12, 1e-12, d[:, 2])
            p = o + d * t[:, None]
            good = (t > eps) & (p[:, 0] ** 2 + p[:, 1] ** 2 <= r * r) & (t < t_best)
            t_best = np.where(good, t, t_best)
            normal = np.where(good[:, None], np.array([0, 0, sign]), normal)
    return t_best, normal


def _hit_torus(big: float, small: float, o: np.ndarray, d: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """A ring of tube radius `small` around the own z at radius `big`, by sphere tracing its
    distance field from where the ray enters its bounding sphere (a ring has no closed-form hit
    short of a quartic). Rays must start outside the ring."""
    n_rays = len(o)
    d = d / np.maximum(np.linalg.norm(d, axis=1, keepdims=True), 1e-12)
    outer = big + small
    b = np.sum(o * d, 1)
    disc = b * b - (np.sum(o * o, 1) - outer * outer)
    t_out = -b + np.sqrt(np.maximum(disc, 0))
    live = np.nonzero((disc >= 0) & (t_out > 1e-4))[0]
    t = np.maximum(-b[live] - np.sqrt(disc[live]), 1e-4)
    done = np.zeros(len(live), bool)
    for _ in range(96):
        p = o[live] + d[live] * t[:, None]
        q = np.hypot(p[:, 0], p[:, 1]) - big
        dist = np.hypot(q, p[:, 2]) - small
        done |= dist < 1e-4 * outer
        t = np.where(done, t, t + np.maximum(dist, 1e-5 * outer))
        gone = ~done & (t > t_out[live])
        if np.all(done | gone):
            break
    t_best = np.full(n_rays, np.inf)
    t_best[live[done]] = t[done]
    p = o + d * np.where(np.isfinite(t_best), t_best, 0)[:, None]
    ring = np.hypot(p[:, 0], p[:, 1])
    pull = 1 - big / np.maximum(ring, 1e-12)
    return t_best, np.stack([p[:, 0] * pull, p[:, 1] * pull, p[:, 2]], 1)


def cast(solids: list[Solid], o: np.ndarray, d: np.ndarray, floor: bool = True):
    """Nearest hit among the solids (and the table) for rays o + t d: t, which (-1 the table,
    -2 nothing) and the world normal."""
    t_best = np.full(len(d), np.inf)
    which = np.full(len(d), -2)
    normal = np.zeros((len(d), 3))
    if floor:
        t = np.where(d[:, 2] < -1e-9, -o[:, 2] / np.where(d[:, 2] < -1e-9, d[:, 2], -1.0), np.inf)
        t_best, which = np.where(t > 1e-4, t, np.inf), np.where(t > 1e-4, -1, -2)
        normal[:] = (0, 0, 1.0)
    for i, s in enumerate(solids):
        lo, ld = (o - s.centre) @ s.axes.T, d @ s.axes.T
        t, n_local = _hit_local(s.shape, s.size, lo, ld)
        nearer = t < t_best
        t_best = np.where(nearer, t, t_best)
        which = np.where(nearer, i, which)
        normal = np.where(nearer[:, None], n_local @ s.axes, normal)
    normal /= np.maximum(np.linalg.norm(normal, axis=1, keepdims=True), 1e-12)
    return t_best, which, normal


def random_solid(rng: np.random.Generator, kind: str, x: float, y: float, scale: float, toward: np.ndarray) -> Solid:
    """A solid of `kind` (SPHERE or one of DECOYS) about `scale` across, standing on the table at
    (x, y), of a random colour and material; a disc on its rim is often turned face-on to `toward`."""
    r = scale
    axes = turn_z(float(rng.uniform(0, 2 * np.pi)))
    shape, size, z = "ellipsoid", np.array([r, r, r]), r
    if kind == "egg":  # from 1.12 long: seen from above such an egg is nearly round
        size = np.array([r, r, r * rng.uniform(1.12, 1.7)])
        z = size[2]
    elif kind == "lentil":
        size = np.array([r, r, r * rng.uniform(0.35, 0.7)])
        z = size[2]
    elif kind == "lying_egg":
        size = np.array([r, r, r * rng.uniform(1.25, 1.8)])
        axes, z = _lay_down(axes), r
    elif kind == "box":
        size = r * rng.uniform(0.7, 1.0, 3) if rng.random() < 0.5 else np.full(3, r * 0.85)
        shape, z = "box", size[2]
    elif kind in ("cylinder", "lying_cylinder"):
        size = np.array([r * rng.uniform(0.6, 1.0), 0, r * rng.uniform(0.6, 1.4)])
        size[1] = size[0]
        shape = "cylinder"
        z = size[2]
        if kind == "lying_cylinder":
            axes, z = _lay_down(axes), size[0]
    elif kind == "disc":
        size = np.array([r, r, r * rng.uniform(0.06, 0.2)])
        shape, z = "cylinder", size[2]
        if rng.random() < 0.6:  # standing on its rim; often face-on to the camera
            face = toward - np.array([x, y, 0.0])
            yaw = np.arctan2(face[1], face[0]) + (np.radians(rng.uniform(-20, 20)) if rng.random() < 0.7 else rng.uniform(0, np.pi))
            axes = _lay_down(turn_z(float(yaw)))
            z = r
    elif kind == "cone":
        size = np.array([r, r, r * rng.uniform(0.7, 1.3)])
        shape, z = "cone", size[2]
    colour = np.clip(rng.uniform(0.05, 1.0, 3) * rng.uniform(0.5, 1.0), 0, 1)
    material = str(rng.choice(MATERIALS, p=[0.4, 0.25, 0.22, 0.13]))
    return Solid(kind, shape, np.array([x, y, z]), axes, size, colour, material)


def _floor_texture(rng: np.random.Generator) -> np.ndarray:
    img = pattern(rng, 512, 512) if rng.random() < 0.5 else background(rng, 512, 512)
    return img.astype(np.float32) / 255.0


LOOKS = (3, 4, 5)  # the looks this renderer still draws; the first two are gone from the code


def render_table_scene(seed: int, idx: int, size: tuple[int, int] | None = None, look: int = 4) -> TableScene:
    """One training scene: 2-12 solids on a table, 20-60% of them spheres. look 3 draws the
    scene as the third look did (the datasets and validation scenes of 2026-12-05), bit for bit;
    look 4 adds the fourth look's rings, finishes, clutter and wall to the same layout; look 5
    only its finishes, and only on the spheres."""
    if look not in LOOKS:
        raise ValueError(f"look must be one of {LOOKS}")
    rng = np.random.default_rng([seed, idx, 31337])
    w, h = size or [(480, 320), (640, 480), (400, 400)][int(rng.integers(3))]
    elev, azim = np.radians(rng.uniform(20, 70)), rng.uniform(0, 2 * np.pi)
    spread = rng.uniform(2.0, 4.0)
    dist = spread * rng.uniform(2.2, 3.6)
    eye = dist * np.array([np.cos(elev) * np.cos(azim), np.cos(elev) * np.sin(azim), np.sin(elev)])
    f = (w / 2) / np.tan(np.radians(rng.uniform(35, 60)) / 2)

    solids: list[Solid] = []
    share = rng.uniform(0.2, 0.6)
    base = rng.uniform(0.25, 0.7)
    for _ in range(int(rng.integers(2, 13))):
        kind = SPHERE if rng.random() < share else str(rng.choice(DECOYS, p=DECOY_WEIGHTS))
        scale = base * rng.uniform(0.5, 1.6)
        for _ in range(60):
            x, y = rng.uniform(-spread, spread, 2)
            if all(np.hypot(x - s.centre[0], y - s.centre[1]) > scale * 1.3 + s.size.max() + 0.05 for s in solids):
                solids.append(random_solid(rng, kind, float(x), float(y), float(scale), eye))
                break

    # The fourth and fifth looks draw from their own streams, so that the layouts and lights of
    # the third look's scenes stay as they were for the same seed.
    extra = np.random.default_rng([seed, idx, look]) if look >= 4 else None
    if look == 4:
        solids = [_dressed(extra, s) for s in solids]
    elif look == 5:
        solids = [_finished(extra, s) if s.kind == SPHERE else s for s in solids]

    cam = Camera(eye, f, w, h, *rng.uniform(-0.5, 0.5, 2))
    dirs = cam.rays()
    origin = np.broadcast_to(eye, dirs.shape)
    t, which, normal = cast(solids, origin, dirs)
    # flat clutter and a wall: the fourth look's alone
    image = shade(rng, extra if look == 4 else None, solids, origin, dirs, t, which, normal, spread)
    image = image.reshape(h, w, 3)
    if rng.random() < 0.5:
        image = lamp(image, rng)
    if rng.random() < 0.8:
        image = effects.noise(effects.jpeg(effects.defocus(image, rng), rng), rng)
    full = []
    for s in solids:
        depth = (s.centre - eye) @ cam.fwd
        full.append(float(np.pi * (f * s.size[0] / max(depth, 1e-6)) ** 2))
    return TableScene(image, solids, which.reshape(h, w), full)


def _dressed(rng: np.random.Generator, s: Solid) -> Solid:
    """The fourth look on a solid: some decoys become rings (lying, or standing on the rim), and
    any solid may be painted (stripes, spots, a beach ball's segments, marble) or hammered rough.
    A painted or rough sphere is still a sphere."""
    if s.kind != SPHERE and rng.random() < 0.2:
        outer = float(s.size[0])
        tube = outer * rng.uniform(0.15, 0.45)
        axes, z = turn_z(float(rng.uniform(0, 2 * np.pi))), tube
        if rng.random() < 0.35:
            axes, z = _lay_down(axes), outer
        material = "glossy" if s.material == "glass" else s.material  # rays leave a ring only from outside
        s = replace(s, kind="torus", shape="torus", centre=np.array([s.centre[0], s.centre[1], z]), axes=axes,
                    size=np.array([outer, outer, tube]), material=material)
    return _finished(rng, s)


def _finished(rng: np.random.Generator, s: Solid) -> Solid:
    """The fourth look's finishes: painted (stripes, spots, a beach ball's segments, marble) or
    hammered rough, each now and then."""
    if rng.random() < 0.35:
        q, _ = np.linalg.qr(rng.normal(size=(3, 3)))
        finish = str(rng.choice(FINISHES[1:]))
        freq = float(rng.integers(2, 5)) if finish == "segments" else float(rng.uniform(1.5, 5))
        s = replace(s, finish=finish, ink=np.clip(rng.uniform(0.05, 1.0, 3), 0, 1), turn=q, freq=freq)
    if rng.random() < 0.2:
        s = replace(s, bump=float(rng.uniform(0.05, 0.35)))
    return s


def _pattern_at(s: Solid, p: np.ndarray) -> np.ndarray:
    """Points p on the solid in the pattern's own frame, about -1..1 across the solid."""
    return ((p - s.centre) @ s.axes.T / float(s.size.max())) @ s.turn.T


def _painted(s: Solid, p: np.ndarray) -> np.ndarray:
    """The solid's colour at its surface points p, its finish painted on in `ink`."""
    u = _pattern_at(s, p)
    if s.finish == "stripes":
        v = (np.sin(s.freq * np.pi * u[:, 2]) > 0).astype(float)
    elif s.finish == "spots":
        g = u * s.freq
        v = (np.sum((g - np.round(g)) ** 2, 1) < 0.09).astype(float)
    elif s.finish == "segments":
        v = (np.sin(s.freq * np.arctan2(u[:, 1], u[:, 0])) > 0).astype(float)
    else:  # marble: soft veins
        v = (0.5 + 0.5 * np.sin(s.freq * np.pi * u[:, 0] + 2.5 * np.sin(3 * u[:, 1]) + 1.5 * np.sin(5 * u[:, 2]))) ** 3
    return s.colour * (1 - v[:, None]) + s.ink * v[:, None]


def _roughened(s: Solid, p: np.ndarray, n: np.ndarray) -> np.ndarray:
    """Normals n at points p tilted by a hammered surface's dents."""
    u = _pattern_at(s, p) * 14
    n = n + s.bump * np.sin(u + 3 * np.sin(0.6 * u[:, ::-1]))
    return n / np.maximum(np.linalg.norm(n, axis=1, keepdims=True), 1e-12)


FLAT_CLUTTER = (usb_stick, cable, laptop, pen, note, blank_square)  # printed or lying flat; no shaded balls


def shade(rng, extra, solids, origin, dirs, t, which, normal, spread) -> np.ndarray:
    """The picture's pixels (N x 3 uint8 BGR) for rays that cast() followed: cloth, solids by their
    materials and finishes (and their own surface hooks), a lamp with soft shadows, a fill light;
    `extra` (the fourth look's stream, or None) adds flat clutter and a wall."""
    hit = np.isfinite(t)
    p = origin + dirs * np.where(hit, t, 0)[:, None]
    lamp_dir = np.array([rng.uniform(-1, 1), rng.uniform(-1, 1), rng.uniform(0.5, 2.5)])
    lamp_dir /= np.linalg.norm(lamp_dir)
    lamp = rng.uniform(0.75, 1.1, 3)
    ambient = rng.uniform(0.15, 0.5)
    tex = _floor_texture(rng)
    if extra is not None and extra.random() < 0.35:  # things lying flat on the cloth: paper, a pen, a cable
        u8 = (tex * 255).astype(np.uint8)
        for _ in range(int(extra.integers(1, 6))):
            FLAT_CLUTTER[int(extra.integers(len(FLAT_CLUTTER)))](u8, extra)
        tex = u8.astype(np.float32) / 255.0
    tile = rng.uniform(1.0, 4.0)  # world units across one texture tile
    albedo = np.zeros((len(dirs), 3))
    floor = which == -1
    albedo[floor] = _cloth_at(p[floor], tex, tile)
    material = np.full(len(dirs), "matte", dtype=object)
    for i, s in enumerate(solids):
        m = which == i
        albedo[m] = s.colour if s.finish == "plain" else _painted(s, p[m])
        material[m] = s.material
        if s.bump:
            normal[m] = _roughened(s, p[m], normal[m])
        if s.surface is not None:
            albedo[m], normal[m], paint = s.surface(s, p[m], normal[m])
            material[np.nonzero(m)[0][paint]] = "matte"
    # Soft shadows: the lamp seen from several points of its face
    idx = np.nonzero(hit)[0]
    n = normal[idx]
    lit = np.zeros(len(idx))
    facing = np.nonzero(n @ lamp_dir > 0)[0]  # the far side is dark whatever stands between
    samples = 3
    softness = rng.uniform(0.01, 0.15)  # a bare bulb's hard shadow to a window's soft one
    for _ in range(samples):
        ld = lamp_dir + rng.normal(0, softness, 3)
        ld /= np.linalg.norm(ld)
        q = p[idx[facing]] + n[facing] * 1e-3
        ts, _, _ = cast(solids, q, np.broadcast_to(ld, q.shape), floor=False)
        lit[facing] += ~np.isfinite(ts)
    lit /= samples
    lam = np.clip(n @ lamp_dir, 0, 1) * lit
    view = -dirs[idx]
    half = lamp_dir + view
    half /= np.linalg.norm(half, axis=1, keepdims=True)
    spec = np.clip(np.sum(n * half, 1), 0, 1)
    a = albedo[idx]
    mat = material[idx]
    out = np.zeros((len(dirs), 3))
    out[~hit] = rng.uniform(0.3, 0.9, 3)  # beyond the table
    if extra is not None and extra.random() < 0.5:  # a wall, darker or lighter upwards
        out[~hit] *= np.clip(1 + extra.uniform(-0.8, 0.8) * dirs[~hit, 2:3], 0.2, 1.5)
    col = a * (ambient + (1 - ambient) * lam[:, None])
    # A fill light from elsewhere, tinted, without shadows: a second lamp, a window, a screen
    fill_dir = np.array([rng.uniform(-1, 1), rng.uniform(-1, 1), rng.uniform(0.1, 1.5)])
    fill_dir /= np.linalg.norm(fill_dir)
    col += a * (np.clip(n @ fill_dir, 0, 1)[:, None] * rng.uniform(0, 0.35) * rng.uniform(0.7, 1.0, 3))
    view_cos = np.clip(np.sum(n * view, 1), 0, 1)
    fresnel = 0.04 + 0.96 * (1 - view_cos) ** 5
    glossy = mat == "glossy"
    col[glossy] += (spec[glossy] ** rng.uniform(20, 80) * lit[glossy] * rng.uniform(0.4, 0.9))[:, None]
    if glossy.any():  # the clear coat mirrors the room, most at grazing angles
        dg, ng = dirs[idx][glossy], n[glossy]
        refl = mirror(dg, ng)
        env = _reflected(solids, p[idx][glossy] + ng * 1e-3, refl, tex, tile, lamp_dir, ambient)
        coat = np.clip(fresnel[glossy] * rng.uniform(1, 4), 0, 1)[:, None]
        col[glossy] = col[glossy] * (1 - coat) + env * coat
    glass = mat == "glass"
    if glass.any():
        col[glass] = through_glass(solids, which[idx][glass], p[idx][glass], dirs[idx][glass], n[glass], a[glass],
                                   fresnel[glass], tex, tile, lamp_dir, ambient, float(rng.uniform(1.3, 1.6)))
        col[glass] += (spec[glass] ** rng.uniform(100, 400) * lit[glass] * 1.5)[:, None]
    metal = mat == "metal"
    if metal.any():
        dm, nm = dirs[idx][metal], n[metal]
        refl = mirror(dm, nm)
        sky_col = rng.uniform(0.6, 1.0, 3)
        mix = np.clip(refl[:, 2:3] * rng.uniform(1.5, 5) + 0.4, 0, 1)
        env = _reflected(solids, p[idx][metal] + nm * 1e-3, refl, tex, tile, lamp_dir, ambient) * (1 - mix) \
            + sky_col * mix
        col[metal] = env * (0.25 + 0.75 * a[metal]) * rng.uniform(0.6, 1.0) + a[metal] * lam[metal, None] * 0.2
        col[metal] += (spec[metal] ** rng.uniform(60, 300) * lit[metal] * 1.5)[:, None]
    out[idx] = col * lamp
    return np.clip(out * 255, 0, 255).astype(np.uint8)


def _cloth_at(p: np.ndarray, tex: np.ndarray, tile: float) -> np.ndarray:
    """The cloth's colour at table points p (x, y in world units; `tile` units a texture tile)."""
    u = ((p[:, 0] / tile) % 1.0 * (tex.shape[1] - 1)).astype(int)
    v = ((p[:, 1] / tile) % 1.0 * (tex.shape[0] - 1)).astype(int)
    return tex[v, u]


def _reflected(solids: list[Solid], o: np.ndarray, d: np.ndarray, tex: np.ndarray, tile: float,
               lamp_dir: np.ndarray, ambient: float) -> np.ndarray:
    """What a mirror at o shows along d: the cloth and the other solids, lit without shadows. A
    metal sphere shows its neighbours bent around it; a plain grey room taught the detector that
    metal is smooth, and on other renderers' metal spheres it was unsure (0.2-0.8)."""
    t, which, normal = cast(solids, o, d)
    out = np.full((len(d), 3), np.median(tex.reshape(-1, 3), 0))
    p = o + d * np.where(np.isfinite(t), t, 0)[:, None]
    floor = which == -1
    out[floor] = _cloth_at(p[floor], tex, tile)
    for i, s in enumerate(solids):
        m = which == i
        out[m] = s.colour * (ambient + (1 - ambient) * np.clip(normal[m] @ lamp_dir, 0, 1))[:, None]
    return out


def mirror(d: np.ndarray, n: np.ndarray) -> np.ndarray:
    """Directions d mirrored by a surface of normal n."""
    return d - 2 * np.sum(d * n, 1, keepdims=True) * n


def refract(d: np.ndarray, n: np.ndarray, eta: float) -> np.ndarray:
    """Directions d bent through a surface of normal n (against d) with index ratio eta = n1 / n2;
    mirrored where no light passes (total internal reflection)."""
    cos_i = -np.sum(d * n, 1, keepdims=True)
    k = 1 - eta * eta * (1 - cos_i * cos_i)
    bent = eta * d + (eta * cos_i - np.sqrt(np.maximum(k, 0))) * n
    return np.where(k >= 0, bent, mirror(d, n))


def through_glass(solids: list[Solid], which: np.ndarray, p: np.ndarray, d: np.ndarray, n: np.ndarray,
                  tint: np.ndarray, fresnel: np.ndarray, tex: np.ndarray, tile: float, lamp_dir: np.ndarray,
                  ambient: float, ior: float) -> np.ndarray:
    """A clear solid at points p: what lies behind it, bent on the way in and out and tinted by its
    colour, plus the room it mirrors. A glass sphere shows the cloth upside down and shrunk, not a
    shaded disc: a detector that knows only shading misses it."""
    inner = refract(d, n, 1 / ior)
    out_p, out_d = p.copy(), inner.copy()
    for i, s in enumerate(solids):
        m = which == i
        if not m.any():
            continue
        start = p[m] + inner[m] * 1e-3
        t, n_local = _hit_local(s.shape, s.size, (start - s.centre) @ s.axes.T, inner[m] @ s.axes.T)
        t = np.where(np.isfinite(t), t, 0)
        exit_n = n_local @ s.axes
        exit_n /= np.maximum(np.linalg.norm(exit_n, axis=1, keepdims=True), 1e-12)
        out_p[m] = start + inner[m] * t[:, None]
        out_d[m] = refract(inner[m], -exit_n, ior)
    out_d /= np.maximum(np.linalg.norm(out_d, axis=1, keepdims=True), 1e-12)
    behind = _reflected(solids, out_p + out_d * 1e-3, out_d, tex, tile, lamp_dir, ambient)
    mirrored = _reflected(solids, p + n * 1e-3, mirror(d, n), tex, tile, lamp_dir, ambient)
    f = fresnel[:, None]
    return behind * (0.35 + 0.65 * tint) * (1 - f) + mirrored * f
