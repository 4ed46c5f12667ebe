"""Teaching the detector's die score: the fit, the boxes it may add, and how a profile keeps it."""
import json
from dataclasses import replace

import numpy as np
import pytest

from vision.detector.classes import DIE_CLASSES
from vision.detector.dice import read_dice
from vision.detector.model import Detection
from vision.detector.profile import DiceProfile, ProfileError, load_profile
from vision.detector.second_detector import SECOND_CONF, SECOND_SCORE, second_boxes
from vision.detector.slicing import detect_sliced
from vision.detector.taught_boxes import (FEATURES, LOW_CONF, MAX_NEGATIVES, SCALES, ScoreHead, TeachingAnchors,
                                          added_boxes, anchors, best_iou, fit_score_head, label_anchors,
                                          shipped_and_anchors, taught_detections)
from vision.synth.holdout_dice import render_holdout


def _photo(rng, n, dice_share, scale):
    """Anchors of one scale whose first feature says "die" (with noise); the shipped score is
    low for all of them, as for a dice set the detector does not know."""
    y = (rng.random(n) < dice_share).astype(float)
    x = rng.normal(0, 1, (n, FEATURES)).astype(np.float32)
    x[:, 0] += 3 * y
    return TeachingAnchors(np.full(n, scale), x, np.full(n, -6.0), y, np.ones(n))


def test_the_fit_raises_the_score_of_anchors_that_look_like_the_taught_dice():
    rng = np.random.default_rng(0)
    head = fit_score_head([_photo(rng, 3000, 0.05, 1) for _ in range(3)], "det")
    assert head is not None and head.detector_sha == "det"
    test = _photo(rng, 4000, 0.05, 1)
    z = test.logit + test.features @ head.weights[1] + head.biases[1]
    assert z[test.label == 1].mean() > 0 > z[test.label == 0].mean()
    # Scales with no labelled die keep the shipped score exactly.
    assert not head.weights[[0, 2]].any() and not head.biases[[0, 2]].any()
    assert fit_score_head([_photo(rng, 500, 0.0, 0)], "det") is None


def test_teaching_anchors_label_by_framing_and_bound_what_they_keep():
    boxes = np.array([[10, 10, 30, 30], [12, 12, 30, 30], [0, 0, 30, 30], [100, 100, 120, 120]] * 3000, float)
    a = type("A", (), {})()
    a.boxes, a.scale = boxes, np.zeros(len(boxes), int)
    a.features, a.logit = np.zeros((len(boxes), FEATURES), np.float32), np.zeros(len(boxes))
    t = label_anchors(a, [(10, 10, 30, 30)], np.random.default_rng(0))
    iou = best_iou(boxes[:4], [(10, 10, 30, 30)])
    assert iou[0] == pytest.approx(1) and iou[1] >= 0.65 and 0.4 < iou[2] < 0.5 and iou[3] == 0
    assert t.label.sum() == 6000  # the two well framed anchors of each group of four
    negatives = t.label == 0
    assert negatives.sum() == 4000 and t.weight[negatives].sum() == pytest.approx(6000)


def test_taught_boxes_are_added_only_where_the_shipped_detector_found_none():
    shipped = [Detection("one", (0, 0, 10, 10), 0.9)]
    taught = [Detection("two", (2, 2, 12, 12), 0.8), Detection("three", (-5, -5, 40, 40), 0.7),
              Detection("four", (50, 50, 60, 60), 0.6)]
    assert [d.cls for d in added_boxes(shipped, taught)] == ["four"]


def test_score_head_json_and_refusals():
    head = ScoreHead(np.ones((SCALES, FEATURES), np.float32), np.arange(SCALES, dtype=np.float32), "abc")
    back = ScoreHead.from_json(json.loads(json.dumps(head.to_json())))
    assert np.array_equal(back.weights, head.weights) and back.detector_sha == "abc"
    with pytest.raises(ValueError, match="shape"):
        ScoreHead.from_json({"w": [[1.0]], "b": [0.0, 0.0, 0.0], "detector_sha": "abc"})


def test_a_profile_keeps_its_taught_detector_score_for_that_detector_only(tmp_path):
    head = ScoreHead(np.zeros((SCALES, FEATURES), np.float32), np.full(SCALES, 0.5, np.float32), "det1")
    path = DiceProfile("model1", score_head=head).save(tmp_path / "p.json")
    assert load_profile(path, "model1", "det1").score_head.biases.tolist() == [0.5] * SCALES
    assert load_profile(path, "model1").score_head is not None  # no detector to check against
    with pytest.raises(ProfileError, match="taught on detector det1"):
        load_profile(path, "model1", "det2")
    d = json.loads(path.read_text())
    d["detector_score"]["b"] = [0.0]
    path.write_text(json.dumps(d))
    with pytest.raises(ProfileError, match="not a readable dice profile"):
        load_profile(path, "model1")


def test_the_detector_gives_its_features_without_changing_its_output(detector):
    frame = render_holdout(77, 0).image
    blob, _ = detector.preprocess(frame)
    out, feats = detector.raw_with_features(blob)
    assert np.array_equal(out, detector.raw(blob))
    assert [f.shape[1] for f in feats] == [FEATURES] * SCALES
    a = anchors(detector, frame)
    assert len(a.boxes) == len(a.features) == len(a.logit) and set(a.scale.tolist()) == {0, 1, 2}
    # Teaching's one pass per window finds the boxes the reader's own passes find.
    shipped, _ = shipped_and_anchors(detector, frame, [], np.random.default_rng(0))
    assert shipped == detect_sliced(detector, frame, conf=LOW_CONF, classes=set(DIE_CLASSES))


def test_a_large_photo_has_more_tiles_not_more_anchors_kept(detector):
    small = render_holdout(77, 1).image
    large = np.tile(small, (3, 3, 1))  # nine times the pixels
    rng = np.random.default_rng(0)
    kept = [shipped_and_anchors(detector, f, [], rng)[1] for f in (small, large)]
    assert all(t.label.sum() == 0 for t in kept)
    assert len(kept[1].label) <= MAX_NEGATIVES + 100 >= len(kept[0].label)
    # Each kept anchor stands for the ones left out of its pass: the weights add up to all of them.
    assert kept[1].weight.sum() == pytest.approx(len(anchors(detector, large).logit))


def test_a_taught_score_adds_boxes_away_from_the_shipped_ones_and_a_null_one_adds_none(detector):
    frame = render_holdout(77, 3).image
    shipped = detect_sliced(detector, frame, conf=LOW_CONF, classes=set(DIE_CLASSES))
    null = ScoreHead(np.zeros((SCALES, FEATURES), np.float32), np.zeros(SCALES, np.float32), detector.digest)
    assert taught_detections(detector, frame, null, 0.25) == [d for d in shipped if d.score >= 0.25]
    eager = ScoreHead(np.zeros((SCALES, FEATURES), np.float32), np.full(SCALES, 8.0, np.float32), detector.digest)
    dets = taught_detections(detector, frame, eager, 0.25)
    added = [d for d in dets if d.box not in {s.box for s in shipped}]
    assert added and all(not any(s.box[0] <= (d.box[0] + d.box[2]) / 2 <= s.box[2]
                                 and s.box[1] <= (d.box[1] + d.box[3]) / 2 <= s.box[3] for s in shipped) for d in added)
    # Read through a profile, on another detector the taught score is not used.
    other = ScoreHead(eager.weights, eager.biases, "another-detector")
    plain = read_dice(frame, detector, value_source="pips")
    assert read_dice(frame, detector, value_source="pips", profile=DiceProfile("m", score_head=other)) == plain


def test_a_taught_second_score_adds_weak_boxes_only_on_its_own_detector(detector):
    frame = render_holdout(77, 3).image
    plain = second_boxes(frame, [], detector)
    assert plain == [replace(d, score=min(d.score, SECOND_SCORE), weak=True)
                     for d in detect_sliced(detector, frame, conf=SECOND_CONF, classes=set(DIE_CLASSES))]
    eager = ScoreHead(np.zeros((SCALES, FEATURES), np.float32), np.full(SCALES, 8.0, np.float32), detector.digest)
    taught = second_boxes(frame, [], detector, eager)
    added = [d for d in taught if d not in plain]
    assert added and all(d.weak and d.score <= SECOND_SCORE for d in added)
    assert second_boxes(frame, [], detector, ScoreHead(eager.weights, eager.biases, "another-detector")) == plain


def test_a_profile_refuses_a_second_detector_score_taught_on_another_second_detector(tmp_path):
    head = ScoreHead(np.zeros((SCALES, FEATURES), np.float32), np.zeros(SCALES, np.float32), "v7-sha")
    path = DiceProfile("m", second_score_head=head).save(tmp_path / "p.json")
    assert load_profile(path, "m", None, "v7-sha").second_score_head.detector_sha == "v7-sha"
    with pytest.raises(ProfileError, match="taught on second detector v7-sha"):
        load_profile(path, "m", None, "other")


def test_an_export_gets_its_feature_outputs_once(tmp_path, detector):
    onnx = pytest.importorskip("onnx", reason="the onnx package (train extra) edits models")
    from vision.training.detector_features import add_feature_outputs

    path = tmp_path / "d.onnx"
    model = onnx.load(str(detector.path))
    del model.graph.output[1:]
    onnx.save(model, str(path))
    add_feature_outputs(path)
    add_feature_outputs(path)
    assert len(onnx.load(str(path)).graph.output) == 1 + SCALES
