"""Issue 12, items 9-11 and the SIGKILL loop: the event log is private, single-server, and its
failures are said in words; killed servers lose no acknowledged move."""
from __future__ import annotations

import http.client
import json
import os
import secrets
import sqlite3
import stat
import subprocess
import sys
import threading
import urllib.error
import urllib.request

import pytest
from fastapi.testclient import TestClient

from server.app import create_app
from server.store import EventStore, StoreError, StoreInUse, new_table_id
from tests.conftest import ROOT, free_port

LOCAL = "http://127.0.0.1"
QUARX = {"game": "quarx", "players": ["Ann", "Ben", "Cid"], "seed": 5}


def serve(db, *extra) -> subprocess.CompletedProcess:
    """`tablesight serve` that is expected to refuse to start (it returns at once)."""
    cmd = [sys.executable, "-m", "server.cli", "serve", "--port", str(free_port()), "--db", str(db),
           "--source", "none", "--no-detector", *extra]
    return subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=120)


# -- 9. owner only -------------------------------------------------------------------------------
def test_the_db_and_its_wal_are_owner_only(tmp_path):
    db = tmp_path / "new" / "events.sqlite"
    with TestClient(base_url=LOCAL, app=create_app(db)) as c:
        c.post("/api/tables", json=QUARX)
        for path in (db, db.with_name("events.sqlite-wal"), db.with_name("events.sqlite-shm")):
            if path.exists():
                assert stat.S_IMODE(path.stat().st_mode) == 0o600, path
    old = tmp_path / "old.sqlite"
    sqlite3.connect(old).close()
    os.chmod(old, 0o644)  # made by an older server
    EventStore(old).close()
    assert stat.S_IMODE(old.stat().st_mode) == 0o600


# -- 10. one server per db -----------------------------------------------------------------------
def test_a_second_server_on_the_same_db_refuses_to_start(tmp_path, server_factory):
    srv = server_factory(tmp_path / "events.sqlite").start()
    try:
        second = serve(srv.db)
        assert second.returncode == 2
        assert "another TableSight server" in second.stderr and f"pid {srv.proc.pid}" in second.stderr
        assert "Traceback" not in second.stderr
    finally:
        srv.stop()
    store = EventStore(tmp_path / "x.sqlite")
    with pytest.raises(StoreInUse):
        EventStore(tmp_path / "x.sqlite")
    store.close()
    EventStore(tmp_path / "x.sqlite").close()  # free again once the first has closed


# -- 11. damaged, read-only, full --------------------------------------------------------------------
def test_a_corrupt_db_is_named_at_start_up(tmp_path):
    db = tmp_path / "garbage.sqlite"
    db.write_bytes(b"this is not SQLite at all" * 400)
    r = serve(db)
    assert r.returncode == 2 and "damaged" in r.stderr and "Traceback" not in r.stderr, r.stderr


def test_a_truncated_db_is_named_at_start_up(tmp_path):
    db = tmp_path / "events.sqlite"
    with TestClient(base_url=LOCAL, app=create_app(db)) as c:
        for _ in range(40):
            tid = c.post("/api/tables", json=QUARX).json()["id"]
            for _ in range(5):
                c.post(f"/api/tables/{tid}/moves", json={"move": "random"})
    data = db.read_bytes()
    db.write_bytes(data[: len(data) // 2])
    r = serve(db)
    assert r.returncode == 2 and "damaged" in r.stderr and "Traceback" not in r.stderr, r.stderr


def _break_store(client, pragma: str):
    store = client.app.state.tables.store
    with store._lock:
        store._db.execute(pragma)


def test_a_full_disk_answers_503_in_words_and_loses_nothing(tmp_path):
    with TestClient(base_url=LOCAL, app=create_app(tmp_path / "events.sqlite")) as c:
        tid = c.post("/api/tables", json=QUARX).json()["id"]
        store = c.app.state.tables.store
        pages = store._db.execute("PRAGMA page_count").fetchone()[0]
        _break_store(c, f"PRAGMA max_page_count={pages}")  # no room to grow, as on a full disk
        for n in range(2000):  # fill what room is left in the last page
            r = c.post("/api/tables", json={**QUARX, "players": [f"{n:032d}", "B" * 32]})
            if r.status_code != 201:
                break
        assert r.status_code == 503, r.text
        assert r.json()["detail"]["rule"] == "event log" and "disk is full" in r.json()["detail"]["reason"]
        for _ in range(2000):  # moves and undos, until one finds no room either
            before = c.get(f"/api/tables/{tid}").json()
            r = c.post(f"/api/tables/{tid}/undo") if before["history"] else c.post(f"/api/tables/{tid}/moves", json={"move": "random"})
            if r.status_code != 200:
                break
        assert r.status_code == 503 and "disk is full" in r.json()["detail"]["reason"], r.text
        assert c.get(f"/api/tables/{tid}").json() == before  # the refused change left the table as it was
        assert len(c.get("/api/tables").json()) == n + 1  # and the refused table was not kept


def test_a_read_only_db_answers_503_in_words(tmp_path):
    with TestClient(base_url=LOCAL, app=create_app(tmp_path / "events.sqlite")) as c:
        tid = c.post("/api/tables", json=QUARX).json()["id"]
        _break_store(c, "PRAGMA query_only=ON")
        r = c.post(f"/api/tables/{tid}/moves", json={"move": "random"})
        assert r.status_code == 503 and "read-only" in r.json()["detail"]["reason"], r.text
        assert c.get(f"/api/tables/{tid}").json()["version"] == 0


def test_an_unopenable_db_path_is_named(tmp_path):
    (tmp_path / "file").write_text("x")
    with pytest.raises(StoreError, match="cannot be opened|event log"):
        EventStore(tmp_path / "file" / "events.sqlite")


# -- the SIGKILL loop ---------------------------------------------------------------------------------
def _post(url: str, body: dict) -> dict | None:
    req = urllib.request.Request(url, json.dumps(body).encode(), {"Content-Type": "application/json"})
    try:
        return json.loads(urllib.request.urlopen(req, timeout=30).read())
    except (urllib.error.URLError, ConnectionError, OSError, http.client.HTTPException):
        return None  # killed mid-request or mid-answer (IncompleteRead): not acknowledged


def _get(url: str) -> dict:
    return json.loads(urllib.request.urlopen(url, timeout=30).read())


def test_sigkill_loop_loses_no_acknowledged_move(tmp_path, server_factory):
    """Three clients play and undo as fast as they can; the server is SIGKILLed 5 times mid-stream.
    After each restart every table is at least at the last version a client was told of."""
    srv = server_factory(tmp_path / "events.sqlite").start()
    acknowledged: dict[str, int] = {}
    lock = threading.Condition()
    try:
        tids = [_post(f"{srv.url}/api/tables", {**QUARX, "seed": s})["id"] for s in range(3)]
        for round_ in range(5):
            done_this_round = [0]

            def client(tid: str) -> None:
                history = _get(f"{srv.url}/api/tables/{tid}")["history"]
                while True:  # until the kill cuts it off
                    path = "undo" if history else "moves"
                    snap = _post(f"{srv.url}/api/tables/{tid}/{path}", {"move": "random"} if path == "moves" else {})
                    if snap is None:
                        return
                    history = snap["history"]
                    with lock:
                        acknowledged[tid] = max(acknowledged.get(tid, 0), snap["version"])
                        done_this_round[0] += 1
                        lock.notify_all()

            threads = [threading.Thread(target=client, args=(t,)) for t in tids]
            for t in threads:
                t.start()
            with lock:  # kill mid-stream, after some answers (counted, not timed)
                lock.wait_for(lambda: done_this_round[0] >= 10 + 7 * round_)
            srv.kill()
            for t in threads:
                t.join()
            srv.start()
            for tid in tids:
                version = _get(f"{srv.url}/api/tables/{tid}")["version"]
                assert version >= acknowledged[tid], (round_, tid, version, acknowledged[tid])
        assert sum(acknowledged.values()) >= 50
    finally:
        srv.stop()


def test_a_table_id_never_reads_as_a_command_line_option(monkeypatch):
    # `tablesight camera --table ID` took an id starting with "-" for an option
    drawn = iter(["-abcdefg", "-xyz1234", "Ab-c_d12"])
    monkeypatch.setattr(secrets, "token_urlsafe", lambda n: next(drawn))
    assert new_table_id() == "Ab-c_d12"
    monkeypatch.undo()
    assert not any(new_table_id().startswith("-") for _ in range(2000))
