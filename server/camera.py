"""The live picture: frames from a source, annotated off the event loop, kept as JPEG."""
from __future__ import annotations

import threading
from typing import Callable

import cv2
import numpy as np

from vision.sources import FrameSource

# The frame path: a camera frame in, the picture to show out (the watcher's, or the demo's around it).
FramePath = Callable[[np.ndarray], np.ndarray]


class CameraFeed:
    """Runs the (slow) annotation in its own thread; the page reads the newest JPEG."""

    def __init__(self, source: FrameSource, process: FramePath | None = None, quality: int = 80):
        self.source = source
        self.process = process
        self.quality = quality
        self.annotate_error: str | None = None
        self._jpeg: bytes | None = None
        self._version = 0
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="camera-annotator", daemon=True)

    def switch(self, source: FrameSource) -> FrameSource:
        """Show `source` from now on (started here); the old one is stopped and returned."""
        source.start()
        with self._lock:
            old, self.source = self.source, source
            self._jpeg = None  # never show the old camera's picture as the new one's
        old.stop()
        return old

    def start(self) -> "CameraFeed":
        self.source.start()
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        self.source.stop()
        self._thread.join(timeout=5)

    def jpeg(self) -> tuple[int, bytes | None]:
        with self._lock:
            return self._version, self._jpeg

    def status(self) -> dict:
        st = self.source.status()
        st["annotation"] = "off" if self.process is None else (self.annotate_error or "on")
        return st

    def _run(self) -> None:
        seq, source = 0, self.source
        while not self._stop.is_set():
            if self.source is not source:  # switched: the new source counts its frames from 0
                seq, source = 0, self.source
            seq, frame = source.wait_newer(seq, timeout=0.5)
            if frame is None:
                continue
            if self.process is not None:
                try:
                    frame = self.process(frame)
                    self.annotate_error = None
                except Exception as exc:  # a detector failure must not stop the picture
                    self.annotate_error = f"annotation failed: {exc}"
            ok, buf = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, self.quality])
            if ok and source is self.source:
                with self._lock:
                    self._jpeg = buf.tobytes()
                    self._version += 1
