"""What the set-up wizard saved for one camera: that it was set up, its last picture check, the
game its test reading was for. Kept in the event log's meta table beside the calibration, under
the camera's own key, so each camera (webcam 0, webcam 1, a clip) keeps its own.

Contract: `load(store, camera)` -> CameraSettings (a default, `set_up=False`, when nothing is
saved or what is saved no longer parses); `save(store, camera, settings)`.
"""
from __future__ import annotations

import json
import time
from dataclasses import asdict, dataclass, field
from typing import Protocol


class MetaStore(Protocol):
    def get_meta(self, key: str) -> str | None: ...
    def set_meta(self, key: str, value: str) -> None: ...


@dataclass
class CameraSettings:
    """One camera's set-up, as the wizard left it."""

    camera: str  # "webcam:0", "demo:demo", "video:/path/clip.mp4" (the source's kind:target)
    set_up: bool = False  # the wizard was finished for this camera
    check: dict | None = None  # vision.camera_check.PictureCheck.to_json() of the last check
    game: str | None = None  # the game of the last test reading
    saved_at: float = field(default_factory=time.time)

    def to_json(self) -> dict:
        return asdict(self)


def key(camera: str) -> str:
    return f"camera-settings:{camera}"


def load(store: MetaStore, camera: str) -> CameraSettings:
    raw = store.get_meta(key(camera))
    if raw is None:
        return CameraSettings(camera, saved_at=0.0)
    try:
        data = json.loads(raw)
        return CameraSettings(camera, bool(data.get("set_up")), data.get("check"), data.get("game"), float(data.get("saved_at", 0)))
    except (ValueError, TypeError, AttributeError):
        return CameraSettings(camera, saved_at=0.0)  # an older or damaged entry: set the camera up again


def save(store: MetaStore, camera: str, settings: CameraSettings) -> None:
    store.set_meta(key(camera), json.dumps(settings.to_json()))
