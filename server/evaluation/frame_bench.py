"""The whole camera frame path, timed per game: hand check, reader, stabiliser, reconcile, drawing.

The same `TableWatcher.process` the live server runs, on each game's scripted footage, with
the detector's annotation of the picture (`onnxruntime`) timed beside it when a model is installed.
"""
from __future__ import annotations

import statistics
import tempfile
import time
from dataclasses import dataclass
from itertools import islice
from pathlib import Path

import numpy as np

from server.service import TableService
from server.store import EventStore
from server.watcher import TableWatcher
from vision.detector import NoModelError, annotate, load_detector
from vision.games.readers import READERS
from vision.synth.footage import quarx_script, render_quarx_footage
from vision.synth.footage_diceline import diceline_script, render_footage
from vision.synth.footage_ubongo import render_ubongo_footage, ubongo_script


@dataclass(frozen=True)
class FrameTiming:
    """Milliseconds per frame for one game's frame path."""

    game: str
    frames: int
    size: tuple[int, int]
    median_ms: float
    p90_ms: float

    @property
    def fps(self) -> float:
        return 1000.0 / self.median_ms if self.median_ms else float("inf")


def footage(game: str, seed: int, n: int) -> tuple[list[str], list[np.ndarray], object]:
    """Players, `n` frames and the calibration of a game's scripted footage."""
    if game == "quarx":

        script = quarx_script(seed, rounds=2, names=["Ann", "Ben"], number_cards=True)
        return ["Ann", "Ben"], render_quarx_footage(script, seed)[:n], None
    if game == "ubongo":

        script = ubongo_script(seed, ["Ann", "Ben"], rounds=1)
        f = render_ubongo_footage(script, seed)
        return ["Ann", "Ben"], f.frames[:n], f.calibration
    if game == "diceline":

        script = diceline_script(seed, max_moves=12)
        return script.players, list(islice(render_footage(script, seed), n)), None
    raise ValueError(f"no footage for {game}")


def time_game(game: str, seed: int = 1, n: int = 40, detector_loader=None) -> FrameTiming:
    """Median and p90 ms of `TableWatcher.process` over `n` frames of the game's footage."""
    players, frames, calibration = footage(game, seed, n)
    with tempfile.TemporaryDirectory() as tmp:
        store = EventStore(Path(tmp) / "events.sqlite")
        svc = TableService(store)
        tid = svc.create(game, players, seed=seed)
        watcher = TableWatcher(svc, detector_loader, READERS)
        watcher.calibration = calibration
        watcher.watch(tid)
        times = []
        for frame in frames:
            t0 = time.perf_counter()
            watcher.process(frame)
            times.append((time.perf_counter() - t0) * 1000)
        store.close()
    h, w = frames[0].shape[:2]
    return _summary(game, times, (w, h))


def time_detector(n: int = 40) -> FrameTiming | None:
    """The network's own pass on a 640x480 frame (what annotates an unwatched picture)."""

    try:
        det = load_detector()
    except NoModelError:
        return None
    frames = render_quarx_footage(quarx_script(1, rounds=1), 1)[:n]
    times = []
    for frame in frames:
        t0 = time.perf_counter()
        annotate(frame, det.detect(frame))
        times.append((time.perf_counter() - t0) * 1000)
    return _summary("detector (any game, unwatched)", times, (640, 480))


def _summary(name: str, times: list[float], size: tuple[int, int]) -> FrameTiming:
    ordered = sorted(times)
    return FrameTiming(name, len(ordered), size, statistics.median(ordered), ordered[int(0.9 * (len(ordered) - 1))])
