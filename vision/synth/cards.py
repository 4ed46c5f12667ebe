"""Flat printed things: Quarx cards, number cards, Diceline bonus tiles; and their placement."""
from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from vision.synth import shapes
from vision.synth.palette import CARD_COLOURS, SHAPE_COLOURS


@dataclass
class FlatArt:
    """A card's picture, its alpha, and labelled circles (spheres) in its own pixels."""

    image: np.ndarray
    alpha: np.ndarray
    spheres: list[tuple[float, float, float]] = field(default_factory=list)


def rounded_alpha(h: int, w: int, r: int) -> np.ndarray:
    a = np.zeros((h, w), np.uint8)
    cv2.rectangle(a, (r, 0), (w - 1 - r, h - 1), 255, -1)
    cv2.rectangle(a, (0, r), (w - 1, h - 1 - r), 255, -1)
    for x, y in ((r, r), (w - 1 - r, r), (r, h - 1 - r), (w - 1 - r, h - 1 - r)):
        cv2.circle(a, (x, y), r, 255, -1, cv2.LINE_AA)
    return a.astype(np.float32) / 255.0


def quarx_card(rng: np.random.Generator, n_spheres: int, w: int = 240, h: int = 340) -> FlatArt:
    """A light card with n shaded spheres among other shapes and tiny bubbles."""
    bg = np.array(rng.uniform([215, 215, 215], [255, 255, 255]), np.float32)
    if rng.random() < 0.3:
        bg = np.array(rng.uniform([190, 200, 210], [240, 250, 255]), np.float32)
    img = np.empty((h, w, 3), np.uint8)
    img[:] = np.clip(bg, 0, 255)
    if rng.random() < 0.5:
        cv2.rectangle(img, (6, 6), (w - 7, h - 7), tuple(float(v) for v in bg * 0.7), 2)
    light = np.array([rng.uniform(-0.6, 0.6), rng.uniform(-0.8, -0.2), 0.0], np.float32)
    light[2] = np.sqrt(max(0.05, 1 - light[0] ** 2 - light[1] ** 2))
    placed: list[tuple[float, float, float]] = []
    n_distract = int(rng.integers(1, 7))
    kinds = ["sphere"] * n_spheres + [str(rng.choice(shapes.DISTRACTORS)) for _ in range(n_distract)]
    rng.shuffle(kinds)
    spheres: list[tuple[float, float, float]] = []
    big = max(1, len(kinds))
    rmax = float(np.clip(0.6 * np.sqrt(w * h / big) / 2, 9, 40))
    for kind in kinds:
        for _ in range(60):
            r = rng.uniform(max(7.0, rmax * 0.45), rmax)
            cx, cy = rng.uniform(r + 10, w - r - 10), rng.uniform(r + 10, h - r - 10)
            if all(np.hypot(cx - px, cy - py) > (r + pr) * 1.02 for px, py, pr in placed):
                break
        else:
            if kind == "sphere":
                raise RuntimeError("no room")  # caller retries with a different seed
            continue
        placed.append((cx, cy, r))
        col = SHAPE_COLOURS[int(rng.integers(len(SHAPE_COLOURS)))]
        if kind == "sphere":
            shapes.sphere(img, cx, cy, r, col, light, spec=rng.uniform(0.3, 0.9))
            spheres.append((cx, cy, r))
        elif kind == "torus":
            shapes.torus(img, cx, cy, r * 0.95, col, rng, tuple(img[int(cy), int(cx)].tolist()))
        else:
            getattr(shapes, kind)(img, cx, cy, r * 0.9, col, rng)
    for _ in range(int(rng.integers(0, 30))):  # bubbles: must not be counted as spheres
        r = rng.uniform(1.5, 5.0)
        cx, cy = rng.uniform(4, w - 4), rng.uniform(4, h - 4)
        if any(np.hypot(cx - px, cy - py) < pr + r for px, py, pr in spheres):
            continue
        shapes.sphere(img, cx, cy, r, (235, 215, 190), light, alpha=0.15, spec=0.8, rim=0.7)
    return FlatArt(img, rounded_alpha(h, w, 12), spheres)


def number_card(rng: np.random.Generator, value: int, w: int = 160, h: int = 230) -> FlatArt:
    """A player-coloured card with a big number 1, 2, 4, 8 or 16."""
    name = list(CARD_COLOURS)[int(rng.integers(len(CARD_COLOURS)))]
    col = np.array(CARD_COLOURS[name], np.float32) * rng.uniform(0.85, 1.1)
    img = np.empty((h, w, 3), np.uint8)
    img[:] = np.clip(col, 0, 255)
    cv2.rectangle(img, (8, 8), (w - 9, h - 9), (245, 245, 245), 3)
    txt = str(value)
    scale = 3.2 if len(txt) == 1 else 2.3
    (tw, th), _ = cv2.getTextSize(txt, cv2.FONT_HERSHEY_DUPLEX, scale, 6)
    cv2.putText(img, txt, ((w - tw) // 2, (h + th) // 2), cv2.FONT_HERSHEY_DUPLEX, scale,
                (250, 250, 250), 6, cv2.LINE_AA)
    for x, y in ((14, 34), (w - 40, h - 14)):
        cv2.putText(img, txt, (x, y), cv2.FONT_HERSHEY_SIMPLEX, 0.8, (250, 250, 250), 2, cv2.LINE_AA)
    return FlatArt(img, rounded_alpha(h, w, 10))


def bonus_tile(rng: np.random.Generator, side: int = 90) -> FlatArt:
    """A Diceline bonus tile: one of four face types or the 'BONUS TILE' back."""
    kind = int(rng.integers(5))
    base = [(60, 170, 230), (200, 200, 200), (80, 80, 200), (120, 180, 90), (70, 50, 40)][kind]
    img = np.empty((side, side, 3), np.uint8)
    img[:] = base
    cv2.rectangle(img, (4, 4), (side - 5, side - 5), (30, 30, 30), 2)
    c = side // 2
    if kind == 0:    # extra VP
        cv2.putText(img, "+2", (c - 26, c + 14), cv2.FONT_HERSHEY_DUPLEX, 1.3, (20, 20, 20), 3, cv2.LINE_AA)
    elif kind == 1:  # die symbol
        cv2.rectangle(img, (c - 22, c - 22), (c + 22, c + 22), (250, 250, 250), -1)
        for dx, dy in ((-11, -11), (11, 11), (0, 0)):
            cv2.circle(img, (c + dx, c + dy), 4, (20, 20, 20), -1, cv2.LINE_AA)
    elif kind == 2:  # star
        pts = [(c + 30 * np.cos(np.pi / 2 + k * 4 * np.pi / 5), c - 30 * np.sin(np.pi / 2 + k * 4 * np.pi / 5))
               for k in range(5)]
        cv2.fillPoly(img, [np.round(pts).astype(np.int32)], (40, 220, 250), cv2.LINE_AA)
    elif kind == 3:  # arrow
        cv2.arrowedLine(img, (c - 28, c), (c + 28, c), (250, 250, 250), 6, cv2.LINE_AA, tipLength=0.4)
    else:            # back
        cv2.putText(img, "BONUS", (8, c - 4), cv2.FONT_HERSHEY_SIMPLEX, 0.75, (230, 230, 230), 2, cv2.LINE_AA)
        cv2.putText(img, "TILE", (16, c + 24), cv2.FONT_HERSHEY_SIMPLEX, 0.75, (230, 230, 230), 2, cv2.LINE_AA)
    return FlatArt(img, rounded_alpha(side, side, 6))


def table_homography(cx: float, cy: float, scale: float, yaw: float, tilt: float,
                     persp: float, w: int, h: int) -> np.ndarray:
    """Maps a flat w x h picture lying on the table to the screen (centred at cx, cy)."""
    t = np.array([[1, 0, -w / 2], [0, 1, -h / 2], [0, 0, 1]], np.float64)
    c, s = np.cos(yaw), np.sin(yaw)
    rot = np.array([[c, -s, 0], [s, c, 0], [0, 0, 1]], np.float64)
    squash = np.diag([scale, scale * np.cos(tilt), 1.0])
    p = np.array([[1, 0, 0], [0, 1, 0], [0, persp, 1]], np.float64)
    move = np.array([[1, 0, cx], [0, 1, cy], [0, 0, 1]], np.float64)
    return move @ p @ squash @ rot @ t


def paste(canvas: np.ndarray, art: FlatArt, hom: np.ndarray) -> None:
    """Warp the art onto the canvas with its alpha (in place)."""
    hh, ww = canvas.shape[:2]
    warped = cv2.warpPerspective(art.image, hom, (ww, hh), flags=cv2.INTER_LINEAR)
    a = cv2.warpPerspective(art.alpha, hom, (ww, hh), flags=cv2.INTER_LINEAR)
    ys, xs = np.nonzero(a > 0)
    if len(xs) == 0:
        return
    x0, x1, y0, y1 = xs.min(), xs.max() + 1, ys.min(), ys.max() + 1
    aa = a[y0:y1, x0:x1, None]
    canvas[y0:y1, x0:x1] = np.clip(canvas[y0:y1, x0:x1] * (1 - aa) + warped[y0:y1, x0:x1] * aa,
                                   0, 255).astype(np.uint8)


def warp_points(hom: np.ndarray, pts: np.ndarray) -> np.ndarray:
    return cv2.perspectiveTransform(pts.reshape(-1, 1, 2).astype(np.float64), hom).reshape(-1, 2)


def circle_polygon(cx: float, cy: float, r: float) -> np.ndarray:
    t = np.linspace(0, 2 * np.pi, 16, endpoint=False)
    return np.stack([cx + r * np.cos(t), cy + r * np.sin(t)], 1)
