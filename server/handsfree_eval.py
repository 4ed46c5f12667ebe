"""End-to-end check of hands-free play on scripted footage: every move found, none invented.

frames -> hand skip -> detector -> reader -> stabiliser -> reconcile -> engine, exactly the
path the live server runs (TableWatcher), over footage whose moves are known.
"""
from __future__ import annotations

import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from rules.quarx.scoring import cards_for
from server.service import TableService
from server.store import EventStore
from server.watcher import TableWatcher
from vision.synth.footage import quarx_script, render_quarx_footage

PLAYERS = ["Ann", "Ben"]


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
    """A Quarx run: reveals the camera missed are typed by a person."""

    typed: int = 0


def run_quarx(seed: int, detector_loader: Callable[[], object] | None = None, rounds: int = 3, required: int = 5) -> HandsFreeResult:
    """Play a scripted 2-player Quarx game in front of the camera; players answer by hand.

    After each round's cards have lain there, the players answer (Ann right, Ben passes); if
    the camera has not played the reveal by then, a person types it, as at a real table.
    """
    from vision.readers import READERS

    script = quarx_script(seed, players=len(PLAYERS), rounds=rounds)
    frames = iter(render_quarx_footage(script, seed))
    truth = list(script.reveals)
    result = HandsFreeResult(seed, [f"reveal {' '.join(map(str, r))}" for r in truth])
    result.expected_scores = {"Ann": 2 * len(truth), "Ben": 0}
    with tempfile.TemporaryDirectory() as tmp:
        store = EventStore(Path(tmp) / "events.sqlite")
        svc = TableService(store)
        tid = svc.create("quarx", PLAYERS, seed=seed)
        watcher = TableWatcher(svc, detector_loader, READERS, required=required)
        watcher.watch(tid)
        answered = 0
        for shot in script.shots:
            for _ in range(shot.frames):
                watcher.process(next(frames))
                _click_if_asked(svc, tid, result, result.expected[answered] if answered < len(truth) else None)
            if shot.face_up and not shot.hand:  # the round's cards have lain there: players answer
                if svc.snapshot(tid)["chance"]:
                    svc.play(tid, result.expected[answered], source="page")
                    result.typed += 1
                svc.play(tid, "Ann " + "+".join(map(str, cards_for(sum(truth[answered])))), source="page")
                svc.play(tid, "Ben passes", source="page")
                answered += 1
        snap = svc.snapshot(tid)
        result.camera_moves = [m for m, s in zip(snap["history"], snap["sources"]) if s == "camera"]
        result.scores = snap["scores"]
        store.close()
    return result


def _click_if_asked(svc: TableService, tid: str, result: HandsFreeResult, want: str | None) -> None:
    """A person clicks the true move if the camera offers it among candidates, else dismisses them."""
    cands = svc.snapshot(tid)["candidates"]
    if not cands:
        return
    result.clicks += 1
    flat = [c[0] for c in cands]
    if want in flat:
        svc.choose(tid, flat.index(want))
    else:
        svc.set_candidates(tid, [], "")
