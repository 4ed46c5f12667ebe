"""The die value classifier (ONNX, run by onnxruntime): 32 px crop -> no die, or top value 1..6.

Trained by `vision.training.die_classifier` on synthetic crops of many die styles (and, for the
shipped model, the real webcam train split); see models/MODEL_CARD.md.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np

from vision.detector.die_crop import crops_blob
from vision.detector.onnx_session import SharedModels, cpu_session, model_digest
from vision.detector.profile import DiceProfile

DEFAULT_VALUE_MODEL = Path(__file__).resolve().parents[2] / "models" / "die_values.onnx"


class DieValueModel:
    """A loaded classifier; probabilities() is safe to call from several threads at once."""

    def __init__(self, path: str | Path | None = None, threads: int | None = None):
        self.path = _shared.path(path)
        self.session = cpu_session(self.path, f"no die value model installed: {self.path} not found "
                                   "(train one with `python -m vision.training.die_classifier`)", threads)
        self.input_name = self.session.get_inputs()[0].name
        self.features = int(self.session.get_outputs()[1].shape[1])  # 64 per width of build_model
        self.digest = model_digest(self.path)

    def outputs(self, crops: list[np.ndarray], symmetric: bool = False) -> tuple[np.ndarray, np.ndarray]:
        """N x 7 logits and the N x F features under them, for N square BGR crops; symmetric:
        each the mean over the crop's eight symmetries (`symmetries`), the same for all eight."""
        if not crops:
            return np.zeros((0, 7), np.float32), np.zeros((0, self.features), np.float32)
        if symmetric:
            logits, features = self.outputs([s for c in crops for s in symmetries(c)])
            return symmetric_means(logits), symmetric_means(features)
        logits, features = self.session.run(None, {self.input_name: crops_blob(crops)})
        return logits, features

    def probabilities(self, crops: list[np.ndarray], profile: DiceProfile | None = None) -> np.ndarray:
        """N x 7 probabilities (column 0: no die; column v: top value v) for N BGR crops,
        through the profile's taught last layer when one is given (read as it was taught)."""
        symmetric = profile is not None and profile.symmetric
        logits, features = self.outputs(crops, symmetric)
        if profile is not None:
            logits = profile.logits(features, logits)
        return softmax(logits)


def symmetries(crop: np.ndarray) -> list[np.ndarray]:
    """A square crop in its four rotations and their mirror images: a die's value is the same in all."""
    out = []
    for k in range(4):
        r = np.rot90(crop, k)
        out += [r, r[:, ::-1]]
    return [np.ascontiguousarray(c) for c in out]


def symmetric_means(rows: np.ndarray) -> np.ndarray:
    """Rows read from `symmetries` of each crop in turn -> one row per crop, their mean."""
    return rows.reshape(-1, 8, rows.shape[-1]).mean(1)


def softmax(logits: np.ndarray) -> np.ndarray:
    e = np.exp(logits - logits.max(1, keepdims=True))
    return e / e.sum(1, keepdims=True)


_shared = SharedModels(DieValueModel, "TABLESIGHT_VALUE_MODEL", DEFAULT_VALUE_MODEL)


def load_value_model(path: str | Path | None = None) -> DieValueModel | None:
    """The shared classifier for a path (else $TABLESIGHT_VALUE_MODEL, else the shipped file),
    or None when no model file is installed."""
    return _shared.get(path)
