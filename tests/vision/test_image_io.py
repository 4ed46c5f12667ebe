"""Bad input gives a clear BadImageError (a ValueError), never a crash."""
import cv2
import numpy as np
import pytest

from vision.detector import BadImageError, decode_image_bytes, read_image


def test_good_png_round_trip():
    img = np.zeros((20, 30, 3), np.uint8)
    img[5:10, 5:10] = 255
    ok, buf = cv2.imencode(".png", img)
    assert ok and np.array_equal(decode_image_bytes(buf.tobytes()), img)


@pytest.mark.parametrize("data,reason", [
    (b"", "empty"),
    (b"this is not an image at all", "not a readable image"),
    (b"\x89PNG\r\n\x1a\n" + b"\x00\x00\x00\x0dIHDR" + (100000).to_bytes(4, "big") * 2 + b"\x08\x02\x00\x00\x00",
     "too large"),
    (b"\xff\xd8\xff\xe0" + b"\x00" * 100, "not a readable image"),
])
def test_bad_bytes(data, reason):
    with pytest.raises(BadImageError, match=reason):
        decode_image_bytes(data)
    assert issubclass(BadImageError, ValueError)


def test_bad_files(tmp_path):
    with pytest.raises(BadImageError, match="no such file"):
        read_image(tmp_path / "missing.jpg")
    with pytest.raises(BadImageError, match="directory"):
        read_image(tmp_path)
    empty = tmp_path / "empty.jpg"
    empty.write_bytes(b"")
    with pytest.raises(BadImageError, match="empty"):
        read_image(empty)
