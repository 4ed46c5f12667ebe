"""The dice profile this server reads with: one slot every die reader looks in.

A profile comes from `tablesight serve --profile PROFILE`, from the file saved for this camera
by an earlier teaching, or from teaching on the page. It is kept per camera, beside the event
log, in a file only its owner can read; the shipped value model is never changed.
"""
from __future__ import annotations

import hashlib
import os
import threading
from dataclasses import dataclass
from enum import Enum
from pathlib import Path

from server.event_stores import local_folder
from vision.detector.die_values import DEFAULT_VALUE_MODEL, load_value_model
from vision.detector.model import installed_detector_digest
from vision.detector.profile import DiceProfile, ProfileError, load_profile
from vision.detector.second_detector import installed_second_digest


class ProfileOrigin(str, Enum):
    """Where the active profile came from (shown on the page)."""

    NONE = "none"
    COMMAND_LINE = "command line"
    SAVED = "saved for this camera"
    TAUGHT = "taught on the page"


@dataclass(frozen=True)
class ActiveProfile:
    profile: DiceProfile | None
    origin: ProfileOrigin
    path: Path | None


class ProfileSlot:
    """The active profile of this server process (None: the shipped reader); thread-safe.

    Every reader that reads dice in this process takes its profile from here (`get()`): the
    teaching proposals and any hands-free reader that accepts a `profile` (see TableWatcher)."""

    def __init__(self, profile: DiceProfile | None = None, origin: ProfileOrigin = ProfileOrigin.NONE,
                 path: Path | None = None):
        self._lock = threading.Lock()
        self._active = ActiveProfile(profile, origin if profile is not None else ProfileOrigin.NONE, path)

    def get(self) -> DiceProfile | None:
        with self._lock:
            return self._active.profile

    def active(self) -> ActiveProfile:
        with self._lock:
            return self._active

    def set(self, profile: DiceProfile, origin: ProfileOrigin, path: Path | None) -> None:
        with self._lock:
            self._active = ActiveProfile(profile, origin, path)

    def describe(self) -> dict:
        a = self.active()
        if a.profile is None:
            return {"active": False, "origin": ProfileOrigin.NONE.value, "kept": None, "message": None}
        # No file path: the page may be a phone on the Wi-Fi, and the server's folders are not its business.
        return {"active": True, "origin": a.origin.value, "kept": a.profile.report.get("kept"),
                "message": a.profile.report.get("message")}


def profile_path(db_path: str | Path, camera_key: str) -> Path:
    """The profile file of a camera: beside the event log, named by a hash of the camera's key
    (a camera's name may be a long path; the file name stays short and safe)."""
    digest = hashlib.sha256(camera_key.encode("utf-8", "backslashreplace")).hexdigest()[:16]
    return local_folder(db_path) / "profiles" / f"camera-{digest}.json"


def save_owner_only(profile: DiceProfile, path: Path) -> Path:
    """Write the profile readable by its owner only (a profile describes someone's table),
    atomically: a crash mid-write leaves the old file."""
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    profile.save(tmp)
    os.chmod(tmp, 0o600)
    os.replace(tmp, path)
    return path


def load_for_this_model(path: str | Path) -> DiceProfile:
    """A profile that fits the installed value model; ProfileError says in words why not
    (no file, not a profile, taught on another model, or no value model installed)."""
    p = Path(path)
    if not p.is_file():
        raise ProfileError(f"no dice profile at {p} (make one with `tablesight teach DIR --out {p}` "
                           "or with \"Teach it your dice\" on the page)")
    model = load_value_model()
    if model is None:
        raise ProfileError(f"{p}: a dice profile needs the die value model ({DEFAULT_VALUE_MODEL}), "
                           "which is not installed")
    return load_profile(p, model.digest, installed_detector_digest(), installed_second_digest())
