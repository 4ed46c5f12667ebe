"""Sphere scenes drawn by a z-buffered triangle rasterizer: a choosing bed.

Kept for choosing between models; never trained on; shares no code with `table_scenes` (the
training look, 2-D drawing and ray casting) or `holdout_scenes` (the ray-marched look kept for
testing). Models picked on the training renderer's own validation scenes learn that renderer's
habits; picking them on a third, independent look instead leaves the test look untouched.

Each picture is a small world of triangle meshes (spheres among cubes, cylinders, eggs, discs,
tori, cones and capsules) standing on a textured table, projected by a pinhole camera seen from
20-70 degrees above the table, and rasterized into a depth buffer, an object-id buffer and
per-pixel barycentrics (triangles grouped by the size of their bounding boxes, each group tested
over its boxes at once); shading is deferred (Phong-interpolated normals, Lambert, Blinn-Phong,
a mirrored procedural room for metal, painted patterns in the object's own coordinates), and the
main light casts shadows through a shadow map with a few-tap PCF. Everything here is numpy; cv2
only blurs and JPEG-codes the finished picture.

A sphere is kept only where it is wholly inside the picture and at least `VISIBLE` of the pixels
it would cover alone are in sight, so every picture has one right count: `MeshSceneShot.spheres`.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Literal

import cv2
import numpy as np

Kind = Literal["sphere", "cube", "cylinder", "lying_cylinder", "egg", "lying_egg", "disc_lying",
               "disc_standing", "torus", "standing_torus", "cone", "capsule"]
Material = Literal["matte", "glossy", "metal", "painted", "translucent"]

KINDS: tuple[Kind, ...] = ("sphere", "cube", "cylinder", "lying_cylinder", "egg", "lying_egg",
                           "disc_lying", "disc_standing", "torus", "standing_torus", "cone", "capsule")
MATERIALS: tuple[Material, ...] = ("matte", "glossy", "metal", "painted", "translucent")
SIZE = (480, 320)  # w, h
VISIBLE = 0.7  # a sphere is kept only where this share of the pixels it would cover alone is seen
DECOY_MIN_PX = 120  # at 480x320 (scaled with the picture's area): a decoy showing less is left out
CHOOSING_SEED = 2027  # the seed of the pictures cuts and models are chosen on
_SALT = 4242  # this renderer's own random stream, apart from the other renderers' seeds
# Round-looking decoys (an upright egg from above, a disc face-on) are the ones that tell a
# counter apart, so they come a little more often.
_DECOY_ODDS = {"cube": 1.0, "cylinder": 1.0, "lying_cylinder": 0.8, "egg": 1.4, "lying_egg": 1.0, "disc_lying": 0.9,
               "disc_standing": 1.3, "torus": 0.8, "standing_torus": 0.8, "cone": 0.8, "capsule": 0.8}

# Surface ids of the room in the triangle-to-surface map; things are 0..n-1.
_TABLE, _EDGE, _FLOOR, _WALL = -1, -2, -3, -4
_NEAR = 0.05


@dataclass(frozen=True)
class MeshThing:
    kind: Kind
    centre: tuple[float, float, float]  # world x, y, z of its middle (z up, the table is z = 0)
    size: float  # a sphere's radius; a decoy's size class (its measures are this times a few factors)
    material: Material
    colour: tuple[float, float, float]  # BGR 0..1, as displayed
    turn: float  # about the vertical, radians
    segments: int  # tessellation around
    detail: str = ""  # e.g. "rounded", "standing", "stripes"


@dataclass
class MeshSceneShot:
    image: np.ndarray  # BGR uint8, h x w x 3
    things: list[MeshThing]
    boxes: list[tuple[float, float, float, float]]  # per thing, x1 y1 x2 y2 of its visible pixels
    ids: np.ndarray = field(repr=False, default_factory=lambda: np.zeros((0, 0), np.int16))
    # per pixel the index into `things` seen there, -1 for the table and room
    full_px: list[int] = field(default_factory=list)  # per thing, the pixels it would cover alone

    @property
    def spheres(self) -> int:
        return sum(t.kind == "sphere" for t in self.things)


# ---------------------------------------------------------------- meshes


@dataclass
class _Mesh:
    """Vertices carry world position, normal, object-local position and uv (columns 0-10)."""

    attr: np.ndarray  # V x 11
    tris: np.ndarray  # T x 3


def _finish(pos: np.ndarray, nrm: np.ndarray, uv: np.ndarray, tris: np.ndarray) -> _Mesh:
    """Drop degenerate triangles and wind every other one so its face points along its normals
    (the rasterizer culls by winding)."""
    nrm = nrm / np.maximum(np.linalg.norm(nrm, axis=1, keepdims=True), 1e-12)
    p = pos[tris]
    face = np.cross(p[:, 1] - p[:, 0], p[:, 2] - p[:, 0])
    size = np.linalg.norm(face, axis=1)
    tris = tris[size > 1e-12]
    face = face[size > 1e-12]
    flip = np.einsum("ij,ij->i", face, nrm[tris].sum(1)) < 0
    tris = tris.copy()
    tris[flip] = tris[flip][:, [0, 2, 1]]
    return _Mesh(np.concatenate([pos, nrm, pos, uv], 1), tris.astype(np.int64))


def _smooth(fn: Callable[[np.ndarray], tuple[np.ndarray, np.ndarray]], n: int) -> np.ndarray:
    """Rows (r, z, normal r, normal z) of a smooth profile, normals from its tangent."""
    t = np.linspace(0, 1, n + 1)
    r, z = fn(t)
    ra, za = fn(np.clip(t - 1e-4, 0, 1))
    rb, zb = fn(np.clip(t + 1e-4, 0, 1))
    nr, nz = zb - za, -(rb - ra)
    ln = np.maximum(np.hypot(nr, nz), 1e-15)
    return np.stack([r, z, nr / ln, nz / ln], 1)


def _line(a: tuple[float, float], b: tuple[float, float], n: int = 1) -> np.ndarray:
    t = np.linspace(0, 1, n + 1)
    r, z = a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t
    nr, nz = b[1] - a[1], -(b[0] - a[0])
    ln = np.hypot(nr, nz)
    return np.stack([r, z, np.full_like(t, nr / ln), np.full_like(t, nz / ln)], 1)


def _revolve(parts: list[np.ndarray], seg: int) -> _Mesh:
    """A solid of revolution about z from profile pieces, bottom to top; the pieces meet with a
    crease (their own normals), so caps and bevels stay sharp."""
    phi = np.linspace(0, 2 * np.pi, seg + 1)
    c, s = np.cos(phi), np.sin(phi)
    rows = np.concatenate(parts)
    arc = np.concatenate([[0], np.cumsum(np.hypot(np.diff(rows[:, 0]), np.diff(rows[:, 1])))])
    v = arc / max(arc[-1], 1e-9)
    pos = np.stack([rows[:, :1] * c, rows[:, :1] * s, np.repeat(rows[:, 1:2], seg + 1, 1)], 2).reshape(-1, 3)
    nrm = np.stack([rows[:, 2:3] * c, rows[:, 2:3] * s, np.repeat(rows[:, 3:4], seg + 1, 1)], 2).reshape(-1, 3)
    uv = np.stack(np.broadcast_arrays(phi[None, :] / (2 * np.pi), v[:, None]), 2).reshape(-1, 2)
    tris = []
    start = 0
    j = np.arange(seg)
    for part in parts:
        for i in range(start, start + len(part) - 1):
            a, b = i * (seg + 1) + j, (i + 1) * (seg + 1) + j
            tris += [np.stack([a, a + 1, b + 1], 1), np.stack([a, b + 1, b], 1)]
        start += len(part)
    return _finish(pos, nrm, uv, np.concatenate(tris))


def _sphere(r: float, seg: int) -> _Mesh:
    return _revolve([_smooth(lambda t: (r * np.sin(np.pi * t), -r * np.cos(np.pi * t)), max(seg // 2, 4))], seg)


def _egg(a: float, b: float, taper: float, seg: int) -> _Mesh:
    """An ellipsoid b high, a wide, broader below its middle as eggs are."""
    def fn(t):
        th = np.pi * t
        return a * np.sin(th) * (1 + taper * np.cos(th)), -b * np.cos(th)
    return _revolve([_smooth(fn, max(seg // 2, 6))], seg)


def _cylinder(r: float, half: float, bevel: float, seg: int) -> _Mesh:
    e = min(bevel, 0.45 * r, 0.45 * half)
    if e <= 1e-4:
        parts = [_line((0, -half), (r, -half)), _line((r, -half), (r, half)), _line((r, half), (0, half))]
    else:
        parts = [_line((0, -half), (r - e, -half)), _line((r - e, -half), (r, -half + e)),
                 _line((r, -half + e), (r, half - e)), _line((r, half - e), (r - e, half)),
                 _line((r - e, half), (0, half))]
    return _revolve(parts, seg)


def _cone(r: float, height: float, seg: int) -> _Mesh:
    z0 = -height / 2
    return _revolve([_line((0, z0), (r, z0)), _line((r, z0), (0, -z0), 6)], seg)


def _torus(big: float, tube: float, seg: int) -> _Mesh:
    def fn(t):
        a = -np.pi + 2 * np.pi * t
        return big - tube + tube * np.cos(a), tube * np.sin(a)
    return _revolve([_smooth(fn, max(seg // 2, 8))], seg)


def _capsule(r: float, half: float, seg: int) -> _Mesh:
    n = max(seg // 4, 3)
    low = _smooth(lambda t: (r * np.sin(np.pi / 2 * t), -half - r * np.cos(np.pi / 2 * t)), n)
    top = _smooth(lambda t: (r * np.cos(np.pi / 2 * t), half + r * np.sin(np.pi / 2 * t)), n)
    return _revolve([low, _line((r, -half), (r, half), 2), top], seg)


def _cube(half: float, rounding: float, steps: int) -> _Mesh:
    """A cube from six gridded faces; each grid point is pushed onto the rounded box (the core
    box grown by `rounding`), so edges and corners are rounded and flat faces stay flat."""
    core = half - rounding
    if rounding > 1e-4:  # grid lines at even steps of angle round each edge, to 45 degrees
        band = core + rounding * np.tan(np.linspace(0, np.pi / 4, steps + 1))
        g = np.concatenate([-band[::-1], [0.0], band])
    else:
        g = np.array([-half, 0.0, half])
    pos, nrm, uv, tris = [], [], [], []
    a, b = np.meshgrid(g, g, indexing="ij")
    k = len(g)
    quads = np.array([[i * k + j, i * k + j + 1, (i + 1) * k + j + 1, (i + 1) * k + j]
                      for i in range(k - 1) for j in range(k - 1)])
    for axis in range(3):
        for sign in (-1.0, 1.0):
            p = np.zeros((k * k, 3))
            p[:, axis] = sign * half
            p[:, (axis + 1) % 3] = a.ravel()
            p[:, (axis + 2) % 3] = b.ravel()
            inner = np.clip(p, -core, core)
            d = p - inner
            n = d / np.maximum(np.linalg.norm(d, axis=1, keepdims=True), 1e-12)
            if rounding > 1e-4:
                p = inner + rounding * n
            else:
                n = np.zeros_like(p)
                n[:, axis] = sign
            base = sum(len(x) for x in pos)
            pos.append(p)
            nrm.append(n)
            uv.append(np.stack([(a.ravel() / half + 1) / 2, (b.ravel() / half + 1) / 2], 1))
            q = quads + base
            tris += [q[:, [0, 1, 2]], q[:, [0, 2, 3]]]
    return _finish(np.concatenate(pos), np.concatenate(nrm), np.concatenate(uv), np.concatenate(tris))


def _rot_x(a: float) -> np.ndarray:
    c, s = np.cos(a), np.sin(a)
    return np.array([[1, 0, 0], [0, c, -s], [0, s, c]])


def _rot_z(a: float) -> np.ndarray:
    c, s = np.cos(a), np.sin(a)
    return np.array([[c, -s, 0], [s, c, 0], [0, 0, 1]])


def _any_rotation(rng: np.random.Generator) -> np.ndarray:
    q, r = np.linalg.qr(rng.normal(size=(3, 3)))
    q = q * np.sign(np.diag(r))
    return q if np.linalg.det(q) > 0 else -q


def _posed(mesh: _Mesh, rot: np.ndarray, x: float, y: float) -> _Mesh:
    """The mesh turned by rot and set down on the table at x, y (its lowest point at z = 0);
    the object-local columns stay as they were, so paint turns with the object."""
    a = mesh.attr.copy()
    a[:, 0:3] = mesh.attr[:, 0:3] @ rot.T
    a[:, 3:6] = mesh.attr[:, 3:6] @ rot.T
    a[:, 2] -= a[:, 2].min()
    a[:, 0] += x
    a[:, 1] += y
    return _Mesh(a, mesh.tris)


# ---------------------------------------------------------------- camera and rasterizer


@dataclass(frozen=True)
class _View:
    """A pinhole (or, for a sun's shadow map, orthographic) view; screen x right, y down."""

    eye: np.ndarray
    right: np.ndarray
    down: np.ndarray
    fwd: np.ndarray
    f: float  # px per unit at depth 1 (pinhole) or px per unit (orthographic)
    cx: float
    cy: float
    ortho: bool = False

    def local(self, p: np.ndarray) -> np.ndarray:
        q = p - self.eye
        return np.stack([q @ self.right, q @ self.down, q @ self.fwd], 1)

    def screen(self, c: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Screen x, y and the value that varies linearly over the screen, larger nearer."""
        if self.ortho:
            return self.cx + self.f * c[:, 0], self.cy + self.f * c[:, 1], -c[:, 2]
        z = np.maximum(c[:, 2], 1e-9)
        return self.cx + self.f * c[:, 0] / z, self.cy + self.f * c[:, 1] / z, 1.0 / z


_GRIDS: dict[tuple[int, int], tuple[np.ndarray, np.ndarray]] = {}


def _grid(gx: int, gy: int) -> tuple[np.ndarray, np.ndarray]:
    if (gx, gy) not in _GRIDS:
        _GRIDS[gx, gy] = (np.tile(np.arange(gx), gy), np.repeat(np.arange(gy), gx))
    return _GRIDS[gx, gy]


def _fragments(sx, sy, q, tris, w: int, h: int, cull: int):
    """Every pixel centre inside every triangle: pixel index, depth value q, triangle, and the
    screen barycentrics of vertices 1 and 2. Triangles are grouped by the power-of-two size of
    their bounding box, and each group is tested at once over its boxes."""
    x, y, z = sx[tris], sy[tris], q[tris]
    area = (x[:, 1] - x[:, 0]) * (y[:, 2] - y[:, 0]) - (y[:, 1] - y[:, 0]) * (x[:, 2] - x[:, 0])
    ok = area * cull > 1e-12 if cull else np.abs(area) > 1e-12
    xa = np.clip(np.ceil(x.min(1) - 0.5), 0, w)
    xb = np.clip(np.floor(x.max(1) - 0.5), -1, w - 1)
    ya = np.clip(np.ceil(y.min(1) - 0.5), 0, h)
    yb = np.clip(np.floor(y.max(1) - 0.5), -1, h - 1)
    ok &= (xa <= xb) & (ya <= yb)
    ids = np.nonzero(ok)[0]
    xa, xb, ya, yb = (v[ids].astype(np.int64) for v in (xa, xb, ya, yb))
    kx = np.ceil(np.log2(xb - xa + 1)).astype(np.int64)
    ky = np.ceil(np.log2(yb - ya + 1)).astype(np.int64)
    key = kx * 64 + ky
    out: list[tuple[np.ndarray, ...]] = []
    for k in np.unique(key):
        sel = np.nonzero(key == k)[0]
        ox, oy = _grid(1 << int(k // 64), 1 << int(k % 64))
        step = max(1, (1 << 19) // len(ox))
        for s in range(0, len(sel), step):
            m = sel[s:s + step]
            t = ids[m]
            px, py = xa[m, None] + ox, ya[m, None] + oy
            fx, fy = px + 0.5, py + 0.5
            x0, x1, x2 = x[t, 0:1], x[t, 1:2], x[t, 2:3]
            y0, y1, y2 = y[t, 0:1], y[t, 1:2], y[t, 2:3]
            inv = 1.0 / area[t, None]
            l0 = ((x1 - fx) * (y2 - fy) - (y1 - fy) * (x2 - fx)) * inv
            l1 = ((x2 - fx) * (y0 - fy) - (y2 - fy) * (x0 - fx)) * inv
            l2 = 1.0 - l0 - l1
            inside = (l0 >= 0) & (l1 >= 0) & (l2 >= 0) & (px <= xb[m, None]) & (py <= yb[m, None])
            zz = l0 * z[t, 0:1] + l1 * z[t, 1:2] + l2 * z[t, 2:3]
            tt = np.broadcast_to(t[:, None], inside.shape)
            out.append(((py * w + px)[inside], zz[inside], tt[inside], l1[inside], l2[inside]))
    if not out:
        e = np.zeros(0)
        return e.astype(np.int64), e, e.astype(np.int64), e, e
    return tuple(np.concatenate(c) for c in zip(*out))


def _nearest(pix: np.ndarray, q: np.ndarray) -> np.ndarray:
    """Of the fragments, the nearest one at each pixel (the depth test, all at once)."""
    order = np.lexsort((-q, pix))
    ps = pix[order]
    first = np.ones(len(ps), bool)
    first[1:] = ps[1:] != ps[:-1]
    return order[first]


def _clip_near(attr: np.ndarray, tris: np.ndarray, owner: np.ndarray, view: _View):
    """Triangles crossing the camera's near plane (the table and floor near the camera) cut
    there, so none is projected from behind the eye."""
    z = view.local(attr[:, :3])[:, 2]
    behind = z[tris] < _NEAR
    nb = behind.sum(1)
    keep = nb == 0
    extra_v: list[np.ndarray] = []
    extra_t: list[list[int]] = []
    extra_o: list[int] = []
    n0 = len(attr)
    for ti in np.nonzero((nb > 0) & (nb < 3))[0]:
        poly = []
        for j in range(3):
            a, b = tris[ti, j], tris[ti, (j + 1) % 3]
            if z[a] >= _NEAR:
                poly.append(attr[a])
            if (z[a] >= _NEAR) != (z[b] >= _NEAR):
                s = (_NEAR - z[a]) / (z[b] - z[a])
                poly.append(attr[a] + s * (attr[b] - attr[a]))
        base = n0 + len(extra_v)
        extra_v += poly
        for j in range(1, len(poly) - 1):
            extra_t.append([base, base + j, base + j + 1])
            extra_o.append(int(owner[ti]))
    if extra_v:
        attr = np.concatenate([attr, np.array(extra_v)])
        tris = np.concatenate([tris[keep], np.array(extra_t, np.int64)])
        owner = np.concatenate([owner[keep], np.array(extra_o, owner.dtype)])
    else:
        tris, owner = tris[keep], owner[keep]
    return attr, tris, owner


def _camera(rng: np.random.Generator, w: int, h: int) -> tuple[_View, float]:
    """The camera, and the radius of the table area the things stand in."""
    elev = np.radians(rng.uniform(20, 70))
    azim = rng.uniform(0, 2 * np.pi)
    fov = np.radians(rng.uniform(35, 60))
    f = (w / 2) / np.tan(fov / 2)
    spread = rng.uniform(1.8, 3.2)
    half_v = np.arctan((h / 2) / f)
    dist = spread * rng.uniform(1.0, 1.3) / np.tan(half_v) * (0.6 + 0.4 * np.sin(elev))
    target = np.array([0.0, 0.0, rng.uniform(0.2, 0.5)])
    eye = target + dist * np.array([np.cos(elev) * np.cos(azim), np.cos(elev) * np.sin(azim), np.sin(elev)])
    fwd = (target - eye) / np.linalg.norm(target - eye)
    right = np.cross(fwd, [0.0, 0.0, 1.0])
    right /= np.linalg.norm(right)
    down = np.cross(fwd, right)
    if rng.random() < 0.4:  # a hand-held camera is seldom level
        roll = np.radians(rng.uniform(-8, 8))
        right, down = np.cos(roll) * right + np.sin(roll) * down, -np.sin(roll) * right + np.cos(roll) * down
    return _View(eye, right, down, fwd, f, w / 2 + rng.uniform(-0.02, 0.02) * w, h / 2), spread


# ---------------------------------------------------------------- colours and textures


def _hsv(h: float, s: float, v: float) -> np.ndarray:
    """BGR in linear light (what the shading sums) from hue, saturation, value as displayed."""
    k = (np.array([5.0, 3.0, 1.0]) + h * 6) % 6
    rgb = v - v * s * np.clip(np.minimum(k, 4 - k), 0, 1)
    return rgb[::-1] ** 2.2


_KELVIN = np.array([2500.0, 3500.0, 4500.0, 5500.0, 6500.0, 8000.0])
_KELVIN_BGR = np.array([[0.32, 0.62, 1.0], [0.52, 0.76, 1.0], [0.72, 0.86, 1.0], [0.88, 0.94, 1.0],
                        [1.0, 1.0, 1.0], [1.0, 0.91, 0.86]]) ** 2.2


def _kelvin(t: float) -> np.ndarray:
    c = np.array([np.interp(t, _KELVIN, _KELVIN_BGR[:, i]) for i in range(3)])
    return c / (c @ np.array([0.07, 0.72, 0.21]))  # the same brightness whatever the colour


class _Noise:
    """Value noise on a random 64 x 64 lattice (wrapping), summed over octaves."""

    def __init__(self, rng: np.random.Generator):
        self.lat = rng.random((64, 64))
        self.shift = rng.uniform(0, 64, (6, 2))

    def __call__(self, x: np.ndarray, y: np.ndarray, octaves: int = 1) -> np.ndarray:
        total, amp, norm = 0.0, 1.0, 0.0
        for o in range(octaves):
            xs, ys = x * 2**o + self.shift[o, 0], y * 2**o + self.shift[o, 1]
            xi, yi = np.floor(xs), np.floor(ys)
            fx, fy = xs - xi, ys - yi
            fx, fy = fx * fx * (3 - 2 * fx), fy * fy * (3 - 2 * fy)
            i0, j0 = xi.astype(np.int64) & 63, yi.astype(np.int64) & 63
            i1, j1 = (i0 + 1) & 63, (j0 + 1) & 63
            lat = self.lat
            below = lat[j0, i0] * (1 - fx) + lat[j0, i1] * fx
            above = lat[j1, i0] * (1 - fx) + lat[j1, i1] * fx
            v = below * (1 - fy) + above * fy
            total = total + amp * v
            norm += amp
            amp *= 0.5
        return total / norm


def _hash(*cells: np.ndarray) -> np.ndarray:
    """A repeatable 0..1 value per integer cell."""
    k = np.zeros(np.shape(cells[0]))
    for i, c in enumerate(cells):
        k = k + c * (127.1 + 181.7 * i)
    return np.modf(np.abs(np.sin(k) * 43758.5453))[0]


def _band(u: np.ndarray, period: float, duty: float, fw: np.ndarray) -> np.ndarray:
    """1 inside a stripe of each period, 0 outside, edges smoothed over the pixel's footprint
    fw and the stripes fading to their mean where they are finer than the pixels."""
    t = np.mod(u / period, 1.0)
    sd = np.where(t < duty, np.minimum(t, duty - t), -np.minimum(t - duty, 1 - t)) * period
    v = np.clip(sd / np.maximum(fw, 1e-6) + 0.5, 0, 1)
    fade = np.clip(fw / period * 2 - 0.5, 0, 1)
    return v * (1 - fade) + duty * fade


Texture = Callable[[np.ndarray, np.ndarray, np.ndarray], np.ndarray]


def _cloth(rng: np.random.Generator, kinds: tuple[str, ...], scale: float = 1.0) -> tuple[Texture, np.ndarray]:
    """A surface pattern in world units (x, y and the pixel footprint fw) and its mean colour."""
    kind = kinds[int(rng.integers(len(kinds)))]
    noise = _Noise(rng)
    turn = rng.uniform(0, np.pi)
    c1 = _hsv(rng.random(), rng.uniform(0.1, 0.8), rng.uniform(0.3, 0.9))
    c2 = _hsv(rng.random(), rng.uniform(0.1, 0.9), rng.uniform(0.15, 0.95))
    period = rng.uniform(0.35, 1.2) * scale
    duty = rng.uniform(0.3, 0.6)
    paper = _hsv(rng.uniform(0.08, 0.16), rng.uniform(0.02, 0.12), rng.uniform(0.78, 0.93))
    ink = _hsv(0, 0, rng.uniform(0.08, 0.25))
    wood_light = _hsv(rng.uniform(0.05, 0.11), rng.uniform(0.35, 0.65), rng.uniform(0.45, 0.85))
    wood_dark = wood_light * rng.uniform(0.3, 0.6)
    plank = rng.uniform(0.7, 1.6) * scale
    col_w, line_h = rng.uniform(1.1, 2.0) * scale, rng.uniform(0.04, 0.07) * scale

    def tex(x: np.ndarray, y: np.ndarray, fw: np.ndarray) -> np.ndarray:
        u = x * np.cos(turn) + y * np.sin(turn)
        v = -x * np.sin(turn) + y * np.cos(turn)
        if kind == "plain":
            return c1 * (0.94 + 0.12 * noise(u * 0.4, v * 0.4))[:, None]
        if kind == "felt":
            return c1 * (0.8 + 0.4 * noise(u * 14 / scale, v * 14 / scale, 3))[:, None]
        if kind == "checked":
            a, b = _band(u, period, 0.5, fw), _band(v, period, 0.5, fw)
            k = (a + b - 2 * a * b)[:, None]
            return c1 * k + c2 * (1 - k)
        if kind == "gingham":
            a, b = _band(u, period / 2, 0.5, fw)[:, None], _band(v, period / 2, 0.5, fw)[:, None]
            white = np.full(3, 0.85)
            mid = 0.5 * (white + c2)
            return white * (1 - a) * (1 - b) + mid * (a + b - 2 * a * b) + c2 * a * b
        if kind == "stripes":
            a = _band(u, period, duty, fw)[:, None]
            thin = _band(u + period * 0.75, period, 0.06, fw)[:, None]
            return (c1 * a + c2 * (1 - a)) * (1 - 0.5 * thin)
        if kind == "wood":
            idx = np.floor(u / plank)
            grain = noise((u - idx * plank) * 9 / scale + idx * 17.0, v * 0.5 / scale, 2)
            rings = 0.5 + 0.5 * np.sin(2 * np.pi * (grain * 5 + (u - idx * plank) * 2))
            k = np.clip(rings ** 3 * 0.7 + noise(u * 3 + idx * 5.0, v * 0.2) * 0.3, 0, 1)[:, None]
            gap = _band(u, plank, 0.02, fw)[:, None]
            tone = (0.85 + 0.3 * _hash(idx))[:, None]
            return (wood_light * (1 - k) + wood_dark * k) * tone * (1 - 0.6 * gap)
        if kind == "marble":
            warp = noise(u * 0.6 / scale, v * 0.6 / scale, 4)
            vein = (1 - np.abs(np.sin(u * 1.7 / scale + warp * 9))) ** 10
            base = np.full(3, 0.7) * 0.7 + c1 * 0.3
            return base * (0.9 + 0.1 * noise(u * 5, v * 5, 2))[:, None] * (1 - 0.6 * vein[:, None])
        if kind == "newspaper":
            col = np.floor(u / col_w)
            cu = u - col * col_w
            in_col = (cu > 0.08 * scale) & (cu < col_w - 0.08 * scale)
            block = np.floor(v / (line_h * 9))
            headline = _hash(col, block) < 0.12
            photo = (_hash(col, block, 3.0) < 0.1) & ~headline
            lh = np.where(headline, line_h * 2.2, line_h)
            ln = np.floor(v / lh)
            # a line of type: a dark band a little under half the line's height
            text = np.clip((0.22 * lh - np.abs(np.mod(v, lh) - 0.5 * lh)) / np.maximum(fw, 1e-6) + 0.5, 0, 1)
            word = _hash(col, ln, np.floor(cu / (0.09 * scale))) > 0.25
            short = cu < col_w * (0.3 + 0.7 * (_hash(col, ln, 7.0) > 0.15))
            fine = np.clip(fw / line_h * 2 - 0.5, 0, 1)
            k = text * word * short * in_col
            k = (k * (1 - fine) + 0.3 * in_col * fine) * 0.85
            k = np.where(photo & in_col, 0.35 + 0.5 * noise(u * 2, v * 2, 2), k)
            return paper * (1 - k[:, None]) + ink * k[:, None]
        if kind == "tiles":
            a = _band(u, period, 0.04, fw)[:, None]
            b = _band(v, period, 0.04, fw)[:, None]
            g = np.clip(a + b, 0, 1)
            tile = c1 * (0.92 + 0.16 * _hash(np.floor(u / period), np.floor(v / period)))[:, None]
            return tile * (1 - g) + 0.5 * c1 * g  # grout a darker shade of the tile
        raise AssertionError(kind)

    mean = {"plain": c1, "felt": c1, "checked": (c1 + c2) / 2, "gingham": (0.85 + c2) / 2,
            "stripes": c1 * duty + c2 * (1 - duty), "wood": (wood_light + wood_dark) / 2,
            "marble": np.full(3, 0.6), "newspaper": paper * 0.8, "tiles": c1}[kind]
    return tex, np.asarray(mean, float)


# ---------------------------------------------------------------- the things


@dataclass(frozen=True)
class _Look:
    """How a thing is painted and finished."""

    material: Material
    base: np.ndarray  # linear BGR
    second: np.ndarray
    pattern: str  # "", "stripes", "segments", "spots"
    count: int
    spots: np.ndarray  # unit directions of spots (object-local)
    spot_cos: float
    ks: float  # highlight strength
    shine: float  # Blinn-Phong exponent


def _look(rng: np.random.Generator) -> _Look:
    material = MATERIALS[int(rng.choice(5, p=[0.3, 0.25, 0.15, 0.2, 0.1]))]
    base = _hsv(rng.random(), rng.uniform(0.2, 0.95), rng.uniform(0.3, 0.95))
    second = _hsv(rng.random(), rng.uniform(0.0, 0.9), rng.uniform(0.5, 1.0))
    pattern = str(rng.choice(["stripes", "segments", "spots"])) if material == "painted" else ""
    count = int(rng.integers(2, 7)) * 2 if pattern != "spots" else int(rng.integers(5, 16))
    spots = rng.normal(size=(count, 3))
    spots /= np.linalg.norm(spots, axis=1, keepdims=True)
    spot_cos = float(np.cos(rng.uniform(0.15, 0.35)))
    if material == "metal":
        base = _hsv(rng.choice([0.1, 0.12, 0.58, 0.05, rng.random()]), rng.uniform(0.0, 0.55), rng.uniform(0.7, 0.98))
        ks, shine = rng.uniform(1.5, 3.0), rng.uniform(150, 600)
    elif material in ("glossy", "translucent") or (material == "painted" and rng.random() < 0.5):
        ks, shine = rng.uniform(0.3, 1.0), rng.uniform(30, 250)
    else:
        ks, shine = rng.uniform(0.0, 0.08), rng.uniform(5, 15)
    return _Look(material, base, second, pattern, count, spots, spot_cos, float(ks), float(shine))


def _shape(rng: np.random.Generator, kind: Kind, s: float, seg: int) -> tuple[_Mesh, np.ndarray, str, bool]:
    """The thing's mesh about its middle, the turn that stands it on the table (before its turn
    about the vertical), a word on its form, and whether it must face the camera."""
    tilt = np.eye(3)
    if kind == "sphere":
        return _sphere(s, seg), _any_rotation(rng), "", False
    if kind == "cube":
        half = s * rng.uniform(0.7, 0.92)
        rounded = rng.random() < 0.55
        rounding = half * rng.uniform(0.1, 0.35) if rounded else 0.0
        return _cube(half, rounding, max(2, seg // 12)), tilt, "rounded" if rounded else "sharp", False
    if kind in ("cylinder", "lying_cylinder"):
        r = s * (rng.uniform(0.55, 0.95) if kind == "cylinder" else rng.uniform(0.45, 0.8))
        half = s * (rng.uniform(0.6, 1.4) if kind == "cylinder" else rng.uniform(0.8, 1.6))
        mesh = _cylinder(r, half, r * rng.uniform(0, 0.12), seg)
        if kind == "lying_cylinder":
            tilt = _rot_x(np.pi / 2)
        return mesh, tilt, "", kind == "lying_cylinder" and rng.random() < 0.35
    if kind in ("egg", "lying_egg"):
        a = s * rng.uniform(0.7, 0.9)
        mesh = _egg(a, a * rng.uniform(1.3, 1.65), rng.uniform(0.05, 0.18), seg)
        return mesh, _rot_x(np.pi / 2) if kind == "lying_egg" else tilt, "", False
    if kind == "disc_lying":
        r = s * rng.uniform(0.9, 1.4)
        return _cylinder(r, r * rng.uniform(0.05, 0.14), r * 0.04, seg), tilt, "", False
    if kind == "disc_standing":
        r = s * rng.uniform(0.8, 1.2)
        return _cylinder(r, r * rng.uniform(0.07, 0.15), r * 0.04, seg), _rot_x(np.pi / 2), "", True
    if kind in ("torus", "standing_torus"):
        big = s * rng.uniform(0.9, 1.25)
        mesh = _torus(big, big * rng.uniform(0.22, 0.4), seg)
        return mesh, _rot_x(np.pi / 2) if kind == "standing_torus" else tilt, "", False
    if kind == "cone":
        return _cone(s * rng.uniform(0.7, 1.0), s * rng.uniform(1.4, 2.4), seg), tilt, "", False
    r = s * rng.uniform(0.45, 0.65)
    lying = rng.random() < 0.7
    detail = "lying" if lying else "standing"
    return _capsule(r, s * rng.uniform(0.5, 1.0), seg), _rot_x(np.pi / 2) if lying else tilt, detail, False


@dataclass
class _Placed:
    thing: MeshThing
    mesh: _Mesh
    look: _Look
    blob: tuple[np.ndarray, float]  # a ball of the same volume, for the shade it casts nearby


def _place(rng: np.random.Generator, view: _View, spread: float, w: int, h: int) -> list[_Placed]:
    n = int(rng.integers(2, 11))
    p_sphere = rng.uniform(0.2, 0.6)
    classes = np.sort(rng.choice([0.26, 0.36, 0.48, 0.62, 0.8], int(rng.integers(2, 4)), replace=False))
    seg_base = int(rng.integers(12, 41))
    gap = rng.uniform(0.04, 0.2)
    huddle = rng.uniform(0.1, 0.8)
    odds = np.array([_DECOY_ODDS[k] for k in KINDS[1:]])
    odds /= odds.sum()
    placed: list[_Placed] = []
    foot: list[tuple[float, float, float]] = []
    for _ in range(n):
        kind: Kind = "sphere" if rng.random() < p_sphere else KINDS[1 + int(rng.choice(len(KINDS) - 1, p=odds))]
        s = float(rng.choice(classes) * rng.uniform(0.9, 1.1))
        seg = int(np.clip(seg_base + rng.integers(-3, 4), 12, 40))
        mesh, tilt, detail, faces_camera = _shape(rng, kind, s, seg)
        look = _look(rng)
        stood = mesh.attr[:, 0:3] @ tilt.T
        reach = float(np.hypot(stood[:, 0], stood[:, 1]).max())
        height = float(np.ptp(stood[:, 2]))
        bound = float(np.linalg.norm(stood - (stood.max(0) + stood.min(0)) / 2, axis=1).max())
        turn = float(rng.uniform(0, 2 * np.pi))
        sway = np.radians(rng.uniform(-15, 15))
        for _ in range(80):
            rr = spread * np.sqrt(rng.random())
            a = rng.uniform(0, 2 * np.pi)
            x, y = rr * np.cos(a), rr * np.sin(a)
            if foot and rng.random() < huddle:  # next to another thing, so things hide each other
                fx, fy, fr = foot[int(rng.integers(len(foot)))]
                rr = fr + reach + gap + rng.uniform(0, 0.5)
                if rng.random() < 0.5:  # in front of it or behind it, as the camera sees
                    a = np.arctan2(view.fwd[1], view.fwd[0]) + rng.choice([0, np.pi]) + rng.uniform(-0.6, 0.6)
                x, y = fx + rr * np.cos(a), fy + rr * np.sin(a)
            if np.hypot(x, y) + reach > spread + 0.3:  # on the table (it reaches past spread + 0.35)
                continue
            if any(np.hypot(x - fx, y - fy) < reach + fr + gap for fx, fy, fr in foot):
                continue
            c = view.local(np.array([[x, y, height / 2]]))[0]
            if c[2] < 3 * bound:
                continue
            u, v, _ = view.screen(c[None])
            pr = view.f * bound / c[2] * 1.1
            margin = pr + 2 if kind == "sphere" else -0.2 * pr
            if margin < u[0] < w - margin and margin < v[0] < h - margin:
                break
        else:
            continue
        if faces_camera:  # its flat face (or end) towards the camera, give or take 15 degrees
            turn = float(np.arctan2(view.eye[1] - y, view.eye[0] - x) + np.pi / 2 + sway)
        posed = _posed(mesh, _rot_z(turn) @ tilt, x, y)
        centre = (posed.attr[:, :3].max(0) + posed.attr[:, :3].min(0)) / 2
        volume = _volume(posed)
        colour = tuple(float(c) for c in look.base ** (1 / 2.2))
        words = ",".join(part for part in (detail, look.pattern) if part)
        thing = MeshThing(kind, (float(centre[0]), float(centre[1]), float(centre[2])), s, look.material,
                          colour, turn, seg, words)
        placed.append(_Placed(thing, posed, look, (centre, float((3 * volume / (4 * np.pi)) ** (1 / 3)))))
        foot.append((x, y, reach))
    return placed


def _volume(mesh: _Mesh) -> float:
    p = mesh.attr[:, :3][mesh.tris]
    return abs(float(np.einsum("ij,ij->i", p[:, 0], np.cross(p[:, 1], p[:, 2])).sum()) / 6)


# ---------------------------------------------------------------- the room


def _quad_grid(corner: np.ndarray, ea: np.ndarray, eb: np.ndarray, n: int, normal: np.ndarray) -> _Mesh:
    t = np.linspace(0, 1, n + 1)
    a, b = np.meshgrid(t, t, indexing="ij")
    pos = corner + a.reshape(-1, 1) * ea + b.reshape(-1, 1) * eb
    nrm = np.broadcast_to(normal, pos.shape)
    k = n + 1
    quads = np.array([[i * k + j, i * k + j + 1, (i + 1) * k + j + 1, (i + 1) * k + j]
                      for i in range(n) for j in range(n)])
    tris = np.concatenate([quads[:, [0, 1, 2]], quads[:, [0, 2, 3]]])
    return _finish(pos, nrm, np.stack([a.ravel(), b.ravel()], 1), tris)


@dataclass
class _Room:
    meshes: list[tuple[int, _Mesh]]
    table: Texture
    table_mean: np.ndarray
    edge: np.ndarray
    floor: Texture
    wall: Texture | None
    wall_axes: tuple[np.ndarray, np.ndarray]  # a point on the wall and its horizontal direction
    gloss: float


def _room(rng: np.random.Generator, view: _View, spread: float) -> _Room:
    table, table_mean = _cloth(rng, ("plain", "felt", "checked", "gingham", "stripes", "wood", "marble",
                                     "newspaper"))
    ax, ay = rng.uniform(spread + 0.8, spread + 6, 2)
    turn = rng.uniform(0, np.pi / 2)
    r = _rot_z(turn)
    ox, oy = rng.uniform(-0.3, 0.3, 2)
    thick = rng.uniform(0.25, 0.8)
    corner = r @ np.array([-ax, -ay, 0.0]) + np.array([ox, oy, 0])
    ex, ey = r @ np.array([2 * ax, 0, 0.0]), r @ np.array([0, 2 * ay, 0.0])
    meshes = [(_TABLE, _quad_grid(corner, ex, ey, 8, np.array([0, 0, 1.0])))]
    down = np.array([0, 0, -thick])
    for c, e in ((corner, ex), (corner + ex, ey), (corner + ex + ey, -ex), (corner + ey, -ey)):
        out = np.cross(e, [0, 0, 1.0])
        meshes.append((_EDGE, _quad_grid(c, e, down, 2, out / np.linalg.norm(out))))
    fz = -rng.uniform(8, 14)
    meshes.append((_FLOOR, _quad_grid(np.array([-60, -60, fz]), np.array([120.0, 0, 0]), np.array([0, 120.0, 0]), 6,
                                      np.array([0, 0, 1.0]))))
    wall = None
    axes = (np.zeros(3), np.zeros(3))
    if rng.random() < 0.55:  # a wall beyond the table's far edge
        away = view.fwd * np.array([1.0, 1.0, 0.0])  # level, from the camera on
        away /= max(np.linalg.norm(away), 1e-9)
        side = np.cross([0, 0, 1.0], away)
        reach = (abs(ex @ away) + abs(ey @ away)) / 2  # the table's far edge, from its middle
        base = away * (reach + rng.uniform(0, 5)) + np.array([ox, oy, 0])
        wall_corner = base - side * 60 + np.array([0, 0, fz])
        meshes.append((_WALL, _quad_grid(wall_corner, side * 120, np.array([0, 0, 60 - fz]), 4, -away)))
        wall, _ = _cloth(rng, ("plain", "plain", "stripes", "tiles"), 2.0)
        axes = (base, side)
    floor, _ = _cloth(rng, ("plain", "wood", "felt"), 3.0)
    edge = table_mean * rng.uniform(0.4, 0.9) if rng.random() < 0.6 else _hsv(rng.uniform(0.05, 0.1), 0.5, 0.4)
    gloss = rng.uniform(0.1, 0.35) if rng.random() < 0.35 else 0.0
    return _Room(meshes, table, table_mean, edge, floor, wall, axes, gloss)


# ---------------------------------------------------------------- lights and shadows


@dataclass(frozen=True)
class _Light:
    point: bool
    vec: np.ndarray  # towards the light (sun), or where the lamp is
    colour: np.ndarray
    reach: float  # a lamp's distance to the middle of the table: its brightness is given there

    def at(self, p: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Unit direction to the light from each point, and how bright it is there."""
        if not self.point:
            return np.broadcast_to(self.vec, p.shape), np.ones(len(p))
        d = self.vec - p
        dist = np.linalg.norm(d, axis=1)
        return d / dist[:, None], (self.reach / dist) ** 2


def _lights(rng: np.random.Generator) -> tuple[list[_Light], np.ndarray]:
    """1-3 lamps or suns, the first the brightest (it casts the shadows), and the sky's light."""
    lights = []
    for k in range(int(rng.integers(1, 4))):
        colour = _kelvin(rng.uniform(2700, 7500)) * (rng.uniform(1.6, 2.6) if k == 0 else rng.uniform(0.25, 0.9))
        el = np.radians(rng.uniform(30, 78) if k == 0 else rng.uniform(15, 70))
        az = rng.uniform(0, 2 * np.pi)
        d = np.array([np.cos(el) * np.cos(az), np.cos(el) * np.sin(az), np.sin(el)])
        if rng.random() < 0.4:
            reach = rng.uniform(5, 10)
            lights.append(_Light(True, d * reach, colour, reach))
        else:
            lights.append(_Light(False, d, colour, 1.0))
    sky = _kelvin(rng.uniform(5000, 10000)) * rng.uniform(0.25, 0.6)
    return lights, sky


_TAPS = np.stack([np.sqrt((np.arange(10) + 0.5) / 10) * np.cos(np.arange(10) * 2.39996),
                  np.sqrt((np.arange(10) + 0.5) / 10) * np.sin(np.arange(10) * 2.39996)], 1)


class _ShadowMap:
    """Depth of the things as the main light sees them; a point is lit where nothing is nearer
    the light. Ten taps over a small disc soften the edge (percentage-closer filtering)."""

    def __init__(self, light: _Light, meshes: list[_Mesh], softness: float, res: int = 512):
        pos = np.concatenate([m.attr[:, :3] for m in meshes])
        offs = np.cumsum([0] + [len(m.attr) for m in meshes])
        tris = np.concatenate([m.tris + o for m, o in zip(meshes, offs)])
        self.res, self.softness = res, softness
        centre = (pos.max(0) + pos.min(0)) / 2
        fwd = -light.vec / np.linalg.norm(light.vec) if not light.point else centre - light.vec
        fwd = fwd / np.linalg.norm(fwd)
        right = np.cross(fwd, [0.0, 0.0, 1.0]) if abs(fwd[2]) < 0.99 else np.array([1.0, 0, 0])
        right /= np.linalg.norm(right)
        down = np.cross(fwd, right)
        if light.point:
            view = _View(light.vec, right, down, fwd, 1.0, 0.0, 0.0)
            c = view.local(pos)
            ratio = max(np.abs(c[:, 0] / c[:, 2]).max(), np.abs(c[:, 1] / c[:, 2]).max())
            view = _View(light.vec, right, down, fwd, (res / 2 - 4) / ratio, res / 2, res / 2)
        else:
            view = _View(centre - fwd * 50, right, down, fwd, 1.0, 0.0, 0.0, ortho=True)
            c = view.local(pos)
            span = max(np.ptp(c[:, 0]), np.ptp(c[:, 1]))
            f = (res - 8) / span
            view = _View(centre - fwd * 50, right, down, fwd, f, res / 2 - f * (c[:, 0].max() + c[:, 0].min()) / 2,
                         res / 2 - f * (c[:, 1].max() + c[:, 1].min()) / 2, ortho=True)
        self.view = view
        sx, sy, q = view.screen(view.local(pos))
        pix, qq, _, _, _ = _fragments(sx, sy, q, tris, res, res, 0)
        best = np.full(res * res, -np.inf)
        np.maximum.at(best, pix, qq)
        self.depth = (-best if view.ortho else 1.0 / np.where(best > 0, best, 1e-30)).reshape(res, res)

    def lit(self, p: np.ndarray, n: np.ndarray) -> np.ndarray:
        view = self.view
        c = view.local(p)
        texel = (1.0 / view.f) * (np.ones(len(p)) if view.ortho else np.maximum(c[:, 2], 1e-6))
        c = view.local(p + n * (1.5 * texel)[:, None])  # step off the surface: no self-shadow
        sx, sy, _ = view.screen(c)
        out = np.zeros(len(p))
        for tx, ty in _TAPS * self.softness:
            ix, iy = np.floor(sx + tx).astype(np.int64), np.floor(sy + ty).astype(np.int64)
            inside = (ix >= 0) & (ix < self.res) & (iy >= 0) & (iy < self.res)
            d = np.full(len(p), np.inf)
            d[inside] = self.depth[iy[inside], ix[inside]]
            out += c[:, 2] <= d + 2 * texel
        return out / len(_TAPS)


# ---------------------------------------------------------------- shading


def _env(r: np.ndarray, horizon: np.ndarray, zenith: np.ndarray, ground: np.ndarray,
         windows: np.ndarray) -> np.ndarray:
    """The room a metal thing mirrors: a sky-like gradient above, the table below, a few bright
    windows."""
    z = r[:, 2:3]
    up = np.clip(z, 0, 1) ** 0.6
    sky = horizon * (1 - up) + zenith * up
    dn = np.clip(-z * 2.5, 0, 1)
    out = np.where(z >= 0, sky, horizon * 0.6 * (1 - dn) + ground * dn)
    az = np.arctan2(r[:, 1], r[:, 0])
    el = np.arcsin(np.clip(r[:, 2], -1, 1))
    for a0, e0, wa, we, b in windows:
        da = np.abs(np.mod(az - a0 + np.pi, 2 * np.pi) - np.pi)
        m = np.clip((wa - da) / 0.05, 0, 1) * np.clip((we - np.abs(el - e0)) / 0.05, 0, 1)
        out = out + (b * m)[:, None]
    return out


def _paint(look: _Look, loc: np.ndarray, uv: np.ndarray) -> np.ndarray:
    n = len(loc)
    if look.pattern == "stripes":
        k = (np.floor(uv[:, 1] * look.count) % 2)[:, None]
    elif look.pattern == "segments":  # a beach ball: segments round it, plain caps
        k = (np.floor(uv[:, 0] * look.count) % 2)[:, None]
        cap = (np.abs(uv[:, 1] - 0.5) > 0.42)[:, None]
        return np.where(cap, np.full(3, 0.8), look.base * k + look.second * (1 - k))
    elif look.pattern == "spots":
        d = loc / np.maximum(np.linalg.norm(loc, axis=1, keepdims=True), 1e-9)
        k = ((d @ look.spots.T).max(1) > look.spot_cos)[:, None].astype(float)
    else:
        return np.broadcast_to(look.base, (n, 3))
    return look.second * k + look.base * (1 - k)


def _shade(rng: np.random.Generator, view: _View, w: int, h: int, attr: np.ndarray, tris: np.ndarray,
           owner: np.ndarray, pix: np.ndarray, tri: np.ndarray, l1: np.ndarray, l2: np.ndarray,
           things: list[_Placed], room: _Room) -> np.ndarray:
    lights, sky = _lights(rng)
    horizon = _kelvin(rng.uniform(4000, 9000)) * rng.uniform(0.4, 1.0)
    zenith = horizon * rng.uniform(0.6, 1.4)
    windows = np.stack([rng.uniform(-np.pi, np.pi, 3), rng.uniform(0.1, 0.9, 3), rng.uniform(0.1, 0.5, 3),
                        rng.uniform(0.05, 0.3, 3), rng.uniform(1.5, 5.0, 3) * (rng.random(3) < 0.7)], 1)
    softness = rng.uniform(0.8, 3.5)

    # Perspective-correct barycentrics from the screen ones: weights over depth.
    vz = view.local(attr[:, :3])[:, 2]
    t3 = tris[tri]
    w0, w1, w2 = (1 - l1 - l2) / vz[t3[:, 0]], l1 / vz[t3[:, 1]], l2 / vz[t3[:, 2]]
    s = w0 + w1 + w2
    a = (attr[t3[:, 0]] * (w0 / s)[:, None] + attr[t3[:, 1]] * (w1 / s)[:, None]
         + attr[t3[:, 2]] * (w2 / s)[:, None])
    p, loc, uv = a[:, 0:3], a[:, 6:9], a[:, 9:11]
    n = a[:, 3:6] / np.maximum(np.linalg.norm(a[:, 3:6], axis=1, keepdims=True), 1e-9)
    eye_dir = view.eye - p
    depth = np.linalg.norm(eye_dir, axis=1)
    v = eye_dir / depth[:, None]
    n = n + v * np.clip(-(n * v).sum(1, keepdims=True) + 0.02, 0, None)  # a silhouette normal never faces away
    n /= np.linalg.norm(n, axis=1, keepdims=True)
    sid = owner[tri]
    m = len(p)

    albedo = np.zeros((m, 3))
    ks, shine = np.zeros(m), np.full(m, 10.0)
    metal, clear, trans = np.zeros(m, bool), np.zeros(m), np.zeros(m, bool)
    fw = depth / view.f / np.maximum(np.abs(v[:, 2]), 0.2)
    for code in (_TABLE, _FLOOR):
        sel = sid == code
        tex = room.table if code == _TABLE else room.floor
        albedo[sel] = tex(p[sel, 0], p[sel, 1], fw[sel]) * (1.0 if code == _TABLE else 0.5)
    sel = sid == _TABLE
    ks[sel], shine[sel] = room.gloss, 40.0
    albedo[sid == _EDGE] = room.edge
    sel = sid == _WALL
    if sel.any() and room.wall is not None:
        base, side = room.wall_axes
        albedo[sel] = room.wall((p[sel] - base) @ side, p[sel, 2], fw[sel])
    for i, th in enumerate(things):
        sel = sid == i
        lk = th.look
        albedo[sel] = _paint(lk, loc[sel], uv[sel])
        ks[sel], shine[sel] = lk.ks, lk.shine
        metal[sel] = lk.material == "metal"
        trans[sel] = lk.material == "translucent"
        clear[sel] = 0.35 if lk.material in ("glossy", "translucent") or lk.ks > 0.2 else 0.0

    # Ambient: sky from above, the table's colour from below, dimmed near other things.
    hemi = (0.5 + 0.5 * n[:, 2])[:, None]
    ground = room.table_mean * sky.mean() * 0.8
    occ = np.zeros(m)
    for i, th in enumerate(things):
        c, rho = th.blob
        d = c - p
        dist = np.maximum(np.linalg.norm(d, axis=1), 1e-6)
        o = (rho / dist) ** 2 * np.clip((n * d).sum(1) / dist, 0, 1)
        o[sid == i] = 0
        occ += o
    ao = np.clip(1 - 0.85 * occ, 0.15, 1)[:, None]
    diffuse = (sky * hemi + ground * (1 - hemi)) * ao
    spec = np.zeros((m, 3))
    shadow = _ShadowMap(lights[0], [t.mesh for t in things], softness) if things else None
    wrap = np.where(trans, 0.5, 0.0)
    for k, light in enumerate(lights):
        ldir, power = light.at(p)
        ndl = (n * ldir).sum(1)
        seen = shadow.lit(p, n) if (k == 0 and shadow is not None) else np.ones(m)
        seen = seen * np.clip(ndl * 8 + 0.2, 0, 1)  # no light from under a surface
        lam = np.clip((ndl + wrap) / (1 + wrap), 0, 1) * power * seen
        diffuse += light.colour * lam[:, None]
        half = ldir + v
        half /= np.maximum(np.linalg.norm(half, axis=1, keepdims=True), 1e-9)
        nh = np.clip((n * half).sum(1), 0, 1)
        spec += light.colour * (ks * nh ** shine * (ndl > 0) * power * seen)[:, None]
    colour = albedo * diffuse + spec
    refl = -v + 2 * (n * v).sum(1, keepdims=True) * n
    env = _env(refl, horizon, zenith, room.table_mean * sky.mean() * 1.5, windows)
    fres = (1 - np.clip((n * v).sum(1), 0, 1)) ** 5
    if metal.any():
        tint = albedo[metal]
        colour[metal] = tint * env[metal] * (0.75 + 0.25 * ao[metal]) + spec[metal] * (0.5 + tint) + 0.08 * albedo[
            metal] * diffuse[metal]
    gloss = clear * (0.04 + 0.96 * fres)
    colour += (gloss[:, None] * env) * ~metal[:, None]
    if trans.any():  # milky plastic: lighter towards the rim, as light comes through the edge
        rim = ((1 - np.clip((n * v).sum(1), 0, 1)) ** 2)[trans, None]
        colour[trans] = colour[trans] * (1 - 0.55 * rim) + (albedo[trans] * 0.5 + 0.5) * sky * 2.2 * rim

    out = np.empty((h * w, 3))
    yy = np.arange(h * w) // w  # the background where nothing is: the room's dim far end
    out[:] = horizon * 0.7 * (0.8 + 0.4 * yy / h)[:, None]
    out[pix] = colour
    return out.reshape(h, w, 3)


# ---------------------------------------------------------------- the picture


def _develop(rng: np.random.Generator, lin: np.ndarray) -> np.ndarray:
    """From linear light to a JPEG photo: exposure, white balance, tone curve, then the lens,
    the sensor and the codec."""
    lum = lin @ np.array([0.07, 0.72, 0.21])
    lin = lin * (rng.uniform(0.16, 0.3) / max(float(np.median(lum)), 1e-6))
    lin = lin * rng.uniform(0.9, 1.1, 3)  # the camera's white balance is never quite right
    toned = lin * (1 + lin / 2.6 ** 2) / (1 + lin)
    img = np.clip(toned, 0, 1) ** (1 / 2.2) * 255
    img = img.astype(np.float32)
    h, w = img.shape[:2]
    roll = rng.random()
    if roll < 0.2:  # out of focus
        img = cv2.GaussianBlur(img, (0, 0), rng.uniform(0.9, 1.8))
    elif roll < 0.35:  # a shaking hand
        n = int(rng.integers(3, 8))
        k = np.zeros((n, n), np.float32)
        a = rng.uniform(0, np.pi)
        for t in np.linspace(-1, 1, 4 * n):
            k[int(round((n - 1) / 2 * (1 + t * np.sin(a)))), int(round((n - 1) / 2 * (1 + t * np.cos(a))))] = 1
        img = cv2.filter2D(img, -1, k / k.sum())
    else:
        img = cv2.GaussianBlur(img, (0, 0), rng.uniform(0.3, 0.7))
    if rng.random() < 0.5:
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        r2 = ((xx - w / 2) ** 2 + (yy - h / 2) ** 2) / ((w / 2) ** 2 + (h / 2) ** 2)
        img = img * (1 - rng.uniform(0.15, 0.45) * r2)[:, :, None]
    sigma = rng.uniform(1.0, 5.0)
    img = img + rng.normal(0, sigma, img.shape) * np.sqrt(np.clip(img, 8, 255) / 128)
    img = img + rng.normal(0, sigma * 0.3, (h, w, 1))
    _, buf = cv2.imencode(".jpg", np.clip(img, 0, 255).astype(np.uint8),
                           [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(55, 96))])
    return cv2.imdecode(buf, cv2.IMREAD_COLOR)


def render_scene(seed: int, idx: int, size: tuple[int, int] = SIZE) -> MeshSceneShot:
    """One picture of 2-10 things on a table, 20-60% of them spheres (any number may be none)."""
    rng = np.random.default_rng([seed, idx, _SALT])
    w, h = size
    view, spread = _camera(rng, w, h)
    things = _place(rng, view, spread, w, h)
    room = _room(rng, view, spread)

    meshes = [t.mesh for t in things] + [m for _, m in room.meshes]
    codes = list(range(len(things))) + [c for c, _ in room.meshes]
    offs = np.cumsum([0] + [len(m.attr) for m in meshes])
    attr = np.concatenate([m.attr for m in meshes])
    tris = np.concatenate([m.tris + o for m, o in zip(meshes, offs)])
    owner = np.concatenate([np.full(len(m.tris), c, np.int64) for m, c in zip(meshes, codes)])
    attr, tris, owner = _clip_near(attr, tris, owner, view)
    sx, sy, q = view.screen(view.local(attr[:, :3]))
    pix, fq, ftri, fl1, fl2 = _fragments(sx, sy, q, tris, w, h, -1)

    # Which things are kept: a sphere wholly in the picture with VISIBLE of it in sight, a decoy
    # showing enough pixels. A sphere's front faces cover each pixel of its outline once, so its
    # own fragments, before the depth test, are the pixels it would cover alone. Leaving a thing
    # out can only uncover others: repeat the depth test until none fails.
    n = len(things)
    fobj = owner[ftri]
    mine = fobj >= 0
    full = np.bincount(np.unique(fobj[mine] * (w * h) + pix[mine]) // (w * h), minlength=n)
    sphere = np.array([t.thing.kind == "sphere" for t in things], bool)
    cut = np.zeros(n, bool)
    for i, t in enumerate(things):
        if sphere[i]:
            u, v, _ = view.screen(view.local(t.mesh.attr[:, :3]))
            cut[i] = u.min() < 0.5 or v.min() < 0.5 or u.max() > w - 0.5 or v.max() > h - 0.5
    decoy_min = DECOY_MIN_PX * (w * h) / (SIZE[0] * SIZE[1])
    active = np.ones(n, bool)
    for _ in range(n + 1):
        keep = np.ones(len(pix), bool)
        keep[mine] = active[fobj[mine]]
        win = np.nonzero(keep)[0][_nearest(pix[keep], fq[keep])]
        seen = np.bincount(fobj[win][fobj[win] >= 0], minlength=n)
        bad = active & np.where(sphere, (seen < VISIBLE * full) | cut, seen < decoy_min)
        if not bad.any():
            break
        active &= ~bad
    kept = np.nonzero(active)[0]
    remap = np.full(n, -9)  # left-out things belong to nobody (they win no pixel any more)
    remap[kept] = np.arange(len(kept))
    owner = np.where(owner >= 0, remap[np.maximum(owner, 0)], owner)
    things = [things[i] for i in kept]
    wp, wt = pix[win], ftri[win]
    lin = _shade(rng, view, w, h, attr, tris, owner, wp, wt, fl1[win], fl2[win], things, room)
    image = _develop(rng, lin)

    ids = np.full(w * h, -1, np.int16)
    ids[wp] = np.maximum(owner[wt], -1)
    ids = ids.reshape(h, w)
    boxes = []
    for i in range(len(things)):
        ys, xs = np.nonzero(ids == i)
        boxes.append((float(xs.min()), float(ys.min()), float(xs.max() + 1), float(ys.max() + 1)))
    return MeshSceneShot(image, [t.thing for t in things], boxes, ids, [int(full[i]) for i in kept])
