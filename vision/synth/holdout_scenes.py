"""Sphere scenes with no card, ray-marched: a third look, kept for testing only.

No model or threshold is ever fitted on it, and it shares no drawing code with any other
renderer here. Each picture is a small 3D world traced per pixel (signed distance fields, as
shader toys and many research renderers draw): spheres, matte or metal, stand on a table among
cubes, upright cylinders, eggs, discs (lying, or standing face-on to the camera) and tori, lit by
one lamp with soft shadows, seen from 25-55 degrees above the table, on a plain, felt, checked,
gingham or wood cloth; then noise, blur and JPEG. Scenes of this kind (a floor of objects, some of
them spheres, no card) are what other renderers draw when they ask "how many spheres?".

A sphere is drawn only where at least 70% of it is in sight (nothing hides more of it), so
every picture has one right count: `HoldoutSceneShot.spheres`.
"""
from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

KINDS = ("sphere", "cube", "cylinder", "egg", "disc_lying", "disc_standing", "torus")
SIZE = (480, 320)  # w, h
VISIBLE = 0.7  # a sphere is drawn only where this much of its outline's area is in sight
DECOY_VISIBLE_PX = 120  # a decoy hidden more than this is left out of the scene, and redrawn


@dataclass(frozen=True)
class Thing:
    kind: str
    centre: np.ndarray  # world x, y, z (z up; the table is z = 0)
    size: float  # radius, or half side
    angle: float  # turn about z (cubes), or the facing of a standing disc
    colour: np.ndarray  # BGR 0..1
    metal: bool


@dataclass
class HoldoutSceneShot:
    image: np.ndarray  # BGR uint8
    things: list[Thing]

    @property
    def spheres(self) -> int:
        return sum(t.kind == "sphere" for t in self.things)


def _sdf(t: Thing, p: np.ndarray) -> np.ndarray:
    """Signed distance from points p (N x 3) to the thing."""
    q = p - t.centre
    c, s = np.cos(t.angle), np.sin(t.angle)
    x, y, z = q[:, 0] * c + q[:, 1] * s, -q[:, 0] * s + q[:, 1] * c, q[:, 2]
    r = t.size
    if t.kind == "sphere":
        return np.sqrt(x * x + y * y + z * z) - r
    if t.kind == "cube":
        e = r * 0.92  # a little rounded, as real and rendered cubes are
        d = np.stack([np.abs(x) - e, np.abs(y) - e, np.abs(z) - e], 1)
        return np.linalg.norm(np.maximum(d, 0), axis=1) + np.minimum(d.max(1), 0) - r * 0.08
    if t.kind in ("cylinder", "disc_lying", "disc_standing"):
        half = r if t.kind == "cylinder" else r * 0.12
        if t.kind == "disc_standing":  # its axis lies along the turned x: it faces that way
            radial, along = np.sqrt(y * y + z * z), x
        else:
            radial, along = np.sqrt(x * x + y * y), z
        d = np.stack([radial - r, np.abs(along) - half], 1)
        return np.linalg.norm(np.maximum(d, 0), axis=1) + np.minimum(d.max(1), 0)
    if t.kind == "egg":  # an ellipsoid standing on its end, 1.35 as high as wide
        k = np.array([r, r, r * 1.35])
        qq = np.stack([x, y, z], 1)
        k0 = np.linalg.norm(qq / k, axis=1)
        k1 = np.linalg.norm(qq / (k * k), axis=1)
        return k0 * (k0 - 1.0) / np.maximum(k1, 1e-9)
    # torus lying flat: its tube is a third of its radius
    tube = r * 0.33
    return np.sqrt((np.sqrt(x * x + y * y) - (r - tube)) ** 2 + z * z) - tube


def _rest_height(kind: str, r: float) -> float:
    return {"sphere": r, "cube": r, "cylinder": r, "egg": r * 1.35, "disc_lying": r * 0.12,
            "disc_standing": r, "torus": r * 0.33}[kind]


def _scene_sdf(things: list[Thing], p: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Distance to the nearest surface (the table is id -1) and which thing it is."""
    d = p[:, 2].copy()
    which = np.full(len(p), -1)
    for i, t in enumerate(things):
        di = _sdf(t, p)
        nearer = di < d
        d[nearer], which[nearer] = di[nearer], i
    return d, which


def _march(things, origin: np.ndarray, dirs: np.ndarray, far: float, steps: int = 160):
    """Sphere tracing: distance along each ray to the first surface (inf where none)."""
    t = np.zeros(len(dirs))
    hit = np.zeros(len(dirs), bool)
    live = np.ones(len(dirs), bool)
    o = np.broadcast_to(origin, dirs.shape) if origin.ndim == 1 else origin
    for _ in range(steps):
        idx = np.nonzero(live)[0]
        if not len(idx):
            break
        d, _ = _scene_sdf(things, o[idx] + dirs[idx] * t[idx, None])
        t[idx] += d * 0.9
        done = d < 1e-3
        hit[idx[done]] = True
        gone = t[idx] > far
        live[idx[done | gone]] = False
    t[~hit] = np.inf
    return t


def _soft_shadow(things, p: np.ndarray, light: np.ndarray, k: float = 10.0) -> np.ndarray:
    """How much of the lamp each point sees (0 in full shadow), the things alone casting."""
    res = np.ones(len(p))
    t = np.full(len(p), 0.02)
    for _ in range(48):
        q = p + light * t[:, None]
        d = np.full(len(p), np.inf)
        for th in things:
            d = np.minimum(d, _sdf(th, q))
        res = np.minimum(res, k * np.maximum(d, 0) / t)
        t += np.clip(d, 0.02, 0.4)
        if (t > 12).all():
            break
    return np.clip(res, 0, 1)


def _normals(things, p: np.ndarray) -> np.ndarray:
    e = 1e-3
    n = np.stack([_scene_sdf(things, p + off)[0] - _scene_sdf(things, p - off)[0]
                  for off in (np.array([e, 0, 0]), np.array([0, e, 0]), np.array([0, 0, e]))], 1)
    return n / np.maximum(np.linalg.norm(n, axis=1, keepdims=True), 1e-9)


def _cloth(rng: np.random.Generator):
    """The table's colour at world x, y: plain grey, felt, checked, gingham or wood."""
    kind = int(rng.integers(5))
    a, b = rng.uniform(0.15, 0.85, 3), rng.uniform(0.15, 0.85, 3)
    cell = rng.uniform(0.3, 0.9)
    turn = rng.uniform(0, np.pi)
    grain_freq = rng.uniform(8, 25)

    def colour(x: np.ndarray, y: np.ndarray) -> np.ndarray:
        u = x * np.cos(turn) + y * np.sin(turn)
        v = -x * np.sin(turn) + y * np.cos(turn)
        if kind == 0:  # plain grey, as many research scenes are
            return np.broadcast_to(np.full(3, a.mean()), (len(x), 3))
        if kind == 1:  # felt: one colour, a fine grain
            return a * (1 + 0.04 * np.sin(u * 97.0) * np.sin(v * 89.0))[:, None]
        if kind == 2:  # checked
            k = ((np.floor(u / cell) + np.floor(v / cell)) % 2)[:, None]
            return a * k + b * (1 - k)
        if kind == 3:  # gingham
            su, sv = (np.floor(u / cell * 2) % 2)[:, None], (np.floor(v / cell * 2) % 2)[:, None]
            return np.full(3, 0.95) * (1 - 0.4 * su) * (1 - 0.4 * sv) * (0.5 + 0.5 * a)
        grain = np.sin(u * grain_freq + 2.5 * np.sin(v * 0.9))[:, None]  # wood
        return np.array([0.25, 0.45, 0.65]) * (0.85 + 0.15 * grain)

    return colour


@dataclass(frozen=True)
class _View:
    """A pinhole camera: where it stands, its axes, focal length (px) and picture size."""

    eye: np.ndarray
    fwd: np.ndarray
    right: np.ndarray
    up: np.ndarray
    f: float
    w: int
    h: int

    def project(self, p: np.ndarray) -> tuple[float, float, float]:
        """Picture x, y of a world point, and its depth along the view."""
        q = p - self.eye
        z = q @ self.fwd
        return self.w / 2 + self.f * (q @ self.right) / z, self.h / 2 - self.f * (q @ self.up) / z, z


def _camera(rng: np.random.Generator, w: int, h: int) -> _View:
    elev = np.radians(rng.uniform(25, 55))
    azim = rng.uniform(0, 2 * np.pi)
    dist = rng.uniform(9.0, 12.0)
    target = np.array([0.0, 0.0, 0.3])
    eye = target + dist * np.array([np.cos(elev) * np.cos(azim), np.cos(elev) * np.sin(azim), np.sin(elev)])
    fwd = (target - eye) / np.linalg.norm(target - eye)
    right = np.cross(fwd, [0, 0, 1.0])
    right /= np.linalg.norm(right)
    up = np.cross(right, fwd)
    f = (w / 2) / np.tan(np.radians(rng.uniform(38, 48)) / 2)
    return _View(eye, fwd, right, up, f, w, h)


def _place(rng: np.random.Generator, n: int, view: _View) -> list[Thing]:
    things: list[Thing] = []
    p_sphere = rng.uniform(0.25, 0.5)
    for _ in range(n):
        kind = "sphere" if rng.random() < p_sphere else str(rng.choice(KINDS[1:]))
        r = float(rng.choice([0.35, 0.7]) * rng.uniform(0.85, 1.15))
        for _ in range(100):
            x, y = rng.uniform(-3.0, 3.0, 2)
            u, v, z = view.project(np.array([x, y, r]))
            pad = 1.6 * view.f * r / z  # the whole thing and its shadow's start in the picture
            if (pad < u < view.w - pad and pad < v < view.h - pad
                    and all(np.hypot(x - t.centre[0], y - t.centre[1]) > r + t.size + 0.2 for t in things)):
                break
        else:
            continue
        angle = float(rng.uniform(0, 2 * np.pi))
        if kind == "disc_standing":  # faces the camera, give or take 15 degrees
            angle = float(np.arctan2(view.eye[1] - y, view.eye[0] - x) + np.radians(rng.uniform(-15, 15)))
        colour = rng.uniform(0.1, 0.95, 3)
        things.append(Thing(kind, np.array([x, y, _rest_height(kind, r)]), r, angle, colour,
                            bool(rng.random() < 0.4)))
    return things


def render_scene(seed: int, idx: int, size: tuple[int, int] = SIZE) -> HoldoutSceneShot:
    """One picture of 3-9 things on a table, 25-50% of them spheres (any number may be none)."""
    rng = np.random.default_rng([seed, idx, 777])
    w, h = size
    view = _camera(rng, w, h)
    things = _place(rng, int(rng.integers(3, 10)), view)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float64)
    dirs = (view.fwd[None, :] * view.f + view.right[None, :] * (xx.reshape(-1, 1) - w / 2 + 0.5)
            - view.up[None, :] * (yy.reshape(-1, 1) - h / 2 + 0.5))
    dirs /= np.linalg.norm(dirs, axis=1, keepdims=True)
    for _ in range(4):  # leave out what is hidden too much, then trace again
        t = _march(things, view.eye, dirs, far=60.0)
        hit = np.isfinite(t)
        p = view.eye + dirs * np.where(hit, t, 0)[:, None]
        _, which = _scene_sdf(things, p)
        which[~hit] = -2
        keep = []
        for i, th in enumerate(things):
            seen = int(np.count_nonzero(which == i))
            if th.kind == "sphere":
                _, _, z = view.project(th.centre)
                full = np.pi * (view.f * th.size / z) ** 2
                keep.append(seen >= VISIBLE * full)
            else:
                keep.append(seen >= DECOY_VISIBLE_PX)
        if all(keep):
            break
        things = [th for th, k in zip(things, keep) if k]
    image = _shade(rng, things, view.eye, dirs, t, which)
    return HoldoutSceneShot(_camera_effects(rng, image.reshape(h, w, 3)), things)


def _shade(rng, things, eye, dirs, t, which) -> np.ndarray:
    hit = np.isfinite(t)
    p = eye + dirs * np.where(hit, t, 0)[:, None]
    light = np.array([rng.uniform(-1, 1), rng.uniform(-1, 1), rng.uniform(0.6, 2.0)])
    light /= np.linalg.norm(light)
    lamp = np.array([rng.uniform(0.85, 1.0), rng.uniform(0.9, 1.0), rng.uniform(0.9, 1.1)])
    ambient = rng.uniform(0.2, 0.4)
    cloth = _cloth(rng)
    out = np.zeros((len(dirs), 3))
    out[~hit] = np.array([0.55, 0.6, 0.65]) * rng.uniform(0.6, 1.0)  # the room beyond the table
    idx = np.nonzero(hit)[0]
    n = _normals(things, p[idx])
    shadow = _soft_shadow(things, p[idx] + n * 2e-3, light)
    lam = np.clip(n @ light, 0, 1) * shadow
    view = -dirs[idx]
    half = light + view
    half /= np.linalg.norm(half, axis=1, keepdims=True)
    spec = np.clip(np.sum(n * half, 1), 0, 1)
    albedo = np.zeros((len(idx), 3))
    metal = np.zeros(len(idx), bool)
    floor = which[idx] == -1
    albedo[floor] = cloth(p[idx][floor, 0], p[idx][floor, 1])
    for i, th in enumerate(things):
        m = which[idx] == i
        albedo[m] = th.colour
        metal[m] = th.metal
    colour = albedo * (ambient + (1 - ambient) * lam[:, None])
    # Metal: the room mirrored (a bright sky above the horizon, the table's grey below), tinted
    # by the metal's colour, and a sharp highlight.
    refl = dirs[idx] - 2 * np.sum(dirs[idx] * n, 1, keepdims=True) * n
    sky = np.clip(refl[:, 2:3] * 3 + 0.5, 0, 1)
    env = (np.array([0.35, 0.35, 0.35]) * (1 - sky) + np.array([0.95, 0.93, 0.9]) * sky) * (0.4 + 0.6 * shadow[:, None])
    colour[metal] = (env[metal] * (0.3 + 0.7 * albedo[metal]) * 0.8 + albedo[metal] * lam[metal, None] * 0.25)
    shine = np.where(metal, spec ** 120 * 1.2, spec ** rng.uniform(10, 40) * rng.uniform(0.1, 0.4)) * shadow
    colour += shine[:, None]
    out[idx] = colour * lamp
    return np.clip(out * 255, 0, 255)


def _camera_effects(rng: np.random.Generator, img: np.ndarray) -> np.ndarray:
    img = cv2.GaussianBlur(img.astype(np.float32), (0, 0), rng.uniform(0.5, 1.1))  # the lens and anti-aliasing
    img = img + rng.normal(0, rng.uniform(1, 4), img.shape)
    ok, buf = cv2.imencode(".jpg", np.clip(img, 0, 255).astype(np.uint8),
                           [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(60, 93))])
    return cv2.imdecode(buf, cv2.IMREAD_COLOR)
