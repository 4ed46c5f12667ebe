"""Unlabelled desk clutter that real photos show and a dice detector must ignore."""
from __future__ import annotations

import cv2
import numpy as np

from vision.synth import shapes


def _c(v) -> tuple[float, ...]:
    return tuple(float(x) for x in v)


def grey_blob(img, rng):
    h, w = img.shape[:2]
    g = rng.uniform(60, 200)
    col = (g, g * rng.uniform(0.95, 1.05), g * rng.uniform(0.95, 1.05))
    light = np.array([0.3, -0.5, 0.81], np.float32)
    shapes.sphere(img, rng.uniform(0, w), rng.uniform(0, h), rng.uniform(6, 40), col, light,
                  spec=rng.uniform(0, 0.5))


def usb_stick(img, rng):
    h, w = img.shape[:2]
    cx, cy, ang = rng.uniform(0, w), rng.uniform(0, h), rng.uniform(0, 180)
    L, W = rng.uniform(60, 160), rng.uniform(25, 50)
    body = rng.choice([(20, 20, 20), (200, 120, 40), (230, 230, 230), (40, 40, 180)])
    box = cv2.boxPoints(((cx, cy), (L, W), ang))
    cv2.fillPoly(img, [np.round(box).astype(np.int32)], _c(body), cv2.LINE_AA)
    d = np.array([np.cos(np.radians(ang)), np.sin(np.radians(ang))])
    mc = np.array([cx, cy]) + d * (L / 2 + L * 0.15)
    metal = cv2.boxPoints((tuple(mc), (L * 0.3, W * 0.75), ang))
    cv2.fillPoly(img, [np.round(metal).astype(np.int32)], (190, 190, 195), cv2.LINE_AA)
    for k in (-1, 1):  # the two square holes of a USB-A plug
        p = mc + np.array([-d[1], d[0]]) * k * W * 0.18
        cv2.rectangle(img, tuple(np.int32(p - 3)), tuple(np.int32(p + 3)), (60, 60, 60), -1)
    if rng.random() < 0.6:
        cv2.putText(img, str(rng.choice(["16GB", "USB", "32G", "SAN"])), (int(cx - L / 4), int(cy + 5)),
                    cv2.FONT_HERSHEY_SIMPLEX, 0.5, (240, 240, 240), 1, cv2.LINE_AA)


def cable(img, rng):
    h, w = img.shape[:2]
    pts = np.cumsum(rng.normal(0, 40, (6, 2)), 0) + [rng.uniform(0, w), rng.uniform(0, h)]
    t = np.linspace(0, 1, 40)[:, None]
    curve = (1 - t) ** 2 * pts[0] + 2 * (1 - t) * t * pts[2] + t ** 2 * pts[5]
    col = _c(rng.choice([(15, 15, 15), (30, 30, 30), (230, 230, 230), (60, 60, 60)]))
    th = int(rng.integers(4, 14))
    cv2.polylines(img, [np.round(curve).astype(np.int32)], False, col, th, cv2.LINE_AA)
    if rng.random() < 0.6:  # ferrite bead
        i = int(rng.integers(5, 35))
        d = curve[i + 1] - curve[i]
        ang = np.degrees(np.arctan2(d[1], d[0]))
        box = cv2.boxPoints((tuple(curve[i]), (th * 4, th * 2.2), ang))
        cv2.fillPoly(img, [np.round(box).astype(np.int32)], (25, 25, 25), cv2.LINE_AA)


def laptop(img, rng):
    h, w = img.shape[:2]
    corner = rng.integers(4)
    grey = rng.uniform(120, 200)
    pw, ph = rng.uniform(0.25, 0.6) * w, rng.uniform(0.25, 0.6) * h
    x0 = 0 if corner in (0, 2) else w - pw
    y0 = 0 if corner in (0, 1) else h - ph
    poly = np.array([[x0, y0], [x0 + pw, y0], [x0 + pw, y0 + ph], [x0, y0 + ph]], np.float32)
    poly += rng.normal(0, 15, poly.shape)
    cv2.fillPoly(img, [np.round(poly).astype(np.int32)], (grey, grey, grey * 1.05), cv2.LINE_AA)
    k = rng.uniform(18, 34)
    for yy in np.arange(y0 + 10, y0 + ph - k, k * 1.15):
        for xx in np.arange(x0 + 10, x0 + pw - k, k * 1.15):
            if rng.random() < 0.85:
                cv2.rectangle(img, (int(xx), int(yy)), (int(xx + k), int(yy + k)), (30, 30, 32), -1, cv2.LINE_AA)
                if rng.random() < 0.5:
                    cv2.putText(img, chr(int(rng.integers(65, 91))), (int(xx + k * 0.3), int(yy + k * 0.7)),
                                cv2.FONT_HERSHEY_SIMPLEX, k / 45, (220, 220, 220), 1, cv2.LINE_AA)


def pen(img, rng):
    h, w = img.shape[:2]
    box = cv2.boxPoints(((rng.uniform(0, w), rng.uniform(0, h)), (rng.uniform(80, 250), rng.uniform(6, 14)),
                         rng.uniform(0, 180)))
    cv2.fillPoly(img, [np.round(box).astype(np.int32)], _c(rng.uniform(0, 255, 3)), cv2.LINE_AA)


def coin(img, rng):
    h, w = img.shape[:2]
    col = (40, 160, 200) if rng.random() < 0.5 else (180, 180, 180)
    shapes.sphere(img, rng.uniform(0, w), rng.uniform(0, h), rng.uniform(8, 20), col,
                  np.array([0.2, -0.3, 0.93], np.float32), spec=0.3)


def note(img, rng):
    h, w = img.shape[:2]
    box = cv2.boxPoints(((rng.uniform(0, w), rng.uniform(0, h)), (rng.uniform(50, 160), rng.uniform(50, 160)),
                         rng.uniform(0, 90)))
    col = (240, 240, 240) if rng.random() < 0.5 else (120, 235, 250)
    cv2.fillPoly(img, [np.round(box).astype(np.int32)], col, cv2.LINE_AA)


def blank_square(img, rng):
    """A pip-less light square (eraser, sugar cube): a die look-alike with no value."""
    h, w = img.shape[:2]
    s = rng.uniform(15, 60)
    box = cv2.boxPoints(((rng.uniform(0, w), rng.uniform(0, h)), (s, s * rng.uniform(0.8, 1.6)),
                         rng.uniform(0, 90)))
    g = rng.uniform(180, 250)
    cv2.fillPoly(img, [np.round(box).astype(np.int32)], (g, g, g), cv2.LINE_AA)


KINDS = [(grey_blob, 2.0), (usb_stick, 1.5), (cable, 2.0), (laptop, 1.0), (pen, 1.0),
         (coin, 1.0), (note, 1.0), (blank_square, 0.7)]


def add_clutter(img: np.ndarray, rng: np.random.Generator, n: int) -> None:
    fns = [f for f, _ in KINDS]
    p = np.array([wt for _, wt in KINDS])
    for _ in range(n):
        fns[int(rng.choice(len(fns), p=p / p.sum()))](img, rng)
