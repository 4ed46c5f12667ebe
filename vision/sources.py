"""Frames from a webcam, a video file, a folder of images or the bundled demo.

A reader thread keeps only the newest frame (CAP_PROP_BUFFERSIZE alone is not enough: a slow
consumer would still see old frames), treats an empty or frozen camera as lost, and reopens
it with back-off, reporting what it is doing in `status()`.
"""
from __future__ import annotations

import threading
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Callable, Protocol

import cv2
import numpy as np

from vision.detector.errors import BadImageError
from vision.detector.image_io import read_image

IMAGE_SUFFIXES = {".jpg", ".jpeg", ".png", ".bmp", ".webp"}
DEMO_DIR = Path(__file__).resolve().parent.parent / "datasets" / "demo"


class Capture(Protocol):
    """What the reader needs from cv2.VideoCapture (and from the fakes in tests)."""

    def read(self) -> tuple[bool, np.ndarray | None]: ...
    def release(self) -> None: ...


class FolderCapture:
    """Images of a folder in name order, looping, at a steady pace.

    An image that cannot be read (corrupt, truncated, too large) is skipped and named in
    `problem` (the reader reports it); only a folder with no readable image gives no frame.
    """

    def __init__(self, folder: Path):
        self.files = sorted(p for p in Path(folder).iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
        if not self.files:
            raise FileNotFoundError(f"no images in {folder}")
        self.i = 0
        self.problem = ""
        self.skipped: set[str] = set()

    def read(self) -> tuple[bool, np.ndarray | None]:
        for _ in range(len(self.files)):
            path = self.files[self.i % len(self.files)]
            self.i += 1
            try:
                return True, read_image(path)
            except BadImageError as exc:
                self.skipped.add(path.name)
                self.problem = f"skipped {len(self.skipped)} unreadable image(s), last: {exc}"
        return False, None

    def release(self) -> None:
        pass


class LoopingVideo:
    """A video file that starts again at its end (demo footage plays forever)."""

    def __init__(self, path: Path):
        self.path = str(path)
        self.cap = cv2.VideoCapture(self.path)
        if not self.cap.isOpened():
            raise OSError(f"cannot open video {path}")

    def read(self) -> tuple[bool, np.ndarray | None]:
        ok, frame = self.cap.read()
        if not ok:
            self.cap.release()
            self.cap = cv2.VideoCapture(self.path)
            ok, frame = self.cap.read()
        return ok, frame

    def release(self) -> None:
        self.cap.release()


class PlaceholderDemo:
    """Drawn frames used when no demo footage is bundled: the loop still runs end to end."""

    def __init__(self, size: tuple[int, int] = (640, 480)):
        self.size, self.i = size, 0

    def read(self) -> tuple[bool, np.ndarray | None]:
        w, h = self.size
        frame = np.full((h, w, 3), (40, 90, 30), np.uint8)
        x = 40 + (self.i * 4) % (w - 120)
        cv2.rectangle(frame, (x, 200), (x + 60, 260), (235, 235, 235), -1)
        cv2.putText(frame, "TableSight demo", (20, 40), cv2.FONT_HERSHEY_SIMPLEX, 1.0, (255, 255, 255), 2)
        self.i += 1
        return True, frame

    def release(self) -> None:
        pass


class WebcamCapture:
    """A camera by index; opening fails loudly so the reader can back off and retry."""

    def __init__(self, index: int):
        self.cap = cv2.VideoCapture(index)
        if not self.cap.isOpened():
            self.cap.release()
            raise OSError(f"camera {index} cannot be opened")
        self.cap.set(cv2.CAP_PROP_BUFFERSIZE, 1)

    def read(self) -> tuple[bool, np.ndarray | None]:
        return self.cap.read()

    def release(self) -> None:
        self.cap.release()


VIDEO_SUFFIXES = {".mp4", ".avi", ".mkv", ".webm"}


@dataclass(frozen=True)
class DemoClip:
    """One bundled clip: its video, its game and its sidecar (None: a plain clip with no script)."""

    path: Path
    game: str
    sidecar: dict | None
    frames: int

    def info(self) -> dict:
        """What the page lists: game, players (None: the page's own), frames, fps, seconds, size."""
        car = self.sidecar or {}
        fps = float(car.get("fps") or 8.0)
        return {"game": self.game, "file": self.path.name, "players": car.get("players"), "frames": self.frames,
                "fps": fps, "seconds": round(self.frames / fps, 1), "bytes": self.path.stat().st_size,
                "sidecar": self.sidecar is not None}


def demo_clips(folder: Path = DEMO_DIR) -> list[DemoClip]:
    """The clips in `folder`: each video with the sidecar of the same name (.json), if any.

    Without a sidecar the game is the file name up to its first '_' (quarx_rounds.mp4: quarx)."""
    if not Path(folder).is_dir():
        return []
    clips = [demo_clip(p) for p in sorted(Path(folder).iterdir()) if p.suffix.lower() in VIDEO_SUFFIXES]
    return [c for c in clips if c is not None]


def demo_clip(path: Path) -> DemoClip | None:
    """One video and its sidecar (same name, .json); None when the video has no frames."""
    import json

    meta = path.with_suffix(".json")
    sidecar = json.loads(meta.read_text()) if meta.is_file() else None
    game = (sidecar or {}).get("game") or path.stem.split("_")[0]
    cap = cv2.VideoCapture(str(path))
    frames = int(cap.get(cv2.CAP_PROP_FRAME_COUNT)) if cap.isOpened() else 0
    cap.release()
    return DemoClip(path, game, sidecar, frames) if frames > 0 else None


class DemoCapture:
    """The bundled clips as one capture that can be steered.

    Idle it plays every clip in turn, so the home page shows each game. `follow(game)` loops
    one game's clip (a table of that game is being watched). `play(game)` starts that clip at
    frame 0, plays it once in lockstep with the consumer (the next frame waits until `ack`
    of the last one, up to `lockstep_wait` seconds), then goes back to playing in turn: the
    demo driver then sees every frame whatever the machine's speed, so it plays the same on
    a slow laptop as in the tests.
    """

    def __init__(self, clips: list[DemoClip], lockstep_wait: float = 3.0, remember: int = 16, max_hold: float = 60.0):
        if not clips:
            raise FileNotFoundError("no demo clips")
        self.clips = list(clips)
        self.lockstep_wait = lockstep_wait
        self._cond = threading.Condition()
        self._cap: cv2.VideoCapture | None = None
        self._clip = 0
        self._index = -1  # index of the last frame given out
        self._mode = "cycle"  # cycle | loop | once
        self._acked = -1
        self._recent: list[tuple[np.ndarray, int, int]] = []  # (frame, clip, index) given out lately
        self._remember = remember
        self._closed = False
        self.max_hold = max_hold
        self._hold_until = 0.0  # while the clip plays once: show its last frame again until then
        self._open(0)

    # -- steering (any thread) ---------------------------------------------------------------
    def clip_for(self, game: str) -> DemoClip | None:
        """The clip of `game`, if bundled."""
        return next((c for c in self.clips if c.game == game), None)

    def play(self, game: str) -> DemoClip:
        """Play `game`'s clip once from frame 0, in lockstep; afterwards every clip in turn again."""
        return self._switch(game, "once", restart=True)

    def follow(self, game: str) -> DemoClip | None:
        """Loop `game`'s clip (kept where it is if it already plays); None when there is none."""
        if self.clip_for(game) is None:
            return None
        return self._switch(game, "loop", restart=False)

    def cycle(self) -> None:
        """Back to every clip in turn (the current one plays on)."""
        with self._cond:
            self._mode = "cycle"
            self._cond.notify_all()

    def ack(self, clip: str, index: int) -> None:
        """The consumer is done with frame `index` of `clip`: lockstep may give out the next."""
        with self._cond:
            if self.clips[self._clip].game == clip and index > self._acked:
                self._acked = index
                self._cond.notify_all()

    def hold(self, on: bool) -> None:
        """Keep showing the current frame (the table waits for a person's click), at most `max_hold` s."""
        with self._cond:
            if not on:
                self._hold_until = 0.0
            elif self._hold_until == 0.0:
                self._hold_until = time.monotonic() + self.max_hold
            self._cond.notify_all()

    def position(self) -> dict:
        """Which clip plays, how (cycle | loop | once), the last frame index given out and the clip's length."""
        with self._cond:
            c = self.clips[self._clip]
            return {"game": c.game, "mode": self._mode, "frame": self._index, "frames": c.frames}

    def locate(self, frame: np.ndarray) -> tuple[str, int] | None:
        """(game, frame index) of a frame this capture gave out lately (the very same array), else None."""
        with self._cond:
            for f, clip, index in reversed(self._recent):
                if f is frame:
                    return self.clips[clip].game, index
        return None

    def _switch(self, game: str, mode: str, restart: bool) -> DemoClip:
        with self._cond:
            k = next(i for i, c in enumerate(self.clips) if c.game == game)
            if restart or k != self._clip:
                self._open(k)
            self._mode = mode
            self._cond.notify_all()
            return self.clips[k]

    def _open(self, k: int) -> None:
        if self._cap is not None:
            self._cap.release()
        self._cap = cv2.VideoCapture(str(self.clips[k].path))
        if not self._cap.isOpened():
            raise OSError(f"cannot open video {self.clips[k].path}")
        self._clip, self._index, self._acked, self._hold_until = k, -1, -1, 0.0

    # -- Capture (the reader thread) -----------------------------------------------------------
    def read(self) -> tuple[bool, np.ndarray | None]:
        with self._cond:
            if self._mode == "once" and self._index >= 0:
                # Lockstep: the driver must have seen the last frame before the next one is shown.
                self._cond.wait_for(lambda: self._acked >= self._index or self._mode != "once" or self._closed,
                                    timeout=self.lockstep_wait)
                if self._mode == "once" and time.monotonic() < self._hold_until and self._recent:
                    return True, self._recent[-1][0]  # the same frame object: `locate` still knows it
            ok, frame = self._cap.read()
            if not ok:  # the clip ended: the next one (cycle), the same again (loop), or back to cycle (once)
                nxt = (self._clip + 1) % len(self.clips) if self._mode == "cycle" else self._clip
                if self._mode == "once":
                    self._mode = "cycle"
                    nxt = (self._clip + 1) % len(self.clips)
                self._open(nxt)
                ok, frame = self._cap.read()
            if ok:
                self._index += 1
                self._recent = (self._recent + [(frame, self._clip, self._index)])[-self._remember:]
            return ok, frame

    def release(self) -> None:
        with self._cond:
            self._closed = True
            self._cond.notify_all()
            if self._cap is not None:
                self._cap.release()
                self._cap = None

    def reopen(self) -> "DemoCapture":
        """The same capture, opened again after a release (the reader reopens a lost source)."""
        with self._cond:
            if self._cap is None:
                self._closed = False
                self._open(self._clip)
        return self


def demo_capture() -> Capture:
    """The bundled demo clips (datasets/demo), an image folder there, or drawn frames."""
    clips = demo_clips(DEMO_DIR)
    if clips:
        return DemoCapture(clips)
    if DEMO_DIR.is_dir() and any(p.suffix.lower() in IMAGE_SUFFIXES for p in DEMO_DIR.iterdir()):
        return FolderCapture(DEMO_DIR)
    return PlaceholderDemo()


def webcam_available(index: int = 0) -> bool:
    """True when camera `index` opens and gives a frame."""
    try:
        cap = WebcamCapture(index)
    except OSError:
        return False
    ok, frame = cap.read()
    cap.release()
    return bool(ok) and frame is not None


@dataclass(frozen=True)
class SourceSpec:
    """What --source named: kind is webcam, video, folder or demo."""

    kind: str
    target: str
    live: bool  # a live camera can freeze or vanish; files and demo cannot

    def opener(self) -> Callable[[], Capture]:
        if self.kind == "webcam":
            return lambda: WebcamCapture(int(self.target))
        if self.kind == "video":
            return lambda: LoopingVideo(Path(self.target))
        if self.kind == "folder":
            return lambda: FolderCapture(Path(self.target))
        return demo_capture


def parse_source(text: str, probe_webcam: Callable[[int], bool] = webcam_available) -> SourceSpec:
    """Read --source: a webcam index, a video file, an image folder, 'demo' or 'auto'."""
    text = text.strip()
    if text == "auto":
        return SourceSpec("webcam", "0", True) if probe_webcam(0) else SourceSpec("demo", "demo", False)
    if text == "demo":
        return SourceSpec("demo", "demo", False)
    if text.isdigit():
        return SourceSpec("webcam", text, True)
    path = Path(text).expanduser()
    if path.is_dir():
        return SourceSpec("folder", str(path), False)
    if path.is_file():
        return SourceSpec("video", str(path), False)
    raise ValueError(f"--source {text!r} is not a webcam index, a video file, an image folder, 'demo' or 'auto'")


@dataclass
class SourceStatus:
    """What the reader is doing, for the page."""

    source: str
    state: str = "starting"  # starting | live | lost | reopening | stopped
    detail: str = ""
    frames: int = 0
    reopens: int = 0
    losses: int = 0
    last_problem: str = ""  # kept after recovery, so the page can say what happened
    last_frame_at: float | None = None


class FrameSource:
    """A reader thread over a capture; `latest()` is always the newest frame."""

    def __init__(
        self,
        spec: SourceSpec,
        opener: Callable[[], Capture] | None = None,
        fps: float = 15.0,
        frozen_after: float = 3.0,
        max_backoff: float = 8.0,
    ):
        self.spec = spec
        self._open = opener or spec.opener()
        self._period = 0.0 if spec.live else 1.0 / fps
        self.frozen_after = frozen_after
        self.max_backoff = max_backoff
        self._status = SourceStatus(source=f"{spec.kind}:{spec.target}")
        self._frame: np.ndarray | None = None
        self._seq = 0
        self._cond = threading.Condition()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.capture: Capture | None = None  # what the reader reads now (the demo driver steers a DemoCapture)

    def start(self) -> "FrameSource":
        self._thread = threading.Thread(target=self._run, name="frame-reader", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        if self._thread:
            self._thread.join(timeout=5)
        self._set(state="stopped", detail="")

    def status(self) -> dict:
        with self._cond:
            return asdict(self._status)

    def latest(self) -> tuple[int, np.ndarray | None]:
        """(sequence number, newest frame); the number grows with every new frame."""
        with self._cond:
            return self._seq, self._frame

    def wait_newer(self, seq: int, timeout: float = 1.0) -> tuple[int, np.ndarray | None]:
        """Block until a frame newer than `seq` arrives (or the timeout)."""
        with self._cond:
            self._cond.wait_for(lambda: self._seq > seq or self._stop.is_set(), timeout=timeout)
            return self._seq, self._frame

    def _set(self, **changes) -> None:
        with self._cond:
            for k, v in changes.items():
                setattr(self._status, k, v)

    def _run(self) -> None:
        backoff = 0.25
        cap: Capture | None = None
        last_sig: bytes | None = None
        same_since = time.monotonic()
        while not self._stop.is_set():
            if cap is None:
                try:
                    cap = self.capture = self._open()
                    self._set(state="live", detail="")
                    backoff = 0.25
                except Exception as exc:  # any failure to open is reported and retried
                    self._set(state="reopening", detail=f"{exc}; retrying in {backoff:.1f} s", last_problem=str(exc))
                    self._stop.wait(backoff)
                    backoff = min(backoff * 2, self.max_backoff)
                    with self._cond:
                        self._status.reopens += 1
                    continue
            started = time.monotonic()
            try:
                ok, frame = cap.read()
            except Exception as exc:
                ok, frame = False, None
                self._set(detail=str(exc))
            if not ok or frame is None or frame.size == 0:
                cap = self._lose(cap, "the source gave no frame")
                continue
            problem = getattr(cap, "problem", "")
            if problem:  # the source went on past a bad frame: live, but say what was skipped
                self._set(detail=problem, last_problem=problem)
            if self.spec.live:
                sig = frame[:: max(1, frame.shape[0] // 16), :: max(1, frame.shape[1] // 16)].tobytes()
                now = time.monotonic()
                if sig != last_sig:
                    last_sig, same_since = sig, now
                elif now - same_since > self.frozen_after:
                    cap = self._lose(cap, f"the picture has not changed for {self.frozen_after:.0f} s")
                    last_sig, same_since = None, time.monotonic()
                    continue
            with self._cond:
                self._frame = frame
                self._seq += 1
                self._status.frames += 1
                self._status.last_frame_at = time.time()
                self._status.state = "live"
                self._cond.notify_all()
            if self._period:
                self._stop.wait(max(0.0, self._period - (time.monotonic() - started)))
        if cap is not None:
            cap.release()

    def _lose(self, cap: Capture, why: str) -> None:
        """Release a failed capture and report it; the loop reopens it."""
        try:
            cap.release()
        except Exception:
            pass
        with self._cond:
            self._status.losses += 1
        self._set(state="lost", detail=f"{why}; reopening", last_problem=why)
        return None
