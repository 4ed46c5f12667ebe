"""The demo driver: a bundled clip played as a real table, with the demo standing in for the players.

`start(game)` creates a table from the clip's sidecar (setup moves typed as 'page'), starts
the clip at frame 0 and lets the watcher watch the table. Then, on every frame the watcher
processes (`process` runs the watcher's frame path between its two steps), the driver types what a person
at the table would: the moves no camera can see at their frames, and any move the camera
should have made but has not by the time the footage has moved past it. Those moves carry
the source "demo", so the page can tell them from the camera's. When the clip ends the
driver stops, the table stays, and the demo plays every clip in turn again.
"""
from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from rules.core import RulesError
from server.evaluation.scripted import off_script
from server.service import TableNotFound, TableService
from server.watcher import TableWatcher
from vision.calibration import Calibration
from vision.sources import DemoCapture, DemoClip

DEMO_SOURCE = "demo"
PLAIN_CLIP_PLAYERS = ["Ann", "Ben"]  # a clip without a sidecar: the page's players, else these


class DemoUnavailable(RuntimeError):
    """The server's camera is not the demo (a webcam, a file, or none)."""


@dataclass
class DemoRun:
    """One clip being played as a table: where the script stands and who made which move."""

    table_id: str
    game: str
    setup: list[str]
    moves: list[str]
    shown_by: list[int]
    typed_at: dict[int, int]  # move index -> frame at which the demo types it (moves nothing shows)
    frames: int
    calibration_before: object = None
    frame: int = -1  # the last frame processed
    typed: list[str] = field(default_factory=list)  # typed by the demo because nothing shows them
    missed: list[str] = field(default_factory=list)  # typed by the demo because the camera had not made them
    wrong: list[str] = field(default_factory=list)  # moves in the log that the script does not have
    finished: bool = False

    def status(self) -> dict:
        """Where the run stands, for GET /api/demo and the tests."""
        return {"table": self.table_id, "game": self.game, "frame": self.frame, "frames": self.frames,
                "typed": list(self.typed), "missed": list(self.missed), "wrong": list(self.wrong),
                "finished": self.finished}


def _run_for(table_id: str, clip: DemoClip) -> DemoRun:
    car = clip.sidecar or {}
    moves = list(car.get("moves", []))
    typed_at: dict[int, int] = {}
    taken: set[int] = set()
    shown_by = [int(x) for x in car.get("shown_by", [])] or [clip.frames - 1] * len(moves)
    for item in car.get("typed", []):
        i = item.get("index")
        if i is None:  # a sidecar without indices: the first free move with that text ('done' recurs)
            i = next(j for j, m in enumerate(moves) if m == item["move"] and j not in taken)
        if moves[i] != item["move"]:
            raise ValueError(f"demo sidecar: typed move {item['move']!r} is not move {i} of the script")
        taken.add(i)
        typed_at[i] = int(item["frame"])
    return DemoRun(table_id, clip.game, list(car.get("setup", [])), moves, shown_by, typed_at, clip.frames)


class DemoDriver:
    """Plays demo clips as tables; thread-safe (the API starts runs, the camera thread drives them)."""

    def __init__(self, service: TableService, watcher: TableWatcher, capture: Callable[[], DemoCapture | None]):
        self.service = service
        self.watcher = watcher
        self._capture = capture
        self._lock = threading.RLock()
        self.run: DemoRun | None = None
        self.last: DemoRun | None = None

    def capture(self) -> DemoCapture:
        """The demo capture, or DemoUnavailable with the reason."""
        cap = self._capture()
        if not isinstance(cap, DemoCapture):
            raise DemoUnavailable("the demo plays only when the camera source is the bundled demo "
                                  "(serve --source demo, or auto with no webcam)")
        return cap

    def status(self) -> dict:
        """The run in progress (or the last one) and where the footage is."""
        with self._lock:
            run = self.run or self.last
            out = {"run": None if run is None else run.status(), "playing": self.run is not None}
        cap = self._capture()
        out["position"] = cap.position() if isinstance(cap, DemoCapture) else None
        return out

    # -- starting (from the API) ---------------------------------------------------------------
    def start(self, game: str, players: list[str] | None = None) -> str:
        """A new table playing `game`'s clip from frame 0, watched by the camera; returns its id."""
        cap = self.capture()
        clip = cap.clip_for(game)
        if clip is None:
            raise LookupError(f"no demo clip for {game}")
        car = clip.sidecar
        with self._lock:
            self._stop_run()
            if car is None:
                # A plain clip (no sidecar, no script): an ordinary table of the page's players, its clip looped.
                tid = self.service.create(game, list(players or PLAIN_CLIP_PLAYERS))
                cap.follow(game)
                self.watcher.watch(tid)
                return tid
            tid = self.service.create(game, list(car["players"]), dict(car.get("options") or {}), car.get("seed"))
            for text in car.get("setup", []):
                self.service.play(tid, text, source="page")
            run = _run_for(tid, clip)
            run.calibration_before = self.watcher.calibration
            self.watcher.calibration = _calibration(car.get("calibration"))  # in memory only: a saved one stays saved
            self.run = run
            self.watcher.watch(tid)
            cap.play(game)
            return tid

    def _stop_run(self) -> None:
        """End the run in progress (the table stays); the watcher gets its own calibration back."""
        run = self.run
        if run is None:
            return
        run.finished = True
        self.watcher.calibration = run.calibration_before
        self.last, self.run = run, None

    # -- the frame path (the camera thread) ------------------------------------------------------
    def process(self, frame: np.ndarray) -> np.ndarray:
        """The watcher's frame path, with what the demo's players type just before and after it."""
        where = self._where(frame)
        if where is not None:
            self.before_frame(where[1])
        try:
            return self.watcher.process(frame)
        finally:
            if where is not None:
                self.after_frame(where[1])

    def _where(self, frame: np.ndarray) -> tuple[str, int] | None:
        """(game, index) of a frame of the driven clip; also keeps the idle demo on the watched game."""
        cap = self._capture()
        if not isinstance(cap, DemoCapture):
            return None
        with self._lock:
            run = self.run
            if run is not None and self.watcher.table_id != run.table_id:
                self._stop_run()  # someone watches another table (or none): the demo steps aside
                cap.cycle()
                run = None
        if run is None:
            self._follow_watched(cap)
            return None
        where = cap.locate(frame)
        if where is None or where[0] != run.game or where[1] < run.frame:
            if cap.position()["mode"] != "once":  # the clip has ended (its last frame was skipped)
                self.finish()
            return None
        return where

    def _follow_watched(self, cap: DemoCapture) -> None:
        # A table watched by hand: show its game's clip (the Quarx rounds for a Quarx table), else all in turn.
        tid = self.watcher.table_id
        try:
            game = None if tid is None else self.service.table(tid).record.game
        except TableNotFound:
            game = None
        position = cap.position()
        if game is not None and cap.clip_for(game) is not None:
            if position["game"] != game or position["mode"] != "loop":
                cap.follow(game)
        elif position["mode"] == "loop":
            cap.cycle()

    def before_frame(self, index: int) -> None:
        """Type what is due at frame `index`, before the camera looks at it."""
        with self._lock:
            run = self.run
            if run is None:
                return
            run.frame = index
            self._type_due(run, index)

    def after_frame(self, index: int) -> None:
        """The camera has seen frame `index`: let the footage go on; at the clip's last frame, finish."""
        with self._lock:
            run = self.run
            if run is None:
                return
            cap = self._capture()
            if isinstance(cap, DemoCapture):
                # The camera asks which move it saw: the table waits for the click, as a real one would.
                cap.hold(self._asking(run))
                cap.ack(run.game, index)
            if index >= run.frames - 1:
                self.finish()

    def _asking(self, run: DemoRun) -> bool:
        try:
            return bool(self.service.candidates(run.table_id))  # every frame: no snapshot built for it
        except TableNotFound:
            return False

    def finish(self) -> None:
        """The clip has ended: type what is still missing, stop watching the table, play all clips again."""
        with self._lock:
            run = self.run
            if run is None:
                return
            self._type_due(run, None)
            if self.watcher.table_id == run.table_id:
                self.watcher.watch(None)  # the looping footage would no longer match the table
            self._stop_run()
        cap = self._capture()
        if isinstance(cap, DemoCapture):
            cap.cycle()

    def _type_due(self, run: DemoRun, index: int | None) -> None:
        """Play the script's next moves that are due at frame `index` (None: all of them)."""
        try:
            history = self.service.match(run.table_id).moves  # the full log: Quarx's shared view hides answers
        except TableNotFound:
            self._stop_run()
            return
        done = history[len(run.setup):]
        wrong = off_script(done, run.moves)
        if wrong:
            # The camera made a move the script does not have: typing on would only pile up errors.
            run.wrong = wrong
            return
        for i in range(len(done), len(run.moves)):
            if i in run.typed_at:
                if index is not None and index < run.typed_at[i]:
                    return
            elif index is not None and index <= run.shown_by[i]:
                return  # the camera may still see it
            try:
                self.service.play(run.table_id, run.moves[i], source=DEMO_SOURCE)
            except RulesError as exc:
                run.wrong.append(f"{run.moves[i]} (refused: {exc.reason})")
                return
            (run.typed if i in run.typed_at else run.missed).append(run.moves[i])
            if i not in run.typed_at:
                self.service.set_candidates(run.table_id, [], "")  # a question about it is answered


def _calibration(data: dict | None):
    if data is None:
        return None
    return Calibration.from_json(data)
