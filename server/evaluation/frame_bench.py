"""The whole camera frame path, timed per game: hand check, reader, stabiliser, reconcile, drawing.

The same `TableWatcher.process` the live server runs, on each game's scripted footage, with
the detector's annotation of the picture (`onnxruntime`) timed beside it when a model is installed.

The reader runs only until the table has settled (vision.pipeline.ChangeGate), so the median
frame costs what a frame does while the table holds still, and the p90 what a read costs. The
`hold` of the footage sets the pace of the game: how many frames each state of the table lies
still (the scripts' own holds are a second or two; a real table changes a few times a minute).
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
from vision.detector import NoModelError, annotate, load_detector, read_dice
from vision.detector.die_values import load_value_model
from vision.games.diceline.dice_on_mat import merge
from vision.games.diceline.geometry import mat_pose
from vision.games.diceline.reader import read_cells
from vision.games.diceline.spec import mat_layout
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
    mean_ms: float = 0.0  # CPU per frame, averaged over every frame of the footage
    read_share: float = 1.0  # frames the reader ran on / frames

    def core_share(self, fps: float) -> float:
        """The share of one core the table costs at `fps` camera frames per second."""
        return self.mean_ms * fps / 1000.0

    @property
    def fps(self) -> float:
        return 1000.0 / self.median_ms if self.median_ms else float("inf")


def footage(game: str, seed: int, n: int, hold: int | None = None) -> tuple[list[str], list[np.ndarray], object]:
    """Players, `n` frames and the calibration of a game's scripted footage (`hold`: frames each
    state of the table lies still; None: the script's own)."""
    pace = {} if hold is None else {"hold": hold}
    if game == "quarx":
        script = quarx_script(seed, rounds=2, names=["Ann", "Ben"], number_cards=True, **pace)
        return ["Ann", "Ben"], render_quarx_footage(script, seed)[:n], None
    if game == "ubongo":
        script = ubongo_script(seed, ["Ann", "Ben"], rounds=1, **pace)
        f = render_ubongo_footage(script, seed)
        return ["Ann", "Ben"], f.frames[:n], f.calibration
    if game == "diceline":
        script = diceline_script(seed, max_moves=12, **pace)
        return script.players, list(islice(render_footage(script, seed), n)), None
    raise ValueError(f"no footage for {game}")


def time_game(game: str, seed: int = 1, n: int = 40, detector_loader=None, hold: int | None = None) -> FrameTiming:
    """Median, p90 and mean ms of `TableWatcher.process` over `n` frames of the game's footage,
    and the share of frames the reader ran on."""
    players, frames, calibration = footage(game, seed, n, hold)
    with tempfile.TemporaryDirectory() as tmp:
        store = EventStore(Path(tmp) / "events.sqlite")
        svc = TableService(store)
        tid = svc.create(game, players, seed=seed)
        watcher = TableWatcher(svc, detector_loader, READERS)
        watcher.calibration = calibration
        watcher.watch(tid)
        times = []
        for frame in frames:
            t0 = time.process_time()
            watcher.process(frame)
            times.append((time.process_time() - t0) * 1000)
        store.close()
    h, w = frames[0].shape[:2]
    return _summary(game, times, (w, h), watcher.reads / max(1, len(frames)))


def time_detector(n: int = 40) -> FrameTiming | None:
    """The network's own pass on a 640x480 frame (what annotates an unwatched picture)."""

    try:
        det = load_detector()
    except NoModelError:
        return None
    frames = render_quarx_footage(quarx_script(1, rounds=1), 1)[:n]
    times = []
    for frame in frames:
        t0 = time.process_time()
        annotate(frame, det.detect(frame))
        times.append((time.process_time() - t0) * 1000)
    return _summary("detector (any game, unwatched)", times, (640, 480))


def time_diceline_die_reader(n: int = 12, seed: int = 1) -> tuple[float, float] | None:
    """Median CPU ms of one Diceline read with the die reader, two ways on the same frames in
    turn: (at the die cells, as the reader runs it; the detector over the whole frame and its
    tiles, as it ran before). None when the die models are not installed."""
    values = load_value_model()
    try:
        det = load_detector()
    except NoModelError:
        return None
    if values is None:
        return None
    players, frames, _ = footage("diceline", seed, n)
    at_cells, whole = [], []
    for frame in frames:
        t0 = time.process_time()
        read_cells(frame, seats=len(players), values=values)
        t1 = time.process_time()
        cells = read_cells(frame, seats=len(players))
        pose = mat_pose(frame)
        merge(cells.dice, read_dice(frame, det, second=False), np.linalg.inv(pose.tops), mat_layout().for_players(len(players)).die_cells())
        t2 = time.process_time()
        at_cells.append((t1 - t0) * 1000)
        whole.append((t2 - t1) * 1000)
    return statistics.median(at_cells), statistics.median(whole)


def _summary(name: str, times: list[float], size: tuple[int, int], read_share: float = 1.0) -> FrameTiming:
    ordered = sorted(times)
    return FrameTiming(name, len(ordered), size, statistics.median(ordered), ordered[int(0.9 * (len(ordered) - 1))],
                       statistics.fmean(ordered), read_share)
