"""Decompression bombs (issue 12, item 3): the size an image declares is read from its header and
checked before anything is decoded, for every format we accept; other formats are refused."""
from __future__ import annotations

import cv2
import numpy as np
import pytest
from fastapi.testclient import TestClient

from server.app import create_app
from vision.detector import BadImageError, decode_image_bytes
from vision.detector import image_io


def encoded(ext: str, params=()) -> bytes:
    img = np.random.default_rng(1).integers(0, 255, (40, 60, 3), dtype=np.uint8)
    ok, buf = cv2.imencode(ext, img, list(params))
    assert ok
    return buf.tobytes()


def jpeg_declaring(width: int, height: int) -> bytes:
    """A real small JPEG whose frame header (SOF) claims another size, as in the reported bomb."""
    data = bytearray(encoded(".jpg"))
    i = 2
    while data[i + 1] not in (0xC0, 0xC2):
        i += 2 + int.from_bytes(data[i + 2:i + 4], "big")
    data[i + 5:i + 7] = height.to_bytes(2, "big")
    data[i + 7:i + 9] = width.to_bytes(2, "big")
    return bytes(data) + b"\x00" * 2_000_000  # 2 MB, as reported


def webp_declaring(width: int, height: int) -> bytes:
    head = b"RIFF" + (1000).to_bytes(4, "little") + b"WEBPVP8X" + (10).to_bytes(4, "little") + b"\x00" * 4
    return head + (width - 1).to_bytes(3, "little") + (height - 1).to_bytes(3, "little") + b"\x00" * 1000


@pytest.fixture
def no_decoding(monkeypatch):
    def refuse(*a, **k):
        raise AssertionError("decoded before the size was checked")
    monkeypatch.setattr(image_io.cv2, "imdecode", refuse)


@pytest.mark.parametrize("data", [jpeg_declaring(12000, 12000), webp_declaring(16000, 16000)], ids=["jpeg", "webp"])
def test_a_bomb_is_refused_from_its_header(no_decoding, data):
    with pytest.raises(BadImageError, match="too large: 1[26]000x1[26]000"):
        decode_image_bytes(data)


def test_other_formats_are_refused_before_decoding(no_decoding):
    tiff = b"II*\x00" + b"\x00" * 100
    with pytest.raises(BadImageError, match="JPEG, PNG, WebP or BMP"):
        decode_image_bytes(tiff)


@pytest.mark.parametrize("ext,params", [(".jpg", ()), (".jpg", (cv2.IMWRITE_JPEG_PROGRESSIVE, 1)), (".png", ()),
                                        (".webp", ()), (".webp", (cv2.IMWRITE_WEBP_QUALITY, 101)), (".bmp", ())])
def test_every_accepted_format_declares_its_true_size(ext, params):
    data = encoded(ext, params)
    assert image_io.declared_size(data) == (60, 40)
    assert decode_image_bytes(data).shape[:2] == (40, 60)


def test_the_photo_endpoint_refuses_the_bomb(tmp_path, no_decoding):
    with TestClient(base_url="http://127.0.0.1", app=create_app(tmp_path / "t.sqlite", detector=False)) as c:
        r = c.post("/api/quarx/count", files={"image": ("bomb.jpg", jpeg_declaring(12000, 12000), "image/jpeg")})
        assert r.status_code == 400 and "too large" in r.json()["detail"]["reason"]
