"""The shipped ONNX model loads and reads the committed sample images right."""
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from vision.detector import Detector, NoModelError, read_dice, read_image
from vision.detector.geometry import iou_one_to_many, letterbox
from vision.games.quarx.photo import count_quarx

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "datasets" / "samples"


def test_missing_model_is_a_clear_error(tmp_path):
    with pytest.raises(NoModelError, match="no model installed"):
        Detector(tmp_path / "nothing.onnx")


def test_model_shape(detector):
    assert detector.num_classes == 11 and detector.imgsz >= 320


def test_a_wide_frame_is_read_at_its_own_shape_and_finds_what_the_square_finds(detector):
    """The shipped model takes any input shape: a 640x480 photo goes in as 320x256, not padded
    to 320x320, and the boxes it gives are the square input's boxes."""
    frame = read_image(SAMPLES / "real_valid_45.jpg")
    assert detector.dynamic and detector.preprocess(frame)[0].shape == (1, 3, 256, 320)
    rect = detector.detect(frame)
    square_blob, lb = letterbox(frame, detector.imgsz)
    blob = np.ascontiguousarray(square_blob[:, :, ::-1].transpose(2, 0, 1)[None], np.float32) / 255
    square = detector.decode(detector.raw(blob), lb, frame.shape[1], frame.shape[0], 0.25, 0.5)
    assert len(rect) == len(square) >= 3
    boxes = np.array([s.box for s in square])
    for r in rect:
        overlaps = iou_one_to_many(np.array(r.box), boxes)
        best = int(overlaps.argmax())
        assert square[best].cls == r.cls and overlaps[best] > 0.9


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
