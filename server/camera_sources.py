"""The cameras the set-up wizard offers: webcams that answer, the bundled footage and its clips.

Contract: `list_sources(current, probe=..., max_webcams=4) -> list[CameraChoice]`. Webcams are
found by opening `cv2.VideoCapture(i)` for i below a fixed bound (never a number the client
sends), and a webcam counts only when it gives a frame; the one in use now is listed without
opening it a second time. A client names a choice by its `id` only ("webcam:1", "demo",
"clip:quarx_rounds.mp4"), and `resolve(id)` maps it back to a SourceSpec, so no path or index
from a request reaches OpenCV unchecked.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Callable, Literal

import cv2
import numpy as np

from vision.sources import DEMO_DIR, SourceSpec, demo_clips

Kind = Literal["webcam", "demo", "clip", "video", "folder"]
MAX_WEBCAMS = 4  # indices probed: 0-3 covers a laptop's own camera plus a USB one or two
SYS_V4L = Path("/sys/class/video4linux")


@dataclass(frozen=True)
class CameraChoice:
    """One camera the wizard can show and pick."""

    id: str
    kind: Kind
    name: str  # what a person reads: "camera 0: Integrated Webcam", "demo footage: Quarx"
    in_use: bool = False

    def to_json(self) -> dict:
        return asdict(self)


def webcam_name(index: int, sys_dir: Path = SYS_V4L) -> str:
    """The device's own name on Linux (/sys/class/video4linux/videoN/name), else 'camera N'."""
    try:
        name = (sys_dir / f"video{index}" / "name").read_text(encoding="utf-8", errors="replace").strip()
    except OSError:
        name = ""
    return f"camera {index}: {name[:60]}" if name else f"camera {index}"


def grab_webcam(index: int) -> np.ndarray | None:
    """One frame from webcam `index`, or None when it does not open or gives nothing."""
    cap = cv2.VideoCapture(index)
    try:
        if not cap.isOpened():
            return None
        ok, frame = cap.read()
        return frame if ok and frame is not None and frame.size else None
    finally:
        cap.release()


def grab_video(path: Path, at: float = 0.4) -> np.ndarray | None:
    """A frame from `at` (fraction) into a video file: the start of a clip is often an empty table."""
    cap = cv2.VideoCapture(str(path))
    try:
        if not cap.isOpened():
            return None
        n = int(cap.get(cv2.CAP_PROP_FRAME_COUNT) or 0)
        if n > 1:
            cap.set(cv2.CAP_PROP_POS_FRAMES, int(n * at))
        ok, frame = cap.read()
        return frame if ok and frame is not None and frame.size else None
    finally:
        cap.release()


def _demo_title(game: str) -> str:
    return {"diceline": "Diceline", "ubongo": "Ubongo", "quarx": "Quarx"}.get(game, game)


def list_sources(current: SourceSpec | None, probe: Callable[[int], np.ndarray | None] = grab_webcam,
                 max_webcams: int = MAX_WEBCAMS, demo_dir: Path = DEMO_DIR) -> list[CameraChoice]:
    """Webcams that give a frame (index and name), the demo footage, and each bundled clip."""
    choices: list[CameraChoice] = []
    using = None if current is None else (current.kind, current.target)
    for i in range(max(0, min(max_webcams, MAX_WEBCAMS * 4))):
        in_use = using == ("webcam", str(i))
        if in_use or probe(i) is not None:
            choices.append(CameraChoice(f"webcam:{i}", "webcam", webcam_name(i), in_use))
    choices.append(CameraChoice("demo", "demo", "demo footage: every bundled clip in turn", using == ("demo", "demo")))
    for clip in demo_clips(demo_dir):
        choices.append(CameraChoice(f"clip:{clip.path.name}", "clip", f"video file: {clip.path.name} ({_demo_title(clip.game)})",
                                    using == ("video", str(clip.path))))
    if current is not None and current.kind in ("video", "folder") and not any(c.in_use for c in choices):
        # Started with --source FILE or FOLDER: that one is listed too, by the name it was given.
        choices.append(CameraChoice("current", current.kind, f"{current.kind}: {Path(current.target).name}", True))
    return choices


def resolve(choice_id: str, current: SourceSpec | None, demo_dir: Path = DEMO_DIR) -> SourceSpec:
    """The SourceSpec a listed id stands for; ValueError (with the reason) for any other text."""
    if choice_id == "demo":
        return SourceSpec("demo", "demo", False)
    if choice_id == "current" and current is not None:
        return current
    kind, _, rest = choice_id.partition(":")
    if kind == "webcam" and rest.isdigit() and len(rest) <= 2 and int(rest) < MAX_WEBCAMS * 4:
        return SourceSpec("webcam", str(int(rest)), True)
    if kind == "clip":
        for clip in demo_clips(demo_dir):
            if clip.path.name == rest:
                return SourceSpec("video", str(clip.path), False)
        raise ValueError(f"no bundled clip named {rest[:80]!r}")
    raise ValueError(f"{choice_id[:80]!r} is not a listed camera: use an id from GET /api/camera/sources")


def preview(spec: SourceSpec, live_frame: np.ndarray | None = None) -> np.ndarray | None:
    """One picture from `spec` (`live_frame` when it is the camera in use); None when it gives none."""
    if live_frame is not None:
        return live_frame
    if spec.kind == "webcam":
        return grab_webcam(int(spec.target))
    if spec.kind == "video":
        return grab_video(Path(spec.target))
    if spec.kind == "demo":
        clips = demo_clips(DEMO_DIR)
        return grab_video(clips[0].path) if clips else None
    return None
