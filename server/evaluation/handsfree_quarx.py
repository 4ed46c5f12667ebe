"""End-to-end check of hands-free play on scripted footage: every move found, none invented.

frames -> hand skip -> detector -> reader -> stabiliser -> reconcile -> engine, exactly the
path the live server runs (TableWatcher), over footage whose moves are known.
"""
from __future__ import annotations

import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from rules.core import Match
from rules.registry import engine_for
from server.evaluation.scripted import click_true_candidate, off_script
from server.service import TableService
from server.store import EventStore
from server.watcher import TableWatcher
from vision.games.readers import READERS
from vision.synth.footage import quarx_script, render_quarx_footage

NAMES = ["Ann", "Ben", "Cat", "Dan"]  # seat order; the footage draws up to four seats


@dataclass
class HandsFreeRun:
    """What the camera made of one scripted game (any game)."""

    seed: int
    expected: list[str]  # the moves the footage shows, in order
    camera_moves: list[str] = field(default_factory=list)
    clicks: int = 0
    scores: dict[str, int] = field(default_factory=dict)
    expected_scores: dict[str, int] = field(default_factory=dict)

    @property
    def recognised(self) -> int:
        """Camera moves that are script moves (a clicked candidate counts: the camera found it)."""
        return sum(1 for m in self.camera_moves if m in self.expected)

    @property
    def wrong(self) -> int:
        return sum(1 for m in self.camera_moves if m not in self.expected)

    @property
    def exact(self) -> bool:
        """Every move found by the camera and the score right."""
        return self.camera_moves == self.expected and self.scores == self.expected_scores


@dataclass
class HandsFreeResult(HandsFreeRun):
    """A Quarx run: moves the camera missed are typed by a person; `wrong` lists invented ones."""

    typed: int = 0
    invented: list[str] = field(default_factory=list)  # log entries that differ from the script

    @property
    def wrong(self) -> int:
        return len(self.invented)


def run_quarx(seed: int, detector_loader: Callable[[], object] | None = None, rounds: int = 3, required: int = 5,
              together_every: int = 0, players: int = 2) -> HandsFreeResult:
    """Play a scripted Quarx game (2-4 players) in front of the camera, number cards and all.

    The footage shows every move: the reveal, each pile laid face down in finishing order, the
    turn over. A question from the camera (two piles laid at once) gets one click on the true
    candidate. A move the camera has not made once its shot has passed is typed by a person.
    """
    names = NAMES[:players]
    script = quarx_script(seed, players=players, rounds=rounds, names=names, number_cards=True,
                          together_every=together_every)
    frames = iter(render_quarx_footage(script, seed))
    result = HandsFreeResult(seed, script.moves)
    truth = Match(engine_for("quarx"), names, seed=seed)
    for text in script.moves:
        truth.play(text)
    result.expected_scores = dict(truth.engine.scores(truth.state))
    with tempfile.TemporaryDirectory() as tmp:
        store = EventStore(Path(tmp) / "events.sqlite")
        svc = TableService(store)
        tid = svc.create("quarx", names, seed=seed)
        watcher = TableWatcher(svc, detector_loader, READERS, required=required)
        watcher.watch(tid)
        upto = 0  # script moves the table has shown so far
        for shot in script.shots:
            upto += len(shot.moves)
            for _ in range(shot.frames):
                watcher.process(next(frames))
                _click_if_asked(svc, tid, result)
                if _invented(svc, tid, result):
                    break
            if result.invented:
                break
            if shot.hand:
                continue
            done = len(svc.match(tid).moves)
            for text in script.moves[done:upto]:  # the camera missed it: a person types it
                svc.play(tid, text, source="page")
                result.typed += 1
        snap = svc.snapshot(tid)
        result.camera_moves = [m for m, s in zip(svc.match(tid).moves, snap["sources"]) if s == "camera"]
        result.scores = snap["scores"]
        store.close()
    return result


def _invented(svc: TableService, tid: str, result: HandsFreeResult) -> bool:
    """True (and the differing entries kept) when the log has left the script."""
    # The full log: the shared snapshot hides answers while a round is open.
    result.invented = off_script(svc.match(tid).moves, result.expected)
    return bool(result.invented)


def _click_if_asked(svc: TableService, tid: str, result: HandsFreeResult) -> None:
    """A person clicks the candidate that is what happened, else dismisses them all."""
    if not svc.candidates(tid):
        return
    result.clicks += 1
    if click_true_candidate(svc, tid, result.expected, len(svc.match(tid).moves)) is None:
        svc.set_candidates(tid, [], "")
