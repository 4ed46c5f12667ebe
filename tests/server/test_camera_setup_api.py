"""The set-up wizard's API: cameras listed and previewed, switched, checked, a test reading, saved per camera."""
from __future__ import annotations

import base64
import json
import time

import cv2
import numpy as np
import pytest
from fastapi.testclient import TestClient

from server import camera_settings
from server.app import create_app
from server.camera_sources import list_sources, resolve, webcam_name
from vision.sources import DEMO_DIR, SourceSpec
from tests.server.camera_app import make_app, wait_for_picture


def board_frame() -> np.ndarray:
    cap = cv2.VideoCapture(str(DEMO_DIR / "quarx_rounds.mp4"))
    cap.set(cv2.CAP_PROP_POS_FRAMES, 70)
    ok, frame = cap.read()
    cap.release()
    assert ok
    return frame


def client_for(app):
    return TestClient(base_url="http://127.0.0.1", app=app)


def test_webcams_are_probed_within_a_bound_and_named(tmp_path):
    asked = []

    def probe(i):
        asked.append(i)
        return np.zeros((4, 4, 3), np.uint8) if i == 1 else None

    (tmp_path / "video1").mkdir()
    (tmp_path / "video1" / "name").write_text("USB Camera\n")
    choices = list_sources(SourceSpec("demo", "demo", False), probe=probe, max_webcams=1000)
    assert asked == list(range(16))  # never more than the module's bound, whatever the caller asks
    assert [c.id for c in choices][:2] == ["webcam:1", "demo"]
    assert next(c for c in choices if c.id == "demo").in_use
    assert {c.id for c in choices} >= {"clip:quarx_rounds.mp4", "clip:diceline_round.mp4", "clip:ubongo_area.mp4"}
    assert webcam_name(1, tmp_path) == "camera 1: USB Camera" and webcam_name(2, tmp_path) == "camera 2"
    # The webcam in use is listed without opening it a second time.
    asked.clear()
    choices = list_sources(SourceSpec("webcam", "0", True), probe=probe, max_webcams=2)
    assert asked == [1] and choices[0].id == "webcam:0" and choices[0].in_use


def test_only_listed_ids_resolve():
    assert resolve("clip:quarx_rounds.mp4", None).target.endswith("quarx_rounds.mp4")
    assert resolve("webcam:2", None) == SourceSpec("webcam", "2", True)
    for bad in ("clip:../../etc/passwd", "webcam:99", "webcam:-1", "/etc/passwd", "file:x"):
        with pytest.raises(ValueError):
            resolve(bad, None)


def test_sources_preview_switch_and_back(tmp_path):
    with client_for(make_app(tmp_path, board_frame())) as client:
        wait_for_picture(client)
        data = client.get("/api/camera/sources").json()
        assert data["current"] == "current" and any(s["id"] == "clip:ubongo_area.mp4" for s in data["sources"])
        pic = client.get("/api/camera/preview.jpg", params={"source": "clip:ubongo_area.mp4"})
        assert pic.status_code == 200 and pic.content[:2] == b"\xff\xd8"
        assert client.get("/api/camera/preview.jpg", params={"source": "current"}).status_code == 200
        bad = client.get("/api/camera/preview.jpg", params={"source": "clip:nope.mp4"})
        assert bad.status_code == 400 and "no bundled clip" in bad.json()["detail"]["reason"]
        r = client.post("/api/camera/source", json={"source": "clip:ubongo_area.mp4"})
        assert r.status_code == 200 and r.json()["camera"].startswith("video:")
        for _ in range(500):
            if client.get("/api/camera/status").json()["source"].startswith("video:"):
                break
            time.sleep(0.01)
        assert client.get("/api/camera/sources").json()["current"] == "clip:ubongo_area.mp4"
        assert client.post("/api/camera/source", json={"source": "../x"}).status_code == 400


def test_check_reading_and_settings_saved_per_camera(tmp_path):
    frame = board_frame()
    with client_for(make_app(tmp_path, frame)) as client:
        wait_for_picture(client)
        assert client.get("/api/camera/settings").json()["set_up"] is False
        check = client.get("/api/camera/check").json()
        assert [f["aspect"] for f in check["findings"]] == ["resolution", "focus", "exposure", "framing"]
        assert check["width"] == 640 and check["height"] == 480
        r = client.post("/api/camera/test-reading", json={"game": "quarx"})
        assert r.status_code == 200, r.text
        got = r.json()
        assert got["said"][0].startswith("Quarx cards")
        assert base64.b64decode(got["picture"].split(",", 1)[1])[:2] == b"\xff\xd8"
        assert client.post("/api/camera/test-reading", json={"game": "dreams"}).status_code == 409
        assert client.post("/api/camera/test-reading", json={"game": "quarx", "players": ["A\u202eB"]}).status_code == 400
        saved = client.post("/api/camera/settings", json={"set_up": True, "game": "quarx", "check": check}).json()
        assert saved["set_up"] and saved["camera"].startswith("folder:")
        assert client.post("/api/camera/settings", json={"game": "chess"}).status_code == 400
        assert client.post("/api/camera/settings", json={"check": {"x": "y" * 9000}}).status_code == 400
    with client_for(make_app(tmp_path, frame)) as client:  # a restart keeps it
        assert client.get("/api/camera/settings").json()["game"] == "quarx"


def test_focus_names_the_game_of_the_table_page(tmp_path):
    with client_for(make_app(tmp_path, board_frame())) as client:
        tid = client.post("/api/tables", json={"game": "ubongo", "players": ["Ann", "Ben"]}).json()["id"]
        assert client.post("/api/camera/focus", json={"table": tid}).json() == {"game": "ubongo"}
        assert client.app.state.watcher.focus_game == "ubongo"
        assert client.post("/api/camera/focus", json={"table": "nope"}).status_code == 404
        assert client.post("/api/camera/focus", json={"table": None}).json() == {"game": None}


def test_another_origin_cannot_switch_the_camera(tmp_path):
    with client_for(make_app(tmp_path, board_frame())) as client:
        r = client.post("/api/camera/source", json={"source": "demo"}, headers={"Origin": "http://evil.example"})
        assert r.status_code == 403


def test_without_a_camera_the_wizard_is_told_why(tmp_path):
    with client_for(create_app(tmp_path / "t.sqlite")) as client:
        r = client.post("/api/camera/source", json={"source": "demo"})
        assert r.status_code == 409 and "without a camera" in r.json()["detail"]["reason"]
        assert client.get("/api/camera/settings").json()["set_up"] is False


def test_damaged_settings_mean_set_up_again():
    class Meta(dict):
        def get_meta(self, k):
            return self.get(k)

        def set_meta(self, k, v):
            self[k] = v

    store = Meta()
    store[camera_settings.key("webcam:0")] = "{not json"
    assert camera_settings.load(store, "webcam:0").set_up is False
    camera_settings.save(store, "webcam:0", camera_settings.CameraSettings("webcam:0", True, None, "ubongo"))
    assert json.loads(store[camera_settings.key("webcam:0")])["game"] == "ubongo"
