"""\"Teach it your dice\" on the page: the teaching session of this server's camera.

The user takes a few photos (the camera's newest frame or an uploaded image); the reader
proposes each die's value and colour; the user corrects, adds and removes dice; "learn" runs
`vision.teach.teach` in a worker thread and, when the held-out photos read better (or the
colours do), saves the profile for this camera and makes it the one every reader uses.

Bounded: at most MAX_PHOTOS photos of at most MAX_SIDE pixels on their long side, at most
MAX_DICE dice per photo, one learning at a time; whatever the photos hold, memory stays small.
"""
from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path

import cv2
import numpy as np

from server.dice_profile import ProfileOrigin, ProfileSlot, save_owner_only
from vision.detector.dice import DieReading, read_dice
from vision.detector.die_values import DEFAULT_VALUE_MODEL, DieValueModel, load_value_model
from vision.detector.errors import NoModelError
from vision.detector.model import Detector, load_detector
from vision.detector.profile import DiceProfile
from vision.teach import COLOUR_WORD, MIN_PER_VALUE, Photo, TaughtDie, TeachError, learned_words, teach

log = logging.getLogger("tablesight")

MAX_PHOTOS = 10
MAX_DICE = 60
MAX_SIDE = 1920      # photos are scaled down to this: a 50 MP upload must not cost 150 MB a photo
MIN_PHOTOS = 2       # vision.teach scores each photo on a layer fitted to the others
SUGGESTED_PHOTOS = (3, 5)
MIN_BOX = 4.0        # pixels: a smaller box cannot hold a die's face
RULE = "teaching"

Tools = Callable[[], tuple[Detector, DieValueModel | None]]


class LearnState(str, Enum):
    IDLE = "idle"
    RUNNING = "running"
    DONE = "done"
    FAILED = "failed"


class TeachRefused(Exception):
    """A request the teaching session cannot do now: HTTP status, reason in words, rule."""

    def __init__(self, status: int, reason: str, rule: str = RULE):
        super().__init__(reason)
        self.status, self.reason, self.rule = status, reason, rule


@dataclass
class ProposedDie:
    """A die on a photo: what the user says (value None: not said yet) and what the reader proposed."""

    id: int
    box: tuple[float, float, float, float]
    value: int | None
    colour: str | None
    proposed_value: int | None
    proposed_colour: str | None
    added: bool = False  # drawn by the user, not found by the reader

    def to_json(self) -> dict:
        return {"id": self.id, "box": [round(v, 1) for v in self.box], "value": self.value, "colour": self.colour,
                "proposed": {"value": self.proposed_value, "colour": self.proposed_colour}, "added": self.added}


@dataclass
class TeachPhoto:
    id: int
    name: str
    frame: np.ndarray
    jpeg: bytes
    dice: list[ProposedDie] = field(default_factory=list)
    next_die: int = 1
    note: str = ""

    def to_json(self) -> dict:
        h, w = self.frame.shape[:2]
        return {"id": self.id, "name": self.name, "width": w, "height": h, "note": self.note,
                "dice": [d.to_json() for d in self.dice]}

    def die(self, die_id: int) -> ProposedDie:
        for d in self.dice:
            if d.id == die_id:
                return d
        raise TeachRefused(404, f"photo {self.id} has no die {die_id}")


def default_tools() -> tuple[Detector, DieValueModel | None]:
    """The shared detector and value model; TeachRefused(503) when the detector is missing."""
    try:
        return load_detector(), load_value_model()
    except NoModelError as exc:
        raise TeachRefused(503, str(exc)) from None


def fit_photo(frame: np.ndarray) -> np.ndarray:
    """The frame scaled down to at most MAX_SIDE on its long side (a copy: the camera reuses its buffers)."""
    h, w = frame.shape[:2]
    scale = MAX_SIDE / max(h, w)
    if scale >= 1:
        return frame.copy()
    return cv2.resize(frame, (max(1, round(w * scale)), max(1, round(h * scale))), interpolation=cv2.INTER_AREA)


def check_colour(colour: str | None) -> str | None:
    """A colour word as vision.teach takes it (one lower-case word), or None."""
    if colour is None:
        return None
    word = colour.strip().lower()
    if not COLOUR_WORD.match(word):
        raise TeachRefused(422, f"a colour is one word of letters (at most 20), not {colour[:30]!r}")
    return word


def summary(report: dict) -> str:
    """The held-out figures in words: right before and after, and wrong answers."""
    b, a = report.get("held_out_before") or {}, report.get("held_out_after") or {}
    n = a.get("dice", b.get("dice", 0))
    return (f"held out photo by photo: {b.get('right', 0)} of {n} right before, {a.get('right', 0)} of {n} after; "
            f"{b.get('wrong', 0)} wrong before, {a.get('wrong', 0)} after")


class TeachingSession:
    """The photos and corrections of one camera, and its learning; every method is thread-safe."""

    def __init__(self, camera: str, profile_file: Path, slot: ProfileSlot, tools: Tools = default_tools):
        self.camera = camera
        self.profile_file = profile_file
        self.slot = slot
        self.tools = tools
        self._lock = threading.Lock()
        self._photos: list[TeachPhoto] = []
        self._next_photo = 1
        self._state = LearnState.IDLE
        self._progress = 0.0
        self._message = ""
        self._result: dict | None = None
        self._worker: threading.Thread | None = None

    # -- photos ------------------------------------------------------------------------------
    def _photo(self, photo_id: int) -> TeachPhoto:
        for p in self._photos:
            if p.id == photo_id:
                return p
        raise TeachRefused(404, f"no photo {photo_id} in this teaching session")

    def _room(self) -> None:
        if len(self._photos) >= MAX_PHOTOS:
            raise TeachRefused(409, f"the session holds at most {MAX_PHOTOS} photos: remove one first")

    def propose(self, frame: np.ndarray, name: str) -> dict:
        """Read `frame` with the active profile and keep it as a photo with the proposed dice.
        Slow (the detector): call it off the event loop."""
        with self._lock:
            self._room()  # refuse before the slow read, and again after it (another may have come)
        photo_frame = fit_photo(frame)
        detector, model = self.tools()
        readings = read_dice(photo_frame, detector, value_model=model, profile=self.slot.get())
        note = ""
        if len(readings) > MAX_DICE:
            # Keep the surest: a photo of a hundred dice still costs MAX_DICE entries.
            readings = sorted(sorted(readings, key=lambda r: -r.confidence)[:MAX_DICE], key=lambda r: r.box)
            note = f"more than {MAX_DICE} dice found: the {MAX_DICE} surest are kept"
        ok, buf = cv2.imencode(".jpg", photo_frame, [cv2.IMWRITE_JPEG_QUALITY, 85])
        if not ok:
            raise TeachRefused(400, "the photo cannot be encoded")
        with self._lock:
            self._room()
            photo = TeachPhoto(self._next_photo, name[:80], photo_frame, buf.tobytes(), note=note)
            self._next_photo += 1
            for r in readings:
                photo.dice.append(self._proposed(photo, r))
            self._photos.append(photo)
            return photo.to_json()

    @staticmethod
    def _proposed(photo: TeachPhoto, r: DieReading) -> ProposedDie:
        colour = r.color if r.color and COLOUR_WORD.match(r.color) else None
        d = ProposedDie(photo.next_die, tuple(float(v) for v in r.box), r.value, colour, r.value, colour)
        photo.next_die += 1
        return d

    def remove_photo(self, photo_id: int) -> None:
        with self._lock:
            self._photos.remove(self._photo(photo_id))

    def jpeg(self, photo_id: int) -> bytes:
        with self._lock:
            return self._photo(photo_id).jpeg

    # -- dice --------------------------------------------------------------------------------
    def correct(self, photo_id: int, die_id: int, value: int | None, colour: str | None, set_colour: bool) -> dict:
        """Say a die's value (1..6) and, when `set_colour`, its colour word (None: no colour)."""
        word = check_colour(colour) if set_colour else None
        with self._lock:
            d = self._photo(photo_id).die(die_id)
            if value is not None:
                d.value = value
            if set_colour:
                d.colour = word
            return d.to_json()

    def add_die(self, photo_id: int, box: tuple[float, float, float, float], value: int,
                colour: str | None) -> dict:
        """A die the reader missed, boxed by the user (pixels of the photo)."""
        word = check_colour(colour)
        with self._lock:
            photo = self._photo(photo_id)
            if len(photo.dice) >= MAX_DICE:
                raise TeachRefused(413, f"a photo holds at most {MAX_DICE} dice: remove one first")
            h, w = photo.frame.shape[:2]
            x1, x2 = sorted((min(max(box[0], 0.0), w), min(max(box[2], 0.0), w)))
            y1, y2 = sorted((min(max(box[1], 0.0), h), min(max(box[3], 0.0), h)))
            if x2 - x1 < MIN_BOX or y2 - y1 < MIN_BOX:
                raise TeachRefused(422, f"a die's box must be at least {MIN_BOX:g} pixels wide and high "
                                        f"inside the {w}x{h} photo")
            d = ProposedDie(photo.next_die, (x1, y1, x2, y2), value, word, None, None, added=True)
            photo.next_die += 1
            photo.dice.append(d)
            return d.to_json()

    def remove_die(self, photo_id: int, die_id: int) -> None:
        """A false die (or one the user does not want taught)."""
        with self._lock:
            photo = self._photo(photo_id)
            photo.dice.remove(photo.die(die_id))

    # -- learning ----------------------------------------------------------------------------
    def _labelled(self) -> list[Photo]:
        if len(self._photos) < MIN_PHOTOS:
            raise TeachRefused(409, f"learning needs at least {MIN_PHOTOS} photos ({SUGGESTED_PHOTOS[0]} to "
                                    f"{SUGGESTED_PHOTOS[1]} are best); this session has {len(self._photos)}")
        unsure = [f"photo {p.id}: {sum(d.value is None for d in p.dice)}" for p in self._photos
                  if any(d.value is None for d in p.dice)]
        if unsure:
            raise TeachRefused(409, "say the value of every unsure die, or remove it (" + ", ".join(unsure) + ")")
        if not any(p.dice for p in self._photos):
            raise TeachRefused(409, "no die on any photo: roll your dice and take a photo")
        return [Photo(f"photo {p.id}", p.frame, [TaughtDie(d.box, int(d.value), d.colour) for d in p.dice])
                for p in self._photos]

    def start_learning(self) -> None:
        """Start learning in a worker thread (never on the event loop); progress via state()."""
        with self._lock:
            if self._state is LearnState.RUNNING:
                raise TeachRefused(409, "learning is already running")
            photos = self._labelled()
        detector, model = self.tools()
        if model is None:
            raise TeachRefused(503, f"learning needs the die value model ({DEFAULT_VALUE_MODEL}), which is not installed")
        with self._lock:
            if self._state is LearnState.RUNNING:
                raise TeachRefused(409, "learning is already running")
            self._state, self._progress, self._message, self._result = LearnState.RUNNING, 0.0, "starting", None
            self._worker = threading.Thread(target=self._learn, args=(photos, detector, model),
                                            name="teach-dice", daemon=True)
            self._worker.start()

    def _say(self, fraction: float, message: str) -> None:
        with self._lock:
            self._progress, self._message = max(0.0, min(1.0, float(fraction))), message

    def _learn(self, photos: list[Photo], detector: Detector, model: DieValueModel) -> None:
        try:
            profile = teach(photos, detector, model, progress=self._say)
            result = self._adopt(profile)
        except TeachError as exc:
            self._finish(LearnState.FAILED, str(exc), None)
        except Exception as exc:  # a bug must still end the learning in words; the trace goes to the log
            log.exception("teaching failed")
            self._finish(LearnState.FAILED, f"internal error: {type(exc).__name__}", None)
        else:
            self._finish(LearnState.DONE, result["message"], result)

    def _adopt(self, profile: DiceProfile) -> dict:
        """Save and activate the profile when it reads the held-out photos better; "never worse":
        otherwise the reader in use stays and the result says so."""
        report = profile.report
        taught = report.get("kept") == "taught"
        useful = taught or bool(report.get("colours_kept"))
        if useful:
            save_owner_only(profile, self.profile_file)
            self.slot.set(profile, ProfileOrigin.TAUGHT, self.profile_file)
        if taught:
            verdict = "Learned: your profile now reads every die on this server."
            changed = learned_words(report)
            if changed:
                verdict += f" What changed: {changed}."
        elif useful:
            verdict = ("Kept the shipped reader for values (teaching did not read your held-out photos better); "
                       "your colours are learned.")
        else:
            verdict = ("Kept the shipped reader: teaching did not read your held-out photos better, "
                       "so the reader in use stays.")
        if report.get("layer_note"):
            verdict += f" Note: {report['layer_note']}."
        return {"kept": "taught" if taught else "shipped", "activated": useful, "summary": summary(report),
                "message": verdict, "before": report.get("held_out_before"), "after": report.get("held_out_after"),
                "photos": report.get("photos"), "dice": report.get("dice"), "seconds": report.get("seconds")}

    def _finish(self, state: LearnState, message: str, result: dict | None) -> None:
        with self._lock:
            self._state, self._message, self._result = state, message, result
            self._progress = 1.0 if state is LearnState.DONE else self._progress

    def wait(self) -> None:
        """Block until a running learning has ended (for tests and shutdown; the page polls)."""
        worker = self._worker
        if worker is not None:
            worker.join()

    # -- the page's view -----------------------------------------------------------------------
    def state(self) -> dict:
        with self._lock:
            photos = [p.to_json() for p in self._photos]
            learn = {"state": self._state.value, "progress": round(self._progress, 3), "message": self._message,
                     "result": self._result}
        return {"camera": self.camera, "photos": photos, "learn": learn, "profile": self.slot.describe(),
                "limits": {"photos": MAX_PHOTOS, "dice_per_photo": MAX_DICE, "min_photos": MIN_PHOTOS,
                           "suggested_photos": list(SUGGESTED_PHOTOS), "min_per_value": MIN_PER_VALUE}}
