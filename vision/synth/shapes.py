"""Shaded 3-D-looking shapes for Quarx cards and clutter: spheres, cubes, cones, tori..."""
from __future__ import annotations

import cv2
import numpy as np


def _blend(img: np.ndarray, x0: int, y0: int, patch: np.ndarray, alpha: np.ndarray) -> None:
    h, w = img.shape[:2]
    ph, pw = alpha.shape
    xa, ya, xb, yb = max(0, x0), max(0, y0), min(w, x0 + pw), min(h, y0 + ph)
    if xb <= xa or yb <= ya:
        return
    p = patch[ya - y0:yb - y0, xa - x0:xb - x0]
    a = alpha[ya - y0:yb - y0, xa - x0:xb - x0, None]
    roi = img[ya:yb, xa:xb].astype(np.float32)
    img[ya:yb, xa:xb] = np.clip(roi * (1 - a) + p * a, 0, 255).astype(np.uint8)


def sphere(img: np.ndarray, cx: float, cy: float, r: float, colour, light: np.ndarray,
           alpha: float = 1.0, spec: float = 0.7, rim: float = 0.0) -> None:
    """A Phong-shaded ball; with low alpha and rim>0 it reads as a soap bubble."""
    n = int(np.ceil(r)) + 2
    yy, xx = np.mgrid[-n:n + 1, -n:n + 1].astype(np.float32)
    xx = (xx + (int(cx) - cx)) / r
    yy = (yy + (int(cy) - cy)) / r
    d2 = xx * xx + yy * yy
    cover = np.clip((1.0 - np.sqrt(d2)) * r + 0.5, 0, 1)
    nz = np.sqrt(np.clip(1 - d2, 0, 1))
    lam = np.clip(xx * light[0] + yy * light[1] + nz * light[2], 0, 1)
    h = np.clip(2 * lam * nz - light[2], 0, 1) ** 20 * spec
    col = np.array(colour, np.float32)
    patch = col * (0.3 + 0.75 * lam)[..., None] + 255 * h[..., None]
    a = cover * alpha
    if rim > 0:
        a = cover * np.clip(alpha + rim * (1 - nz) ** 3 + h, 0, 1)
    _blend(img, int(cx) - n, int(cy) - n, patch, a)


def cube(img: np.ndarray, cx: float, cy: float, r: float, colour, rng: np.random.Generator) -> None:
    ang = rng.uniform(0, np.pi / 2)
    c = np.array(colour, np.float32)
    top = [(cx + r * np.cos(ang + k * np.pi / 2), cy - r * 0.5 + 0.5 * r * np.sin(ang + k * np.pi / 2))
           for k in range(4)]
    top = np.array(top, np.float32) * [1, 1]
    drop = np.array([0, r * 0.9], np.float32)
    order = np.argsort(top[:, 1])
    front = top[order[2:]]  # the two nearer top corners carry the visible side faces
    lo = top[order[3]]
    for other in front[:1].tolist() + [top[order[1]].tolist()]:
        poly = np.array([lo, other, np.add(other, drop), lo + drop], np.float32)
        shade = 0.55 if other[0] < lo[0] else 0.8
        cv2.fillPoly(img, [np.round(poly).astype(np.int32)], tuple(float(v) for v in c * shade), cv2.LINE_AA)
    cv2.fillPoly(img, [np.round(top).astype(np.int32)], tuple(float(v) for v in np.clip(c * 1.1, 0, 255)),
                 cv2.LINE_AA)


def cylinder(img: np.ndarray, cx: float, cy: float, r: float, colour, rng: np.random.Generator) -> None:
    w = r * rng.uniform(0.6, 0.9)
    hgt = r * rng.uniform(1.0, 1.8)
    e = w * rng.uniform(0.25, 0.45)
    x0, x1 = int(cx - w), int(cx + w)
    top, bot = int(cy - hgt / 2), int(cy + hgt / 2)
    c = np.array(colour, np.float32)
    cv2.ellipse(img, (int(cx), bot), (int(w), int(e)), 0, 0, 180, tuple(float(v) for v in c * 0.6), -1, cv2.LINE_AA)
    for x in range(x0, x1 + 1):
        t = (x - cx) / max(w, 1)
        shade = 0.45 + 0.6 * np.sqrt(max(0.0, 1 - t * t)) * (1 - 0.3 * t)
        cv2.line(img, (x, top), (x, bot), tuple(float(v) for v in np.clip(c * shade, 0, 255)), 1)
    cv2.ellipse(img, (int(cx), top), (int(w), int(e)), 0, 0, 360,
                tuple(float(v) for v in np.clip(c * 1.15, 0, 255)), -1, cv2.LINE_AA)


def cone(img: np.ndarray, cx: float, cy: float, r: float, colour, rng: np.random.Generator) -> None:
    w = r * rng.uniform(0.6, 0.9)
    hgt = r * rng.uniform(1.2, 2.0)
    e = w * 0.35
    c = np.array(colour, np.float32)
    base_y = cy + hgt / 2
    apex = (cx, cy - hgt / 2)
    n = 24
    for i in range(n):
        t0, t1 = np.pi * i / n, np.pi * (i + 1) / n
        p0 = (cx + w * np.cos(t0), base_y + e * np.sin(t0))
        p1 = (cx + w * np.cos(t1), base_y + e * np.sin(t1))
        shade = 0.45 + 0.7 * np.sin((t0 + t1) / 2) * (0.8 + 0.2 * np.cos((t0 + t1) / 2))
        poly = np.array([apex, p0, p1], np.float32)
        cv2.fillPoly(img, [np.round(poly * 4).astype(np.int32)],
                     tuple(float(v) for v in np.clip(c * shade, 0, 255)), cv2.LINE_AA, 2)


def pyramid(img: np.ndarray, cx: float, cy: float, r: float, colour, rng: np.random.Generator) -> None:
    c = np.array(colour, np.float32)
    apex = (cx + rng.uniform(-0.2, 0.2) * r, cy - r)
    bl, br = (cx - r, cy + r * 0.7), (cx + r, cy + r * 0.7)
    mid = (cx + rng.uniform(-0.4, 0.4) * r, cy + r * 0.95)
    cv2.fillPoly(img, [np.round(np.array([apex, bl, mid])).astype(np.int32)],
                 tuple(float(v) for v in c * 0.95), cv2.LINE_AA)
    cv2.fillPoly(img, [np.round(np.array([apex, mid, br])).astype(np.int32)],
                 tuple(float(v) for v in c * 0.6), cv2.LINE_AA)


def torus(img: np.ndarray, cx: float, cy: float, r: float, colour, rng: np.random.Generator,
          hole_colour) -> None:
    c = np.array(colour, np.float32)
    ry = r * rng.uniform(0.45, 0.8)
    for k in range(6, 0, -1):
        s = k / 6
        shade = 0.5 + 0.6 * (1 - abs(s - 0.6))
        cv2.ellipse(img, (int(cx), int(cy)), (int(r * (0.55 + 0.45 * s)), int(ry * (0.55 + 0.45 * s))), 0,
                    0, 360, tuple(float(v) for v in np.clip(c * shade, 0, 255)), -1, cv2.LINE_AA)
    cv2.ellipse(img, (int(cx), int(cy)), (int(r * 0.4), int(ry * 0.32)), 0, 0, 360,
                tuple(float(v) for v in hole_colour), -1, cv2.LINE_AA)
    cv2.ellipse(img, (int(cx - r * 0.1), int(cy - ry * 0.55)), (int(r * 0.35), max(1, int(ry * 0.12))), 0,
                180, 360, tuple(float(v) for v in np.clip(c * 1.5, 0, 255)), 2, cv2.LINE_AA)


DISTRACTORS = ("cube", "cylinder", "cone", "pyramid", "torus")
