"""The table watcher: stable views become camera moves; hands, flicker and undo never invent one."""
from __future__ import annotations

import threading

import numpy as np
import pytest
from fastapi.testclient import TestClient

from server.app import create_app
from server.watcher import TableWatcher
from vision.pipeline import Reading


class NoDetector:
    def detect(self, frame, **kw):
        return []


def frame_with(code: int) -> np.ndarray:
    """A grey frame whose first pixel tells the fake reader what is on the table."""
    f = np.full((48, 64, 3), 90, np.uint8)
    f[0, 0] = (code, 0, 0)
    return f


def hand_frame() -> np.ndarray:
    f = frame_with(0)
    f[20:, :30] = (60, 40, 30)  # a sleeved arm reaching in from the edge
    return f


VIEWS = {0: {"face_up": []}, 1: {"face_up": [1, 2, 3, 5]}, 2: {"face_up": [1, 2, 3]}}


class FakeReader:
    """Reads the table from the frame's first pixel (see frame_with)."""

    settle = "whole"
    reread = 1

    def read(self, frame, context):
        return Reading(VIEWS[int(frame[0, 0, 0])], [])


@pytest.fixture
def setup(tmp_path):
    app = create_app(tmp_path / "t.sqlite")
    svc = app.state.tables
    tid = svc.create("quarx", ["Ann", "Ben"], seed=3)
    watcher = TableWatcher(svc, NoDetector, {"quarx": FakeReader()}, required=3)
    watcher.watch(tid)
    return app, svc, tid, watcher


def feed(watcher, frames):
    for f in frames:
        watcher.process(f)


def test_a_stable_view_plays_the_move_as_camera_made(setup):
    app, svc, tid, w = setup
    feed(w, [frame_with(1)] * 2)
    assert svc.snapshot(tid)["history"] == []  # not yet stable
    feed(w, [frame_with(1)])
    snap = svc.snapshot(tid)
    assert snap["sources"] == ["camera"] and snap["to_move"] == ["Ann", "Ben"]
    feed(w, [frame_with(1)] * 10)  # the same table again changes nothing
    assert len(svc.snapshot(tid)["history"]) == 1


def test_flicker_and_hands_break_the_run(setup):
    app, svc, tid, w = setup
    feed(w, [frame_with(1), frame_with(1), hand_frame(), frame_with(1), frame_with(0), frame_with(1), frame_with(1)])
    assert svc.snapshot(tid)["history"] == []
    assert w.status()["state"] == "watching"
    feed(w, [frame_with(1)])
    assert len(svc.snapshot(tid)["history"]) == 1


def test_hand_frames_are_reported_not_read(setup):
    app, svc, tid, w = setup
    feed(w, [frame_with(0)] + [hand_frame()] * 5)
    assert svc.snapshot(tid)["camera"]["state"] == "hand"
    assert svc.snapshot(tid)["history"] == []


def test_undo_of_a_camera_move_is_not_replayed_while_the_table_is_unchanged(setup):
    app, svc, tid, w = setup
    feed(w, [frame_with(1)] * 3)
    svc.undo(tid)
    feed(w, [frame_with(1)] * 10)
    assert svc.snapshot(tid)["history"] == []


class HeldReader(FakeReader):
    """FakeReader that, once `hold` is set, says it has started a read and waits to be let go."""

    def __init__(self):
        self.hold, self.started, self.go = False, threading.Event(), threading.Event()

    def read(self, frame, context):
        if self.hold:
            self.started.set()
            assert self.go.wait(timeout=60)
        return super().read(frame, context)


@pytest.mark.parametrize("then_watch", [None, "again"])
def test_a_frame_read_before_the_watch_changed_plays_nothing(setup, then_watch):
    # The page switches the camera off (or on afresh) while a frame is being read: once the switch
    # has answered, the camera plays no move from what it saw before (the click to undo may follow).
    app, svc, tid, _ = setup
    reader = HeldReader()
    w = TableWatcher(svc, NoDetector, {"quarx": reader}, required=3)
    w.watch(tid)
    feed(w, [frame_with(1)] * 2)
    reader.hold = True
    reading = threading.Thread(target=w.process, args=(frame_with(1),))
    reading.start()
    assert reader.started.wait(timeout=60)
    w.watch(None if then_watch is None else tid)
    reader.go.set()
    reading.join()
    assert svc.snapshot(tid)["history"] == [] and w.applied == 0


def test_unexplained_view_changes_nothing_and_says_so(setup):
    app, svc, tid, w = setup
    feed(w, [frame_with(2)] * 3)
    snap = svc.snapshot(tid)
    assert snap["history"] == [] and "no legal move" in snap["camera"]["detail"]


def test_candidates_are_chosen_with_one_click(setup):
    app, svc, tid, w = setup
    svc.set_candidates(tid, [["reveal 1 1 1 1"], ["reveal 1 1 1 2"]], "2 moves fit")
    with TestClient(base_url="http://127.0.0.1", app=app) as client:
        snap = client.get(f"/api/tables/{tid}").json()
        assert snap["candidates"] == [["reveal 1 1 1 1"], ["reveal 1 1 1 2"]]
        assert client.post(f"/api/tables/{tid}/camera/choose", json={"candidate": 5}).status_code == 409
        snap = client.post(f"/api/tables/{tid}/camera/choose", json={"candidate": 1}).json()
        assert snap["candidates"] == [] and snap["sources"] == ["camera"]


def test_watch_needs_a_camera(tmp_path):
    with TestClient(base_url="http://127.0.0.1", app=create_app(tmp_path / "t.sqlite")) as client:
        r = client.post("/api/camera/watch", json={"table": None})
        assert r.status_code == 409 and "needs a camera" in r.json()["detail"]["reason"]
