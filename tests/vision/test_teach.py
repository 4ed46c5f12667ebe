"""Teaching a dice profile: the folder format, clear refusals, the refitted layer, and profiles
that do not fit the model in use."""
import json

import cv2
import numpy as np
import pytest

from vision.detector.pips import PipCount
from vision.detector.profile import DiceProfile, ProfileError, lab, load_profile
from vision.detector.value_rule import OVERRIDE, SHIPPED_RULE, STRICT_RULE, ValueRule, decide
from vision.detector.die_crop import square_crop, wide_crop
from vision.detector.die_values import load_value_model, softmax
from vision.detector.taught_boxes import LOW_CONF, TeachingAnchors
from vision.teach import (DEFAULT_CONF, JITTERS, Photo, Score, Seen, TaughtDie, TeachError, _match, fit_head, learn,
                          learned_words, parse_label_line, read_folder, read_seen, relit, see)


def test_label_line_in_pixels_with_an_optional_colour():
    d = parse_label_line("4 0.5 0.25 0.1 0.2 Red", 200, 100, "a.txt:1")
    assert d.value == 4 and d.colour == "red"
    assert d.box == pytest.approx((90.0, 15.0, 110.0, 35.0))
    assert parse_label_line("1 0.5 0.5 0.1 0.1", 10, 10, "x").colour is None


@pytest.mark.parametrize("line, why", [("7 0.5 0.5 0.1 0.1", "1 to 6"), ("3 0.5 0.5", "value cx cy w h"),
                                       ("3 1.5 0.5 0.1 0.1", "fractions"), ("x 0.5 0.5 0.1 0.1", "not a number"),
                                       ("3 0.5 0.5 0.1 0.1 r3d!", "one word")])
def test_bad_label_lines_name_the_line(line, why):
    with pytest.raises(TeachError, match=why) as e:
        parse_label_line(line, 100, 100, "photo.txt:3")
    assert "photo.txt:3" in str(e.value)


def test_folder_needs_images_and_labels(tmp_path):
    with pytest.raises(TeachError, match="images/ and labels/"):
        read_folder(tmp_path)
    (tmp_path / "images").mkdir()
    (tmp_path / "labels").mkdir()
    with pytest.raises(TeachError, match="no photos"):
        read_folder(tmp_path)
    cv2.imwrite(str(tmp_path / "images" / "a.png"), np.zeros((40, 40, 3), np.uint8))
    with pytest.raises(TeachError, match="no label file"):
        read_folder(tmp_path)
    (tmp_path / "labels" / "a.txt").write_text("2 0.5 0.5 0.2 0.2 green\n")
    (photo,) = read_folder(tmp_path)
    assert photo.name == "a.png" and [d.value for d in photo.dice] == [2]


def test_fit_head_learns_a_shifted_class_and_stays_near_the_start():
    rng = np.random.default_rng(0)
    centres = rng.normal(0, 1, (7, 16)).astype(np.float32) * 3
    y = rng.integers(0, 7, 700)
    x = centres[y] + rng.normal(0, 0.3, (700, 16)).astype(np.float32)
    w0, b0 = np.zeros((7, 16), np.float32), np.zeros(7, np.float32)
    w, b = fit_head(x, y, w0, b0, steps=300)
    assert ((x @ w.T + b).argmax(1) == y).mean() > 0.95
    near, _ = fit_head(x, y, w0, b0, steps=300, keep=10.0)  # a strong pull keeps the shipped layer
    assert np.abs(near).max() < np.abs(w).max() / 5


class _NoBoxes:
    imgsz = 320
    has_features = False

    def detect(self, *args, **kwargs):
        return []


class _RecordingModel:
    def __init__(self):
        self.calls = []

    def outputs(self, crops, symmetric=False):
        self.calls.append((crops, symmetric))
        return np.zeros((len(crops), 7), np.float32), np.zeros((len(crops), 64), np.float32)


def test_the_layer_is_taught_the_readers_wider_look_at_each_die():
    """The wider look makes a die unsure when it reads another value; taught only the box's crop,
    it kept reading the side faces of a new set's big dice and turned right answers into "?"."""
    frame = np.random.default_rng(1).integers(0, 255, (200, 240, 3), dtype=np.uint8)
    die = TaughtDie((80.0, 70.0, 130.0, 120.0), 5, None)
    model = _RecordingModel()
    seen = see(Photo("p.png", frame, [die]), _NoBoxes(), model, np.random.default_rng(0))
    (crops, symmetric), values = model.calls[-1], seen.train_y
    wide = wide_crop(frame, die.box)
    assert not symmetric and len(crops) == 8 * len(values) and set(values.tolist()) == {5}
    taught_wide = [c for c in crops if c.shape == wide.shape and np.array_equal(c, wide)]
    assert len(taught_wide) == 1  # once as it is, then turned and mirrored (the other 7 views)
    assert sum(np.array_equal(c, np.rot90(wide, 2)) for c in crops) == 1
    assert len(seen.train_x) == len(values)  # taught on their mean, as a taught layer reads


def test_each_taught_die_is_seen_in_its_own_box_and_jittered_relit_views():
    """A layer fitted on each die's own box alone learned those few crops, not the set (the
    charcoal set's twos read as ones on other photos): each die is also taught in JITTERS boxes
    off-centre and off-size, blurred and lit as other photos might show it."""
    frame = np.random.default_rng(2).integers(0, 255, (200, 240, 3), dtype=np.uint8)
    die = TaughtDie((80.0, 70.0, 130.0, 120.0), 3, None)
    model = _RecordingModel()
    seen = see(Photo("p.png", frame, [die]), _NoBoxes(), model, np.random.default_rng(0))
    (crops, _), values = model.calls[-1], seen.train_y
    assert JITTERS >= 1 and values.tolist() == [3] * (1 + JITTERS + 1)  # its box, the jittered views, the wider look
    own = square_crop(frame, die.box)
    assert sum(np.array_equal(c, own) for c in crops) == 1
    assert len({c.tobytes() for c in crops}) == len(crops)  # every view differs


def test_relit_blurs_and_scales_the_light_within_bounds_and_is_seeded():
    grey = np.full((32, 32, 3), 100, np.uint8)
    outs = [relit(np.random.default_rng(k), grey) for k in range(20)]
    assert all(o.shape == grey.shape and o.dtype == np.uint8 for o in outs)
    assert all(75 <= int(o[16, 16, 0]) <= 125 for o in outs)
    assert len({int(o[16, 16, 0]) for o in outs}) > 5
    assert np.array_equal(relit(np.random.default_rng(3), grey), relit(np.random.default_rng(3), grey))


def test_profile_round_trip_and_refusals(tmp_path):
    head = (np.ones((7, 64), np.float32) * 0.5, np.arange(7, dtype=np.float32))
    p = DiceProfile("abc123", head, {"mustard": [70.0, 5.0, 60.0]}, 0.15, {"kept": "taught"})
    path = p.save(tmp_path / "p.json")
    back = load_profile(path, "abc123")
    assert back.conf == 0.15 and back.colours == {"mustard": [70.0, 5.0, 60.0]}
    assert np.allclose(back.head[0], head[0]) and np.allclose(back.head[1], head[1])
    with pytest.raises(ProfileError, match="taught on value model abc123"):
        load_profile(path, "other")
    with pytest.raises(ProfileError, match="no dice profile"):
        load_profile(tmp_path / "missing.json", "abc123")
    (tmp_path / "bad.json").write_text("{not json")
    with pytest.raises(ProfileError, match="not a readable dice profile"):
        load_profile(tmp_path / "bad.json", "abc123")
    (tmp_path / "old.json").write_text(json.dumps({"format": 99}))
    with pytest.raises(ProfileError, match="format 99"):
        load_profile(tmp_path / "old.json", "abc123")


def test_taught_colours_name_near_colours_only():
    mustard = np.array([30, 175, 215], np.float32)
    p = DiceProfile("x", None, {"mustard": [float(v) for v in lab(mustard)]})
    assert p.colour_name(mustard * 1.03) == "mustard"
    assert p.colour_name(np.array([200, 60, 20], np.float32)) == "blue"  # far from every taught colour
    # where no taught colour is near, a face that straddles two generic names is unsure
    assert p.colour_name(np.array([200, 60, 20], np.float32), straddles=True) is None
    assert p.colour_name(mustard * 1.03, straddles=True) == "mustard"
    assert p.colour_name(None) is None


def test_a_gated_set_names_a_colour_beyond_reach_with_the_users_words_or_not_at_all():
    mustard, navy = np.array([30, 175, 215], np.float32), np.array([110, 50, 25], np.float32)
    far_blue = np.array([200, 60, 20], np.float32)  # beyond reach of both; generic "blue"
    one = DiceProfile("x", None, {"mustard": [float(v) for v in lab(mustard)]}, colour_gate=True)
    assert one.colour_name(far_blue) == "mustard" and one.colour_name(far_blue, straddles=True) == "mustard"
    words = {"mustard": [float(v) for v in lab(mustard)], "navy": [float(v) for v in lab(navy)]}
    assert DiceProfile("x", None, words, colour_gate=True).colour_name(far_blue) is None
    assert DiceProfile("x", None, words).colour_name(far_blue) == "blue"  # no gate: the generic name
    generic = {"yellow": words["mustard"], "blue": words["navy"]}
    assert DiceProfile("x", None, generic, colour_gate=True).colour_name(far_blue) == "blue"
    assert DiceProfile("x", None, generic, colour_gate=True).colour_name(far_blue, straddles=True) is None


def test_profile_keeps_its_value_rule_and_colour_gate_and_reads_the_first_format(tmp_path):
    p = DiceProfile("abc123", None, {"mustard": [70.0, 5.0, 60.0]}, 0.1, {}, ValueRule(False, 0.7), True)
    back = load_profile(p.save(tmp_path / "p.json"), "abc123")
    assert back.rule == ValueRule(False, 0.7) and back.colour_gate
    old = {"format": 1, "model_sha": "abc123", "head": None, "colours": {}, "conf": None, "report": {}}
    (tmp_path / "v1.json").write_text(json.dumps(old))
    v1 = load_profile(tmp_path / "v1.json", "abc123")
    assert v1.rule == SHIPPED_RULE and not v1.colour_gate
    # a format-2 rule saved before the override existed keeps its every-veto meaning
    (tmp_path / "v2.json").write_text(json.dumps({**old, "format": 2, "rule": {"pip_check": True, "sure": 0.9}}))
    assert load_profile(tmp_path / "v2.json", "abc123").rule.override is None
    (tmp_path / "bad.json").write_text(json.dumps({**old, "format": 2, "rule": {"pip_check": True, "sure": 0.9,
                                                                                 "override": 7}}))
    with pytest.raises(ProfileError, match="override"):
        load_profile(tmp_path / "bad.json", "abc123")
    # a format-3 rule saved before "more" existed needs the shipped certainty against more pips
    (tmp_path / "v3.json").write_text(json.dumps({**old, "format": 3, "rule": {"pip_check": True, "sure": 0.6,
                                                                                "override": 0.6}}))
    assert load_profile(tmp_path / "v3.json", "abc123").rule == ValueRule(True, 0.6, 0.6, OVERRIDE)


def test_a_taught_layer_reads_each_crops_eight_symmetries_and_older_profiles_read_crops_as_they_are(tmp_path):
    """A layer taught from format 5 on was fitted on the mean of each crop's eight symmetries and
    reads the same way (a die turned or mirrored reads alike); one of format 4 was fitted on
    crops as they are and still reads them so."""
    model = load_value_model()
    crop = np.random.default_rng(3).integers(0, 255, (32, 32, 3), dtype=np.uint8)
    crop[8:14, 6:12] = 20  # one dark pip off centre: the crop is not symmetric
    turned = [np.ascontiguousarray(np.rot90(crop, 1)), np.ascontiguousarray(crop[:, ::-1])]
    logits, feats = model.outputs([crop, *turned], symmetric=True)
    assert np.allclose(logits, logits[0], atol=1e-4) and np.allclose(feats, feats[0], atol=1e-4)
    plain, _ = model.outputs([crop, *turned])
    assert not np.allclose(plain, plain[0], atol=1e-4)
    assert np.allclose(model.outputs([crop])[0], plain[:1])
    head = (np.ones((7, 64), np.float32) * 0.01, np.zeros(7, np.float32))
    back = load_profile(DiceProfile(model.digest, head, symmetric=True).save(tmp_path / "p.json"), model.digest)
    assert back.symmetric
    p = model.probabilities([crop, *turned], back)
    assert np.allclose(p, p[0], atol=1e-5)
    assert np.allclose(p[0], softmax(feats[:1] @ head[0].T + head[1]), atol=1e-5)
    old = back.to_json() | {"format": 4}
    old.pop("symmetric")
    (tmp_path / "v4.json").write_text(json.dumps(old))
    v4 = load_profile(tmp_path / "v4.json", model.digest)
    assert not v4.symmetric
    assert np.allclose(model.probabilities([crop], v4), softmax(model.outputs([crop])[1] @ head[0].T + head[1]), atol=1e-5)
    # with no taught layer the shipped one reads crops as they are, whatever the file says
    no_head = back.to_json() | {"head": None}
    (tmp_path / "nohead.json").write_text(json.dumps(no_head))
    assert not load_profile(tmp_path / "nohead.json", model.digest).symmetric


def test_the_colour_gate_drops_boxes_of_no_taught_colour():
    mustard = np.array([30, 175, 215], np.float32)
    gated = DiceProfile("x", None, {"mustard": [float(v) for v in lab(mustard)]}, colour_gate=True)
    assert gated.admits(mustard * 0.97) and not gated.admits(np.array([120, 160, 110], np.float32))
    assert DiceProfile("x", None, gated.colours).admits(np.array([120, 160, 110], np.float32))


def _seen_photo(values: list[int], said: list[int], p: float, rng, pips: list[int] | None = None) -> Seen:
    """A photo as the reader saw it: one detection per labelled die (value `values[i]`), the
    classifier saying `said[i]` with probability p, the pip counter always one off (or `pips`)."""
    n = len(values)
    boxes = [(40.0 * i, 0.0, 40.0 * i + 30, 30.0) for i in range(n)]
    probs = np.full((n, 7), (1 - p) / 6, np.float32)
    probs[np.arange(n), said] = p
    logits = np.log(probs)
    feats = rng.normal(0, 1, (n, 64)).astype(np.float32)
    labels = [TaughtDie(b, v, None) for b, v in zip(boxes, values)]
    pips = pips if pips is not None else [v % 6 + 1 for v in values]
    return Seen(boxes, np.full(n, 0.9, np.float32), logits, feats, [PipCount(k) for k in pips], [None] * n,
                 list(range(n)), labels, np.repeat(feats, 4, 0), np.repeat(np.array(values), 4), np.repeat(logits, 4, 0),
                 sym_features=feats)


def test_teaching_scores_weak_boxes_as_the_reader_keeps_them():
    rng = np.random.default_rng(5)
    # three dice, the classifier 93% sure of each: one boxed surely, two weakly (0.2); the pip
    # counter agrees on the first two and counts one pip short on the third
    s = _seen_photo([3, 4, 5], [3, 4, 5], 0.93, rng, pips=[3, 4, 4])
    s.scores = np.array([0.9, 0.2, 0.2], np.float32)
    probs = softmax(s.logits)
    at_reader, at_own = Score(), Score()
    read_seen(s, probs, None, DEFAULT_CONF, SHIPPED_RULE, DiceProfile("x"), at_reader)
    # at the reader's threshold the weak box both readers agree on stands, the other is dropped
    assert (at_reader.right, at_reader.unsure, at_reader.wrong) == (2, 0, 0)
    read_seen(s, probs, None, 0.15, SHIPPED_RULE, DiceProfile("x"), at_own)
    # at a threshold of its own every box is read as usual: the short count makes the third unsure
    assert (at_own.right, at_own.unsure, at_own.wrong) == (2, 1, 0)


def test_teaching_reads_a_second_detectors_box_as_one_that_must_hold_at_every_threshold():
    rng = np.random.default_rng(6)
    # dice 0 and 1 boxed by the shipped detector; dice 2 and 3 only by the second detector, whose
    # box on die 2 both readers agree on and whose box on die 3 the pip counter counts short; a
    # fifth, weak box lies on die 0's shipped box
    s = _seen_photo([3, 4, 5, 6, 3], [3, 4, 5, 6, 3], 0.93, rng, pips=[3, 4, 5, 5, 3])
    s.boxes[4] = (2.0, 2.0, 32.0, 32.0)
    s.labels = s.labels[:4]
    s.match = [0, 1, 2, 3, -1]
    s.scores = np.array([0.9, 0.9, 0.2, 0.2, 0.2], np.float32)
    s.weak = [False, False, True, True, True]
    probs = softmax(s.logits)
    for conf in (DEFAULT_CONF, 0.1, LOW_CONF):
        score = Score()
        read_seen(s, probs, None, conf, SHIPPED_RULE, DiceProfile("x"), score)
        assert (score.right, score.unsure, score.wrong) == (3, 0, 0), conf


def test_a_second_detectors_box_takes_a_label_only_where_no_other_box_holds_it():
    labels = [TaughtDie((0.0, 0.0, 30.0, 30.0), 3, None), TaughtDie((100.0, 0.0, 130.0, 30.0), 4, None)]
    boxes = [(4.0, 4.0, 34.0, 34.0), (2.0, 2.0, 28.0, 28.0), (100.0, 0.0, 130.0, 30.0)]
    # the weak box is nearer die 0's centre, yet the shipped box takes it
    assert _match(boxes, labels, [False, True, True]) == [0, -1, 1]
    assert _match(boxes, labels) == [-1, 0, 1]


def test_learning_drops_a_pip_check_that_vetoes_right_answers():
    rng = np.random.default_rng(0)
    seen = [_seen_photo([1, 2, 3] * 6, [1, 2, 3] * 6, 0.75, rng) for _ in range(4)]
    prof = learn(seen, "x", lambda f, m: None, 0.0)
    assert prof.report["kept"] == "taught"
    probs = np.full(7, 0.25 / 6, np.float32)
    probs[2] = 0.75
    assert decide(probs, 3, prof.rule) == 2  # a 75% sure classifier now outvotes the pip count
    assert prof.report["held_out_before"]["right"] == 0 and prof.report["held_out_after"]["right"] == 72
    assert prof.head is None and "every value 1-6" in prof.report["layer_note"]  # values 4-6 never shown
    assert not prof.symmetric  # the shipped layer reads crops as they are
    assert "the pip counter misread" in learned_words(prof.report)


def test_learning_keeps_the_pip_counter_where_it_agrees_and_drops_its_veto_where_not():
    rng = np.random.default_rng(1)
    values = [1, 2, 3, 4, 5, 6] * 3
    half = len(values) // 2
    # the first half: the counter right and the classifier only 0.45 sure; the second: the
    # counter one pip short (a faint pip missed; a 1 it cannot tell) and the classifier 0.85
    # sure. The shipped rule reads only the first half, the classifier alone (at 0.5 or more)
    # only the second.
    pips = values[:half] + [v - 1 if v > 1 else None for v in values[half:]]
    seen = []
    for _ in range(4):
        s = _seen_photo(values, values, 0.85, rng, pips=pips)
        s.logits[:half] = np.log(np.where(np.eye(7)[values[:half]] > 0, 0.45, 0.55 / 6)).astype(np.float32)
        seen.append(s)
    prof = learn(seen, "x", lambda f, m: None, 0.0)
    assert prof.report["held_out_before"]["right"] == 36
    assert prof.report["held_out_after"]["right"] == 72 and prof.report["held_out_after"]["wrong"] == 0
    assert prof.rule.pip_check and prof.rule.override <= 0.85
    assert prof.symmetric == (prof.head is not None)  # a taught layer reads as it was fitted
    assert "less sure where the pip counter agrees" in learned_words(prof.report)


def test_learning_brings_back_the_pip_veto_where_the_classifier_is_surely_wrong():
    rng = np.random.default_rng(2)
    values = [1, 2, 3] * 6
    # every 1 read as a 4 at 0.97, above the override; the pip counter right on every die
    seen = [_seen_photo(values, [4, 2, 3] * 6, 0.97, rng, pips=values) for _ in range(4)]
    prof = learn(seen, "x", lambda f, m: None, 0.0)
    assert prof.report["held_out_before"]["wrong"] == 24
    assert prof.rule == STRICT_RULE and prof.report["held_out_after"]["wrong"] == 0
    assert prof.report["held_out_after"]["right"] == prof.report["held_out_before"]["right"] == 48
    assert "always makes a die unsure" in learned_words(prof.report)


def test_learning_stops_the_classifier_overruling_a_count_of_more_pips_where_that_was_wrong(tmp_path):
    """Tilted twos read as ones, 97% surely, where the pip counter rightly counts two: above the
    override a count of more pips needs, so only a rule where more pips always veto stops them;
    the faint pips the counter misses on the other dice still let a taught 0.6 read those."""
    rng = np.random.default_rng(4)
    values = [2, 3, 4] * 6
    said = [1 if v == 2 else v for v in values]
    pips = [2 if v == 2 else v - 1 for v in values]  # right on the twos, one short on the rest
    seen = []
    for _ in range(4):
        s = _seen_photo(values, said, 0.75, rng, pips=pips)
        s.logits[0::3] = np.log(np.where(np.eye(7)[1] > 0, 0.97, 0.03 / 6)).astype(np.float32)
        seen.append(s)
    prof = learn(seen, "x", lambda f, m: None, 0.0)
    assert prof.report["held_out_before"]["wrong"] == 24  # the shipped 0.95 lets every tilted two through
    assert prof.report["held_out_after"]["wrong"] == 0 and prof.report["held_out_after"]["right"] == 48
    assert prof.rule.more is None and prof.rule.override is not None and prof.rule.override <= 0.75
    assert "finds more pips than the classifier reads" in learned_words(prof.report)
    back = load_profile(prof.save(tmp_path / "p.json"), "x")
    assert back.rule == prof.rule


def test_learning_keeps_the_shipped_reader_when_answering_alone_would_be_wrong():
    rng = np.random.default_rng(1)
    seen = [_seen_photo([1, 2, 3] * 6, [4, 2, 3] * 6, 0.75, rng) for _ in range(4)]  # every 1 read as 4
    prof = learn(seen, "x", lambda f, m: None, 0.0)
    assert prof.report["kept"] == "shipped" and prof.rule == SHIPPED_RULE and prof.conf is None
    assert prof.report["held_out_after"]["wrong"] == 0


RED, GREEN, OLIVE = (np.array(c, np.float32) for c in ([30, 30, 200], [40, 160, 40], [40, 140, 90]))


def _coloured_photo(rng, odd_die: bool) -> Seen:
    """18 red dice that teaching learns to read (the pip counter always one off, the classifier
    75% sure), plus a green box on no die that no rule can read; with `odd_die`, also a die
    labelled red that measures olive (nearer the green box than any red die) and no rule can read."""
    s = _seen_photo([1, 2, 3] * 6, [1, 2, 3] * 6, 0.75, rng)
    s.labels = [TaughtDie(d.box, d.value, "red") for d in s.labels]
    s.colours = [RED] * len(s.boxes)
    unsure = np.log(np.array([[0.04] + [0.16] * 6], np.float32))
    extra = [(-1, None, GREEN)] + ([(len(s.labels), TaughtDie((800.0, 0.0, 830.0, 30.0), 4, "red"), OLIVE)]
                                   if odd_die else [])
    for j, die, colour in extra:
        s.boxes.append((760.0, 0.0, 790.0, 30.0) if die is None else die.box)
        s.scores = np.append(s.scores, np.float32(0.9))
        s.logits = np.concatenate([s.logits, unsure])
        s.features = np.concatenate([s.features, rng.normal(0, 1, (1, 64)).astype(np.float32)])
        s.sym_features = s.features
        s.pips.append(PipCount(2))
        s.colours.append(colour)
        s.match.append(j)
        if die is not None:
            s.labels.append(die)
    return s


@pytest.mark.parametrize("odd_die", [False, True])
def test_a_tie_takes_the_colour_gate_only_when_it_hid_no_labelled_die(odd_die):
    """The gate and no gate read the held-out dice alike (the boxes it drops were unsure): it is
    taken when what it dropped was no die, and not when it also hid a die the owner labelled
    (one photo's die measures a colour no other photo shows on a die)."""
    rng = np.random.default_rng(3)
    prof = learn([_coloured_photo(rng, odd_die and k == 0) for k in range(4)], "x", lambda f, m: None, 0.0)
    assert prof.report["kept"] == "taught" and prof.report["held_out_after"]["right"] == 72
    assert prof.report["held_out_after"]["wrong"] == 0
    assert prof.colour_gate is not odd_die and prof.report["colour_gate"] is not odd_die
    assert prof.report["held_out_after"]["gated"] == 0
    assert prof.report["held_out_after"]["unsure"] == (5 if odd_die else 0)
    if not odd_die:
        assert len(prof.on_dice) == 72 and prof.off_dice == [[round(float(x), 2) for x in lab(GREEN)]] * 4


def test_the_colour_gate_keeps_a_box_nearer_the_dice_than_anything_seen_off_them():
    """Light moves a die's colour beyond any one reach; the gate drops only what is nearer the
    colours seen on boxes that were no die."""
    red, wood = lab(np.array([40, 40, 190], np.float32)).tolist(), lab(np.array([60, 110, 150], np.float32)).tolist()
    gated = DiceProfile("x", None, {"red": red}, colour_gate=True, on_dice=[red], off_dice=[wood])
    dim_red = np.array([35, 30, 120], np.float32)  # the same die in the shade: beyond reach of "red"
    assert gated.taught_colour(dim_red) is None and gated.admits(dim_red)
    assert not gated.admits(np.array([58, 105, 140], np.float32))  # the cloth
    # a profile taught before it kept those colours drops every box beyond reach
    assert not DiceProfile("x", None, {"red": red}, colour_gate=True).admits(dim_red)


def _sure_photo(values: list[int], shown: int, said: list[int] | None = None) -> Seen:
    """A photo whose first `shown` dice the shipped detector boxed, each read 0.99 surely as
    `said` (default: right) with the pip counter agreeing; anchors to fit a detector score on."""
    said = said or values
    rng = np.random.default_rng(len(values) + shown)
    n = len(values)
    boxes = [(40.0 * i, 0.0, 40.0 * i + 30, 30.0) for i in range(n)]
    probs = np.full((shown, 7), 0.01 / 6, np.float32)
    probs[np.arange(shown), said[:shown]] = 0.99
    feats = rng.normal(0, 1, (shown, 64)).astype(np.float32)
    labels = [TaughtDie(b, v, None) for b, v in zip(boxes, values)]
    y = (rng.random(400) < 0.1).astype(float)
    x = rng.normal(0, 1, (400, 64)).astype(np.float32)
    x[:, 0] += 3 * y
    return Seen(boxes[:shown], np.full(shown, 0.9, np.float32), np.log(probs), feats, [PipCount(k) for k in said[:shown]],
                [None] * shown, list(range(shown)), labels, np.repeat(feats, 4, 0),
                np.repeat(np.array(values[:shown]), 4), np.repeat(np.log(probs), 4, 0), sym_features=feats,
                anchors=TeachingAnchors(np.zeros(400, int), x, np.full(400, -6.0), y, np.ones(400)))


@pytest.mark.parametrize("added_right", [True, False])
def test_learning_keeps_a_taught_detector_score_only_when_the_boxes_it_adds_read_right(added_right):
    values = [1, 2, 3, 4, 5, 6]
    seen = [_sure_photo(values, 5) for _ in range(4)]
    # What the photo looks like with the boxes a taught score adds: the sixth die boxed too,
    # read as a 6 (or, surely, as a 2).
    said = values if added_right else values[:5] + [2]
    views = [_sure_photo(values, 6, said) for _ in range(4)]
    asked = []

    def taught_view(k, head, second_head):
        assert second_head is None  # these photos have no second detector's anchors
        asked.append((k, head.detector_sha))
        return views[k]

    prof = learn(seen, "x", lambda f, m: None, 0.0, taught_view, "det9")
    assert sorted(asked) == [(k, "det9") for k in range(4)]  # each photo, on a score fitted without it
    if added_right:
        assert prof.score_head is not None and prof.score_head.detector_sha == "det9"
        assert prof.report["detector"] == "taught" and prof.report["held_out_after"]["right"] == 24
        assert "where the camera's detector saw none" in learned_words(prof.report)
    else:
        assert prof.score_head is None and prof.report["detector"] == "shipped"


@pytest.mark.parametrize("added_right", [True, False])
def test_learning_keeps_a_taught_second_detector_score_only_when_its_boxes_hold_and_read_right(added_right):
    values = [1, 2, 3, 4, 5, 6]
    seen = [_sure_photo(values, 5) for _ in range(4)]
    for s in seen:  # no shipped detector score to teach; the second detector's anchors instead
        s.second_anchors, s.anchors = s.anchors, None
    # With the second detector's taught score the sixth die is boxed too, as a weak box: read as
    # a 6 with the pip counter agreeing (or, surely, as a 2 with the counter saying 2).
    said = values if added_right else values[:5] + [2]
    views = []
    for _ in range(4):
        v = _sure_photo(values, 6, said)
        v.scores[5], v.weak = 0.2, [False] * 5 + [True]
        views.append(v)
    asked = []

    def taught_view(k, head, second_head):
        assert head is None
        asked.append((k, second_head.detector_sha))
        return views[k]

    prof = learn(seen, "x", lambda f, m: None, 0.0, taught_view, "", "v7")
    assert sorted(asked) == [(k, "v7") for k in range(4)]
    if added_right:
        assert prof.second_score_head is not None and prof.second_score_head.detector_sha == "v7"
        assert prof.score_head is None and prof.report["second_detector"] == "taught"
        assert prof.report["held_out_after"]["right"] == 24
        assert "second detector's score taught" in learned_words(prof.report)
    else:
        assert prof.second_score_head is None and prof.report["second_detector"] == "shipped"
