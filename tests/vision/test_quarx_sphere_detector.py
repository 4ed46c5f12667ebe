"""The sphere detector's count: sure boxes counted, a box between MAYBE and SURE makes the card
unsure; the validation cards score it beside the classifier."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from vision.detector.image_io import read_image
from vision.detector.model import Detector
from vision.games.quarx.sphere_detector import MAYBE, SURE, SphereDetector
from vision.synth.quarx_shapes import CARD_H, CARD_W
from vision.training import sphere_classifier

ROOT = Path(__file__).resolve().parents[2]
CARD = np.full((CARD_H, CARD_W, 3), 230, np.uint8)


class _Scores(SphereDetector):
    """The count rule on given box scores, without a model file."""

    def __init__(self, scores: list[float]):
        self._scores = np.array(scores, np.float32)

    def scores(self, card: np.ndarray) -> np.ndarray:
        return self._scores


@pytest.mark.parametrize("scores, count", [
    ([], 0),
    ([0.95, SURE, 0.99], 3),
    ([0.95, (SURE + MAYBE) / 2], None),
])
def test_a_card_is_counted_only_when_every_box_is_sure(scores, count):
    assert _Scores(scores).count(CARD) == count


def test_validation_scores_the_detector_where_the_classifier_is_unsure(monkeypatch):
    monkeypatch.setattr(sphere_classifier, "count_by_shape", lambda card, model: None)
    got = sphere_classifier.validate(cards=3, model=object(), detector=_Scores([0.9]))
    for look in ("footage", "randomised"):
        row = got[look]["learned, else detector"]
        assert sum(row.values()) == got[look]["learned"]["unsure"]
        assert row["unsure"] == 0  # one sure box a card: always an answer, right or wrong


def test_a_model_of_its_own_classes_keeps_its_scores_as_they_are():
    """The dice detector sums the six value scores into "a die"; a model given its own class
    names (the sphere detector's one) is read as it is: each box scored by its best class."""
    path = ROOT / "models" / "detector.onnx"
    if not path.is_file():
        pytest.skip(f"no model installed at {path}")
    names = tuple(f"class{i}" for i in range(11))
    plain, dice = Detector(path, names=names), Detector(path)
    assert plain.names == names and not plain.merge_dice and dice.merge_dice
    frame = read_image(ROOT / "datasets" / "samples" / "real_valid_45.jpg")
    blob, lb = plain.preprocess(frame)
    raw = plain.raw(blob)
    got = plain.decode(raw, lb, frame.shape[1], frame.shape[0], conf=0.25, iou=0.5)
    assert got and all(d.cls in names for d in got)
    best = raw[:, 4:].max(1)
    assert all(np.isclose(best, d.score, atol=1e-6).any() for d in got)
