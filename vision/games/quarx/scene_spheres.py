"""Spheres in a photo where no card is found: a detector that looks for spheres on the table.

The card counter (vision.games.quarx.cards) counts only on cards it finds whole; a close-up of
one card, or a scene of objects with no card (spheres among cubes, cylinders, eggs and discs,
as other renderers draw them), leaves it with nothing to count. This detector (YOLO11n, one
class, 480 px, trained on `vision.synth.table_scenes` only: vision.training.sphere_scenes) boxes each
sphere in the whole picture, and its count stands only when every box is sure one way or the
other: a box between MAYBE and SURE makes the count unsure, never a guess.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np

from vision.detector.geometry import holds_centre
from vision.detector.model import Detection, Detector
from vision.detector.onnx_session import SharedModels

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


class SceneSpheres:
    """A loaded detector; count() is safe to call from several threads at once."""

    def __init__(self, path: str | Path | None = None, threads: int | None = None):
        self.detector = Detector(_shared.path(path), threads, names=("sphere",))
        self.path = self.detector.path

    def boxes(self, frame: np.ndarray, maybe: float = MAYBE) -> list[Detection]:
        """Every box scored at least `maybe` in a BGR picture."""
        return self.detector.detect(frame, conf=maybe, iou=IOU)

    def count(self, frame: np.ndarray, keep_out: list[tuple[float, float, float, float]] = ()
              ) -> tuple[int | None, list[Detection]]:
        """The spheres in the picture (None when a box is neither surely a sphere nor surely
        not, or when any box of at least MAYBE is centred in one of the `keep_out` boxes) and
        the sure boxes."""
        found = self.boxes(frame)
        if any(holds_centre(k, d.box) for k in keep_out for d in found):
            return None, []
        return count_from_scores(np.array([d.score for d in found], np.float32)), [d for d in found if d.score >= SURE]


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
