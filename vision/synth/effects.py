"""Camera and light effects: colour cast, uneven light, blur, noise, JPEG."""
from __future__ import annotations

import cv2
import numpy as np

from vision.synth.textures import smooth_noise


def light(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    h, w = img.shape[:2]
    f = img.astype(np.float32)
    cast = rng.uniform(0.8, 1.15, 3).astype(np.float32)
    if rng.random() < 0.35:  # the cold bluish indoor light of the real webcam photos
        cast = np.array([rng.uniform(1.0, 1.15), rng.uniform(0.95, 1.05), rng.uniform(0.8, 0.95)], np.float32)
    gain = rng.uniform(0.6, 1.25)
    field = 1.0 + rng.uniform(0.0, 0.35) * smooth_noise(rng, h, w, 2)
    return np.clip(f * cast * gain * field[..., None], 0, 255).astype(np.uint8)


def motion_length(rng: np.random.Generator, max_len: int) -> int:
    """A motion blur's length in px, drawn as `motion_blur` draws it."""
    return int(rng.integers(3, max(4, max_len)))


def motion_blur(img: np.ndarray, rng: np.random.Generator, max_len: int, length: int | None = None) -> np.ndarray:
    """Blur along a line of `length` px (drawn when None) at a random angle."""
    n = motion_length(rng, max_len) if length is None else length
    k = np.zeros((n, n), np.float32)
    k[n // 2, :] = 1.0
    rot = cv2.getRotationMatrix2D((n / 2 - 0.5, n / 2 - 0.5), rng.uniform(0, 180), 1.0)
    k = cv2.warpAffine(k, rot, (n, n))
    return cv2.filter2D(img, -1, k / max(k.sum(), 1e-6))


def defocus_sigma(rng: np.random.Generator) -> float:
    """A defocus blur's Gaussian sigma in px, drawn as `defocus` draws it."""
    return float(rng.uniform(0.8, 2.5))


def defocus(img: np.ndarray, rng: np.random.Generator, sigma: float | None = None) -> np.ndarray:
    """Gaussian blur of `sigma` px (drawn when None)."""
    s = defocus_sigma(rng) if sigma is None else sigma
    return cv2.GaussianBlur(img, (0, 0), s)


def noise(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    sigma = rng.uniform(1, 9)
    return np.clip(img.astype(np.float32) + rng.normal(0, sigma, img.shape), 0, 255).astype(np.uint8)


def jpeg(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    q = int(rng.integers(25, 95))
    ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, q])
    return cv2.imdecode(buf, cv2.IMREAD_COLOR) if ok else img


def shadow(img: np.ndarray, poly: np.ndarray, offset: np.ndarray, strength: float, blur: float) -> None:
    """Darken a soft, offset copy of an object's footprint (in place)."""
    x0, y0 = np.floor(np.minimum(poly.min(0), poly.min(0) + offset)).astype(int) - int(3 * blur) - 2
    x1, y1 = np.ceil(np.maximum(poly.max(0), poly.max(0) + offset)).astype(int) + int(3 * blur) + 2
    h, w = img.shape[:2]
    x0, y0, x1, y1 = max(0, x0), max(0, y0), min(w, x1), min(h, y1)
    if x1 <= x0 or y1 <= y0:
        return
    m = np.zeros((y1 - y0, x1 - x0), np.float32)
    cv2.fillPoly(m, [np.round(poly + offset - [x0, y0]).astype(np.int32)], 1.0, cv2.LINE_AA)
    m = cv2.GaussianBlur(m, (0, 0), max(0.5, blur))
    roi = img[y0:y1, x0:x1].astype(np.float32)
    img[y0:y1, x0:x1] = np.clip(roi * (1 - strength * m[..., None]), 0, 255).astype(np.uint8)
