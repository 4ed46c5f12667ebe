"""The demo: bundled clips with sidecars, played through the live camera path with the demo typing for the players."""
from __future__ import annotations

import json
import time

import numpy as np
import pytest
from fastapi.testclient import TestClient

from server.app import create_app
from server.evaluation.demo_footage import Sidecar, rehearse, write_clip
from vision.sources import (
    DEMO_DIR,
    DemoCapture,
    FrameSource,
    demo_clip,
    demo_clips,
    parse_source,
)


def wait_until(cond, what: str):
    # Readiness polling with a generous bound: a loaded machine is slow; this is not a speed check.
    for _ in range(3000):
        if cond():
            return
        time.sleep(0.01)
    raise AssertionError(f"never happened: {what}")


def test_sidecar_round_trip(tmp_path):
    car = Sidecar("diceline", ["Ann", "Ben"], 7, setup=["a", "b"], typed=[{"frame": 3, "move": "done", "index": 1}],
                  moves=["x", "done"], shown_by=[2, 3], calibration=None)
    frames = [np.full((48, 64, 3), 10 * i, np.uint8) for i in range(6)]
    written = write_clip(frames, car, tmp_path / "diceline_round.mp4")
    assert written.frames == 6 and written.size == [64, 48]
    data = json.loads((tmp_path / "diceline_round.json").read_text())
    assert Sidecar.from_json(data) == written
    clip = demo_clip(tmp_path / "diceline_round.mp4")
    assert clip.game == "diceline" and clip.frames == 6 and clip.sidecar == data
    assert clip.info()["players"] == ["Ann", "Ben"]


def test_clip_without_sidecar_takes_its_game_from_the_name(tmp_path):
    write_clip([np.zeros((48, 64, 3), np.uint8)] * 3, Sidecar("x", [], 0), tmp_path / "quarx_rounds.mp4")
    (tmp_path / "quarx_rounds.json").unlink()
    (clip,) = demo_clips(tmp_path)
    assert clip.game == "quarx" and clip.sidecar is None and clip.info()["players"] is None


def test_bundled_clips():
    games = {c.game: c for c in demo_clips(DEMO_DIR)}
    assert {"diceline", "ubongo", "quarx"} <= set(games)
    for game in ("diceline", "ubongo"):
        car = games[game].sidecar
        assert car["frames"] == games[game].frames and len(car["shown_by"]) == len(car["moves"])
        assert all(car["moves"][t["index"]] == t["move"] for t in car["typed"])
    assert games["ubongo"].sidecar["calibration"] is not None


def test_demo_capture_plays_a_clip_once_in_lockstep_then_all_in_turn():
    clips = demo_clips(DEMO_DIR)
    cap = DemoCapture(clips, lockstep_wait=0.01)
    cap.play("ubongo")
    ok, frame = cap.read()
    assert ok and cap.locate(frame) == ("ubongo", 0) and cap.position()["mode"] == "once"
    cap.ack("ubongo", 0)
    ok, frame = cap.read()
    assert cap.locate(frame) == ("ubongo", 1) and cap.locate(frame.copy()) is None
    for _ in range(cap.clip_for("ubongo").frames):
        cap.read()
    assert cap.position()["mode"] == "cycle" and cap.position()["game"] != "ubongo"
    assert cap.follow("quarx").game == "quarx" and cap.position()["mode"] == "loop"
    cap.release()


@pytest.mark.parametrize("game", ["ubongo", "diceline"])
def test_the_driver_plays_the_bundled_clip_through_the_watcher(game):
    clip = next(c for c in demo_clips(DEMO_DIR) if c.game == game)
    r = rehearse(clip.path)
    car = clip.sidecar
    setup = len(car["setup"])
    assert r.wrong == [], f"camera invented moves: {r.wrong}"
    assert r.history == car["setup"] + car["moves"]
    assert set(r.sources[:setup]) <= {"page"} and set(r.sources[setup:]) <= {"camera", "demo"}
    typed = {t["index"] for t in car["typed"]}
    for i, (move, source) in enumerate(zip(r.history[setup:], r.sources[setup:])):
        if i in typed:
            assert source == "demo", f"{move} shows on no table: the demo types it"
    # The bundled seeds: the camera reads every move the table shows; the demo types only the unseen ones.
    assert r.missed == []
    assert len(r.camera) == len(car["moves"]) - len(typed)
    if game == "diceline":
        assert r.scores_by_camera, "the Diceline clip has a scoring move the camera makes"


def test_demo_needs_the_demo_source(tmp_path):
    with TestClient(base_url="http://127.0.0.1", app=create_app(tmp_path / "t.sqlite")) as c:
        res = c.post("/api/demo/diceline", json={})
        assert res.status_code == 409 and "demo" in res.json()["detail"]["reason"]
        listed = c.get("/api/demo").json()
        assert listed["available"] is False and {x["game"] for x in listed["clips"]} >= {"diceline", "ubongo", "quarx"}


def test_demo_refused_with_a_real_camera(tmp_path):
    import cv2

    folder = tmp_path / "cam"
    folder.mkdir()
    cv2.imwrite(str(folder / "a.png"), np.zeros((48, 64, 3), np.uint8))
    app = create_app(tmp_path / "t.sqlite", source=FrameSource(parse_source(str(folder)), fps=30), detector=False)
    with TestClient(base_url="http://127.0.0.1", app=app) as c:
        res = c.post("/api/demo/ubongo", json={})
        assert res.status_code == 409 and "bundled demo" in res.json()["detail"]["reason"]


def test_demo_api_starts_a_watched_table(tmp_path):
    app = create_app(tmp_path / "t.sqlite", source=FrameSource(parse_source("demo"), fps=30), detector=False)
    with TestClient(base_url="http://127.0.0.1", app=app) as c:
        wait_until(lambda: c.get("/api/demo").json()["available"], "the demo capture")
        listed = c.get("/api/demo").json()
        clips = {x["game"]: x for x in listed["clips"]}
        assert clips["diceline"]["players"] == ["Ann", "Ben", "Cat"] and clips["diceline"]["frames"] > 100
        assert clips["quarx"]["players"] == ["Ann", "Ben"] and clips["quarx"]["sidecar"]
        car = next(x for x in demo_clips(DEMO_DIR) if x.game == "ubongo").sidecar
        res = c.post("/api/demo/ubongo", json={})
        assert res.status_code == 201
        tid = res.json()["table"]
        assert c.get("/api/camera/status").json()["watcher"]["table"] == tid
        assert c.get("/api/camera/calibration").json()["calibration"] is None  # the clip's is not saved
        # The footage plays: the camera (or, where it cannot, the demo) makes the script's first move.
        wait_until(lambda: c.get(f"/api/tables/{tid}").json()["history"][:1] == car["moves"][:1], "the first roll")
        assert c.get("/api/demo").json()["run"]["table"] == tid
        assert c.post("/api/demo/nosuchgame", json={}).status_code == 404
        quarx = c.post("/api/demo/quarx", json={"players": ["Zed", "Yan"]}).json()
        assert quarx["snapshot"]["players"] == ["Ann", "Ben"]  # a clip with a sidecar plays its own players
        assert c.get("/api/camera/status").json()["watcher"]["table"] == quarx["table"]
