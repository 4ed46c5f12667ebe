"""An edge camera worker: the frame path next to the webcam, the game on the central server.

`tablesight camera --server URL --table ID --source 0` runs on a laptop or a small board at the
table. Each frame goes hands -> detector -> reader -> stabiliser (`FramePipeline.see`) here; the
worker sends the server its state, every stable view and now and then its annotated picture
(server.routes.worker). The server reconciles each view with the table's log and plays, asks or
says why not: the worker never holds the game, so it needs no secrets of it.

Network loss loses nothing and doubles nothing: `process` (the camera thread) never waits on the
network; stable views wait in an outbox, in order, and `flush` (a sender thread) sends them
when the server answers again. Each view has an id, and the moves it explains are played under
ids made from it, so a view sent twice (its answer was lost) plays nothing the second time.
"""
from __future__ import annotations

import json
import logging
import secrets
import threading
import time
import urllib.error
import urllib.request
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Literal

import cv2
import numpy as np

from vision.calibration import Calibration, from_markers
from vision.detector.profile import DiceProfile
from vision.pipeline import FramePipeline, ReadContext, Reader

log = logging.getLogger("tablesight")
# starting: not yet heard by the server; watching: reading; hand: a hand hides the table; ask: the
# server waits for a click among several moves; unreadable: no reader for this game; offline: the
# server does not answer (views wait in the outbox).
WorkerState = Literal["starting", "watching", "hand", "ask", "unreadable", "offline"]
OUTBOX_LIMIT = 256  # stable views waiting for the server; a table changes far slower than this fills
HEARTBEAT = 5.0  # seconds between status reports when nothing changes (the page shows when it last heard)


class LinkDown(ConnectionError):
    """The server did not answer (network, restart, overload): try again later."""


class LinkRefused(RuntimeError):
    """The server answered no (a wrong token, no such table, a view it cannot read); `reason` in words."""

    def __init__(self, status: int, reason: str):
        super().__init__(f"{status}: {reason}")
        self.status, self.reason = status, reason


class ServerLink:
    """The worker's calls to the server, with the table's camera token."""

    def __init__(self, server: str, table_id: str, token: str, timeout: float = 10.0):
        self.base = f"{server.rstrip('/')}/api/tables/{table_id}"
        self.token = token
        self.timeout = timeout

    def call(self, method: str, path: str, body: dict | bytes | None = None) -> dict | None:
        """The JSON answer (None for an empty one); LinkDown or LinkRefused."""
        headers = {"X-Camera-Token": self.token}
        if isinstance(body, bytes):
            data, headers["Content-Type"] = body, "image/jpeg"
        else:
            data, headers["Content-Type"] = (None if body is None else json.dumps(body).encode()), "application/json"
        req = urllib.request.Request(self.base + path, data, headers, method=method)
        try:
            with urllib.request.urlopen(req, timeout=self.timeout) as r:
                raw = r.read(1024 * 1024)
        except urllib.error.HTTPError as exc:
            if exc.code >= 500:
                raise LinkDown(f"the server answered {exc.code}") from None
            try:
                reason = json.loads(exc.read(64 * 1024))["detail"]["reason"]
            except (ValueError, KeyError, TypeError):
                reason = exc.reason
            raise LinkRefused(exc.code, str(reason)) from None
        except (urllib.error.URLError, OSError) as exc:
            raise LinkDown(str(exc)) from None
        return json.loads(raw) if raw else None


@dataclass(frozen=True)
class Pending:
    """A stable view waiting to be sent, with the id that makes sending it twice harmless."""

    view_id: str
    view: dict


class CameraWorker:
    """One table's camera: `process(frame)` per frame (never blocks on the network), `flush()` to talk
    to the server (blocks; a sender thread or the caller runs it)."""

    def __init__(self, link: ServerLink, readers: Mapping[str, Reader], detector: object = None, required: int = 5,
                 picture_every: float = 0.5, source: str = "", clock: Callable[[], float] = time.monotonic,
                 calibration: Calibration | None = None, markers: bool = False, profile: DiceProfile | None = None):
        """`calibration`: the board's plane in this camera's picture (four corners), for board readers;
        `markers`: find it from the printed ArUco sheet (`tablesight markers`) in the frames instead,
        looked for until found; `profile`: the dice profile taught for this camera (`tablesight
        teach`), read with by every reader here; None: the shipped die reader."""
        self.link = link
        self.calibration = calibration
        self.profile = profile
        self._find_markers = markers and calibration is None
        self.readers = readers
        self.detector = detector
        self.required = required
        self.picture_every = picture_every
        self.source = source
        self.clock = clock
        self.session = secrets.token_hex(4)  # view ids of this run never meet those of an earlier one
        self._lock = threading.Lock()
        self._pipeline: FramePipeline | None = None
        self._players: tuple[str, ...] = ()
        self.game: str | None = None
        self._screen: tuple[str, bool] = ("", False)  # (what the camera waits for, counts hidden), as the server last said
        self.state: WorkerState = "starting"
        self.detail = ""
        self.last_view: dict | None = None
        self.applied = 0
        self.frames = 0
        self.cpu_s = 0.0  # CPU seconds of this thread spent in the frame path
        self.sent_views = 0
        self.repeated = 0  # views the server had already acted on (a lost answer, sent again)
        self._outbox: deque[Pending] = deque()
        self._dropped = 0
        self._picture: np.ndarray | None = None
        self._picture_due = 0.0
        self._reported: tuple | None = None
        self._reported_at = -HEARTBEAT
        self._online = False
        self._count = 0

    # -- the camera thread ---------------------------------------------------------------------
    def process(self, frame: np.ndarray) -> np.ndarray:
        """One frame through hands -> reader -> stabiliser; a stable view joins the outbox."""
        with self._lock:
            pipeline, (waiting, hide_counts) = self._pipeline, self._screen
        if pipeline is None:
            return frame  # the server has not said the table's game yet (or has no reader for it)
        started = time.thread_time()
        if self._find_markers:
            try:
                self.calibration, self._find_markers = from_markers(frame), False
            except ValueError:
                pass  # not all four in view yet: read uncalibrated, look again next frame
        step = pipeline.see(frame, ReadContext(self.detector, self.calibration, self._players, self.profile), self.game,
                            waiting, hide_counts)
        with self._lock:
            self.cpu_s += time.thread_time() - started
            self.frames += 1
            self._picture = step.picture
            if step.hand:
                self._local_state("hand", "a hand is over the table: not reading")
            else:
                if self.state == "hand":
                    self._local_state("watching", "")
                self.last_view = step.seen
            if step.stable is not None:
                self._count += 1
                self._outbox.append(Pending(f"{self.session}-{self._count}", step.stable))
                while len(self._outbox) > OUTBOX_LIMIT:
                    self._outbox.popleft()
                    self._dropped += 1
        return step.picture

    def _local_state(self, state: WorkerState, detail: str) -> None:
        if self.state not in ("offline", "unreadable", "starting"):
            self.state, self.detail = state, detail

    # -- the sender ------------------------------------------------------------------------------
    def flush(self) -> bool:
        """Talk to the server: status, every waiting view in order, the picture when due. False when
        the server did not answer (the views stay in the outbox for the next call)."""
        try:
            if self._pipeline is None or not self._online:
                self._hello()
            self._send_views()
            self._send_status()
            self._send_picture()
        except LinkDown as exc:
            with self._lock:
                if self._online or self.state != "offline":
                    log.warning("camera worker: the server does not answer (%s); %d views wait", exc, len(self._outbox))
                self._online = False
                self.state, self.detail = "offline", f"the server does not answer: {exc}"
            return False
        return True

    def _hello(self) -> None:
        """Say who we are; learn the table's game and players (LinkRefused: a wrong token or table)."""
        info = self.link.call("POST", "/worker/status", self._status_body())
        with self._lock:
            self._online = True
            self._heard(info)
            if self.game != info["game"] or self._pipeline is None:
                self.game, self._players = info["game"], tuple(info["players"])
                reader = self.readers.get(self.game)
                self._pipeline = None if reader is None else FramePipeline(reader, self.required)
            if self._pipeline is None:
                self.state, self.detail = "unreadable", f"the camera does not read {self.game} yet"
            elif self.state in ("starting", "offline"):
                self.state, self.detail = "watching", "connected"
            self._reported = None  # say the state again now

    def _send_views(self) -> None:
        while True:
            with self._lock:
                if not self._outbox:
                    return
                pending = self._outbox[0]
            try:
                answer = self.link.call("POST", "/worker/views", {"view_id": pending.view_id, "view": pending.view})
            except LinkRefused as exc:
                if exc.status != 422:
                    raise  # a revoked token, a table gone: for the person running the worker
                log.warning("camera worker: the server cannot read view %s: %s", pending.view_id, exc.reason)
                answer = {"status": "unreadable", "state": "watching", "detail": exc.reason, "moves": []}
            with self._lock:
                self._outbox.popleft()  # only once the server has answered: a lost answer means sending it again
                self.sent_views += 1
                if answer["status"] == "repeated":
                    self.repeated += 1
                self.applied += len(answer["moves"])
                self._heard(answer)
                if answer["status"] != "nothing" or self.state == "ask":
                    self.state, self.detail = answer["state"], answer["detail"]

    def _heard(self, answer: dict | None) -> None:
        """Keep what the server said the picture may show (a server without it: show all, wait on nothing)."""
        if answer is None:
            return
        self._screen = (str(answer.get("waiting", "")), bool(answer.get("hide_counts", False)))

    def _status_body(self) -> dict:
        with self._lock:
            cpu_ms = 1000 * self.cpu_s / self.frames if self.frames else 0.0
            detail = self.detail if not self._dropped else f"{self.detail} ({self._dropped} views dropped while offline)"
            return {"state": self.state, "detail": detail[:300], "last_view": self.last_view, "applied": self.applied,
                    "cpu_ms": round(cpu_ms, 1), "source": self.source[:200]}

    def _send_status(self) -> None:
        body = self._status_body()
        key = (body["state"], body["detail"], json.dumps(body["last_view"], sort_keys=True), body["applied"])
        now = self.clock()
        if key == self._reported and now - self._reported_at < HEARTBEAT:
            return
        answer = self.link.call("POST", "/worker/status", body)
        with self._lock:
            self._heard(answer)
        self._reported, self._reported_at = key, now

    def _send_picture(self) -> None:
        now = self.clock()
        with self._lock:
            picture = self._picture
        if picture is None or now < self._picture_due:
            return
        ok, buf = cv2.imencode(".jpg", _fit(picture), [cv2.IMWRITE_JPEG_QUALITY, 75])
        if ok:
            self.link.call("PUT", "/worker/picture", buf.tobytes())
        self._picture_due = now + self.picture_every

    def status(self) -> dict:
        """Where the worker stands (for its own log line and the benchmark)."""
        with self._lock:
            return {"state": self.state, "detail": self.detail, "frames": self.frames, "outbox": len(self._outbox),
                    "sent_views": self.sent_views, "repeated": self.repeated, "applied": self.applied,
                    "cpu_ms_per_frame": 1000 * self.cpu_s / self.frames if self.frames else 0.0}


def _fit(picture: np.ndarray, width: int = 960) -> np.ndarray:
    """The picture at most `width` wide: the page shows it small, and the upload stays well under 1 MiB."""
    if picture.shape[1] <= width:
        return picture
    scale = width / picture.shape[1]
    return cv2.resize(picture, (width, round(picture.shape[0] * scale)), interpolation=cv2.INTER_AREA)


def run(worker: CameraWorker, source, stop: threading.Event, idle: float = 0.1) -> None:
    """Feed `source` (a started vision.sources.FrameSource) through `worker` until `stop`, with a
    sender thread flushing to the server; LinkRefused (a wrong token, no such table) ends it."""
    refused: list[LinkRefused] = []

    def sender() -> None:
        backoff = idle
        while not stop.is_set():
            try:
                ok = worker.flush()
            except LinkRefused as exc:
                refused.append(exc)
                stop.set()
                return
            backoff = idle if ok else min(backoff * 2, 5.0)  # the server is away: ask less often
            stop.wait(backoff)

    thread = threading.Thread(target=sender, name="worker-sender", daemon=True)
    thread.start()
    seq = 0
    while not stop.is_set():
        seq, frame = source.wait_newer(seq, timeout=0.5)
        if frame is not None:
            worker.process(frame)
    thread.join(timeout=15)
    if refused:
        raise refused[0]
