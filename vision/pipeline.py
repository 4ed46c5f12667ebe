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

A table changes a few times a minute, not 30 times a second, so the reader (the costly part:
slicing, crop classifiers) runs only while something may still be settling: once a reading has
settled (the stabiliser has handed it on), later frames that show the same table (`ChangeGate`)
reuse it instead of reading again, until the picture changes; a settled view with unknown
fields is read again every `Reader.reread` frames; for a reader that asks for fewer re-reads than
every frame, that interval doubles each time a re-read finds the same view again, up to
`REREAD_BACKOFF` times it (an empty space stays empty however often it is read; a change of the
picture still reads at once). Until a view settles every frame is read exactly as before, so what
settles, and when, is unchanged.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Literal, Protocol

import cv2
import numpy as np

from rules.core.engine import Engine
from rules.core.reconcile import Reconciliation, reconcile
from vision.calibration import Calibration
from vision.detector.quarx import QuarxCount
from vision.hands import HandDetector
from vision.scene_words import COUNT_HIDDEN, draw_scene, labels_for
from vision.stability import Stabilizer, has_unknown
from vision.waiting import hides_counts, waiting_for

# "whole": the view counts only when all of it is the same over several frames.
# "per_field": each top-level field settles on its own (vision.stability.Stabilizer.per_field),
# for readers whose fields are read independently.
Settling = Literal["whole", "per_field"]
# How far the re-read interval of a settled view with unknown fields may grow (as a multiple of
# Reader.reread), for readers with reread > 1: Diceline's 4 frames become at most 32 (4 s at the
# demo's 8 frames a second) while the table holds still and every re-read finds the same view.
REREAD_BACKOFF = 8


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
    # While the table holds still and its view has settled with unknown (None) fields, read
    # again every `reread` frames (1: every frame): a reader whose None means "unsure this
    # time" (a card hidden by glare) needs the next frames; one whose None mostly means "empty"
    # (a TableView cannot say empty) gains nothing from them.
    reread: int

    def read(self, frame: np.ndarray, context: ReadContext) -> Reading:
        """The TableView of `frame`; a field the reader is unsure of is None."""


@dataclass
class ChangeGate:
    """A cheap "has the table changed?" check against a reference picture.

    Compares a blurred half-size grey copy of each frame with the copy kept by `keep`: the table
    has changed when at least `pixels` of its pixels differ by more than `level` grey levels,
    after both are scaled to the same mean brightness (a webcam's exposure and a lamp's flicker
    brighten the whole picture, which is not a change on the table).
    One pixel at half size is a 2 x 2 patch of the frame, so a moved die (hundreds of pixels) or
    a pip turned up counts, while sensor noise (flattened by the blur) does not. The reference
    is the picture of when the view settled, not the previous frame: a slow drift adds up.
    """

    level: int = 24
    pixels: int = 6
    _ref: np.ndarray | None = None

    @staticmethod
    def _small(frame: np.ndarray) -> np.ndarray:
        grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY) if frame.ndim == 3 else frame
        small = cv2.resize(grey, (grey.shape[1] // 2, grey.shape[0] // 2), interpolation=cv2.INTER_AREA)
        small = cv2.GaussianBlur(small, (3, 3), 0).astype(np.float32)
        return small * (128.0 / max(1.0, float(small.mean())))

    def keep(self, frame: np.ndarray) -> None:
        """Take `frame` as the picture later frames are compared with."""
        self._ref = self._small(frame)

    def forget(self) -> None:
        self._ref = None

    def same(self, frame: np.ndarray) -> bool:
        """True when a reference is kept and `frame` shows the same table as it."""
        if self._ref is None:
            return False
        small = self._small(frame)
        if small.shape != self._ref.shape:
            return False
        return int(np.count_nonzero(cv2.absdiff(small, self._ref) > self.level)) < self.pixels


@dataclass(frozen=True)
class FrameStep:
    """What one frame did: the picture to show, and what was read and concluded."""

    picture: np.ndarray
    hand: bool  # a hand was over the table: the frame was not read
    seen: dict | None = None  # this frame's reading
    stable: dict | None = None  # the view that became stable with this frame, if one did
    result: Reconciliation | None = None  # what the stable view means for the game
    drawn: Any = None  # what the reader found, as it drew it (Reading.drawables), for the page's glance
    read: bool = False  # the reader ran on this frame (False: a hand, or the settled reading reused)


@dataclass
class FramePipeline:
    """The frame path for one table; keeps the hand detector's, the stabiliser's and the gate's memory."""

    reader: Reader
    required: int = 5  # frames a view must hold to count
    gate: ChangeGate | None = field(default_factory=ChangeGate)  # None: read every frame
    _hands: HandDetector = field(default_factory=HandDetector, init=False)
    _stable: Stabilizer = field(init=False)
    _settled: Reading | None = field(default=None, init=False)  # stable, while the table holds
    _reused: int = field(default=0, init=False)  # frames the settled reading was reused since it was read
    _reread_every: int = field(default=1, init=False)  # the settled view's re-read interval now (frames)
    _waiting: tuple[Any, str, bool] = field(default=(None, "", False), init=False)  # (state, its sentence, counts hidden): one view per move, not per frame

    def __post_init__(self) -> None:
        self._stable = Stabilizer(self.required, per_field=self.reader.settle == "per_field")

    def waiting(self, engine: Engine, state: Any) -> str:
        """What the camera waits for in `state` (vision.waiting), worked out once per state."""
        return self._screen(engine, state)[1]

    def hides_counts(self, engine: Engine, state: Any) -> bool:
        """Whether the shared screen must hide what the cards count in `state` (vision.waiting)."""
        return self._screen(engine, state)[2]

    def _screen(self, engine: Engine, state: Any) -> tuple[Any, str, bool]:
        if self._waiting[0] is not state:
            view = engine.view(state, None)
            self._waiting = (state, waiting_for(engine.name, view, engine.is_over(state)), hides_counts(view))
        return self._waiting

    def step(self, frame: np.ndarray, context: ReadContext, engine: Engine, state: Any) -> FrameStep:
        """Read one frame against the game in `state`; see the module doc for the order."""
        seen = self.see(frame, context, engine.name, self.waiting(engine, state), self.hides_counts(engine, state))
        if seen.stable is None:
            return seen
        return replace(seen, result=reconcile(engine, state, seen.stable))

    def see(self, frame: np.ndarray, context: ReadContext, game: str | None = None, waiting: str = "",
            hide_counts: bool = False) -> FrameStep:
        """hands -> detector -> reader -> stabiliser -> the picture: what the table shows, without
        the game's rules (`result` stays None). An edge camera worker stops here and sends the
        stable views to the server, which holds the game's state and reconciles them. `game`
        names the game for the picture's words; `waiting` is what the camera waits for;
        `hide_counts`: the rules hide the Quarx counts on the shared screen now, so the picture
        marks the cards it counted but neither the numbers nor the spheres."""
        if self._hands(frame):
            self._stable.feed(None)  # what is under the hand may be changing
            self._unsettle()
            return FrameStep(draw_scene(frame, [], waiting, HAND_WORDS, alarm=True), hand=True)
        if self._settled is not None and self.gate is not None and self.gate.same(frame) and \
                (self._reused + 1 < self._reread_every or not has_unknown(self._settled.view)):
            # Nothing new to read: the last reading has settled and the table has not changed.
            # (Re-reading it would only feed the stabiliser a view it has already handed on.)
            self._reused += 1
            reading = self._settled
            return FrameStep(self._picture(frame, game, reading.drawables, waiting, hide_counts), hand=False, seen=reading.view,
                             drawn=reading.drawables)
        reading = self.reader.read(frame, context)
        stable = self._stable.feed(reading.view)
        if self.gate is not None and self._stable.holds(reading.view):
            if self._settled is None or not self.gate.same(frame):
                self.gate.keep(frame)
            self._reread_every = self._next_interval(reading)
            self._settled, self._reused = reading, 0
        else:
            self._unsettle()
        drawn = reading.drawables
        return FrameStep(self._picture(frame, game, drawn, waiting, hide_counts), hand=False, seen=reading.view, stable=stable,
                         drawn=drawn, read=True)

    @staticmethod
    def _picture(frame: np.ndarray, game: str | None, drawn: Any, waiting: str, hide_counts: bool) -> np.ndarray:
        """The frame with what the reader found, in players' words, and what the camera waits for."""
        headline = None
        if isinstance(drawn, QuarxCount) and drawn.cards:
            if not drawn.sure:
                headline = "unsure: spheres too close to call on a card: spread the cards apart, hold still"
            else:
                headline = COUNT_HIDDEN if hide_counts else drawn.sentence()
        return draw_scene(frame, labels_for(game, drawn, hide_counts), waiting, headline,
                          alarm=headline is not None and "unsure" in headline)

    def _next_interval(self, reading: Reading) -> int:
        """The re-read interval after `reading` held: doubled when a re-read of the settled view
        found it again (readers with reread > 1 only), else the reader's own."""
        base = self.reader.reread
        if base > 1 and self._settled is not None and self._settled.view == reading.view:
            return min(self._reread_every * 2, base * REREAD_BACKOFF)
        return base

    def _unsettle(self) -> None:
        self._settled = None
        if self.gate is not None:
            self.gate.forget()


HAND_WORDS = "unsure: move your hand, the camera cannot see the table"
