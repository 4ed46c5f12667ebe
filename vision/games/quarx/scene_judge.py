"""A second look at each sphere box the scene detector is in doubt about (ONNX, onnxruntime).

The scene detector (vision.games.quarx.scene_spheres) scores most spheres of a look it never saw
between its cuts, and one such box made the whole count unsure. This small CNN is shown a crop
around each box, with some table around it, and says whether the box holds one whole sphere, no
sphere (an egg, a disc, a cylinder's end, a shadow), or something in between (a piece of a
sphere, two spheres). It is trained on boxes the detector drew on fresh scenes of the training
renderer (vision.training.scene_judge), never on the ray-marched test look.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np

from vision.detector.die_crop import crops_blob, square_crop
from vision.detector.die_values import softmax
from vision.detector.onnx_session import SharedModels, cpu_session

DEFAULT_SCENE_JUDGE = Path(__file__).resolve().parents[3] / "models" / "scene_sphere_judge.onnx"
JUDGE_SIZE = 48  # spheres of the test look are 20-60 px across: 48 px keeps their shading
JUDGE_MARGIN = 1.5  # the box's long side times this: the sphere's rim, shadow and the table by it
SPHERE, NOT_SPHERE, PART = 0, 1, 2  # the classes, as vision.training.scene_judge labels them


def judge_crop(frame: np.ndarray, box: tuple[float, float, float, float]) -> np.ndarray:
    """The crop the judge sees for a box: JUDGE_SIZE square BGR, in training and at run time."""
    return square_crop(frame, box, JUDGE_SIZE, JUDGE_MARGIN)


class SceneJudge:
    """A loaded judge; probabilities() is safe to call from several threads at once."""

    def __init__(self, path: str | Path | None = None, threads: int | None = None):
        self.path = _shared.path(path)
        self.session = cpu_session(self.path, f"no scene sphere judge installed: {self.path} not found "
                                   "(train one with `python -m vision.training.scene_judge`)", threads)
        self.input_name = self.session.get_inputs()[0].name

    def probabilities(self, frame: np.ndarray, boxes: list[tuple[float, float, float, float]]) -> np.ndarray:
        """N x 3 probabilities (one sphere, no sphere, part or several) for N boxes of a BGR frame."""
        return self.of_crops([judge_crop(frame, b) for b in boxes])

    def of_crops(self, crops: list[np.ndarray]) -> np.ndarray:
        """N x 3 probabilities for N crops cut by judge_crop."""
        if not len(crops):
            return np.zeros((0, 3), np.float32)
        return softmax(self.session.run(None, {self.input_name: crops_blob(list(crops))})[0])


_shared = SharedModels(SceneJudge, "TABLESIGHT_SCENE_JUDGE", DEFAULT_SCENE_JUDGE)


def load_scene_judge(path: str | Path | None = None) -> SceneJudge | None:
    """The shared judge for a path (else $TABLESIGHT_SCENE_JUDGE, else the shipped file), or None
    when no model file is installed."""
    return _shared.get(path)
