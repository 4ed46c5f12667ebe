"""'Check a Quarx count': a photo that is not one gets a 400 with a reason, never a 500."""
from __future__ import annotations

import cv2
import numpy as np
import pytest
from fastapi.testclient import TestClient

from server.app import create_app
from vision.detector.model import Detection
from vision.games.quarx import photo


@pytest.fixture
def client(tmp_path):
    with TestClient(base_url="http://127.0.0.1", app=create_app(tmp_path / "t.sqlite")) as c:
        yield c


@pytest.mark.parametrize("data", [b"", b"not an image at all", b"\x89PNG\r\n\x1a\n" + b"\x00" * 64])
def test_corrupt_photo_is_a_400_with_a_reason(client, data):
    r = client.post("/api/quarx/count", files={"image": ("x.png", data, "image/png")})
    assert r.status_code == 400
    assert r.json()["detail"]["reason"]


def test_missing_file_field_is_a_422(client):
    r = client.post("/api/quarx/count", data={"nothing": "here"})
    assert r.status_code == 422 and "image" in r.json()["detail"]["reason"]


def test_camera_count_without_a_camera_is_a_404(client):
    r = client.post("/api/quarx/count-camera")
    assert r.status_code == 404 and "without a camera" in r.json()["detail"]["reason"]


def test_a_photo_with_no_card_is_unsure_not_a_guess(client):
    """No card seen whole: the count says so (spheres null) and what to do, instead of a number."""
    ok, png = cv2.imencode(".png", np.full((240, 320, 3), (40, 90, 30), np.uint8))
    r = client.post("/api/quarx/count", files={"image": ("table.png", png.tobytes(), "image/png")})
    assert r.status_code == 200
    got = r.json()
    assert got["spheres"] is None and got["cards"] == [] and got["number_cards"] == []
    assert "no Quarx card" in got["sentence"]


def test_a_photo_with_no_card_gets_the_scene_detectors_sure_count(client, monkeypatch):
    """Spheres standing on a table with no card: the count is of the whole picture, and says so."""
    class Scene:
        def count(self, frame, keep_out=()):
            return 3, [Detection("sphere", (10.0 * i, 5.0, 10.0 * i + 8, 13.0), 0.9) for i in range(3)]

    monkeypatch.setattr(photo, "load_scene_spheres", lambda: Scene())
    ok, png = cv2.imencode(".png", np.full((240, 320, 3), (40, 90, 30), np.uint8))
    got = client.post("/api/quarx/count", files={"image": ("table.png", png.tobytes(), "image/png")}).json()
    assert got["spheres"] == 3 and got["cards"] == [] and got["number_cards"] == [2, 1]
    assert got["sentence"] == "3 in the whole picture (no card seen whole) = 2 + 1"
