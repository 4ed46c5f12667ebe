"""\"Teach it your dice\" over the API: photos from the camera and uploads, corrections, bounded
counts, learning in a worker thread, the profile saved per camera and used by the reader, and
`serve --profile` refusing a profile it cannot use.

The value model is the shipped models/die_values.onnx when installed, else a tiny stand-in
(tests/value_model_standin.py): these tests check the flow, not the accuracy.
"""
from __future__ import annotations

import json
import stat
import time
from pathlib import Path

import cv2
import numpy as np
import pytest
from fastapi.testclient import TestClient

import server.teaching as teaching
from server.app import create_app
from server.cli import main
from server.dice_profile import profile_path
from tests.value_model_standin import value_model_path
from vision.detector.dice import DieReading
from vision.detector.die_values import load_value_model
from vision.detector.profile import DiceProfile
from vision.sources import FrameSource, parse_source

ROOT = Path(__file__).resolve().parents[2]
DICE_PHOTOS = [ROOT / "datasets" / "samples" / n for n in ("real_valid_45.jpg", "real_valid_48.jpg", "synthetic_dice_4242_6.jpg")]
LOCAL = "http://127.0.0.1"


@pytest.fixture
def value_model(tmp_path, monkeypatch):
    """The value model teaching uses (the shipped one, else the stand-in; skipped without either).
    Tests without it read with the pip counter, as the server does when no value model is installed."""
    path = value_model_path(tmp_path)
    monkeypatch.setenv("TABLESIGHT_VALUE_MODEL", str(path))
    return load_value_model()


def camera_app(tmp_path, photo: Path = DICE_PHOTOS[0]):
    folder = tmp_path / "frames"
    folder.mkdir(exist_ok=True)
    cv2.imwrite(str(folder / "f.png"), cv2.imread(str(photo)))
    return create_app(tmp_path / "t.sqlite", source=FrameSource(parse_source(str(folder))), detector=False)


def wait_for_picture(client):
    while client.get("/api/camera/status").json()["frames"] == 0:  # the folder source starts at once
        time.sleep(0.01)


def upload(client, path: Path | None = None, data: bytes | None = None, name: str = "photo.jpg"):
    body = data if data is not None else path.read_bytes()
    return client.post("/api/teach/photos/upload", files={"image": (name, body, "image/jpeg")})


def say_every_value(client, photo: dict, value: int = 3) -> None:
    """The user says the value of every die the reader was unsure of."""
    for d in photo["dice"]:
        if d["value"] is None:
            r = client.patch(f"/api/teach/photos/{photo['id']}/dice/{d['id']}", json={"value": value})
            assert r.status_code == 200, r.text


def test_photos_from_the_camera_and_from_an_upload_get_proposed_dice(tmp_path):
    with TestClient(base_url=LOCAL, app=camera_app(tmp_path)) as client:
        wait_for_picture(client)
        r = client.post("/api/teach/photos/camera")
        assert r.status_code == 201, r.text
        photo = r.json()
        assert photo["name"] == "camera" and (photo["width"], photo["height"]) == (640, 480)
        assert photo["dice"], "the reader proposes the dice it sees"
        for d in photo["dice"]:
            assert set(d) >= {"id", "box", "value", "colour", "proposed", "added"} and d["added"] is False
            assert d["value"] in (None, 1, 2, 3, 4, 5, 6)
        image = client.get(f"/api/teach/photos/{photo['id']}/image.jpg")
        assert image.status_code == 200 and image.content[:3] == b"\xff\xd8\xff"

        r = upload(client, DICE_PHOTOS[1])
        assert r.status_code == 201 and r.json()["id"] == photo["id"] + 1
        bad = upload(client, data=b"not an image at all")
        assert bad.status_code == 400 and "not a readable image" in bad.json()["detail"]["reason"]
        assert len(client.get("/api/teach").json()["photos"]) == 2


def test_without_a_camera_the_camera_photo_is_a_404_in_words(tmp_path):
    with TestClient(base_url=LOCAL, app=create_app(tmp_path / "t.sqlite", detector=False)) as client:
        r = client.post("/api/teach/photos/camera")
        assert r.status_code == 404 and "upload a photo" in r.json()["detail"]["reason"]
        assert client.get("/api/teach/photos/1/image.jpg").status_code == 404


def test_correct_add_and_remove_dice(tmp_path):
    with TestClient(base_url=LOCAL, app=create_app(tmp_path / "t.sqlite", detector=False)) as client:
        photo = upload(client, DICE_PHOTOS[0]).json()
        pid, first = photo["id"], photo["dice"][0]
        url = f"/api/teach/photos/{pid}/dice"
        r = client.patch(f"{url}/{first['id']}", json={"value": 5, "colour": " Mustard "})
        assert r.status_code == 200 and (r.json()["value"], r.json()["colour"]) == (5, "mustard")
        assert r.json()["proposed"]["value"] == first["value"], "what the reader proposed is kept beside it"
        r = client.patch(f"{url}/{first['id']}", json={"colour": None})
        assert (r.json()["value"], r.json()["colour"]) == (5, None), "a field left out stays as it is"

        for body in ({"value": 7}, {"value": "4"}, {"colour": "two words"}):
            r = client.patch(f"{url}/{first['id']}", json=body)
            assert r.status_code == 422 and r.json()["detail"]["reason"], body
        assert client.patch(f"{url}/999", json={"value": 2}).status_code == 404
        assert client.patch(f"/api/teach/photos/999/dice/{first['id']}", json={"value": 2}).status_code == 404

        added = client.post(url, json={"box": [300, 50, 340, 90], "value": 2, "colour": "red"})
        assert added.status_code == 201 and added.json()["added"] and added.json()["proposed"]["value"] is None
        tiny = client.post(url, json={"box": [10, 10, 12, 12], "value": 2})
        assert tiny.status_code == 422 and tiny.json()["detail"]["rule"] == "teaching"
        outside = client.post(url, json={"box": [5000, 5000, 6000, 6000], "value": 2})
        assert outside.status_code == 422

        assert client.delete(f"{url}/{first['id']}").status_code == 200
        dice = client.get("/api/teach").json()["photos"][0]["dice"]
        assert first["id"] not in [d["id"] for d in dice] and added.json()["id"] in [d["id"] for d in dice]
        assert client.delete(f"{url}/{first['id']}").status_code == 404
        assert client.delete(f"/api/teach/photos/{pid}").status_code == 200
        assert client.get("/api/teach").json()["photos"] == []


def test_counts_are_bounded_with_a_reason(tmp_path):
    blank = cv2.imencode(".png", np.full((64, 64, 3), 90, np.uint8))[1].tobytes()
    with TestClient(base_url=LOCAL, app=create_app(tmp_path / "t.sqlite", detector=False)) as client:
        for _ in range(teaching.MAX_PHOTOS):
            assert upload(client, data=blank, name="blank.png").status_code == 201
        r = upload(client, data=blank, name="blank.png")
        assert r.status_code == 409 and f"at most {teaching.MAX_PHOTOS} photos" in r.json()["detail"]["reason"]
        assert r.json()["detail"]["rule"] == "teaching"

        pid = client.get("/api/teach").json()["photos"][0]["id"]
        for k in range(teaching.MAX_DICE):
            x = (k % 6) * 10
            assert client.post(f"/api/teach/photos/{pid}/dice", json={"box": [x, 0, x + 8, 8], "value": 1}).status_code == 201
        r = client.post(f"/api/teach/photos/{pid}/dice", json={"box": [0, 0, 8, 8], "value": 1})
        assert r.status_code == 413 and f"at most {teaching.MAX_DICE} dice" in r.json()["detail"]["reason"]


def test_a_big_photo_is_kept_scaled_down(tmp_path):
    big = cv2.imencode(".jpg", np.full((2400, 4000, 3), 90, np.uint8))[1].tobytes()
    with TestClient(base_url=LOCAL, app=create_app(tmp_path / "t.sqlite", detector=False)) as client:
        photo = upload(client, data=big).json()
        assert max(photo["width"], photo["height"]) == teaching.MAX_SIDE


def test_learning_needs_photos_and_every_value_said(tmp_path, monkeypatch):
    unsure = DieReading(None, "white", (100.0, 100.0, 140.0, 140.0), 0.8, 3, None)
    monkeypatch.setattr(teaching, "read_dice", lambda *a, **kw: [unsure])
    with TestClient(base_url=LOCAL, app=create_app(tmp_path / "t.sqlite", detector=False)) as client:
        r = client.post("/api/teach/learn")
        assert r.status_code == 409 and "at least 2 photos" in r.json()["detail"]["reason"]
        first = upload(client, DICE_PHOTOS[0]).json()
        assert first["dice"][0]["value"] is None and first["dice"][0]["colour"] == "white"
        upload(client, DICE_PHOTOS[1])
        r = client.post("/api/teach/learn")
        assert r.status_code == 409 and "unsure die" in r.json()["detail"]["reason"]
        assert "photo 1: 1, photo 2: 1" in r.json()["detail"]["reason"]


def test_learning_without_the_value_model_is_a_503_in_words(tmp_path):
    app = create_app(tmp_path / "t.sqlite", detector=False, teach_tools=lambda: (teaching.default_tools()[0], None))
    with TestClient(base_url=LOCAL, app=app) as client:
        for path in DICE_PHOTOS[:2]:
            say_every_value(client, upload(client, path).json())
        r = client.post("/api/teach/learn")
        assert r.status_code == 503 and "die value model" in r.json()["detail"]["reason"]


def test_learn_shows_before_and_after_and_saves_the_profile_per_camera(tmp_path, value_model):
    app = camera_app(tmp_path)
    with TestClient(base_url=LOCAL, app=app) as client:
        for path in DICE_PHOTOS:
            say_every_value(client, upload(client, path).json())
        r = client.post("/api/teach/learn")
        assert r.status_code == 202 and r.json()["learn"]["state"] == "running"
        app.state.teaching.wait()
        learn = client.get("/api/teach").json()["learn"]
        assert learn["state"] == "done" and learn["progress"] == 1.0, learn
        result = learn["result"]
        assert result["summary"].startswith("held out photo by photo: ")
        assert " right before, " in result["summary"] and " wrong before, " in result["summary"]
        assert result["kept"] in ("taught", "shipped") and result["before"]["dice"] == result["after"]["dice"]
        saved = profile_path(tmp_path / "t.sqlite", app.state.teaching.camera)
        assert saved.is_file() == result["activated"]
        if result["activated"]:
            assert stat.S_IMODE(saved.stat().st_mode) == 0o600
            assert client.get("/api/teach").json()["profile"]["origin"] == "taught on the page"


def _taught(model_sha: str, kept: str, colours: bool) -> DiceProfile:
    head = (np.zeros((7, 64), np.float32), np.array([-5, 5, 0, 0, 0, 0, 0], np.float32))
    report = {"photos": 3, "dice": 9, "kept": kept, "colours_kept": colours,
              "held_out_before": {"dice": 9, "right": 5, "wrong": 1}, "held_out_after": {"dice": 9, "right": 8, "wrong": 0},
              "message": "stand-in", "layer": "taught", "conf": 0.15, "rule": {"pip_check": False, "sure": 0.8}}
    return DiceProfile(model_sha, head if kept == "taught" else None, {"mustard": [70.0, 5.0, 60.0]} if colours else {},
                       0.15 if kept == "taught" else None, report)


def test_a_taught_profile_is_saved_owner_only_and_used_by_the_reader_now_and_after_a_restart(tmp_path, value_model, monkeypatch):
    monkeypatch.setattr(teaching, "teach", lambda photos, det, model, progress=None: _taught(model.digest, "taught", True))
    seen = []
    real_read = teaching.read_dice
    monkeypatch.setattr(teaching, "read_dice", lambda *a, **kw: seen.append(kw.get("profile")) or real_read(*a, **kw))
    app = camera_app(tmp_path)
    with TestClient(base_url=LOCAL, app=app) as client:
        for path in DICE_PHOTOS[:2]:
            say_every_value(client, upload(client, path).json())
        assert seen == [None, None]
        assert client.post("/api/teach/learn").status_code == 202
        app.state.teaching.wait()
        learn = client.get("/api/teach").json()["learn"]
        assert learn["result"]["kept"] == "taught" and learn["result"]["activated"]
        assert learn["result"]["summary"] == "held out photo by photo: 5 of 9 right before, 8 of 9 after; 1 wrong before, 0 after"
        assert "the classifier alone when it is at least 80% sure" in learn["result"]["message"]
        active = app.state.profiles.get()
        assert active is not None and active.conf == 0.15
        upload(client, DICE_PHOTOS[2])
        assert seen[-1] is active, "the next reading uses the taught profile"
        assert app.state.watcher.profiles is app.state.profiles, "hands-free readers are offered the same profile"
    saved = profile_path(tmp_path / "t.sqlite", app.state.teaching.camera)
    assert stat.S_IMODE(saved.stat().st_mode) == 0o600 and json.loads(saved.read_text())["conf"] == 0.15

    again = camera_app(tmp_path)
    assert again.state.profiles.describe()["origin"] == "saved for this camera"
    assert again.state.profiles.get().colours == {"mustard": [70.0, 5.0, 60.0]}
    again.state.tables.store.close()


def _learn_from_two_photos(client: TestClient, app) -> dict:
    """Upload two photos, say every die's value, learn, wait: the page's "learn" state."""
    for path in DICE_PHOTOS[:2]:
        say_every_value(client, upload(client, path).json())
    client.post("/api/teach/learn")
    app.state.teaching.wait()
    return client.get("/api/teach").json()["learn"]


def test_teaching_that_does_not_help_keeps_the_reader_in_use_and_says_so(tmp_path, value_model, monkeypatch):
    monkeypatch.setattr(teaching, "teach", lambda photos, det, model, progress=None: _taught(model.digest, "shipped", False))
    app = create_app(tmp_path / "t.sqlite", detector=False)
    with TestClient(base_url=LOCAL, app=app) as client:
        result = _learn_from_two_photos(client, app)["result"]
        assert result["kept"] == "shipped" and not result["activated"]
        assert result["message"].startswith("Kept the shipped reader")
        assert app.state.profiles.get() is None and not app.state.teaching.profile_file.exists()


def test_a_failed_learning_ends_in_words(tmp_path, value_model, monkeypatch):
    def refuse(photos, det, model, progress=None):
        raise teaching.TeachError("too few dice to teach from (2 labelled): add photos")

    monkeypatch.setattr(teaching, "teach", refuse)
    app = create_app(tmp_path / "t.sqlite", detector=False)
    with TestClient(base_url=LOCAL, app=app) as client:
        learn = _learn_from_two_photos(client, app)
        assert learn["state"] == "failed" and "too few dice" in learn["message"]


@pytest.mark.parametrize("problem", ["missing", "corrupt", "other model"])
def test_serve_with_a_profile_it_cannot_use_stops_with_a_clear_error(tmp_path, capsys, problem, request):
    path = tmp_path / "profile.json"
    if problem != "missing":
        request.getfixturevalue("value_model")
    if problem == "corrupt":
        path.write_text("{not json")
    elif problem == "other model":
        _taught("0123456789abcdef", "taught", False).save(path)
    code = main(["serve", "--profile", str(path), "--source", "none", "--db", str(tmp_path / "t.sqlite")])
    err = capsys.readouterr().err
    assert code == 2 and err.startswith("tablesight serve: ")
    expected = {"missing": "no dice profile at", "corrupt": "is not a readable dice profile",
                "other model": "was taught on value model 0123456789abcdef"}[problem]
    assert expected in err, err


def test_a_profile_given_at_start_is_the_active_one(tmp_path):
    app = create_app(tmp_path / "t.sqlite", detector=False, profile=_taught("0123456789abcdef", "taught", True))
    try:
        assert app.state.profiles.describe()["origin"] == "command line"
    finally:
        app.state.tables.store.close()


def test_teaching_changes_from_another_origin_are_refused(tmp_path):
    with TestClient(base_url=LOCAL, app=create_app(tmp_path / "t.sqlite", detector=False)) as client:
        evil = {"Origin": "http://evil.example"}
        for method, path in (("POST", "/api/teach/learn"), ("PATCH", "/api/teach/photos/1/dice/1"),
                             ("DELETE", "/api/teach/photos/1"), ("POST", "/api/teach/photos/camera")):
            r = client.request(method, path, headers=evil, json={"value": 2})
            assert r.status_code == 403 and r.json()["detail"]["rule"] == "same origin", (method, path)
