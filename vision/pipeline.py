"""One camera frame, from the picture to what it means for the game.

    hands -> detector -> reader -> stabiliser -> reconcile -> annotate

`FramePipeline.step` is the whole path, in that order, for one frame of one table. The
server's watcher (live and demo), the benchmarks and the hands-free harnesses all call it;
the watcher then plays the moves it explains (`rules.core.reconcile`), so from a camera frame
to `engine.apply` there is this function and `server.watcher.TableWatcher.process`.

A game's reader (`vision.games.<game>.reader`) follows the `Reader` protocol: it reads one
frame into that game's TableView ("unsure is None, never a guess") and says how its fields
settle (`settle`).
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Literal, Protocol

import cv2
import numpy as np

from rules.core.engine import Engine
from rules.core.reconcile import Reconciliation, reconcile
from vision.calibration import Calibration
from vision.detector import annotate
from vision.hands import HandDetector
from vision.stability import Stabilizer

# "whole": the view counts only when all of it is the same over several frames.
# "per_field": each top-level field settles on its own (vision.stability.Stabilizer.per_field),
# for readers whose fields are read independently.
Settling = Literal["whole", "per_field"]


@dataclass(frozen=True)
class Reading:
    """A TableView (None: nothing readable) and what to draw on the picture."""

    view: dict[str, Any] | None
    drawables: Any = None  # detections or a result that vision.detector.annotate can draw


@dataclass(frozen=True)
class ReadContext:
    """What a reader may use besides the frame; each reader takes what it needs."""

    detector: Any = None  # vision.detector.Detector, or None: read classically
    calibration: Calibration | None = None  # the table's plane, for board readers
    players: tuple[str, ...] = ()  # in seat order
    profile: Any = None  # vision.detector.profile.DiceProfile taught for this camera, or None


class Reader(Protocol):
    """One game's camera reader."""

    settle: Settling

    def read(self, frame: np.ndarray, context: ReadContext) -> Reading:
        """The TableView of `frame`; a field the reader is unsure of is None."""


@dataclass(frozen=True)
class FrameStep:
    """What one frame did: the picture to show, and what was read and concluded."""

    picture: np.ndarray
    hand: bool  # a hand was over the table: the frame was not read
    seen: dict | None = None  # this frame's reading
    stable: dict | None = None  # the view that became stable with this frame, if one did
    result: Reconciliation | None = None  # what the stable view means for the game


@dataclass
class FramePipeline:
    """The frame path for one table; keeps the hand detector's and the stabiliser's memory."""

    reader: Reader
    required: int = 5  # frames a view must hold to count
    _hands: HandDetector = field(default_factory=HandDetector, init=False)
    _stable: Stabilizer = field(init=False)

    def __post_init__(self) -> None:
        self._stable = Stabilizer(self.required, per_field=self.reader.settle == "per_field")

    def step(self, frame: np.ndarray, context: ReadContext, engine: Engine, state: Any) -> FrameStep:
        """Read one frame against the game in `state`; see the module doc for the order."""
        seen = self.see(frame, context)
        if seen.stable is None:
            return seen
        return replace(seen, result=reconcile(engine, state, seen.stable))

    def see(self, frame: np.ndarray, context: ReadContext) -> FrameStep:
        """hands -> detector -> reader -> stabiliser -> annotate: what the table shows, without the
        game (`result` stays None). An edge camera worker stops here and sends the stable views to
        the server, which holds the game's state and reconciles them."""
        if self._hands(frame):
            self._stable.feed(None)  # what is under the hand may be changing
            return FrameStep(banner(frame.copy(), "hand over the table: not reading"), hand=True)
        reading = self.reader.read(frame, context)
        stable = self._stable.feed(reading.view)
        picture = annotate(frame, reading.drawables) if reading.drawables is not None else frame
        return FrameStep(picture, hand=False, seen=reading.view, stable=stable)


def banner(frame: np.ndarray, text: str) -> np.ndarray:
    """`frame` with a red strip across its top saying `text` (drawn in place)."""
    cv2.rectangle(frame, (0, 0), (frame.shape[1], 28), (0, 0, 160), -1)
    cv2.putText(frame, text, (8, 20), cv2.FONT_HERSHEY_SIMPLEX, 0.6, (255, 255, 255), 1, cv2.LINE_AA)
    return frame
