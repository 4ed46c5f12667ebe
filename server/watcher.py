"""Hands-free play: the camera's stable view, reconciled with the engine, becomes moves.

Runs in the camera thread (CameraFeed calls `process` on every new frame), so the detector
runs once per frame for both the annotated picture and the game. The frame path itself is
`vision.pipeline.FramePipeline`; this module adds the table: which one is watched, and
playing what the pipeline explains.
"""
from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from typing import Literal

import numpy as np

from rules.core.reconcile import Reconciliation
from server.camera_play import act_on
from server.service import TableNotFound, TableService
from vision.games.quarx.glance import glance_of
from vision.live import annotate_all
from vision.pipeline import FramePipeline, ReadContext, Reader

# idle: no table watched; watching: reading; hand: a hand hides the table; ask: the camera
# waits for a click among several moves; unreadable: this game has no camera reader.
WatcherState = Literal["idle", "watching", "hand", "ask", "unreadable"]


class TableWatcher:
    """Watches one table at a time; `process(frame)` returns the annotated frame."""

    def __init__(self, service: TableService, detector_loader: Callable[[], object] | None,
                 readers: Mapping[str, Reader], required: int = 5):
        self.service = service
        self._load = detector_loader
        self._detector = None
        self.readers = readers
        self.required = required
        self._lock = threading.Lock()
        # Held while a move is played and while the watched table changes: once watch() returns,
        # a frame read for the table before it can no longer play a move there.
        self._playing = threading.Lock()
        self.table_id: str | None = None
        self._pipeline: FramePipeline | None = None
        self.state: WatcherState = "idle"
        self.detail = ""
        self.waiting = ""  # what the camera waits for at the watched table (vision.waiting)
        self.last_view: dict | None = None
        self.applied = 0
        self.reads = 0  # frames the reader ran on (the rest were hands or an unchanged, settled table)
        self.calibration = None  # vision.calibration.Calibration for board readers, set by the API
        # The server's dice profile (server.dice_profile.ProfileSlot): in every ReadContext, so a
        # taught profile reaches the hands-free readers as soon as it is active.
        self.profiles = None
        # The game of the table page open now (POST /api/camera/focus): the picture of an unwatched
        # table shows only what that game uses. None: everything the detector finds.
        self.focus_game: str | None = None
        self.glance: dict | None = None  # Quarx at a glance: the last frame's per-card counts (vision.games.quarx.glance)

    # -- control (from the API) -------------------------------------------------------------
    def watch(self, table_id: str | None) -> None:
        """Follow `table_id` (None: stop); a fresh start needs a fresh run of stable frames."""
        game = None if table_id is None else self.service.table(table_id).record.game
        reader = self.readers.get(game) if game is not None else None
        with self._playing, self._lock:
            old, self.table_id = self.table_id, table_id
            self._pipeline = None if reader is None else FramePipeline(reader, self.required)
            self.state, self.detail = ("watching", "") if table_id else ("idle", "")
            self.waiting, self.glance = "", None
        for tid in {old, table_id} - {None}:
            self.service.set_camera_note(tid, self.note(tid))

    def note(self, table_id: str) -> dict:
        """What the camera is doing for `table_id`, for the page."""
        with self._lock:
            if table_id != self.table_id:
                return {"watching": False}
            return {"watching": True, "state": self.state, "detail": self.detail,
                    "last_view": self.last_view, "applied": self.applied, "waiting": self.waiting,
                    "glance": self.glance}

    def status(self) -> dict:
        with self._lock:
            return {"table": self.table_id, "state": self.state, "detail": self.detail,
                    "last_view": self.last_view, "applied": self.applied}

    # -- the frame path ----------------------------------------------------------------------
    def detector(self):
        """The detector, or None when no model is installed (readers then work classically)."""
        if self._detector is None and self._load is not None:
            self._detector = self._load()
        return self._detector

    def _all_detections(self, frame: np.ndarray) -> np.ndarray:
        det = self.detector()
        return frame if det is None else annotate_all(frame, det, game=self.focus_game)

    def process(self, frame: np.ndarray) -> np.ndarray:
        """One camera frame: through the table's FramePipeline, then play what it explains."""
        with self._lock:
            tid, pipeline, was = self.table_id, self._pipeline, self.state
        if tid is None:
            return self._all_detections(frame)
        try:
            record = self.service.table(tid).record
        except TableNotFound:
            self.watch(None)
            return frame
        if pipeline is None:
            self._set(tid, "unreadable", f"the camera does not read {record.game} yet")
            return self._all_detections(frame)
        match = self.service.match(tid)
        context = ReadContext(self.detector(), self.calibration, tuple(record.players),
                              None if self.profiles is None else self.profiles.get())
        step = pipeline.step(frame, context, match.engine, match.state)
        self.reads += step.read
        self._look(tid, pipeline.waiting(match.engine, match.state),
                   glance_of(step.drawn, frame.shape, hand=step.hand,
                             hide_counts=pipeline.hides_counts(match.engine, match.state))
                   if record.game == "quarx" else None)
        if step.hand:
            self._set(tid, "hand", "a hand is over the table: not reading")
            return step.picture
        if was == "hand":
            self._set(tid, "watching", "")
        with self._lock:
            self.last_view = step.seen
        if step.result is not None:
            self._play(tid, pipeline, step.result)
        return step.picture

    def _play(self, tid: str, pipeline: FramePipeline, result: Reconciliation) -> None:
        """Act on what the stable view means: play one explanation, or ask which of several;
        nothing when the table stopped being watched (or was watched afresh) while it was read."""
        with self._playing:
            with self._lock:
                if self._pipeline is not pipeline:
                    return
            acted = act_on(self.service, tid, result)
            if acted.moves:
                with self._lock:
                    self.applied += len(acted.moves)
            self._set(tid, acted.state, acted.detail)

    def _look(self, tid: str, waiting: str, glance: dict | None) -> None:
        """Tell the page what the camera waits for and, for Quarx, the count per card, when either
        changes (the page hears it at once: a settled count is on screen with the next frame)."""
        with self._lock:
            changed = (self.waiting, self.glance) != (waiting, glance)
            self.waiting, self.glance = waiting, glance
        if changed:
            self.service.set_camera_note(tid, self.note(tid))

    def _set(self, tid: str, state: WatcherState, detail: str) -> None:
        with self._lock:
            changed = (self.state, self.detail) != (state, detail)
            self.state, self.detail = state, detail
        if changed:
            self.service.set_camera_note(tid, self.note(tid))
