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


# JPEG start-of-frame markers (baseline, progressive, lossless, arithmetic): they carry the size.
_JPEG_SOF = {0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF}


def _jpeg_size(b: bytes) -> tuple[int, int] | None:
    """(width, height) from the first SOF segment, walking the segments by their lengths."""
    i = 2
    while i + 4 <= len(b):
        if b[i] != 0xFF:
            return None
        marker = b[i + 1]
        if marker == 0xFF:  # fill byte
            i += 1
            continue
        if marker in (0x01,) or 0xD0 <= marker <= 0xD7:  # markers without a length
            i += 2
            continue
        if marker == 0xDA or marker == 0xD9:  # scan data or the end before any frame header
            return None
        length = int.from_bytes(b[i + 2:i + 4], "big")
        if marker in _JPEG_SOF:
            if i + 9 > len(b):
                return None
            return int.from_bytes(b[i + 7:i + 9], "big"), int.from_bytes(b[i + 5:i + 7], "big")
        i += 2 + length
    return None


def _webp_size(b: bytes) -> tuple[int, int] | None:
    chunk = b[12:16]
    if chunk == b"VP8X" and len(b) >= 30:
        return 1 + int.from_bytes(b[24:27], "little"), 1 + int.from_bytes(b[27:30], "little")
    if chunk == b"VP8L" and len(b) >= 25:
        bits = int.from_bytes(b[21:25], "little")
        return 1 + (bits & 0x3FFF), 1 + ((bits >> 14) & 0x3FFF)
    if chunk == b"VP8 " and len(b) >= 30:
        return int.from_bytes(b[26:28], "little") & 0x3FFF, int.from_bytes(b[28:30], "little") & 0x3FFF
    return None


def declared_size(b: bytes) -> tuple[int, int] | None:
    """(width, height) an image's header declares (PNG IHDR, JPEG SOF, WebP VP8/VP8L/VP8X, BMP),
    read without decoding; None when the header holds none."""
    if b[:8] == b"\x89PNG\r\n\x1a\n":
        if len(b) < 24 or b[12:16] != b"IHDR":
            return None
        return int.from_bytes(b[16:20], "big"), int.from_bytes(b[20:24], "big")
    if b[:3] == b"\xff\xd8\xff":
        return _jpeg_size(b)
    if b[:4] == b"RIFF" and b[8:12] == b"WEBP":
        return _webp_size(b)
    if b[:2] == b"BM" and len(b) >= 26:
        return int.from_bytes(b[18:22], "little", signed=True), abs(int.from_bytes(b[22:26], "little", signed=True))
    return None


def _check_header(b: bytes) -> None:
    """Refuse, before decoding, an image whose header declares too many pixels (a decompression
    bomb: a 2 MB JPEG can declare 12000x12000) or declares none, and any other format (the
    decoder knows formats, such as TIFF or OpenEXR, whose size we do not check)."""
    size = declared_size(b)
    if size is None:
        raise BadImageError("not a readable image: send a JPEG, PNG, WebP or BMP file")
    w, h = size
    if w <= 0 or h <= 0:
        raise BadImageError(f"not a readable image: its header declares {w}x{h} pixels")
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
