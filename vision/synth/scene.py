"""Compose a labelled table scene from a seed: background, objects, clutter, camera effects."""
from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from vision.detector.classes import CLASS_ID
from vision.synth import cards, clutter, effects, textures, variety
from vision.synth.cube import CubePose, draw_cube, draw_pips, outline, side_values, visible_faces
from vision.synth.palette import (DIE_BODIES, DIE_BODY_WEIGHTS, PIP_BLACK, PIP_GOLD, PIP_RED,
                                  PIP_WHITE, SHAPE_COLOURS)
from vision.yolo_labels import yolo_line

SS = 2  # supersampling factor: draw at 2x, then area-downscale for natural anti-aliasing
SCENE_KINDS = {"dice": 0.50, "quarx": 0.17, "quarx_close": 0.13, "mixed": 0.20}
POLYOMINOES: dict[str, list[tuple[int, int]]] = {
    "I1": [(0, 0)], "I2": [(0, 0), (1, 0)], "I3": [(0, 0), (1, 0), (2, 0)],
    "L3": [(0, 0), (0, 1), (1, 1)], "I4": [(0, 0), (1, 0), (2, 0), (3, 0)],
    "O4": [(0, 0), (1, 0), (0, 1), (1, 1)], "T4": [(0, 0), (1, 0), (2, 0), (1, 1)],
    "S4": [(1, 0), (2, 0), (0, 1), (1, 1)], "L4": [(0, 0), (0, 1), (0, 2), (1, 2)],
    "L5": [(0, 0), (0, 1), (0, 2), (0, 3), (1, 3)], "P5": [(0, 0), (1, 0), (0, 1), (1, 1), (0, 2)],
    "Y5": [(1, 0), (0, 1), (1, 1), (1, 2), (1, 3)], "S5": [(0, 0), (1, 0), (1, 1), (1, 2), (2, 2)],
}


@dataclass
class Label:
    """One labelled object: class id and box (x1, y1, x2, y2) in output pixels; extra facts."""

    cls: int
    box: tuple[float, float, float, float]
    color: str | None = None
    count: int | None = None
    # A die's visible side faces, boxed like `box`: what a die reader must not take for a top face.
    sides: tuple[tuple[float, float, float, float], ...] = ()
    # Whether the picture resolves a die's pips (False: too small or blurred for anyone to read).
    pips_seen: bool = True


@dataclass
class RenderedImage:
    """A rendered BGR image and its labels."""

    image: np.ndarray
    labels: list[Label] = field(default_factory=list)
    kind: str = ""
    # Boxes of objects in sight that carry no label (a die cut by the picture's edge or mostly
    # hidden): a test bed counts a reading there neither right nor wrong.
    ignore: list[tuple[float, float, float, float]] = field(default_factory=list)

    def yolo_lines(self) -> list[str]:
        h, w = self.image.shape[:2]
        return [yolo_line(lb.cls, lb.box, w, h) for lb in self.labels]


@dataclass
class _Pending:
    cls: int
    poly: np.ndarray
    color: str | None = None
    count: int | None = None
    sides: tuple[np.ndarray, ...] = ()


def _pick_body(rng: np.random.Generator, only: str | None = None) -> tuple[str, np.ndarray]:
    names = list(DIE_BODIES)
    if only is None:
        p = np.array([DIE_BODY_WEIGHTS[n] for n in names])
        name = names[int(rng.choice(len(names), p=p / p.sum()))]
    else:
        name = only
    opts = DIE_BODIES[name]
    base = np.array(opts[int(rng.integers(len(opts)))], np.float32)
    return name, np.clip(base * rng.uniform(0.9, 1.1, 3), 0, 255)


def _pip_colour(rng: np.random.Generator, body_name: str):
    r = rng.random()
    if body_name in ("black", "red", "blue", "purple", "green"):
        return PIP_WHITE if r < 0.8 else (PIP_GOLD if r < 0.9 else (PIP_BLACK if body_name == "red" else PIP_RED))
    if body_name == "grey":
        return PIP_BLACK if r < 0.6 else PIP_WHITE
    return PIP_BLACK if r < 0.8 else (PIP_RED if r < 0.92 else (170, 60, 20))


class _Scene:
    def __init__(self, rng: np.random.Generator, w: int, h: int, varied: bool = False):
        self.rng = rng
        self.varied = varied
        self.W, self.H = w * SS, h * SS
        self.tilt = float(rng.uniform(0, np.radians(55)))
        lx, ly = rng.uniform(-0.7, 0.7), rng.uniform(-0.7, 0.7)
        self.light = np.array([lx, ly, 1.0], np.float32)
        self.light /= np.linalg.norm(self.light)
        self.ambient = float(rng.uniform(0.45, 0.75))
        self.pending: list[_Pending] = []
        self.occupied: list[np.ndarray] = []  # boxes (x1,y1,x2,y2) of placed objects
        self.canvas: np.ndarray | None = None

    def free(self, box: np.ndarray, slack: float = 0.12) -> bool:
        for o in self.occupied:
            iw = min(box[2], o[2]) - max(box[0], o[0])
            ih = min(box[3], o[3]) - max(box[1], o[1])
            if iw > 0 and ih > 0:
                a = min((box[2] - box[0]) * (box[3] - box[1]), (o[2] - o[0]) * (o[3] - o[1]))
                if iw * ih > slack * a:
                    return False
        return True

    def shadow_offset(self, size: float) -> np.ndarray:
        return -np.array([self.light[0], -self.light[1] * np.cos(self.tilt)], np.float32) * size * 0.5


def _die_pose(sc: _Scene, side: float, near: _Pending | None) -> CubePose | None:
    rng = sc.rng
    for _ in range(25):
        if near is not None and rng.random() < 0.7:
            c = near.poly.mean(0) + rng.normal(0, 1, 2) * side * 0.2 + \
                np.array([np.cos(a := rng.uniform(0, 2 * np.pi)), np.sin(a)]) * side * 1.15
        else:
            c = rng.uniform([side, side], [sc.W - side, sc.H - side * 1.5])
        pose = CubePose(float(c[0]), float(c[1]), side, float(rng.uniform(0, 2 * np.pi)), sc.tilt)
        hull = outline(pose)
        box = np.array([*hull.min(0), *hull.max(0)])
        if box[0] < 0 or box[1] < 0 or box[2] > sc.W or box[3] > sc.H:
            continue
        if sc.free(box, 0.2):
            sc.occupied.append(box)
            return pose
    return None


def add_die(sc: _Scene, side: float, kind: str = "pip", body_name: str | None = None,
            near: _Pending | None = None) -> _Pending | None:
    """Draw one pip die (or Ubongo die) and queue its top-face label."""
    rng = sc.rng
    pose = _die_pose(sc, side, near)
    if pose is None:
        return None
    if kind == "ubongo":
        body_name = "black" if rng.random() < 0.5 else "white"
    name, body = _pick_body(rng, body_name)
    wild = kind == "pip" and sc.varied and body_name is None and rng.random() < 0.6
    if wild:  # any body colour: no colour word fits it, so none is labelled
        name, body = None, variety.body_colour(rng)
    alpha, marble = 1.0, None
    if kind == "pip" and sc.varied and rng.random() < 0.1:  # more translucent dice, and clearer ones
        alpha = float(rng.uniform(0.45, 0.85))
    elif kind == "pip" and rng.random() < 0.12:
        alpha = float(rng.uniform(0.55, 0.85))  # translucent
    elif kind == "pip" and rng.random() < 0.1:
        marble = np.array(rng.uniform(0, 255, 3), np.float32)
    effects.shadow(sc.canvas, outline(pose), sc.shadow_offset(side), rng.uniform(0.2, 0.55),
                   side * rng.uniform(0.05, 0.3))
    value = int(rng.integers(1, 7))
    sides = side_values(rng, value)
    pip = _pip_colour(rng, name) if name is not None else variety.pip_colour(rng, body)
    pip_r = float(rng.uniform(0.08, 0.115))
    wall = None
    if kind == "pip" and sc.varied:
        if name is not None and rng.random() < 0.4:
            pip = variety.pip_colour(rng, body)
        pip_r = float(rng.uniform(0.055, 0.135))
        if rng.random() < 0.3:
            wall, pip = variety.engrave(pip, float(rng.uniform(0.3, 0.8)))
    swap = bool(rng.random() < 0.5)
    shape = list(POLYOMINOES.values())[int(rng.integers(len(POLYOMINOES)))]
    sym_col = (tuple(float(v) for v in SHAPE_COLOURS[int(rng.integers(len(SHAPE_COLOURS)))])
               if rng.random() < 0.4 else (PIP_WHITE if name == "black" else PIP_BLACK))

    def decorate(img, face, i):
        if kind == "pip":
            v = value if face.is_top else sides[i % 4]
            if wall is not None:
                draw_pips(img, face, v, wall, pip_r, swap)
            draw_pips(img, face, v, pip, pip_r * (0.7 if wall is not None else 1.0), swap)
        else:
            cells = shape if face.is_top else list(POLYOMINOES.values())[(i + value) % len(POLYOMINOES)]
            n = max(max(max(x, y) for x, y in cells) + 1, 3)
            cell = 0.72 / n
            for x, y in cells:
                a0, b0 = 0.14 + x * cell, 0.14 + y * cell
                poly = face.to_screen(np.array([[a0, b0], [a0 + cell * 0.92, b0], [a0 + cell * 0.92, b0 + cell * 0.92],
                                                [a0, b0 + cell * 0.92]], np.float32))
                cv2.fillPoly(img, [np.round(poly * 4).astype(np.int32)], sym_col, cv2.LINE_AA, 2)

    top = draw_cube(sc.canvas, pose, body, sc.light, sc.ambient, decorate, alpha, marble, rng)
    cls = CLASS_ID[f"die_{value}"] if kind == "pip" else CLASS_ID["ubongo_die"]
    sides = tuple(f.polygon() for f in visible_faces(pose, sc.light) if not f.is_top)
    p = _Pending(cls, top, name if kind == "pip" else None, sides=sides)
    sc.pending.append(p)
    return p


def add_flat(sc: _Scene, art: cards.FlatArt, cls: str | None, width: float,
             centre: np.ndarray | None = None, sphere_cls: bool = False) -> bool:
    """Lay a flat card/tile on the table; queue its label (and its spheres' labels)."""
    rng = sc.rng
    h, w = art.image.shape[:2]
    scale = width / w
    for _ in range(20):
        c = centre if centre is not None else rng.uniform([0, 0], [sc.W, sc.H])
        hom = cards.table_homography(float(c[0]), float(c[1]), scale, float(rng.uniform(0, 2 * np.pi)),
                                     sc.tilt, float(rng.uniform(-4e-4, 4e-4)) / max(scale, 0.1), w, h)
        corners = cards.warp_points(hom, np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32))
        box = np.array([*corners.min(0), *corners.max(0)])
        inside = box[0] >= -0.05 * sc.W and box[1] >= -0.05 * sc.H and box[2] <= 1.05 * sc.W and box[3] <= 1.05 * sc.H
        if inside and (centre is not None or sc.free(box, 0.05)):
            break
    else:
        return False
    sc.occupied.append(box)
    effects.shadow(sc.canvas, corners, sc.shadow_offset(width * 0.05), rng.uniform(0.1, 0.35), width * 0.03)
    cards.paste(sc.canvas, art, hom)
    n = len(art.spheres) if cls == "quarx_card" else None
    if cls is not None:
        sc.pending.append(_Pending(CLASS_ID[cls], corners, count=n))
    if sphere_cls:
        for cx, cy, r in art.spheres:
            sc.pending.append(_Pending(CLASS_ID["sphere"], cards.warp_points(hom, cards.circle_polygon(cx, cy, r))))
    return True


def _die_side(rng: np.random.Generator, lo: float = 14, hi: float = 120) -> float:
    return float(np.exp(rng.uniform(np.log(lo), np.log(hi))))


def _sphere_count(rng: np.random.Generator) -> int:
    return int(min(rng.geometric(0.18), 14)) if rng.random() < 0.95 else 0


def _quarx_art(rng: np.random.Generator) -> cards.FlatArt:
    for _ in range(10):
        try:
            return cards.quarx_card(rng, _sphere_count(rng))
        except RuntimeError:
            continue
    return cards.quarx_card(rng, 1)


def _render_dice(sc: _Scene, real_like: bool) -> None:
    rng = sc.rng
    n = int(rng.choice([1, 2, 3, 4, 5, 6, 8, 10], p=[.18, .2, .18, .14, .1, .08, .07, .05]))
    lo, hi = (40, 110) if real_like else (14, 120)
    if n >= 6:
        hi = min(hi, 70)
    if sc.varied and rng.random() < 0.3:  # close to the camera: dice up to 90 px of 240
        n, lo, hi = min(n, 4), 80, 180
    body = "white" if real_like and rng.random() < 0.8 else None
    prev = None
    for _ in range(n):
        prev = add_die(sc, _die_side(rng, lo, hi), "pip", body, prev if rng.random() < 0.35 else None) or prev


def _render_quarx(sc: _Scene, close: bool) -> None:
    rng = sc.rng
    if close:
        art = _quarx_art(rng)
        target = rng.uniform(0.55, 0.95) * sc.H * 340 / 240
        width = min(target * 240 / 340, sc.W * 0.8)
        sc.tilt = min(sc.tilt, np.radians(35))
        c = np.array([sc.W / 2, sc.H / 2]) + rng.normal(0, 0.05, 2) * [sc.W, sc.H]
        add_flat(sc, art, "quarx_card", width, c, sphere_cls=True)
        return
    for _ in range(int(rng.integers(1, 5))):
        add_flat(sc, _quarx_art(rng), "quarx_card", rng.uniform(110, 260), sphere_cls=True)
    for _ in range(int(rng.integers(0, 4))):
        add_flat(sc, cards.number_card(rng, int(rng.choice([1, 2, 4, 8, 16]))), "number_card",
                 rng.uniform(70, 160))
    for _ in range(int(rng.integers(0, 3))):
        add_die(sc, _die_side(rng, 20, 70))


def _render_mixed(sc: _Scene) -> None:
    rng = sc.rng
    for _ in range(int(rng.integers(0, 4))):
        add_flat(sc, cards.bonus_tile(rng), "bonus_tile", rng.uniform(40, 120))
    for _ in range(int(rng.integers(0, 3))):
        add_flat(sc, cards.number_card(rng, int(rng.choice([1, 2, 4, 8, 16]))), "number_card",
                 rng.uniform(70, 170))
    for _ in range(int(rng.integers(1, 5))):
        add_die(sc, _die_side(rng, 25, 100), "ubongo")
    for _ in range(int(rng.integers(0, 4))):
        add_die(sc, _die_side(rng, 14, 100))


def render_image(seed: int, index: int, width: int = 320, height: int = 240,
                 kind: str | None = None, varied: bool = False) -> RenderedImage:
    """Render image number `index` of the dataset drawn from `seed` (fully deterministic).

    `varied` adds `vision.synth.variety`'s looks (any die colours, engraved pips, patterned
    cloths, coloured lamps, dice close to the camera); off, an image is exactly what it was
    before those existed, so earlier datasets rebuild the same."""
    rng = np.random.default_rng([seed, index])
    if kind is None:
        names = list(SCENE_KINDS)
        kind = names[int(rng.choice(len(names), p=list(SCENE_KINDS.values())))]
    sc = _Scene(rng, width, height, varied)
    real_like = kind == "dice" and rng.random() < 0.35
    bg_kind = "wood" if real_like else None
    sc.canvas = textures.background(rng, sc.H, sc.W, bg_kind)
    if varied and rng.random() < 0.4:
        sc.canvas = variety.pattern(rng, sc.H, sc.W)
    if varied:
        sc.tilt = float(rng.uniform(0, np.radians(60)))
    elif real_like:
        sc.tilt = float(rng.uniform(np.radians(25), np.radians(55)))
    clutter.add_clutter(sc.canvas, rng, int(rng.integers(0, 5)) if kind == "dice" else int(rng.integers(0, 3)))
    if kind == "dice":
        _render_dice(sc, real_like)
    elif kind in ("quarx", "quarx_close"):
        _render_quarx(sc, kind == "quarx_close")
    else:
        _render_mixed(sc)
    img = effects.light(sc.canvas, rng)
    if varied and rng.random() < 0.6:
        img = variety.lamp(img, rng)
    if rng.random() < (0.4 if real_like else 0.2):
        img = effects.motion_blur(img, rng, 18)
    if rng.random() < 0.25:
        img = effects.defocus(img, rng)
    img = cv2.resize(img, (width, height), interpolation=cv2.INTER_AREA)
    if rng.random() < 0.6:
        img = effects.noise(img, rng)
    if rng.random() < 0.7:
        img = effects.jpeg(img, rng)
    out = RenderedImage(img, [], kind)
    for p in sc.pending:
        x1, y1 = p.poly.min(0) / SS
        x2, y2 = p.poly.max(0) / SS
        cx1, cy1, cx2, cy2 = max(0.0, x1), max(0.0, y1), min(float(width), x2), min(float(height), y2)
        if cx2 - cx1 < 2.5 or cy2 - cy1 < 2.5:
            continue
        if (cx2 - cx1) * (cy2 - cy1) < 0.6 * (x2 - x1) * (y2 - y1):
            continue
        sides = tuple((float(q[:, 0].min() / SS), float(q[:, 1].min() / SS), float(q[:, 0].max() / SS),
                       float(q[:, 1].max() / SS)) for q in p.sides)
        out.labels.append(Label(p.cls, (float(cx1), float(cy1), float(cx2), float(cy2)), p.color, p.count, sides))
    return out
