"""Issue 17: several server processes on one PostgreSQL database.

Two `tablesight serve` processes share one database; clients on both play the same tables at
once; WebSocket clients on each process see every move, whichever process took it; a process
SIGKILLed mid-game loses no acknowledged move. The database is a fresh one on the cluster that
.ci/run starts (or that the `pg_admin` fixture starts in a temp folder).
"""
from __future__ import annotations

import json
import random
import threading
import urllib.error
import urllib.request

import psycopg
from websockets.sync.client import connect

QUARX = {"game": "quarx", "players": ["Ann", "Ben", "Cid"]}


def call(url: str, body: dict | None = None) -> tuple[int, dict | None]:
    """(status, JSON answer); (0, None) when the connection broke (the answer never came)."""
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(url, data, {"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=60) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read() or b"null")
    except (urllib.error.URLError, ConnectionError, OSError):
        return 0, None


class LiveClient:
    """A WebSocket client of one table on one process, keeping the newest snapshot it was sent."""

    def __init__(self, base: str, tid: str):
        self.url = base.replace("http://", "ws://") + f"/api/tables/{tid}/live"
        self.latest: dict | None = None
        self.versions: list[int] = []
        self.seen = threading.Condition()
        self.open = threading.Event()
        self.ws = None
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()
        self.open.wait()

    def _read(self) -> None:
        try:
            with connect(self.url, open_timeout=60) as ws:
                self.ws = ws
                self.open.set()
                for message in ws:
                    snap = json.loads(message)
                    with self.seen:
                        self.latest = snap
                        self.versions.append(snap["version"])
                        self.seen.notify_all()
        except Exception:
            pass
        finally:
            self.open.set()

    def wait_for(self, version: int) -> dict:
        with self.seen:
            # Readiness, not speed: a generous bound only so that a lost update fails instead of hanging.
            assert self.seen.wait_for(lambda: self.latest is not None and self.latest["version"] >= version, timeout=120), \
                (version, self.versions[-5:])
            return self.latest

    def wait_until(self, test) -> dict:
        """The first state pushed that passes `test` (the one on connect may predate what we wait for)."""
        with self.seen:
            # Readiness, not speed: a generous bound only so that a lost update fails instead of hanging.
            assert self.seen.wait_for(lambda: self.latest is not None and test(self.latest), timeout=120), \
                self.versions[-5:]
            return self.latest

    def close(self) -> None:
        if self.ws is not None:
            self.ws.close()


def play_some(base: str, tid: str, name: str, tries: int, acked: list, rng: random.Random, stop=None) -> None:
    """Play legal moves (as this client sees the table) with move ids; keep what was acknowledged."""
    for n in range(tries):
        if stop is not None and stop.is_set():
            return
        status, snap = call(f"{base}/api/tables/{tid}")
        if status != 200:
            return  # the process died
        if snap["over"]:
            return
        move = "random" if snap["chance"] else rng.choice(snap["legal_moves"])
        move_id = f"{name}-{n}"
        status, answer = call(f"{base}/api/tables/{tid}/moves", {"move": move, "move_id": move_id})
        if status == 200:
            acked.append((tid, move_id, answer["version"]))
        elif status == 0:
            return
        else:
            assert status == 409, answer  # another client's move came first: this one no longer fits


def logged(dsn: str, tid: str) -> list[tuple[int, str, str | None]]:
    with psycopg.connect(dsn) as conn:
        return conn.execute("SELECT seq, kind, move_id FROM events WHERE table_id=%s ORDER BY seq", (tid,)).fetchall()


def test_two_processes_play_the_same_tables(pg_dsn, server_factory):
    a, b = server_factory(pg_dsn).start(), server_factory(pg_dsn).start()
    live = []
    try:
        tids = [call(f"{a.url}/api/tables", {**QUARX, "seed": s})[1]["id"] for s in range(3)]
        # Each table is watched live on both processes; B learns of A's tables from the database.
        live = {(srv.url, tid): LiveClient(srv.url, tid) for srv in (a, b) for tid in tids}
        acked: list = []
        clients = [threading.Thread(target=play_some, args=(srv.url, tid, f"{k}{tid}", 12, acked, random.Random(k)))
                   for tid in tids for k, srv in enumerate((a, b, a, b))]
        for c in clients:
            c.start()
        for c in clients:
            c.join()
        assert len(acked) >= 3 * 10
        for tid in tids:
            log = logged(pg_dsn, tid)
            assert [seq for seq, _, _ in log] == list(range(len(log)))  # one log, no gap, no seat taken twice
            ids = [mid for _, _, mid in log]
            mine = [(mid, v) for t, mid, v in acked if t == tid]
            # Every acknowledged move is in the log exactly once, at the place its answer said.
            for mid, version in mine:
                assert ids.count(mid) == 1 and ids.index(mid) == version - 1, (mid, version)
            assert len({v for _, v in mine}) == len(mine)  # no two answers claim the same place
            final = call(f"{a.url}/api/tables/{tid}")[1]
            assert call(f"{b.url}/api/tables/{tid}")[1] == final
            for srv in (a, b):  # the live clients of both processes reach the final state
                client = live[(srv.url, tid)]
                seen = client.wait_for(final["version"])
                assert seen["history"] == final["history"] and seen["version"] == len(log)
                assert client.versions == sorted(client.versions)  # pushed in order, never an older state after a newer
    finally:
        for c in (live.values() if isinstance(live, dict) else []):
            c.close()
        a.stop()
        b.stop()


def test_a_move_through_one_process_reaches_the_other_process_live(pg_dsn, server_factory):
    a, b = server_factory(pg_dsn).start(), server_factory(pg_dsn).start()
    try:
        tid = call(f"{a.url}/api/tables", {**QUARX, "seed": 2})[1]["id"]
        watcher = LiveClient(b.url, tid)
        assert watcher.wait_for(0)["history"] == []
        for n in range(3):  # each move through A is pushed by B, which never saw the request
            snap = call(f"{a.url}/api/tables/{tid}/moves", {"move": "random" if n == 0 else "Ann passes"})[1] \
                if n < 2 else call(f"{a.url}/api/tables/{tid}/undo", {})[1]
            assert watcher.wait_for(snap["version"])["history"] == snap["history"]
        # A retry of a move id on the other process plays nothing.
        first = call(f"{a.url}/api/tables/{tid}/moves", {"move": "Ann passes", "move_id": "retry-1"})[1]
        again = call(f"{b.url}/api/tables/{tid}/moves", {"move": "Ann passes", "move_id": "retry-1"})[1]
        assert again["repeated"] and again["version"] == first["version"]
        watcher.close()
    finally:
        a.stop()
        b.stop()


def test_sigkill_one_process_mid_game_loses_no_acknowledged_move(pg_dsn, server_factory):
    """Clients play on both processes; A is SIGKILLed mid-stream three times and restarted. Every move
    either process acknowledged is in the log once, and both serve the same state."""
    a, b = server_factory(pg_dsn).start(), server_factory(pg_dsn).start()
    try:
        tids = [call(f"{b.url}/api/tables", {**QUARX, "seed": s})[1]["id"] for s in range(2)]
        acked: list = []
        for round_ in range(3):
            stop = threading.Event()
            on_a: list = []
            clients = [threading.Thread(target=play_some, args=(srv.url, tid, f"r{round_}{k}{tid}", 400,
                                                                 on_a if srv is a else acked, random.Random(k), stop))
                       for tid in tids for k, srv in enumerate((a, b))]
            for c in clients:
                c.start()
            while len(on_a) < 5 + 3 * round_ and any(c.is_alive() for c in clients):  # counted, not timed
                clients[0].join(0.05)
            a.kill()
            stop.set()
            for c in clients:
                c.join()
            acked += on_a
            a.start()
        assert len(acked) >= 20
        for tid in tids:
            ids = [mid for _, _, mid in logged(pg_dsn, tid)]
            for t, mid, version in acked:
                if t == tid:
                    assert ids.count(mid) == 1 and ids.index(mid) == version - 1, (mid, version)
            assert call(f"{a.url}/api/tables/{tid}")[1] == call(f"{b.url}/api/tables/{tid}")[1]
    finally:
        a.stop()
        b.stop()


def test_a_dreams_link_is_shown_once_across_processes(pg_dsn, server_factory):
    """Links are handed out once during set-up: asking the other process does not show it again."""
    a, b = server_factory(pg_dsn).start(), server_factory(pg_dsn).start()
    try:
        tid = call(f"{a.url}/api/tables", {"game": "dreams", "players": ["Ann", "Ben", "Cat"]})[1]["id"]
        assert call(f"{a.url}/api/tables/{tid}/dreams/links/Ann", {})[0] == 200
        status, _ = call(f"{b.url}/api/tables/{tid}/dreams/links/Ann", {})
        assert status == 403
        assert call(f"{b.url}/api/tables/{tid}/dreams/links/Ben", {})[0] == 200
    finally:
        a.stop()
        b.stop()


def test_an_unreachable_database_is_named_at_start_up(tmp_path):
    import socket
    import subprocess
    import sys

    from tests.conftest import ROOT, free_port

    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    url = f"postgresql://ann:hunter2@127.0.0.1:{port}/tablesight"
    r = subprocess.run([sys.executable, "-m", "server.cli", "serve", "--port", str(free_port()), "--db", url,
                        "--source", "none", "--no-detector"], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert r.returncode == 2 and "cannot be reached" in r.stderr and "Traceback" not in r.stderr, r.stderr
    assert "hunter2" not in r.stderr  # the password stays out of messages


def test_tables_load_on_demand_and_unused_ones_are_let_go(pg_dsn):
    """A process loads a table on its first use (not at start) and keeps at most `max_loaded`; a table
    let go loads again, caught up with what the other process did meanwhile."""
    from server.event_stores import open_store
    from server.service import TableService

    a = TableService(open_store(pg_dsn))
    tids = [a.create("quarx", ["Ann", "Ben"], seed=s) for s in range(3)]
    b = TableService(open_store(pg_dsn), max_loaded=2)
    try:
        assert b._tables == {} and [r.id for r in b.records()] == tids  # listed, none loaded
        for tid in tids:
            b.play(tid, "random")
        assert list(b._tables) == tids[1:]  # the least recently used went
        a.play(tids[0], "Ann passes")
        snap = b.snapshot(tids[0])  # loads again, with both moves
        assert snap["version"] == 2 and snap == a.snapshot(tids[0])
        assert len(b._tables) == 2
    finally:
        a.store.close()
        b.store.close()
