"""Hands-free Diceline, measured: a scripted round through TableWatcher, and board-reading accuracy.

frames -> hand skip -> reader (markers, mat pose, cells) -> stabiliser -> reconcile -> engine,
exactly the path the live server runs, over footage whose moves are known (vision/synth/
footage_diceline.py). The person at the table does only what no camera can see: a move that
leaves the table as it was ('done', 'stop', a die returned to the pool, a layout tile drawn)
is typed when the camera cannot infer it from the next move; an 'ask' gets one click.

    python -m server.evaluation.handsfree_diceline [seeds] [board-seeds] [--die-reader]

--die-reader: with the die models installed, as a server that has them reads (the die value
classifier shown each die cell, merged with the cell reader); else the cell reader alone.
"""
from __future__ import annotations

import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from server.detection import detector_loader
from server.evaluation.scripted import click_true_candidate, off_script
from server.service import TableService
from server.store import EventStore
from server.watcher import TableWatcher
from vision.detector.die_values import load_value_model
from vision.games.diceline.accuracy import board_accuracy
from vision.games.diceline.reader import read_diceline
from vision.games.readers import READERS
from vision.synth.footage_diceline import (
    DicelineScript,
    diceline_script,
    render_footage,
)


@dataclass
class DicelineRun:
    """What the camera made of one scripted round."""

    seed: int
    moves: list[str]  # the script after setup
    visible: int  # how many of them change what the camera can see
    camera: list[str] = field(default_factory=list)  # applied by the camera on its own
    clicked: list[str] = field(default_factory=list)  # applied by one click on a camera candidate
    typed: list[str] = field(default_factory=list)  # typed because nothing on the table shows them
    late: list[str] = field(default_factory=list)  # typed because the camera did not get them in time
    wrong: list[str] = field(default_factory=list)  # camera moves that differ from the script
    clicked_at: set[int] = field(default_factory=set)
    clicks: int = 0  # clicks on a camera candidate (one click may play two moves)
    exact: bool = False  # the final log and scores equal the script's
    frames: int = 0
    seconds: float = 0.0


def _inferable(script: DicelineScript, i: int) -> bool:
    """An unseen move the camera can still find: the next move shows, and explain looks two moves deep."""
    return i + 1 < len(script.moves) and script.visible[i + 1]


def run_diceline(seed: int, max_moves: int | None = None, required: int = 3, tilt: float = 35.0,
                 players: list[str] | None = None, die_reader: bool = False) -> DicelineRun:
    """Play one scripted round in front of the camera: the classical reader, or with `die_reader`
    the server's die models too (ValueError when none are installed)."""
    detector = detector_loader() if die_reader else (lambda: None)
    if detector is None:
        raise ValueError("--die-reader: no die models installed")
    t0 = time.perf_counter()
    script = diceline_script(seed, players=players, max_moves=max_moves)
    run = DicelineRun(seed, list(script.moves), sum(script.visible))
    with tempfile.TemporaryDirectory() as tmp:
        store = EventStore(Path(tmp) / "events.sqlite")
        svc = TableService(store)
        tid = svc.create("diceline", script.players, seed=seed)
        for text in script.setup:
            svc.play(tid, text, source="page")
        watcher = TableWatcher(svc, detector, READERS, required=required)
        watcher.watch(tid)
        base = len(script.setup)
        frames = render_footage(script, seed, tilt)
        for shot in script.shots:
            for _ in range(shot.frames):
                _type_unseen(svc, tid, script, base, run)
                watcher.process(next(frames))
                run.frames += 1
                _click(svc, tid, script, base, run)
                run.wrong = off_script(svc.snapshot(tid)["history"][base:], script.moves)
                if run.wrong:  # the camera applied something that did not happen
                    break
            if run.wrong:
                break
            if shot.hand:
                continue
            done = len(svc.snapshot(tid)["history"]) - base
            for text in script.moves[done:shot.upto]:  # the camera missed it: a person types it
                svc.play(tid, text, source="page")
                run.late.append(text)
        _type_unseen(svc, tid, script, base, run, to_end=True)
        snap = svc.snapshot(tid)
        log = snap["history"][base:]
        sources = snap["sources"][base:]
        run.camera = [text for i, (text, src) in enumerate(zip(log, sources)) if src == "camera" and i not in run.clicked_at]
        run.exact = log == script.moves and snap["scores"] == script.scores
        store.close()
    run.seconds = time.perf_counter() - t0
    return run


def _type_unseen(svc: TableService, tid: str, script: DicelineScript, base: int, run: DicelineRun,
                 to_end: bool = False) -> None:
    """Type the next moves while they are unseen and the camera cannot infer them from the next one."""
    while True:
        done = len(svc.snapshot(tid)["history"]) - base
        if done >= len(script.moves) or script.visible[done]:
            return
        if _inferable(script, done) and not to_end:
            return
        svc.play(tid, script.moves[done], source="page")
        run.typed.append(script.moves[done])


def _click(svc: TableService, tid: str, script: DicelineScript, base: int, run: DicelineRun) -> None:
    """One click on the candidate that is the script's next move(s), else dismiss them."""
    if not svc.candidates(tid):
        return
    done = len(svc.match(tid).moves) - base
    cand = click_true_candidate(svc, tid, script.moves, done)
    if cand is None:
        svc.set_candidates(tid, [], "")
        return
    run.clicked += cand
    run.clicks += 1
    run.clicked_at.update(range(done, done + len(cand)))


def summary(runs: list[DicelineRun]) -> dict:
    """Totals over runs."""
    return {
        "rounds": len(runs),
        "moves": sum(len(r.moves) for r in runs),
        "visible": sum(r.visible for r in runs),
        "camera": sum(len(r.camera) for r in runs),
        "clicked": sum(len(r.clicked) for r in runs),
        "clicks": sum(r.clicks for r in runs),
        "typed (unseen)": sum(len(r.typed) for r in runs),
        "typed (missed)": sum(len(r.late) for r in runs),
        "wrong": sum(len(r.wrong) for r in runs),
        "exact": sum(r.exact for r in runs),
        "frames": sum(r.frames for r in runs),
        "ms/frame incl. rendering": round(1000 * sum(r.seconds for r in runs) / max(1, sum(r.frames for r in runs)), 1),
    }


def reader_ms(seed: int = 0, frames: int = 30, tilt: float = 35.0, die_reader: bool = False) -> float:
    """Median milliseconds of the Diceline reader alone on footage frames (no hands in them)."""
    script = diceline_script(seed)
    values = load_value_model() if die_reader else None
    times = []
    for frame, _ in zip(render_footage(script, seed, tilt), range(frames)):
        t = time.perf_counter()
        read_diceline(frame, values, players=script.players)
        times.append(1000 * (time.perf_counter() - t))
    return float(sorted(times)[len(times) // 2])


def main(argv: list[str]) -> None:
    die_reader = "--die-reader" in argv
    argv = [a for a in argv if a != "--die-reader"]
    seeds = int(argv[0]) if argv else 5
    boards = int(argv[1]) if len(argv) > 1 else 10
    tilts = (0.0, 15.0, 30.0, 45.0)
    print("the cell reader and the die reader" if die_reader else "the cell reader alone")
    runs = [run_diceline(s, tilt=tilts[s % len(tilts)], die_reader=die_reader) for s in range(seeds)]
    for r in runs:
        print(f"seed {r.seed} (tilt {tilts[r.seed % len(tilts)]:.0f}): {len(r.moves)} moves, {r.visible} visible; camera {len(r.camera)}, clicked "
              f"{len(r.clicked)} in {r.clicks} clicks {r.clicked}, typed {len(r.typed)} unseen + {len(r.late)} missed {r.late}, wrong {r.wrong}, "
              f"exact {r.exact}")
    print(summary(runs))
    print(f"reader alone: median {reader_ms(die_reader=die_reader):.0f} ms per 1280x720 frame")
    values = load_value_model() if die_reader else None
    for tilt, score in (board_accuracy(range(boards), values=values) if boards else {}).items():
        print(f"tilt {tilt:>4}: cells {score.cells_right}/{score.cells} = {score.cell_rate:.2%}, "
              f"dice {score.dice_right}/{score.dice} = {score.dice_rate:.2%}; dice misread {score.misread}, left unread "
              f"{score.missed}, part unsure {score.part_unsure}; tiles wrong "
              f"{score.cells - score.cells_right - score.misread - score.missed - score.part_unsure}")


if __name__ == "__main__":
    main(sys.argv[1:])
