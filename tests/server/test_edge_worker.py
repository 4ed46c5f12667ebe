"""Issue 17: edge camera workers. A worker reads the table next to the webcam and sends the server
its state, stable views and picture, authenticated with the table's camera token; the server
plays the moves. On the bundled Quarx footage a worker plays the demo through two server
processes on one PostgreSQL database, through a lost answer and a killed server, and no move is
played twice."""
from __future__ import annotations

import json

import cv2
import pytest
from fastapi.testclient import TestClient

from server.app import create_app
from server.edge_worker import CameraWorker, LinkDown, LinkRefused, ServerLink
from tests.server.test_cafe import LiveClient, call, logged
from vision.detector.profile import DiceProfile
from vision.games.readers import READERS
from vision.sources import DEMO_DIR, demo_clip

LOCAL = "http://127.0.0.1"
QUARX = {"game": "quarx", "players": ["Ann", "Ben"], "seed": 1}


@pytest.fixture
def client(tmp_path):
    with TestClient(base_url=LOCAL, app=create_app(tmp_path / "t.sqlite")) as c:
        yield c


def test_only_the_tables_creator_is_shown_its_camera_token(client):
    made = client.post("/api/tables", json=QUARX).json()
    tid, creator = made["id"], made["creator_token"]
    assert "camera_token" not in json.dumps(client.get(f"/api/tables/{tid}").json())
    assert client.post(f"/api/tables/{tid}/camera/token").status_code == 403
    assert client.post(f"/api/tables/{tid}/camera/token", headers={"X-Creator-Token": "0" * 64}).status_code == 403
    other = client.post("/api/tables", json=QUARX).json()
    assert client.post(f"/api/tables/{tid}/camera/token", headers={"X-Creator-Token": other["creator_token"]}).status_code == 403
    evil = {"X-Creator-Token": creator, "Origin": "http://evil.example"}
    assert client.post(f"/api/tables/{tid}/camera/token", headers=evil).status_code == 403  # another site's page
    assert client.post(f"/api/tables/{tid}/camera/token", headers={"X-Creator-Token": creator, "Host": "evil.example"}).status_code == 400
    shown = client.post(f"/api/tables/{tid}/camera/token", headers={"X-Creator-Token": creator}).json()
    assert len(shown["token"]) == 64 and f"--table {tid}" in shown["command"]
    other_token = client.post(f"/api/tables/{other['id']}/camera/token", headers={"X-Creator-Token": other["creator_token"]}).json()["token"]
    assert other_token != shown["token"]


def test_worker_calls_need_the_tables_camera_token_and_bounded_input(client):
    made = client.post("/api/tables", json=QUARX).json()
    tid = made["id"]
    token = client.post(f"/api/tables/{tid}/camera/token", headers={"X-Creator-Token": made["creator_token"]}).json()["token"]
    status = {"state": "watching"}
    assert client.post(f"/api/tables/{tid}/worker/status", json=status).status_code == 403
    assert client.post(f"/api/tables/{tid}/worker/status", json=status, headers={"X-Camera-Token": "f" * 64}).status_code == 403
    assert client.post("/api/tables/nope/worker/status", json=status, headers={"X-Camera-Token": token}).status_code == 404
    ok = client.post(f"/api/tables/{tid}/worker/status", json=status, headers={"X-Camera-Token": token})
    assert ok.json() == {"game": "quarx", "players": ["Ann", "Ben"], "hide_counts": False,
                         "waiting": "turn over 4 Quarx cards and spread them apart"}
    cam = client.get(f"/api/tables/{tid}").json()["camera"]
    assert cam["worker"] and cam["state"] == "watching" and "token" not in json.dumps(cam)
    auth = {"X-Camera-Token": token}
    assert client.put(f"/api/tables/{tid}/worker/picture", content=b"not a jpeg", headers=auth).status_code == 400
    big = b"\xff\xd8\xff" + b"0" * (1024 * 1024)
    assert client.put(f"/api/tables/{tid}/worker/picture", content=big, headers=auth).status_code == 413
    ok, jpeg = cv2.imencode(".jpg", cv2.UMat(48, 64, cv2.CV_8UC3).get())
    assert client.put(f"/api/tables/{tid}/worker/picture", content=jpeg.tobytes(), headers=auth).status_code == 204
    assert client.get(f"/api/tables/{tid}/camera/frame.jpg").content == jpeg.tobytes()
    r = client.post(f"/api/tables/{tid}/worker/views", json={"view_id": "v1", "view": {"face_up": "many"}}, headers=auth)
    assert r.status_code == 422 and r.json()["detail"]["rule"] == "table view"
    assert client.get(f"/api/tables/{tid}").json()["version"] == 0  # a bad view changes nothing
    client.post(f"/api/tables/{tid}/moves", json={"move": "reveal 1 2 3 4"})
    counting = client.post(f"/api/tables/{tid}/worker/status", json=status, headers=auth).json()
    assert counting["hide_counts"] and counting["waiting"].startswith("lay your number cards")  # the worker's picture hides them


class FlakyLink(ServerLink):
    """The real link, except that, once armed, the server's answer to the next view that plays a move
    never arrives (the server did play it)."""

    armed = False
    lost: list[str] = []

    def call(self, method, path, body=None):
        answer = super().call(method, path, body)
        if self.armed and path == "/worker/views" and answer["moves"]:
            self.armed, self.lost = False, [body["view_id"]]
            raise LinkDown("the answer was lost")
        return answer


def test_an_edge_worker_plays_the_quarx_demo_through_the_central_servers(pg_dsn, server_factory):
    clip = demo_clip(DEMO_DIR / "quarx_rounds.mp4")
    car = clip.sidecar
    a, b = server_factory(pg_dsn).start(), server_factory(pg_dsn).start()
    try:
        made = call(f"{b.url}/api/tables", {"game": "quarx", "players": car["players"], "seed": car["seed"]})[1]
        tid = made["id"]
        token = call_token(b.url, tid, made["creator_token"])
        page = LiveClient(b.url, tid)  # the table's page, on the process the worker does not talk to
        link = FlakyLink(a.url, tid, token)
        worker = CameraWorker(link, READERS, detector=None, picture_every=0.0)
        with pytest.raises(LinkRefused):
            CameraWorker(ServerLink(a.url, tid, "0" * 64), READERS).flush()  # a wrong token is refused in words
        assert worker.flush()
        assert page.wait_until(lambda snap: snap["camera"].get("worker"))["camera"]["worker"]

        video = cv2.VideoCapture(str(clip.path))
        frame_no, offline_flushes, clicks = 0, 0, 0
        script = car["moves"]
        while True:
            ok, frame = video.read()
            if not ok:
                break
            worker.process(frame)
            if frame_no == 60:
                link.armed = True
            if frame_no == 150:
                a.kill()  # the worker's server dies mid-game: the next views wait in the worker's outbox
            if frame_no == 175:
                waited = worker.status()["outbox"]
                a.start()  # ... and comes back on the same address
            if not worker.flush():
                offline_flushes += 1
            # A person at the table answers the camera's question (on the page, served by B).
            done = len(logged(pg_dsn, tid))
            for i, cand in enumerate(call(f"{b.url}/api/tables/{tid}")[1]["candidates"]):
                if script[done:done + len(cand)] == cand:
                    call(f"{b.url}/api/tables/{tid}/camera/choose", {"candidate": i})
                    clicks += 1
                    worker.flush()
            frame_no += 1
        while not worker.flush():  # the last views, once the server answers
            pass
        events = logged(pg_dsn, tid)
        with_ids = [mid for _, _, mid in events if mid]
        assert len(with_ids) == len(set(with_ids))  # no move played twice
        final = call(f"{b.url}/api/tables/{tid}")[1]
        assert final["sources"] == ["camera"] * len(script)
        assert [e[1] for e in events] == ["move"] * len(script)
        assert final["scores"] == {"Ann": 3, "Ben": 3} or final["over"] is False
        assert page.wait_for(final["version"])["history"] == final["history"]
        # The full log (the shared screen hides answers) is the script: every move by the camera.
        assert full_log(pg_dsn, tid) == script
        assert link.lost and worker.status()["repeated"] >= 1  # the lost answer's view was sent again, and played nothing
        assert offline_flushes >= 1 and waited >= 1 and clicks >= 1
        assert page.wait_for(final["version"])["camera"]["state"] in ("watching", "ask")
        page.close()
    finally:
        a.stop()
        b.stop()


def has_picture(base: str, tid: str) -> bool:
    import urllib.error
    import urllib.request

    try:
        with urllib.request.urlopen(f"{base}/api/tables/{tid}/camera/frame.jpg", timeout=60) as r:
            return r.read(3) == b"\xff\xd8\xff"
    except urllib.error.HTTPError:
        return False


def call_token(base: str, tid: str, creator: str) -> str:
    import urllib.request

    req = urllib.request.Request(f"{base}/api/tables/{tid}/camera/token", b"{}",
                                 {"Content-Type": "application/json", "X-Creator-Token": creator})
    return json.loads(urllib.request.urlopen(req, timeout=60).read())["token"]


def full_log(dsn: str, tid: str) -> list[str]:
    import psycopg

    with psycopg.connect(dsn) as conn:
        return [r[0] for r in conn.execute("SELECT text FROM events WHERE table_id=%s AND kind='move' ORDER BY seq", (tid,))]


def test_the_camera_command_reports_to_the_server_and_refuses_a_wrong_token(server_process):
    """`tablesight camera` as a person runs it: a wrong token stops it with the reason; the right one
    puts its state and picture on the table's page."""
    import os
    import signal
    import subprocess
    import sys
    import time

    from tests.conftest import ROOT

    url = server_process.url
    made = call(f"{url}/api/tables", QUARX)[1]
    tid = made["id"]
    token = call_token(url, tid, made["creator_token"])
    cmd = [sys.executable, "-m", "server.cli", "camera", "--server", url, "--table", tid,
           "--source", str(DEMO_DIR / "quarx_rounds.mp4"), "--no-detector"]
    wrong = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=120,
                           env={**os.environ, "TABLESIGHT_CAMERA_TOKEN": "0" * 64})
    assert wrong.returncode == 2 and "refused" in wrong.stderr and "Traceback" not in wrong.stderr, wrong.stderr
    worker = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                              env={**os.environ, "TABLESIGHT_CAMERA_TOKEN": token})
    try:
        for _ in range(600):  # readiness by polling
            cam = call(f"{url}/api/tables/{tid}")[1]["camera"]
            if cam.get("worker") and cam.get("source", "").startswith("video:") and has_picture(url, tid):
                break
            assert worker.poll() is None, worker.stderr.read().decode()
            time.sleep(0.2)
        else:
            raise AssertionError("the worker never reported")
        assert cam["state"] in ("watching", "hand", "ask")
    finally:
        worker.send_signal(signal.SIGINT)
        assert worker.wait(timeout=60) == 0


class RecordingReader:
    settle = "whole"
    reread = 1

    def __init__(self):
        self.contexts = []

    def read(self, frame, context):
        from vision.pipeline import Reading

        self.contexts.append(context)
        return Reading({"face_up": []}, None)


class OfflineThenBack(ServerLink):
    """A server that does not answer until `up`, then answers like a Quarx table."""

    def __init__(self):
        super().__init__("http://127.0.0.1:9", "t", "token")
        self.up, self.views = False, []

    def call(self, method, path, body=None):
        if not self.up:
            raise LinkDown("no route to host")
        if path == "/worker/views":
            self.views.append(body["view_id"])
            return {"status": "nothing", "state": "watching", "detail": "", "moves": [], "candidates": []}
        return {"game": "quarx", "players": ["Ann", "Ben"]} if path == "/worker/status" else None


def test_a_worker_reads_with_its_calibration_and_waits_for_the_server():
    from vision.calibration import from_clicks

    reader, link = RecordingReader(), OfflineThenBack()
    cal = from_clicks([(0, 0), (63, 0), (63, 47), (0, 47)])
    profile = DiceProfile("0" * 16, conf=0.1)
    worker = CameraWorker(link, {"quarx": reader}, required=2, calibration=cal, profile=profile)
    frame = cv2.UMat(48, 64, cv2.CV_8UC3).get() * 0 + 90
    assert not worker.flush() and worker.status()["state"] == "offline"
    link.up = True
    assert worker.flush() and worker.status()["state"] == "watching"
    for _ in range(3):
        worker.process(frame)
    link.up = False
    assert not worker.flush() and worker.status()["outbox"] == 1  # the stable view waits
    link.up = True
    assert worker.flush() and worker.status()["outbox"] == 0 and len(link.views) == 1
    assert all(c.calibration is cal and c.players == ("Ann", "Ben") for c in reader.contexts)
    assert reader.contexts and all(c.profile is profile for c in reader.contexts)  # this camera's taught dice


def test_the_camera_command_stops_in_words_on_a_profile_it_cannot_use(tmp_path, capsys, monkeypatch):
    from server.cli import main

    monkeypatch.setenv("TABLESIGHT_CAMERA_TOKEN", "0" * 64)
    code = main(["camera", "--server", "http://127.0.0.1:9", "--table", "t", "--no-detector",
                 "--profile", str(tmp_path / "nope.json")])
    err = capsys.readouterr().err
    assert code == 2 and err.startswith("tablesight camera: no dice profile at"), err
