"""Spheres on one Quarx card by a detector that looks for spheres themselves (ONNX, onnxruntime).

The shape classifier (vision.games.quarx.sphere_model) can only call the blobs that contrast cuts
make, and a sphere as pale as the paper, or one joined to its shadow or another shape, is never
one blob: with every blob called by its true label it would count 123 of 240 randomised
validation cards. This detector (YOLO11n, one class, trained on the same domain-randomised cards:
vision.training.sphere_cards) boxes each sphere on the card warped top-down, and its count stands
only when every box is sure one way or the other: a box between MAYBE and SURE makes the card
unsure, never a guess.

Measured, not wired into the counters (models/MODEL_CARD.md): asked where the classifier is
unsure, the 2026-12-03 candidate read 8 more of the 240 randomised validation cards with none
wrong, but on the hold-out style it boxed eggs, discs and cylinder ends as surely as spheres
(13 of 200 pictures counted wrong). `python -m vision.training.sphere_classifier --validate`
scores it beside the classifier where a model file is installed.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np

from vision.detector.model import Detector
from vision.detector.onnx_session import SharedModels

DEFAULT_SPHERE_DETECTOR = Path(__file__).resolve().parents[3] / "models" / "sphere_detector.onnx"
# A box at least SURE is a sphere; one under MAYBE is not looked at; one between makes the card
# unsure. Chosen on fresh cards of the training looks (vision.training.sphere_classifier.validate's
# 120 of our footage's look and 240 randomised; the most cards right with none wrong, asked where
# the classifier is unsure), never on the hold-out style.
SURE, MAYBE = 0.8, 0.05
IOU = 0.5  # spheres on a card keep apart; two boxes overlapping more are one sphere boxed twice


class SphereDetector:
    """A loaded sphere detector; count() is safe to call from several threads at once."""

    def __init__(self, path: str | Path | None = None, threads: int | None = None):
        self.detector = Detector(_shared.path(path), threads, names=("sphere",))
        self.path = self.detector.path

    def scores(self, card: np.ndarray) -> np.ndarray:
        """The score of every box of at least MAYBE on a card warped top-down."""
        return np.array([d.score for d in self.detector.detect(card, conf=MAYBE, iou=IOU)], np.float32)

    def count(self, card: np.ndarray) -> int | None:
        """Spheres on the card, or None when a box is neither surely a sphere nor surely not."""
        s = self.scores(card)
        if (s < SURE).any():
            return None
        return int(len(s))


_shared = SharedModels(SphereDetector, "TABLESIGHT_SPHERE_DETECTOR", DEFAULT_SPHERE_DETECTOR)


def load_sphere_detector(path: str | Path | None = None) -> SphereDetector | None:
    """The shared detector for a path (else $TABLESIGHT_SPHERE_DETECTOR, else the shipped file),
    or None when no model file is installed."""
    return _shared.get(path)
