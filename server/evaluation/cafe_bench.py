"""The café, measured: several server processes on one PostgreSQL database, and a camera worker.

`tablesight bench-cafe --pg URL` (URL: a role that may create databases; each part gets a
database of its own, dropped after) measures:

- moves per second and live-update latency with one and with two `tablesight serve` processes:
  client threads play legal Quarx moves on several tables, each request to the processes in
  turn; a probe plays a move through one process and times until a WebSocket client of the
  *other* process (the same one, with one process) receives the state with it;
- start-up with 1,000 tables in the log: from starting `serve` to its first answer, and the first
  read of a table (loaded on demand), against SQLite (which replays every table at start);
- CPU per camera table on a worker: `server.edge_worker.CameraWorker` on the bundled Quarx clip,
  sending to a server process, CPU seconds of this process per frame (decoding the video, the
  frame path, the JPEG pictures and the HTTP calls).

Nothing here is a test: the figures depend on the machine, and go in the README.
"""
from __future__ import annotations

import json
import os
import random
import signal
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
import uuid
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import cv2
import psycopg
from websockets.sync.client import connect

from rules.core.match import Match
from rules.registry import engine_for
from server.edge_worker import CameraWorker, ServerLink
from server.event_stores import open_store
from vision.games.readers import READERS
from vision.sources import DEMO_DIR, demo_clip

PLAYERS = ["Ann", "Ben", "Cid"]


# -- the parts -------------------------------------------------------------------------------------
def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Serve:
    """`tablesight serve` in a subprocess on `db`."""

    def __init__(self, db: str | Path):
        self.db, self.port = str(db), _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        cmd = [sys.executable, "-m", "server.cli", "serve", "--port", str(self.port), "--db", self.db,
               "--source", "none", "--no-detector", "--log-level", "warning"]
        self.started = time.perf_counter()
        self.proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        self.ready_s = self._wait()

    def _wait(self) -> float:
        while True:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited: {self.proc.stderr.read().decode()[-2000:]}")
            try:
                urllib.request.urlopen(self.url + "/api/games", timeout=1).read()
                return time.perf_counter() - self.started
            except OSError:
                time.sleep(0.02)

    def stop(self) -> None:
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def _call(url: str, body: dict | None = None, headers: dict | None = None) -> tuple[int, dict | None]:
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(url, data, {"Content-Type": "application/json", **(headers or {})})
    try:
        with urllib.request.urlopen(req, timeout=60) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as exc:
        return exc.code, None


class Database:
    """A database of its own on the cluster `admin` reaches, dropped on leaving."""

    def __init__(self, admin: str):
        self.admin, self.name = admin, f"tablesight_bench_{uuid.uuid4().hex[:8]}"
        parts = urlsplit(admin)
        self.url = urlunsplit((parts.scheme, parts.netloc, "/" + self.name, parts.query, parts.fragment))

    def __enter__(self) -> str:
        with psycopg.connect(self.admin, autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {self.name}")
        return self.url

    def __exit__(self, *exc) -> None:
        with psycopg.connect(self.admin, autocommit=True) as conn:
            conn.execute(f"DROP DATABASE IF EXISTS {self.name} WITH (FORCE)")


def _pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


# -- moves per second and live latency -------------------------------------------------------------
@dataclass(frozen=True)
class Throughput:
    processes: int
    clients: int
    moves: int
    refused: int  # another client's move on the same table came first (409): decided again
    seconds: float
    latency_ms: list[float]

    @property
    def moves_per_s(self) -> float:
        return self.moves / self.seconds

    def row(self) -> str:
        return (f"{self.processes} process(es), {self.clients} clients: {self.moves_per_s:.0f} moves/s "
                f"({self.moves} moves, {self.refused} refused as stale, {self.seconds:.1f} s); live update "
                f"{'across the two processes' if self.processes > 1 else 'on the one process'}: median {statistics.median(self.latency_ms):.1f} ms, p90 {_pct(self.latency_ms, 0.9):.1f} ms "
                f"({len(self.latency_ms)} probes)")


def _player(urls: list[str], tid: str, moves: int, rng: random.Random, counts: dict, lock: threading.Lock) -> None:
    """Play legal moves on `tid`, each request to the next process; a finished game starts a new table."""
    k = rng.randrange(len(urls))
    snap = _call(f"{urls[k]}/api/tables/{tid}")[1]
    done = refused = 0
    while done < moves:
        k = (k + 1) % len(urls)
        if snap["over"]:
            tid = _call(f"{urls[k]}/api/tables", {"game": "quarx", "players": PLAYERS, "seed": rng.randrange(10**6)})[1]["id"]
            snap = _call(f"{urls[k]}/api/tables/{tid}")[1]
            continue
        move = "random" if snap["chance"] else rng.choice(snap["legal_moves"])
        status, answer = _call(f"{urls[k]}/api/tables/{tid}/moves", {"move": move})
        if status == 200:
            snap, done = answer, done + 1
        else:
            refused += 1
            snap = _call(f"{urls[k]}/api/tables/{tid}")[1]
    with lock:
        counts["moves"] += done
        counts["refused"] += refused


def _probe(post_url: str, live_url: str, probes: int, out: list[float], stop: threading.Event) -> None:
    """Move -> WebSocket on the other process: milliseconds until the pushed state shows the move."""
    tid = _call(f"{post_url}/api/tables", {"game": "quarx", "players": PLAYERS, "seed": 1})[1]["id"]
    got: dict[int, float] = {}
    cond = threading.Condition()

    def reader(ws) -> None:
        try:
            for message in ws:
                version = json.loads(message)["version"]
                with cond:
                    got.setdefault(version, time.perf_counter())
                    cond.notify_all()
        except Exception:
            pass

    with connect(live_url.replace("http://", "ws://") + f"/api/tables/{tid}/live") as ws:
        threading.Thread(target=reader, args=(ws,), daemon=True).start()
        for n in range(probes):
            if stop.is_set():
                break
            path = "undo" if n % 2 else "moves"
            sent = time.perf_counter()
            status, answer = _call(f"{post_url}/api/tables/{tid}/{path}", {} if n % 2 else {"move": "random"})
            if status != 200:
                continue
            with cond:
                if cond.wait_for(lambda: answer["version"] in got, timeout=30):
                    out.append(1000 * (got[answer["version"]] - sent))
            time.sleep(0.05)


def throughput(dsn: str, processes: int, clients: int = 8, moves: int = 150, probes: int = 60) -> Throughput:
    """Moves per second and live latency with `processes` server processes on `dsn`."""
    servers = [Serve(dsn) for _ in range(processes)]
    urls = [s.url for s in servers]
    try:
        rng = random.Random(processes)
        tables = [_call(f"{urls[0]}/api/tables", {"game": "quarx", "players": PLAYERS, "seed": s})[1]["id"]
                  for s in range(clients // 2)]
        counts, lock = {"moves": 0, "refused": 0}, threading.Lock()
        latency: list[float] = []
        stop = threading.Event()
        probe = threading.Thread(target=_probe, args=(urls[0], urls[-1], probes, latency, stop))
        threads = [threading.Thread(target=_player, args=(urls, tables[i % len(tables)], moves, random.Random(rng.random()), counts, lock))
                   for i in range(clients)]  # two clients on each table
        started = time.perf_counter()
        probe.start()
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        seconds = time.perf_counter() - started
        stop.set()
        probe.join()
        return Throughput(processes, clients, counts["moves"], counts["refused"], seconds, latency)
    finally:
        for s in servers:
            s.stop()


# -- start-up with many tables --------------------------------------------------------------------
@dataclass(frozen=True)
class StartUp:
    store: str
    tables: int
    events: int
    ready_s: float  # from starting the process to its first answer
    first_table_ms: float  # the first read of one table after start (on demand: its replay)
    list_ms: float  # GET /api/tables (every table's record)

    def row(self) -> str:
        return (f"{self.store}, {self.tables} tables ({self.events} events): first answer {self.ready_s:.2f} s after start, "
                f"first read of a table {self.first_table_ms:.0f} ms, the list of tables {self.list_ms:.0f} ms")


def _games(n: int, moves: int, seed: int = 0) -> list[tuple[str, int, list[str]]]:
    """`n` Quarx games (id, seed, up to `moves` legal moves each), played by the engine itself."""
    rng, engine, out = random.Random(seed), engine_for("quarx"), []
    for k in range(n):
        match = Match(engine, PLAYERS, {}, k)
        for _ in range(moves):
            if engine.is_over(match.state):
                break
            legal = engine.legal_moves(match.state)
            match.play("random" if engine.chance(match.state) else rng.choice(legal))
        out.append((f"bench{k:05d}", k, list(match.moves)))
    return out


def _fill(store_db: str | Path, games: list[tuple[str, int, list[str]]]) -> None:
    """Write the games straight into a log made by the store itself (one transaction, not one per event)."""
    open_store(store_db).close()  # the schema
    rows_t = [(tid, "quarx", json.dumps(PLAYERS), "{}", seed, 1e9 + k) for k, (tid, seed, _) in enumerate(games)]
    rows_e = [(tid, i, "move", text, "api", 1e9, None) for tid, _, moves in games for i, text in enumerate(moves)]
    if str(store_db).startswith("postgresql://"):
        with psycopg.connect(str(store_db)) as conn, conn.cursor() as cur:
            cur.executemany("INSERT INTO tables VALUES (%s, %s, %s, %s, %s, %s)", rows_t)
            cur.executemany("INSERT INTO events VALUES (%s, %s, %s, %s, %s, %s, %s)", rows_e)
    else:
        with sqlite3.connect(store_db) as conn:
            conn.executemany("INSERT INTO tables VALUES (?, ?, ?, ?, ?, ?)", rows_t)
            conn.executemany("INSERT INTO events (table_id, seq, kind, text, source, at, move_id) VALUES (?, ?, ?, ?, ?, ?, ?)", rows_e)


def empty_start(db: str | Path) -> float:
    """Seconds from starting `serve` on an empty log to its first answer: the start with no table."""
    srv = Serve(db)
    srv.stop()
    return srv.ready_s


def startup(db: str | Path, games: list[tuple[str, int, list[str]]]) -> StartUp:
    _fill(db, games)
    srv = Serve(db)
    try:
        t0 = time.perf_counter()
        assert _call(f"{srv.url}/api/tables/{games[len(games) // 2][0]}")[0] == 200
        first = 1000 * (time.perf_counter() - t0)
        t0 = time.perf_counter()
        listed = _call(f"{srv.url}/api/tables")[1]
        listing = 1000 * (time.perf_counter() - t0)
        assert len(listed) == len(games)
    finally:
        srv.stop()
    kind = "PostgreSQL (tables load on demand)" if str(db).startswith("postgresql://") else "SQLite (every table replayed at start)"
    return StartUp(kind, len(games), sum(len(m) for _, _, m in games), srv.ready_s, first, listing)


# -- a camera worker ----------------------------------------------------------------------------
@dataclass(frozen=True)
class WorkerCost:
    frames: int
    cpu_ms_per_frame: float  # the whole worker process: video decoding, frame path, JPEG, HTTP
    path_ms_per_frame: float  # the frame path alone (hands, reader, stabiliser, drawing)
    moves: int  # in the log at the end, every one by the camera (one pair after a click)
    fps: float  # the clip's

    def row(self) -> str:
        return (f"camera worker on the Quarx clip ({self.frames} frames 640x480): {self.cpu_ms_per_frame:.1f} ms CPU per frame "
                f"({self.path_ms_per_frame:.1f} ms of it the frame path), {self.moves} of 12 moves played by the camera; at {self.fps:.0f} fps "
                f"{self.cpu_ms_per_frame * self.fps / 10:.0f}% of one core, at 15 fps {self.cpu_ms_per_frame * 15 / 10:.0f}%")


def worker_cost(db: str | Path) -> WorkerCost:
    clip = demo_clip(DEMO_DIR / "quarx_rounds.mp4")
    car = clip.sidecar
    srv = Serve(db)
    try:
        made = _call(f"{srv.url}/api/tables", {"game": "quarx", "players": car["players"], "seed": car["seed"]})[1]
        tid = made["id"]
        token = _call(f"{srv.url}/api/tables/{tid}/camera/token", {}, {"X-Creator-Token": made["creator_token"]})[1]["token"]
        worker = CameraWorker(ServerLink(srv.url, tid, token), READERS, picture_every=0.5)
        worker.flush()
        video = cv2.VideoCapture(str(clip.path))
        frames, cpu0 = 0, time.process_time()
        while True:
            ok, frame = video.read()
            if not ok:
                break
            worker.process(frame)
            worker.flush()
            frames += 1
            # The clip's click (two piles laid at once): answered as a person would (what happened).
            snap = _call(f"{srv.url}/api/tables/{tid}")[1]
            done = len(snap["history"])
            for i, cand in enumerate(snap["candidates"]):
                if car["moves"][done:done + len(cand)] == cand:
                    _call(f"{srv.url}/api/tables/{tid}/camera/choose", {"candidate": i})
                    worker.flush()
        cpu = time.process_time() - cpu0
        st = worker.status()
        final = _call(f"{srv.url}/api/tables/{tid}")[1]
        assert final["sources"] == ["camera"] * len(car["moves"]), final["sources"]
        return WorkerCost(frames, 1000 * cpu / frames, st["cpu_ms_per_frame"], len(final["history"]), float(car.get("fps", 8)))
    finally:
        srv.stop()


def main(admin: str, tables: int = 1000, moves_per_table: int = 20) -> list[str]:
    """Every figure, as printed lines."""
    rows = []
    for n in (1, 2):
        with Database(admin) as dsn:
            rows.append(throughput(dsn, n).row())
            print(rows[-1], flush=True)
    games = _games(tables, moves_per_table)
    with Database(admin) as dsn:
        rows.append(f"PostgreSQL, no table: first answer {empty_start(dsn):.2f} s after start")
        print(rows[-1], flush=True)
    with Database(admin) as dsn:
        rows.append(startup(dsn, games).row())
        print(rows[-1], flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        rows.append(startup(Path(tmp) / "events.sqlite", games).row())
        print(rows[-1], flush=True)
    with Database(admin) as dsn:
        rows.append(worker_cost(dsn).row())
        print(rows[-1], flush=True)
    return rows


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else os.environ["TABLESIGHT_TEST_PG_DSN"])
