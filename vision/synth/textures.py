"""Procedural backgrounds: wood, cloth, felt, paper, laminate, gradients."""
from __future__ import annotations

import cv2
import numpy as np


def smooth_noise(rng: np.random.Generator, h: int, w: int, cells: int) -> np.ndarray:
    """Low-frequency noise in [-1, 1] made by upscaling a small random grid."""
    cells = max(2, cells)
    small = rng.uniform(-1, 1, (cells, max(2, cells * w // max(h, 1)))).astype(np.float32)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC)


def _colour_field(base: np.ndarray, shade: np.ndarray) -> np.ndarray:
    return np.clip(base[None, None, :] * shade[..., None], 0, 255)


def wood(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    light = rng.random() < 0.65
    base = np.array(rng.uniform([150, 185, 205], [200, 220, 240]) if light
                    else rng.uniform([40, 70, 100], [110, 140, 180]), np.float32)
    ang = rng.uniform(0, np.pi)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    t = xx * np.cos(ang) + yy * np.sin(ang)
    warp = smooth_noise(rng, h, w, int(rng.integers(2, 6))) * rng.uniform(10, 60)
    freq = rng.uniform(0.05, 0.25)
    grain = np.sin((t + warp) * freq) * 0.5 + 0.5
    fine = smooth_noise(rng, h, w, int(rng.integers(40, 120)))
    shade = 1.0 - rng.uniform(0.04, 0.14) * grain ** 3 + 0.03 * fine
    return _colour_field(base, shade)


def cloth(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    base = np.array(rng.uniform(20, 230, 3), np.float32)
    if rng.random() < 0.4:  # green felt, the classic game table
        base = np.array(rng.uniform([30, 90, 20], [80, 160, 70]), np.float32)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    p = rng.uniform(1.5, 4.0)
    weave = (np.sin(xx * np.pi / p) * np.sin(yy * np.pi / p)) * rng.uniform(0.0, 0.06)
    shade = 1.0 + weave + rng.normal(0, rng.uniform(0.01, 0.06), (h, w)).astype(np.float32)
    shade += 0.06 * smooth_noise(rng, h, w, 4)
    return _colour_field(base, shade)


def paper(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    base = np.array(rng.uniform([200, 210, 215], [250, 252, 255]), np.float32)
    shade = 1.0 + rng.normal(0, 0.015, (h, w)).astype(np.float32)
    img = _colour_field(base, shade)
    if rng.random() < 0.3:  # ruled notebook paper
        step = int(rng.integers(18, 40))
        for y in range(int(rng.integers(0, step)), h, step):
            cv2.line(img, (0, y), (w, y), (200, 170, 150), 1)
    return img


def plain(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    a = np.array(rng.uniform(10, 245, 3), np.float32)
    b = np.clip(a + rng.uniform(-50, 50, 3), 0, 255).astype(np.float32)
    ang = rng.uniform(0, 2 * np.pi)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    t = (xx * np.cos(ang) + yy * np.sin(ang))
    t = (t - t.min()) / max(float(t.max() - t.min()), 1.0)
    img = a[None, None] * (1 - t[..., None]) + b[None, None] * t[..., None]
    return np.clip(img + rng.normal(0, 3, img.shape), 0, 255).astype(np.float32)


def laminate(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    base = np.array(rng.uniform(60, 230, 3), np.float32)
    speck = (rng.random((h, w)) < 0.02).astype(np.float32) * rng.uniform(-40, 40)
    speck = cv2.GaussianBlur(speck, (3, 3), 0)
    img = base[None, None] + speck[..., None] + 8 * smooth_noise(rng, h, w, 6)[..., None]
    return np.clip(img, 0, 255).astype(np.float32)


KINDS = {"wood": (wood, 3.0), "cloth": (cloth, 2.0), "paper": (paper, 1.0),
         "plain": (plain, 1.0), "laminate": (laminate, 1.0)}


def background(rng: np.random.Generator, h: int, w: int, kind: str | None = None) -> np.ndarray:
    """A uint8 BGR background of the given kind (random kind when None)."""
    if kind is None:
        names = list(KINDS)
        p = np.array([KINDS[n][1] for n in names])
        kind = names[int(rng.choice(len(names), p=p / p.sum()))]
    return np.clip(KINDS[kind][0](rng, h, w), 0, 255).astype(np.uint8)
