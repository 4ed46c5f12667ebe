"""End-to-end check of hands-free Ubongo on scripted footage: every roll and grab found, none invented.

frames -> hand skip -> reader (classical, with the footage's four-click calibration) ->
stabiliser -> reconcile -> engine: the path the live server runs (TableWatcher). The camera
reads the rolls and the grabs; the scripted players type their shape entries on the page, as
real players do (the sheets are pencil on paper). A move the camera has not found by the time
the table changes again is typed by a person and counted as a click, as is every click on a
camera candidate.
"""
from __future__ import annotations

import math
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from rules.core import RulesError
from rules.ubongo.moves import Done, Enter
from rules.ubongo.state import ENTER
from server.evaluation.handsfree_quarx import HandsFreeRun
from server.service import TableService
from server.store import EventStore
from server.watcher import TableWatcher
from vision.games.readers import READERS
from vision.synth.footage_ubongo import render_ubongo_footage, ubongo_script

PLAYERS = ["Ann", "Ben"]


@dataclass
class UbongoHandsFree(HandsFreeRun):
    """What the camera made of one scripted Ubongo game."""

    tilt_deg: float = 0.0
    typed: list[str] = field(default_factory=list)  # moves a person had to type (counted in clicks)


def enter_shapes(svc: TableService, tid: str) -> None:
    """The scripted players at their sheets: each enters the first place listed for each shape."""
    match = svc.match(tid)
    while match.engine.to_move(match.state) and match.state.phase == ENTER:
        player = match.engine.to_move(match.state)[0]
        mine = [m for m in match.engine.legal_moves(match.state) if getattr(m, "player", None) == player]
        move = next((m for m in mine if isinstance(m, Enter)), Done(player))
        svc.play(tid, str(move), source="page")


def _camera_moves(svc: TableService, tid: str) -> list[tuple[str, str]]:
    snap = svc.snapshot(tid)
    return [(m, s) for m, s in zip(snap["history"], snap["sources"])
            if m.startswith("roll ") or " takes " in m]


def run_ubongo(seed: int, detector_loader: Callable[[], object] | None = None, rounds: int = 2,
               required: int = 3, tilt: float | None = None, players: list[str] | None = None) -> UbongoHandsFree:
    """Play a scripted Ubongo game in front of the camera (no detector model needed)."""
    players = list(players or PLAYERS)
    script = ubongo_script(seed, players, rounds=rounds)
    footage = render_ubongo_footage(script, seed, tilt)
    shown_by = [k for k, s in enumerate(script.shots) for _ in s.moves]  # shot index of each truth move
    truth = script.moves
    result = UbongoHandsFree(seed, list(truth), tilt_deg=round(math.degrees(footage.tilt), 1))
    with tempfile.TemporaryDirectory() as tmp:
        store = EventStore(Path(tmp) / "events.sqlite")
        svc = TableService(store)
        tid = svc.create("ubongo", players, seed=seed)
        watcher = TableWatcher(svc, detector_loader or (lambda: None), READERS, required=required)
        watcher.calibration = footage.calibration  # the four clicks a person makes once per camera
        watcher.watch(tid)

        def catch_up(before_shot: int) -> None:
            # The table is about to change: what it showed must be in the game, or a person types it.
            due = [m for m, k in zip(truth, shown_by) if k < before_shot]
            have = [m for m, _ in _camera_moves(svc, tid)]
            for move in due[len(have):]:
                try:
                    svc.play(tid, move, source="page")
                    result.typed.append(move)
                    result.clicks += 1
                except RulesError:
                    break  # the camera played something else: counted as wrong below
                enter_shapes(svc, tid)

        last_shot = -1
        for frame, k in zip(footage.frames, footage.shot_of_frame):
            if k != last_shot and script.shots[k].hand:
                catch_up(k)
            last_shot = k
            watcher.process(frame)
            candidates = svc.candidates(tid)
            if candidates:
                result.clicks += 1
                have = len(_camera_moves(svc, tid))
                want = truth[have:have + len(candidates[0])]
                flat = [list(c) for c in candidates]
                if want in flat:
                    svc.choose(tid, flat.index(want))
                else:
                    svc.set_candidates(tid, [], "")
            if svc.match(tid).state.phase == ENTER:
                enter_shapes(svc, tid)
        catch_up(len(script.shots))
        result.camera_moves = [m for m, s in _camera_moves(svc, tid) if s == "camera"]
        result.scores = svc.snapshot(tid)["scores"]
        # The same game with every roll and grab typed: the scores the camera's game must reach.
        ref = svc.create("ubongo", players, seed=seed)
        for move in truth:
            svc.play(ref, move, source="page")
            enter_shapes(svc, ref)
        result.expected_scores = svc.snapshot(ref)["scores"]
        store.close()
    return result


SEATS = [["Ann", "Ben"], ["Ann", "Ben", "Cid"], ["Ann", "Ben", "Cid", "Dee"]]


def main(seeds: int = 12) -> None:
    """Print the figures over seeds 1..`seeds`, cycling 2, 3 and 4 players (python -m server.evaluation.handsfree_ubongo [seeds])."""
    totals = {"expected": 0, "recognised": 0, "wrong": 0, "clicks": 0, "exact": 0}
    for seed in range(1, seeds + 1):
        players = SEATS[(seed - 1) % 3]
        # Two rounds with 3-4 players: the script lets everyone grab, so nobody may have filled the area yet.
        r = run_ubongo(seed, rounds=3 if len(players) == 2 else 2, players=players)
        totals["expected"] += len(r.expected)
        totals["recognised"] += r.recognised
        totals["wrong"] += r.wrong
        totals["clicks"] += r.clicks
        totals["exact"] += r.exact
        print(f"seed {seed:3d} {len(players)} players tilt {r.tilt_deg:4.1f}: {r.recognised}/{len(r.expected)} found, "
              f"{r.wrong} wrong, {r.clicks} clicks{'' if r.exact else '  NOT EXACT, typed: ' + '; '.join(r.typed)}", flush=True)
    print(f"{seeds} games: {totals['recognised']}/{totals['expected']} moves found by the camera, "
          f"{totals['wrong']} wrong, {totals['clicks']} clicks, {totals['exact']} games exact")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 12)
