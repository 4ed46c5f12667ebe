"""Spheres in a photo where no card is found: a detector that looks for spheres on the table.

The card counter (vision.games.quarx.cards) counts only on cards it finds whole; a close-up of
one card, or a scene of objects with no card (spheres among cubes, cylinders, eggs and discs,
as other renderers draw them), leaves it with nothing to count. This detector (YOLO11n, one
class, 480 px, trained on `vision.synth.table_scenes` only: vision.training.sphere_scenes) boxes each
sphere in the whole picture, and its count stands only when every box is sure one way or the
other: a box between MAYBE and SURE makes the count unsure, never a guess. Where the scene judge
is installed (vision.games.quarx.scene_judge), each such box is shown to it instead, and the count
stands where the judge is sure of every one.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from vision.detector.geometry import holds_centre
from vision.detector.model import Detection, Detector
from vision.detector.onnx_session import SharedModels
from vision.games.quarx.scene_judge import NOT_SPHERE, SPHERE, SceneJudge, load_scene_judge

DEFAULT_SCENE_SPHERES = Path(__file__).resolve().parents[3] / "models" / "scene_spheres.onnx"
# A box at least SURE is a sphere; one under MAYBE is not looked at; one between makes the count
# unsure. Chosen for v3 on 300 validation scenes of the training renderer's third look (249 with
# every sphere in sight; vision.training.sphere_scenes --validate --look 3, seed 1011), never on the
# ray-marched test look: the most pictures exact with none wrong, a count of none unsure as
# `tablesight quarx` answers (25; v2 on the same scenes: 3, at 0.95 and 0.05). Weighing the boxes
# between as chances (CERTAIN under 1) gained nothing with none wrong on v2's validation.
SURE, MAYBE = 0.9, 0.1
CERTAIN = 1.0  # the count stands only when no box lies between MAYBE and SURE
IOU = 0.5  # spheres stand apart; two boxes overlapping more are one sphere boxed twice


@dataclass(frozen=True)
class JudgeCuts:
    """How the judge settles boxes: each box scored from `maybe` up to the detector's SURE is a
    sphere where the judge says "one sphere" at least `sphere` likely, none where it says "no
    sphere" at least `none` likely, and in doubt otherwise; a box of SURE and more is in doubt
    where the judge says "no sphere" at least `veto` likely (None: the judge is not asked)."""

    maybe: float
    sphere: float
    none: float
    veto: float | None


# Chosen on three beds, never on the ray-marched test look: the validation scenes of the third
# and fourth looks (seed 1011, 249 + 251 pictures) and 300 pictures of the mesh renderer
# (vision.synth.mesh_scenes, a look no model trained on; `python -m vision.training.scene_judge
# validate --mesh`). The rule: no more wrong pictures than the detector's cuts alone on any bed
# (0, 7 and 2), the judge looking at every box those cuts look at (maybe at most MAYBE: a box it
# is not shown must not be dropped unseen), then the most exact (83 against 74: 28 + 15 + 40),
# then the fewest wrong. Until 2026-12-06 the cuts were chosen on the two looks alone (0.95,
# veto 0.5): on the mesh pictures they read 6 wrong against the detector's 2, all counting too
# few: the judge settled every box the detector drew, but the detector had drawn none (at its
# cuts) on a sphere it did not know, a painted ball or a small matte one on a checked cloth, and
# twice the judge called a sphere "no sphere". Without the judge those boxes left them unsure.
JUDGE_CUTS = JudgeCuts(maybe=MAYBE, sphere=0.97, none=0.8, veto=0.7)


class SceneSpheres:
    """A loaded detector; count() is safe to call from several threads at once."""

    def __init__(self, path: str | Path | None = None, threads: int | None = None, judged: bool = True,
                 judge_path: str | Path | None = None, cuts: JudgeCuts = JUDGE_CUTS):
        """`judged`: doubtful boxes go to the judge at `judge_path` (default: the installed one;
        none installed: the detector's cuts alone decide)."""
        self.detector = Detector(_shared.path(path), threads, names=("sphere",))
        self.path = self.detector.path
        self.judge: SceneJudge | None = load_scene_judge(judge_path) if judged else None
        self.cuts = cuts

    def boxes(self, frame: np.ndarray, maybe: float = MAYBE) -> list[Detection]:
        """Every box scored at least `maybe` in a BGR picture."""
        return self.detector.detect(frame, conf=maybe, iou=IOU)

    def count(self, frame: np.ndarray, keep_out: list[tuple[float, float, float, float]] = ()
              ) -> tuple[int | None, list[Detection]]:
        """The spheres in the picture (None when a box is neither surely a sphere nor surely
        not, by the detector's score or, where a judge is installed, by the judge; or when any box
        of at least MAYBE is centred in one of the `keep_out` boxes) and the boxes counted."""
        found, _, verdicts = self.judged(frame)
        if None in verdicts or any(holds_centre(k, d.box) for k in keep_out for d in found if d.score >= MAYBE):
            return None, []
        return sum(verdicts), [d for d, v in zip(found, verdicts) if v]

    def judged(self, frame: np.ndarray) -> tuple[list[Detection], np.ndarray | None, list[bool | None]]:
        """Every box looked at, the judge's N x 3 probabilities for them (None with no judge) and
        each box's verdict: True a sphere, False none, None in doubt (judged_verdicts; with no
        judge, every box between MAYBE and SURE is in doubt)."""
        found = self.boxes(frame, MAYBE if self.judge is None else min(MAYBE, self.cuts.maybe))
        scores = np.array([d.score for d in found], np.float32)
        if self.judge is None:
            return found, None, [True if s >= SURE else None for s in scores]
        probs = self.judge.probabilities(frame, [d.box for d in found])
        return found, probs, judged_verdicts(scores, probs, SURE, self.cuts)


def judged_verdicts(scores: np.ndarray, probs: np.ndarray, sure: float = SURE,
                    cuts: JudgeCuts = JUDGE_CUTS) -> list[bool | None]:
    """Per box (detector score, the judge's N x 3 probabilities): True a sphere, False none, None
    in doubt, by the rule of JudgeCuts."""
    out: list[bool | None] = []
    for s, p in zip(scores, probs):
        if s < cuts.maybe:
            out.append(False)
        elif s >= sure:
            out.append(None if cuts.veto is not None and p[NOT_SPHERE] >= cuts.veto else True)
        elif p[SPHERE] >= cuts.sphere:
            out.append(True)
        else:
            out.append(False if p[NOT_SPHERE] >= cuts.none else None)
    return out


def count_odds(scores: np.ndarray, sure: float = SURE, maybe: float = MAYBE) -> np.ndarray:
    """P(the picture holds k spheres), k = 0, 1, ...: a box of at least `sure` is a sphere, one
    under `maybe` is none, and each box between is a sphere with its score as the chance, the
    boxes independent of each other."""
    s = scores[scores >= maybe]
    odds = np.zeros(int((s >= sure).sum()) + 1)
    odds[-1] = 1.0
    for q in s[s < sure].astype(np.float64):
        odds = np.append(odds * (1 - q), 0.0) + np.append(0.0, odds * q)
    return odds


def count_from_scores(scores: np.ndarray, sure: float = SURE, maybe: float = MAYBE,
                      certain: float = CERTAIN) -> int | None:
    """The count the rule gives for a picture's box scores: the likeliest count when it is at
    least `certain` likely (count_odds), else None. At `certain` 1 any box between `maybe` and
    `sure` makes the count unsure."""
    odds = count_odds(scores, sure, maybe)
    k = int(odds.argmax())
    return k if odds[k] >= certain - 1e-9 else None


_shared = SharedModels(SceneSpheres, "TABLESIGHT_SCENE_SPHERES", DEFAULT_SCENE_SPHERES)


def load_scene_spheres(path: str | Path | None = None) -> SceneSpheres | None:
    """The shared detector for a path (else $TABLESIGHT_SCENE_SPHERES, else the shipped file), or
    None when no model file is installed."""
    return _shared.get(path)
