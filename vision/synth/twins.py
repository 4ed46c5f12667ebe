"""Rendered twins of a user's die: the training renderer's cube drawn in the die's own measured
colours on a patch of the user's own table, at values, sizes and tilts the photo does not show.

Teaching (`vision.teach`) fits its value layer on the few dice a user photographs; twins give it
every value of each die, smaller and more tilted than the photos hold it.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from vision.synth import effects
from vision.synth.cube import CubePose, draw_cube, draw_pips, outline, side_values

Box = tuple[float, float, float, float]
MAX_TILT = np.radians(35)
SMALLEST = 10.0  # px: no twin's face is drawn smaller
PATCH_TRIES = 30


@dataclass(frozen=True)
class Twin:
    """One drawn die: the picture and its top face's box (x1, y1, x2, y2) in it."""

    image: np.ndarray
    box: Box
    value: int


def _overlaps(win: Box, boxes: list[Box]) -> bool:
    x1, y1, x2, y2 = win
    return any(x1 < b[2] and b[0] < x2 and y1 < b[3] and b[1] < y2 for b in boxes)


def table_patch(rng: np.random.Generator, frame: np.ndarray, avoid: list[Box], size: int) -> np.ndarray:
    """A size x size window of `frame` that overlaps none of `avoid` (the labelled dice, grown by
    a tenth), at the photo's own scale; the frame's median colour where no window is free."""
    h, w = frame.shape[:2]
    grown = [(b[0] - 0.1 * (b[2] - b[0]), b[1] - 0.1 * (b[3] - b[1]),
              b[2] + 0.1 * (b[2] - b[0]), b[3] + 0.1 * (b[3] - b[1])) for b in avoid]
    if size < w and size < h:
        for _ in range(PATCH_TRIES):
            x, y = int(rng.integers(0, w - size)), int(rng.integers(0, h - size))
            if not _overlaps((x, y, x + size, y + size), grown):
                return frame[y:y + size, x:x + size].copy()
    med = np.median(frame.reshape(-1, 3), 0)
    return np.broadcast_to(med.astype(np.uint8), (size, size, 3)).copy()


def draw_twin(rng: np.random.Generator, background: np.ndarray, body: np.ndarray, pip: np.ndarray,
              value: int, side: float) -> Twin:
    """A die of `body` and `pip` colour (BGR) showing `value`, its top face `side` px across,
    drawn at the middle of `background` (square, at least 3 x side). The lamp is set so that the
    top face comes out in the measured colour."""
    img = background.copy()
    c = img.shape[0] / 2
    pose = CubePose(c, c, side, float(rng.uniform(0, 2 * np.pi)), float(rng.uniform(0, MAX_TILT)))
    light = np.array([rng.uniform(-0.4, 0.4), rng.uniform(-0.4, 0.4), 1.0])
    light /= np.linalg.norm(light)
    ambient = float(rng.uniform(0.5, 0.75))
    lit_top = ambient + (1 - ambient) * light[2]
    effects.shadow(img, outline(pose), rng.uniform(-0.15, 0.15, 2) * side, float(rng.uniform(0.2, 0.5)),
                   side * float(rng.uniform(0.05, 0.25)))
    pip_r = float(rng.uniform(0.08, 0.12))
    swap = bool(rng.random() < 0.5)
    sides = side_values(rng, value)
    pip_bgr = tuple(float(v) for v in pip)

    def decorate(canvas, face, i):
        draw_pips(canvas, face, value if face.is_top else sides[i % 4], pip_bgr, pip_r, swap)

    top = draw_cube(img, pose, np.clip(body / lit_top, 0, 255).astype(np.float32), light, ambient, decorate)
    sigma = float(rng.uniform(0.0, 0.9))
    if sigma > 0.3:
        img = effects.defocus(img, rng, sigma)
    img = effects.noise(img, rng) if rng.random() < 0.5 else img
    (x1, y1), (x2, y2) = top.min(0), top.max(0)
    return Twin(img, (float(x1), float(y1), float(x2), float(y2)), value)


def twins_of(rng: np.random.Generator, frame: np.ndarray, box: Box, body: np.ndarray, pip: np.ndarray,
             avoid: list[Box], count: int) -> list[Twin]:
    """`count` twins of the die boxed `box` in `frame`, values 1-6 in turn from a random start,
    each at half to the whole of the die's own size, on the photo's table away from `avoid`."""
    own = max(box[2] - box[0], box[3] - box[1])
    first = int(rng.integers(6))
    out = []
    for k in range(count):
        side = max(SMALLEST, own * float(rng.uniform(0.5, 1.0)))
        size = int(np.ceil(side * 3)) + 8
        out.append(draw_twin(rng, table_patch(rng, frame, avoid, size), body, pip, (first + k) % 6 + 1, side))
    return out
