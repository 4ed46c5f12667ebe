"""Hands-free play: the camera's stable view, reconciled with the engine, becomes moves.

Runs in the camera thread (CameraFeed calls `process` on every new frame), so the detector
runs once per frame for both the annotated picture and the game.
"""
from __future__ import annotations

import inspect
import threading
from typing import Callable

import cv2
import numpy as np

from rules.core import RulesError
from rules.core.reconcile import reconcile
from server.service import TableNotFound, TableService
from vision.hands import HandDetector
from vision.stability import Stabilizer


class TableWatcher:
    """Watches one table at a time; `process(frame)` returns the annotated frame."""

    def __init__(self, service: TableService, detector_loader: Callable[[], object] | None, readers: dict, required: int = 5,
                 fields_apart: frozenset[str] | None = None):
        self.service = service
        self._load = detector_loader
        self._detector = None
        self.readers = readers
        if fields_apart is None:
            from vision.readers import FIELDS_APART as fields_apart
        self.fields_apart = fields_apart  # games whose view fields settle one by one
        self.required = required
        self._lock = threading.Lock()
        self.table_id: str | None = None
        self._stable = Stabilizer(required)
        self._hands = HandDetector()
        self.state = "idle"
        self.detail = ""
        self.last_view: dict | None = None
        self.applied = 0
        self.calibration = None  # vision.calibration.Calibration for board readers, set by the API
        # The server's dice profile (server.dice_profile.ProfileSlot): offered to every reader that
        # takes a `profile`, so a taught profile reaches hands-free play as soon as it is active.
        self.profiles = None

    # -- control (from the API) -------------------------------------------------------------
    def watch(self, table_id: str | None) -> None:
        """Follow `table_id` (None: stop); a fresh start needs a fresh run of stable frames."""
        game = None if table_id is None else self.service.table(table_id).record.game
        with self._lock:
            old, self.table_id = self.table_id, table_id
            self._stable = Stabilizer(self.required, per_field=game in self.fields_apart)
            self._hands = HandDetector()
            self.state, self.detail = ("watching", "") if table_id else ("idle", "")
        for tid in {old, table_id} - {None}:
            self.service.set_camera_note(tid, self.note(tid))

    def note(self, table_id: str) -> dict:
        """What the camera is doing for `table_id`, for the page."""
        with self._lock:
            if table_id != self.table_id:
                return {"watching": False}
            return {"watching": True, "state": self.state, "detail": self.detail,
                    "last_view": self.last_view, "applied": self.applied}

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
        from vision.live import annotate_all

        det = self.detector()
        return frame if det is None else annotate_all(frame, det)

    def process(self, frame: np.ndarray) -> np.ndarray:
        """Read one frame: skip it under a hand, else read, stabilise, reconcile, annotate."""
        from vision.detector import annotate

        with self._lock:
            tid, stable, hands = self.table_id, self._stable, self._hands
        if tid is None:
            return self._all_detections(frame)
        try:
            record = self.service.table(tid).record
            game = record.game
        except TableNotFound:
            self.watch(None)
            return frame
        reader = self.readers.get(game)
        if reader is None:
            self._set(tid, "unreadable", f"the camera does not read {game} yet")
            return self._all_detections(frame)
        if hands(frame):
            stable.feed(None)
            self._set(tid, "hand", "a hand is over the table: not reading")
            return _banner(frame.copy(), "hand over the table: not reading")
        if self.state == "hand":
            self._set(tid, "watching", "")
        reading = reader(frame, self.detector(), **_extras(reader, calibration=self.calibration, players=list(record.players),
                                                           profile=None if self.profiles is None else self.profiles.get()))
        with self._lock:
            self.last_view = reading.view
        view = stable.feed(reading.view)
        if view is not None:
            self._reconcile(tid, view)
        return annotate(frame, reading.drawables) if reading.drawables is not None else frame

    def _reconcile(self, tid: str, view: dict) -> None:
        match = self.service.match(tid)
        result = reconcile(match.engine, match.state, view)
        if result.status == "apply":
            try:
                for text in result.moves:
                    self.service.play(tid, text, source="camera")
                with self._lock:
                    self.applied += len(result.moves)
                self.service.set_candidates(tid, [], "")
                self._set(tid, "watching", f"camera played: {'; '.join(result.moves)}")
            except RulesError as exc:  # the game moved on by hand meanwhile: ask instead
                self.service.set_candidates(tid, [result.moves], f"could not play it: {exc.reason}")
                self._set(tid, "ask", exc.reason)
        elif result.status == "ask":
            self.service.set_candidates(tid, result.candidates, result.reason)
            self._set(tid, "ask", result.reason)
        elif result.status == "unexplained":
            self._set(tid, "watching", result.reason)
        else:
            self._set(tid, "watching", "")

    def _set(self, tid: str, state: str, detail: str) -> None:
        with self._lock:
            changed = (self.state, self.detail) != (state, detail)
            self.state, self.detail = state, detail
        if changed:
            self.service.set_camera_note(tid, self.note(tid))


def _extras(reader, **offered) -> dict:
    """The keyword arguments among `offered` that `reader` takes (older readers take only frame, detector)."""
    params = inspect.signature(reader).parameters
    return {k: v for k, v in offered.items() if k in params}


def _banner(frame: np.ndarray, text: str) -> np.ndarray:
    cv2.rectangle(frame, (0, 0), (frame.shape[1], 28), (0, 0, 160), -1)
    cv2.putText(frame, text, (8, 20), cv2.FONT_HERSHEY_SIMPLEX, 0.6, (255, 255, 255), 1, cv2.LINE_AA)
    return frame
