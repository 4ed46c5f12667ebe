"""The shipped ONNX model loads and reads the committed sample images right."""
from collections import Counter
from pathlib import Path

import pytest

from vision.detector import Detector, NoModelError, read_dice, read_image
from vision.games.quarx.photo import count_quarx

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "datasets" / "samples"


def test_missing_model_is_a_clear_error(tmp_path):
    with pytest.raises(NoModelError, match="no model installed"):
        Detector(tmp_path / "nothing.onnx")


def test_model_shape(detector):
    assert detector.num_classes == 11 and detector.imgsz >= 320


def test_dice_samples(detector, expected):
    for name, want in expected["dice"].items():
        got = read_dice(read_image(SAMPLES / name), detector)
        # Every die found; a value is right or unsure (None), never another number.
        assert len(got) == len(want), name
        sure = Counter(d.value for d in got if d.value is not None)
        assert sure <= Counter(want), name
        assert sum(sure.values()) >= len(want) - 1, name
        for d in got:
            assert 0 <= d.confidence <= 1 and d.box[0] < d.box[2] and d.box[1] < d.box[3]


def test_quarx_samples(detector, expected):
    """Right or unsure (a card whose shapes touch at one contrast and not at another), never wrong;
    the network, asked alone, always answers."""
    for name, want in expected["quarx"].items():
        got = count_quarx(read_image(SAMPLES / name), detector)
        assert got.spheres == want or not got.sure, name
        assert count_quarx(read_image(SAMPLES / name), detector, method="net").sure
