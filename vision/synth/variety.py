"""Domain randomisation for the training renderer: looks our first renders never had.

The first detector learned the renderer's own look and found 70% of the dice of an independent
style (`holdout_dice`, test only). More epochs of the same renders made that worse, so these
widen what a training image can look like instead: dice bodies of any hue and lightness, pips
of any colour (light or dark, engraved or painted, large or small), patterned cloths and printed
tablecloths, strong lamp colour, vignetting and glare. Nothing here draws the hold-out style:
its code is separate and it stays for testing only.
"""
from __future__ import annotations

import cv2
import numpy as np

from vision.synth.textures import smooth_noise


def body_colour(rng: np.random.Generator) -> np.ndarray:
    """A die body of any hue, saturation and lightness (BGR float)."""
    hsv = np.uint8([[[rng.integers(0, 180), rng.integers(0, 256), rng.integers(15, 256)]]])
    return cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)[0, 0].astype(np.float32)


def _lightness(bgr: np.ndarray) -> float:
    return float(cv2.cvtColor(np.uint8([[np.clip(bgr, 0, 255)]]), cv2.COLOR_BGR2LAB)[0, 0, 0])


def pip_colour(rng: np.random.Generator, body: np.ndarray) -> tuple[float, float, float]:
    """Pips a die maker would print on this body: any colour that differs enough in lightness."""
    lb = _lightness(body)
    for _ in range(20):
        c = rng.uniform(0, 255, 3).astype(np.float32)
        if rng.random() < 0.5:  # most pips are near white or near black
            c = np.full(3, 235.0 if lb < 128 else 25.0, np.float32) + rng.normal(0, 12, 3)
        if abs(_lightness(c) - lb) > 70:
            return tuple(float(v) for v in np.clip(c, 0, 255))
    return (240.0, 240.0, 240.0) if lb < 128 else (20.0, 20.0, 20.0)


def engrave(colour: tuple[float, ...], depth: float) -> tuple[tuple[float, ...], tuple[float, ...]]:
    """The two tones of a drilled pip: its shadowed wall and its painted floor."""
    c = np.array(colour, np.float32)
    wall = tuple(float(v) for v in np.clip(c * (1 - depth), 0, 255))
    return wall, tuple(float(v) for v in c)


def _stripes(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    base = rng.uniform(40, 240, 3).astype(np.float32)
    ink = rng.uniform(0, 255, 3).astype(np.float32)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    ang = rng.uniform(0, np.pi)
    t = xx * np.cos(ang) + yy * np.sin(ang)
    period, duty = rng.uniform(8, 70), rng.uniform(0.15, 0.6)
    m = ((t / period) % 1.0 < duty).astype(np.float32)
    if rng.random() < 0.5:  # plaid: a second set across, both half strength where they cross
        t2 = -xx * np.sin(ang) + yy * np.cos(ang)
        m = np.clip(0.55 * m + 0.55 * ((t2 / rng.uniform(8, 70)) % 1.0 < duty), 0, 1)
    return base * (1 - m[..., None]) + ink * m[..., None]


def _dots(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    img = np.empty((h, w, 3), np.float32)
    img[:] = rng.uniform(30, 240, 3)
    ink = tuple(float(v) for v in rng.uniform(0, 255, 3))
    step = int(rng.integers(14, 60))
    r = max(2, int(step * rng.uniform(0.12, 0.35)))
    jitter = rng.random() < 0.5
    for y in range(0, h + step, step):
        for x in range((y // step) % 2 * step // 2, w + step, step):
            dx, dy = (rng.normal(0, step * 0.15, 2) if jitter else (0, 0))
            cv2.circle(img, (int(x + dx), int(y + dy)), r, ink, -1, cv2.LINE_AA)
    return img


def _tiles(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    img = np.empty((h, w, 3), np.float32)
    img[:] = rng.uniform(60, 240, 3)
    grout = tuple(float(v) for v in rng.uniform(40, 200, 3))
    step = int(rng.integers(30, 140))
    for k in range(0, max(h, w) + step, step):
        cv2.line(img, (k, 0), (k, h), grout, int(rng.integers(1, 5)))
        cv2.line(img, (0, k), (w, k), grout, int(rng.integers(1, 5)))
    return img * (1 + 0.05 * smooth_noise(rng, h, w, 8)[..., None])


def _print(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    """A printed tablecloth or newspaper: words, rules and blots."""
    img = np.empty((h, w, 3), np.uint8)  # putText draws on 8-bit images only
    img[:] = rng.uniform(150, 250, 3)
    letters = "abcdefghijklmnopqrstuvwxyz0123456789"
    for _ in range(int(rng.integers(10, 60))):
        word = "".join(rng.choice(list(letters), int(rng.integers(2, 9))))
        org = (int(rng.uniform(-20, w)), int(rng.uniform(0, h + 20)))
        cv2.putText(img, word, org, int(rng.choice([0, 1, 2, 3, 4, 6, 7])), rng.uniform(0.5, 3.0),
                    tuple(float(v) for v in rng.uniform(0, 200, 3)), int(rng.integers(1, 4)), cv2.LINE_AA)
    for _ in range(int(rng.integers(0, 8))):
        c = (int(rng.uniform(0, w)), int(rng.uniform(0, h)))
        cv2.ellipse(img, c, (int(rng.uniform(5, 80)), int(rng.uniform(5, 80))), rng.uniform(0, 180), 0, 360,
                    tuple(float(v) for v in rng.uniform(0, 255, 3)), -1, cv2.LINE_AA)
    return img.astype(np.float32)


def _stone(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    base = rng.uniform(60, 240, 3).astype(np.float32)
    vein = rng.uniform(0, 255, 3).astype(np.float32)
    n = smooth_noise(rng, h, w, int(rng.integers(3, 8))) * 4 + smooth_noise(rng, h, w, 20)
    m = np.exp(-np.abs(np.sin(n * np.pi)) * rng.uniform(6, 20))[..., None]
    return base * (1 - m) + vein * m


PATTERNS = (_stripes, _dots, _tiles, _print, _stone)


def pattern(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    """A uint8 BGR patterned table surface, softened as a camera sees cloth."""
    img = PATTERNS[int(rng.integers(len(PATTERNS)))](rng, h, w)
    if rng.random() < 0.5:
        img = cv2.GaussianBlur(img, (0, 0), rng.uniform(0.5, 2.0))
    return np.clip(img, 0, 255).astype(np.uint8)


def lamp(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A coloured lamp (tungsten to daylight to an LED tint), vignetting and a glare spot."""
    h, w = img.shape[:2]
    f = img.astype(np.float32)
    warm = rng.uniform(-1, 1)  # -1 cold daylight .. +1 tungsten
    cast = np.array([1 - 0.3 * warm, 1.0, 1 + 0.25 * warm], np.float32) * rng.uniform(0.85, 1.15, 3)
    f *= cast[None, None]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    cx, cy = rng.uniform(0.2, 0.8) * w, rng.uniform(0.2, 0.8) * h
    d2 = ((xx - cx) ** 2 + (yy - cy) ** 2) / (0.25 * (w * w + h * h))
    f *= (1 - rng.uniform(0, 0.55) * np.clip(d2, 0, 1))[..., None]
    if rng.random() < 0.3:
        gx, gy, gr = rng.uniform(0, w), rng.uniform(0, h), rng.uniform(0.05, 0.3) * w
        glare = np.exp(-((xx - gx) ** 2 + (yy - gy) ** 2) / (2 * gr * gr)) * rng.uniform(40, 140)
        f += glare[..., None]
    return np.clip(f, 0, 255).astype(np.uint8)
