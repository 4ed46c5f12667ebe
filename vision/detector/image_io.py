"""Decoding images from bytes or files with clear errors for bad input."""
from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from vision.detector.errors import BadImageError

# OpenCV prints its own decoder warnings to stderr; our error message says it once, clearly.
try:
    cv2.utils.logging.setLogLevel(cv2.utils.logging.LOG_LEVEL_SILENT)
except AttributeError:  # builds without the logging module
    pass

MAX_BYTES = 40 * 1024 * 1024
MAX_PIXELS = 50_000_000  # a 50 MP photo; beyond that decoding alone could exhaust memory


def _check_header(b: bytes) -> None:
    """Refuse images whose declared size is huge before decoding them (decompression bombs)."""
    if b[:8] == b"\x89PNG\r\n\x1a\n" and len(b) >= 24:
        w, h = int.from_bytes(b[16:20], "big"), int.from_bytes(b[20:24], "big")
        if w * h > MAX_PIXELS:
            raise BadImageError(f"image too large: {w}x{h} pixels (limit {MAX_PIXELS:,})")


def decode_image_bytes(data: bytes) -> np.ndarray:
    """Decode encoded image bytes (JPEG, PNG, ...) to a BGR frame; BadImageError says why not."""
    if not data:
        raise BadImageError("empty input: 0 bytes")
    if len(data) > MAX_BYTES:
        raise BadImageError(f"image too large: {len(data):,} bytes (limit {MAX_BYTES:,})")
    _check_header(data)
    img = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    if img is None or img.size == 0:
        raise BadImageError("not a readable image (unknown format or corrupt data)")
    if img.shape[0] * img.shape[1] > MAX_PIXELS:
        raise BadImageError(f"image too large: {img.shape[1]}x{img.shape[0]} pixels")
    return img


def read_image(path: str | Path) -> np.ndarray:
    """Read an image file to a BGR frame; BadImageError (a ValueError) says what is wrong."""
    p = Path(path)
    if not p.exists():
        raise BadImageError(f"{p}: no such file")
    if p.is_dir():
        raise BadImageError(f"{p}: is a directory, not an image")
    try:
        size = p.stat().st_size
        if size > MAX_BYTES:
            raise BadImageError(f"{p}: image too large: {size:,} bytes (limit {MAX_BYTES:,})")
        data = p.read_bytes()
    except OSError as e:
        raise BadImageError(f"{p}: cannot read: {e.strerror or e}") from None
    try:
        return decode_image_bytes(data)
    except BadImageError as e:
        raise BadImageError(f"{p}: {e}") from None
