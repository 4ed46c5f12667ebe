"""Demo clips: scripted footage written as a small video plus a JSON sidecar the demo driver follows.

The sidecar says what a person at the table would do that no camera can see (the `typed`
moves, each at a frame of the video) and, for every move of the script, the frame by which
the table shows it (`shown_by`): a camera move still missing after that frame is typed by the
demo, as a person at the table would type it.

    {"game", "players", "seed", "options", "setup", "calibration",
     "typed": [{"frame", "move", "index" (into moves)}], "moves", "shown_by", "fps", "frames", "size"}
"""
from __future__ import annotations

import json
import tempfile
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, field
from typing import Any
from pathlib import Path

import cv2
import numpy as np

from rules.core.match import Match
from rules.registry import ENGINES
from rules.ubongo.moves import Done, Enter
from rules.ubongo.state import ENTER
from server.demo import DemoDriver
from server.evaluation.scripted import click_true_candidate
from server.service import TableService
from server.store import EventStore
from server.watcher import TableWatcher
from vision.games.readers import READERS
from vision.sources import DemoCapture, demo_clip
from vision.synth.footage import quarx_script, render_quarx_footage
from vision.synth.footage_diceline import diceline_script, render_footage
from vision.synth.footage_ubongo import render_ubongo_footage, ubongo_script

FPS = 8.0


@dataclass
class Sidecar:
    """What the demo driver needs besides the frames (see the module docstring)."""

    game: str
    players: list[str]
    seed: int
    options: dict = field(default_factory=dict)
    setup: list[str] = field(default_factory=list)
    calibration: dict | None = None
    typed: list[dict] = field(default_factory=list)
    moves: list[str] = field(default_factory=list)
    shown_by: list[int] = field(default_factory=list)
    fps: float = FPS
    frames: int = 0
    size: list[int] = field(default_factory=list)  # [width, height]

    def to_json(self) -> dict:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict) -> Sidecar:
        """A sidecar from its JSON; unknown keys are ignored, missing ones take defaults."""
        known = {k: v for k, v in data.items() if k in cls.__dataclass_fields__}
        return cls(**known)


def write_clip(frames: Iterable[np.ndarray], sidecar: Sidecar, video: Path) -> Sidecar:
    """Write the frames (mp4v) and the sidecar next to them (same name, .json); returns the sidecar."""
    video.parent.mkdir(parents=True, exist_ok=True)
    out = None
    n = 0
    for frame in frames:
        if out is None:
            h, w = frame.shape[:2]
            out = cv2.VideoWriter(str(video), cv2.VideoWriter_fourcc(*"mp4v"), sidecar.fps, (w, h))
            if not out.isOpened():
                raise OSError(f"cannot write video {video}")
            sidecar.size = [w, h]
        out.write(frame)
        n += 1
    if out is not None:
        out.release()
    sidecar.frames = n
    video.with_suffix(".json").write_text(json.dumps(sidecar.to_json(), indent=1) + "\n")
    return sidecar


def _shot_ends(frames_per_shot: list[int]) -> list[int]:
    """The last frame index of each shot."""
    return [int(x) - 1 for x in np.cumsum(frames_per_shot)]


# -- Diceline --------------------------------------------------------------------------------
def diceline_clip(seed: int, hold: int = 9, hand: int = 3, tilt: float = 30.0,
                  players: list[str] | None = None, width: int = 960, smooth: float = 0.7
                  ) -> tuple[Iterable[np.ndarray], Sidecar]:
    """Round 1 of a seeded Diceline game: frames and sidecar.

    A move the table shows is due by the last frame of the shot that holds it. A move nothing
    shows ('done', 'stop', a die returned) is typed at the end of the shot showing the move
    before it, unless the next move shows: then the camera infers both (reconcile looks two
    moves deep), as in server.evaluation.handsfree_diceline."""

    script = diceline_script(seed, players=players, hold=hold, hand=hand)
    ends = _shot_ends([s.frames for s in script.shots])
    held_until = {s.upto: end for s, end in zip(script.shots, ends) if not s.hand}  # upto -> last held frame
    car = Sidecar("diceline", list(script.players), seed, setup=list(script.setup), moves=list(script.moves))
    shown_by: list[int | None] = [None] * len(script.moves)
    last_held = held_until[0]
    for i, move in enumerate(script.moves):
        if script.visible[i]:
            shown_by[i] = last_held = held_until[i + 1]
        elif i + 1 < len(script.moves) and script.visible[i + 1]:
            shown_by[i] = held_until[i + 2]  # found with the next move
        else:
            shown_by[i] = last_held
            car.typed.append({"frame": last_held, "move": move, "index": i})
    car.shown_by = [int(x) for x in shown_by]
    return _compressible(render_footage(script, seed, tilt), width, smooth), car


def _compressible(frames: Iterable[np.ndarray], width: int, smooth: float) -> Iterable[np.ndarray]:
    """Frames shrunk to `width` pixels across and smoothed (Gaussian sigma `smooth` px).

    The renderer's per-frame sensor noise is what makes the 720p clip large (7.7 MB for a
    round); a slight blur halves that and the reader still finds every move (see rehearse)."""
    for frame in frames:
        h, w = frame.shape[:2]
        if w > width:
            frame = cv2.resize(frame, (width, round(h * width / w)), interpolation=cv2.INTER_AREA)
        yield cv2.GaussianBlur(frame, (0, 0), smooth) if smooth > 0 else frame


# -- Ubongo ----------------------------------------------------------------------------------
def _entries(match) -> list[str]:
    """The scripted players at their sheets (as server.evaluation.handsfree_ubongo): first place listed per shape."""

    typed = []
    while match.engine.to_move(match.state) and match.state.phase == ENTER:
        player = match.engine.to_move(match.state)[0]
        mine = [m for m in match.engine.legal_moves(match.state) if getattr(m, "player", None) == player]
        typed.append(match.play(next((m for m in mine if isinstance(m, Enter)), Done(player))))
    return typed


def ubongo_clip(seed: int, players: list[str] | None = None, rounds: int = 3, hold: int = 9,
                tilt: float | None = None, smooth: float = 0.7) -> tuple[Iterable[np.ndarray], Sidecar]:
    """A seeded Ubongo game of `rounds` rolls: frames, calibration and sidecar.

    The camera reads rolls and grabs (due by the end of the shot that shows them); the shape
    entries, pencil on paper, are typed at the end of the shot showing the round's last grab."""

    players = list(players or ["Ann", "Ben"])
    script = ubongo_script(seed, players, rounds=rounds, hold=hold)
    footage = render_ubongo_footage(script, seed, tilt)
    ends = _shot_ends([s.frames for s in script.shots])
    match = Match(ENGINES["ubongo"], players, seed=seed)
    car = Sidecar("ubongo", players, seed, calibration=footage.calibration.to_json())
    for shot, end in zip(script.shots, ends):
        for move in shot.moves:
            car.moves.append(match.play(move))
            car.shown_by.append(end)
            for entry in _entries(match):
                car.moves.append(entry)
                car.shown_by.append(end)
                car.typed.append({"frame": end, "move": entry, "index": len(car.moves) - 1})
    return _compressible(footage.frames, 640, smooth), car


# -- Quarx -----------------------------------------------------------------------------------
def quarx_clip(seed: int, rounds: int = 3, players: list[str] | None = None, together_every: int = 2
               ) -> tuple[Iterable[np.ndarray], Sidecar]:
    """Seeded Quarx rounds with number cards: every move shows on the table, so nothing is typed.

    Every `together_every`-th round two piles go down under one arm pass: the camera cannot
    tell who was first and asks (the demo holds the footage until someone clicks)."""

    players = list(players or ["Ann", "Ben"])
    script = quarx_script(seed, players=len(players), rounds=rounds, names=players, number_cards=True,
                          together_every=together_every)
    car = Sidecar("quarx", players, seed, moves=script.moves)
    for shot, end in zip(script.shots, _shot_ends([s.frames for s in script.shots])):
        car.shown_by += [end] * len(shot.moves)
    return render_quarx_footage(script, seed), car


# -- checking a clip -------------------------------------------------------------------------
@dataclass
class Rehearsal:
    """A clip played through the live path (watcher + driver) without a server: who made which move."""

    game: str
    frames: int
    expected: list[str]  # setup + moves of the sidecar
    history: list[str]
    sources: list[str]
    typed: list[str]
    missed: list[str]
    wrong: list[str]
    scores_by_camera: list[str]  # camera moves after which a score changed
    clicked: list[list[str]] = field(default_factory=list)  # camera candidates a person picked

    @property
    def camera(self) -> list[str]:
        return [m for m, s in zip(self.history, self.sources) if s == "camera"]

    @property
    def exact(self) -> bool:
        return self.history == self.expected and not self.wrong


def rehearse(video: Path, required: int = 5, players: list[str] | None = None,
             detector: Callable[[], Any] | None = None) -> Rehearsal:
    """Play `video` (with its sidecar) frame by frame through a TableWatcher and the demo driver;
    `detector`: the loader a server hands its readers (server.detection.detector_loader), None:
    the readers without the die models."""

    clip = demo_clip(video)
    if clip is None:
        raise FileNotFoundError(f"no frames in {video}")
    cap = DemoCapture([clip])
    with tempfile.TemporaryDirectory() as tmp:
        store = EventStore(Path(tmp) / "events.sqlite")
        svc = TableService(store)
        watcher = TableWatcher(svc, detector or (lambda: None), READERS, required=required)
        driver = DemoDriver(svc, watcher, lambda: cap)
        tid = driver.start(clip.game, players)
        scoring: list[str] = []
        clicked: list[list[str]] = []
        car = clip.sidecar or {}
        script = list(car.get("setup", [])) + list(car.get("moves", []))
        for _ in range(clip.frames + 2):
            if driver.run is None:
                break
            before = svc.snapshot(tid)
            ok, frame = cap.read()
            if not ok:
                break
            driver.process(frame)
            # A person at the table answers the camera's question with what happened.
            chosen = click_true_candidate(svc, tid, script, len(svc.match(tid).moves))
            if chosen:
                clicked.append(chosen)
            after = svc.snapshot(tid)
            new = list(zip(after["history"], after["sources"]))[len(before["history"]):]
            if after["scores"] != before["scores"] and any(s == "camera" for _, s in new):
                scoring += [m for m, s in new if s == "camera"]
        driver.finish()
        snap = svc.snapshot(tid)
        svc_history = list(svc.match(tid).moves)  # the full log (the shared snapshot may hide answers)
        run = driver.last
        store.close()
    return Rehearsal(clip.game, clip.frames, script, svc_history, snap["sources"], run.typed, run.missed, run.wrong, scoring, clicked)
