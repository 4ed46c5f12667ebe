"""One camera frame, from the picture to what it means for the game.

    hands -> detector -> reader -> stabiliser -> reconcile -> the picture (vision.scene_words)

The picture it returns is for the people at that game's table (vision.scene_words): only what
the game uses, labelled in their words, unsure things marked unsure, and what the camera waits
for (vision.waiting) along the bottom.

`FramePipeline.step` is the whole path, in that order, for one frame of one table. The
server's watcher (live and demo), the benchmarks and the hands-free harnesses all call it;
the watcher then plays the moves it explains (`rules.core.reconcile`), so from a camera frame
to `engine.apply` there is this function and `server.watcher.TableWatcher.process`.

A game's reader (`vision.games.<game>.reader`) follows the `Reader` protocol: it reads one
frame into that game's TableView ("unsure is None, never a guess") and says how its fields
settle (`settle`).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

import numpy as np

from rules.core.engine import Engine
from rules.core.reconcile import Reconciliation, reconcile
from vision.calibration import Calibration
from vision.detector.quarx import QuarxCount
from vision.hands import HandDetector
from vision.scene_words import draw_scene, labels_for
from vision.stability import Stabilizer
from vision.waiting import waiting_for

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
    drawn: Any = None  # what the reader found, as it drew it (Reading.drawables), for the page's glance


@dataclass
class FramePipeline:
    """The frame path for one table; keeps the hand detector's and the stabiliser's memory."""

    reader: Reader
    required: int = 5  # frames a view must hold to count
    _hands: HandDetector = field(default_factory=HandDetector, init=False)
    _stable: Stabilizer = field(init=False)
    _waiting: tuple[Any, str] = field(default=(None, ""), init=False)  # (state, its sentence): one view per move, not per frame

    def __post_init__(self) -> None:
        self._stable = Stabilizer(self.required, per_field=self.reader.settle == "per_field")

    def waiting(self, engine: Engine, state: Any) -> str:
        """What the camera waits for in `state` (vision.waiting), worked out once per state."""
        if self._waiting[0] is not state:
            self._waiting = (state, waiting_for(engine.name, engine.view(state, None), engine.is_over(state)))
        return self._waiting[1]

    def step(self, frame: np.ndarray, context: ReadContext, engine: Engine, state: Any) -> FrameStep:
        """Read one frame against the game in `state`; see the module doc for the order."""
        waiting = self.waiting(engine, state)
        if self._hands(frame):
            self._stable.feed(None)  # what is under the hand may be changing
            return FrameStep(draw_scene(frame, [], waiting, HAND_WORDS, alarm=True), hand=True)
        reading = self.reader.read(frame, context)
        stable = self._stable.feed(reading.view)
        result = reconcile(engine, state, stable) if stable is not None else None
        drawn = reading.drawables
        headline = None
        if isinstance(drawn, QuarxCount) and drawn.cards:
            headline = drawn.sentence() if drawn.sure else "unsure: spheres too close to call on a card: spread the cards apart, hold still"
        picture = draw_scene(frame, labels_for(engine.name, drawn), waiting, headline, alarm=headline is not None and "unsure" in headline)
        return FrameStep(picture, hand=False, seen=reading.view, stable=stable, result=result, drawn=drawn)


HAND_WORDS = "unsure: move your hand, the camera cannot see the table"

