"""Spheres in a photo with no card: the training scenes and their labels, the ray-marched test
look, the detector's count rule and where `tablesight quarx` uses it."""
from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

from vision.detector.errors import NoModelError
from vision.detector.model import Detection
from vision.games.quarx import photo
from vision.games.quarx.scene_judge import JUDGE_SIZE, NOT_SPHERE, PART, judge_crop, load_scene_judge
from vision.games.quarx.scene_judge import SPHERE as ONE_SPHERE
from vision.games.quarx.scene_spheres import (JUDGE_CUTS, MAYBE, SURE, JudgeCuts, SceneSpheres, count_from_scores,
                                              count_odds, judged_verdicts)
from vision.games.quarx.scenes_eval import SceneTally
from vision.synth.holdout_scenes import KINDS, render_scene
from vision.synth.table_scenes import (MIN_VISIBLE_PX, SPHERE, Solid, _hit_local, _painted, refract, render_table_scene,
                                       through_glass)
from vision.synth.mesh_scenes import render_scene as render_mesh_scene
from vision.training.scene_judge import (CANDIDATE, MESH, MESH_SEED, _bed_picture, card_crops, choices, cut_table,
                                         label_box, scene_crops, validation_pictures, visible_boxes)
from vision.training.sphere_scenes import build, rule_table

SMALL = (200, 150)


@pytest.mark.parametrize("scores, count", [
    ([], 0),
    ([MAYBE / 2], 0),  # under MAYBE: no box
    ([0.99, SURE, 0.9], 3),
    ([0.99, (SURE + MAYBE) / 2], None),
])
def test_a_picture_is_counted_only_when_every_box_is_sure(scores, count):
    assert count_from_scores(np.array(scores, np.float32)) == count


def test_the_odds_of_each_count_come_from_the_boxes_between_the_cuts():
    odds = count_odds(np.array([0.99, 0.5, 0.1, MAYBE / 2], np.float32), sure=0.8, maybe=MAYBE)
    # one sure sphere; 0.5 and 0.1 each a sphere by their chance; the box under MAYBE is none
    assert np.allclose(odds, [0.0, 0.5 * 0.9, 0.5 * 0.9 + 0.5 * 0.1, 0.5 * 0.1])
    assert count_odds(np.array([], np.float32)).tolist() == [1.0]
    # a faint box leaves one count likely enough for a looser rule, never for the strict one
    faint = np.array([0.95, 0.95, 0.08], np.float32)
    assert count_from_scores(faint, sure=0.8, maybe=0.05, certain=0.9) == 2
    assert count_from_scores(faint, sure=0.8, maybe=0.05, certain=1.0) is None


def test_training_scenes_label_each_sphere_that_shows_by_its_visible_part():
    scene = render_table_scene(4, 0, SMALL)
    assert scene.image.shape == (SMALL[1], SMALL[0], 3)
    assert np.array_equal(scene.image, render_table_scene(4, 0, SMALL).image)
    boxes = scene.sphere_boxes()
    spheres = [i for i, s in enumerate(scene.solids) if s.kind == SPHERE]
    assert scene.spheres == len(spheres) >= len(boxes)
    for x1, y1, x2, y2 in boxes:
        assert 0 <= x1 < x2 <= SMALL[0] and 0 <= y1 < y2 <= SMALL[1]
        inside = scene.ids[int(y1):int(y2), int(x1):int(x2)]
        # the box holds a sphere's pixels, at least the least that is labelled
        assert max(np.count_nonzero(inside == i) for i in spheres) >= MIN_VISIBLE_PX


def test_light_bends_through_glass_by_snells_law_and_mirrors_where_it_cannot_leave():
    down_45 = np.array([[np.sqrt(0.5), 0.0, -np.sqrt(0.5)]])
    up = np.array([[0.0, 0.0, 1.0]])
    bent = refract(down_45, up, 1 / 1.5)[0]
    assert np.isclose(np.linalg.norm(bent), 1) and np.isclose(bent[0], np.sqrt(0.5) / 1.5)
    assert np.allclose(refract(np.array([[0.0, 0, -1]]), up, 1 / 1.5), [[0, 0, -1]])
    # from inside glass at 45 degrees (beyond the critical 41.8) no light leaves: it is mirrored
    assert np.allclose(refract(down_45, up, 1.5), [[np.sqrt(0.5), 0, np.sqrt(0.5)]])


def test_a_glass_sphere_shows_the_table_behind_it_upside_down():
    red, blue = (0.0, 0.0, 1.0), (1.0, 0.0, 0.0)
    tex = np.zeros((8, 8, 3))
    tex[:, :4], tex[:, 4:] = red, blue  # table x just above 0 is red, just below 0 blue
    ball = Solid(SPHERE, "ellipsoid", np.array([0.0, 0, 3]), np.eye(3), np.ones(3), np.ones(3), "glass")
    x = -0.5  # looking straight down, left of the ball's centre: bare table there is blue
    hit = np.array([[x, 0, 3 + np.sqrt(1 - x * x)]])
    seen = through_glass([ball], np.array([0]), hit, np.array([[0.0, 0, -1]]), hit - ball.centre, np.ones((1, 3)),
                         np.zeros(1), tex, 10.0, np.array([0.0, 0, 1]), 0.3, ior=1.5)
    assert np.allclose(seen, [red])  # the lens crossed the rays over


def test_the_fourth_look_dresses_the_third_looks_layout():
    third, fourth = render_table_scene(3, 2, SMALL, look=3), render_table_scene(3, 2, SMALL, look=4)
    assert all(s.finish == "plain" and not s.bump and s.kind != "torus" for s in third.solids)
    # the same spheres at the same places; only decoys may have become rings
    assert [tuple(s.centre) for s in third.solids if s.kind == SPHERE] == \
        [tuple(s.centre) for s in fourth.solids if s.kind == SPHERE]
    assert len(third.solids) == len(fourth.solids)
    with pytest.raises(ValueError):
        render_table_scene(3, 2, SMALL, look=2)


def test_the_fifth_look_finishes_only_the_third_looks_spheres():
    finished = set()
    for idx in range(12):
        third, fifth = render_table_scene(3, idx, SMALL, look=3), render_table_scene(3, idx, SMALL, look=5)
        assert [(s.kind, tuple(s.centre)) for s in third.solids] == [(s.kind, tuple(s.centre)) for s in fifth.solids]
        for a, b in zip(third.solids, fifth.solids):
            if b.kind != SPHERE:
                assert b.finish == "plain" and not b.bump and np.array_equal(b.colour, a.colour)  # as the third look draws it
            elif b.finish != "plain" or b.bump:
                finished.add(idx)
        assert len(fifth.sphere_boxes()) == len(third.sphere_boxes())
    assert finished  # some spheres painted or hammered


def test_a_ring_is_hit_on_its_tube_and_not_through_its_hole():
    size = np.array([3.0, 3.0, 1.0])  # a tube of radius 1 around a circle of radius 2
    down = np.array([[0.0, 0, -1]] * 2)
    t, n = _hit_local("torus", size, np.array([[2.0, 0, 5], [0.0, 0, 5]]), down)
    assert np.isclose(t[0], 4, atol=1e-3) and np.allclose(n[0] / np.linalg.norm(n[0]), [0, 0, 1], atol=1e-3)
    assert np.isinf(t[1])  # straight down the hole
    t, n = _hit_local("torus", size, np.array([[-5.0, 0, 0]]), np.array([[1.0, 0, 0]]))
    assert np.isclose(t[0], 2, atol=1e-3) and np.allclose(n[0] / np.linalg.norm(n[0]), [-1, 0, 0], atol=1e-3)


def test_a_striped_solid_shows_its_colour_and_its_ink_in_bands():
    red, white = np.array([0.0, 0, 1]), np.ones(3)
    ball = Solid(SPHERE, "ellipsoid", np.zeros(3), np.eye(3), np.ones(3), red, "matte", finish="stripes",
                 ink=white, freq=2.0)
    # stripes across the own z: sin(2 pi z) > 0 for z in (0, 0.5) is ink, in (0.5, 1) the colour
    on = _painted(ball, np.array([[0.0, np.sqrt(1 - 0.25 ** 2), 0.25], [0.0, np.sqrt(1 - 0.75 ** 2), 0.75]]))
    assert np.allclose(on, [white, red])


def test_a_decoy_is_never_labelled():
    for idx in range(6):
        scene = render_table_scene(9, idx, SMALL)
        decoy_px = {i: np.count_nonzero(scene.ids == i) for i, s in enumerate(scene.solids) if s.kind != SPHERE}
        for x1, y1, x2, y2 in scene.sphere_boxes():
            owners = scene.ids[int(y1):int(y2), int(x1):int(x2)]
            top = np.bincount(owners[owners >= 0].ravel(), minlength=len(scene.solids)).argmax()
            assert scene.solids[top].kind == SPHERE and top not in decoy_px


def test_the_dataset_has_a_label_line_per_labelled_sphere(tmp_path):
    yaml = build(tmp_path, seed=5, count=2, val_count=1, size=SMALL)
    assert "names:\n  0: sphere" in yaml.read_text()
    for i in range(2):
        lines = (tmp_path / "labels" / "train" / f"scene_5_{i:05d}.txt").read_text().split()
        assert len(lines) == 5 * len(render_table_scene(5, i, SMALL).sphere_boxes())
        v = np.array(lines, float).reshape(-1, 5)
        assert ((v[:, 1:] > 0) & (v[:, 1:] <= 1)).all()
    assert (tmp_path / "images" / "val" / "scene_1005_00000.jpg").is_file()


def test_the_test_look_is_fixed_by_its_seed_and_counts_only_spheres():
    a = render_scene(91, 3, SMALL)
    assert np.array_equal(a.image, render_scene(91, 3, SMALL).image)
    assert a.image.shape == (SMALL[1], SMALL[0], 3)
    assert all(t.kind in KINDS for t in a.things)
    assert a.spheres == sum(t.kind == "sphere" for t in a.things)


def test_the_tally_keeps_exact_unsure_and_wrong_apart():
    t = SceneTally()
    for truth, answer in ((1, 1), (2, None), (3, 2), (0, 0)):
        t.add(truth, answer)
    d = t.as_dict()
    assert (d["exact"], d["unsure"], d["wrong"], d["answered_zero"], d["always_one_exact"]) == (2, 1, 1, 1, 1)
    assert d["wrong_by"] == [-1] and d["by_spheres"]["3"] == {"exact": 0, "unsure": 0, "wrong": 1}


class _Scenes:
    def __init__(self, n):
        self.n = n

    def count(self, frame, keep_out=()):
        return self.n, [Detection("sphere", (1.0, 2.0, 11.0, 12.0), 0.9)] * (self.n or 0)


BLANK = np.full((120, 160, 3), 128, np.uint8)  # no card in it


@pytest.mark.parametrize("n", [2, None, 0])
def test_with_no_card_the_scene_detector_answers_or_is_unsure(monkeypatch, n):
    """None found is unsure too: a card the finder lost shows printed spheres it does not see."""
    monkeypatch.setattr(photo, "load_scene_spheres", lambda: _Scenes(n))
    got = photo.count_quarx(BLANK)
    assert got.cards == []
    if not n:
        assert not got.sure and got.to_json()["spheres"] is None
    else:
        assert got.sure and got.spheres == 2 and got.number_cards == [2] and len(got.sphere_boxes) == 2


class _Boxes:
    def __init__(self, found):
        self.found = found

    def detect(self, frame, conf, iou):
        return [d for d in self.found if d.score >= conf]


@pytest.mark.parametrize("on_card, answer", [(None, 2), (0.3, None), (0.95, None)])
def test_a_card_the_finder_cannot_count_gives_way_to_the_scene_only_where_no_sphere_lies_on_it(
        monkeypatch, on_card, answer):
    """The finder takes a box's face or a cloth's tile for a card and cannot count it; the scene's
    count stands only where no box, however faint, lies on that "card" (a real card's spheres)."""
    card = SimpleNamespace(box=(50, 50, 100, 100), spheres=None)
    monkeypatch.setattr(photo, "count_quarx_classical", lambda frame: [card])
    found = [Detection("sphere", (1.0, 2.0, 11.0, 12.0), 0.95), Detection("sphere", (120.0, 2, 140, 22), 0.99)]
    if on_card is not None:
        found.append(Detection("sphere", (60.0, 60, 80, 80), on_card))
    model = SceneSpheres.__new__(SceneSpheres)
    model.detector, model.judge, model.cuts = _Boxes(found), None, JUDGE_CUTS
    monkeypatch.setattr(photo, "load_scene_spheres", lambda: model)
    got = photo.count_quarx(BLANK)
    if answer is None:
        assert not got.sure and [c.spheres for c in got.cards] == [-1]  # the card is drawn with "?"
    else:
        assert got.sure and got.spheres == answer and got.cards == []


def test_with_no_card_and_no_scene_model_the_count_is_unsure(monkeypatch):
    monkeypatch.setattr(photo, "load_scene_spheres", lambda: None)
    assert not photo.count_quarx(BLANK).sure


def test_validation_reads_the_cuts_as_the_photo_path_answers():
    pictures = [(np.array([0.95, 0.92], np.float32), 2),  # exact at any cut under 0.92
                (np.array([0.95, 0.85], np.float32), 2),  # a box between 0.85 and 0.95
                (np.array([], np.float32), 0),            # none: unsure, as `tablesight quarx` says
                (np.array([0.97, 0.93], np.float32), 1)]  # one too many
    rows = {(r["sure"], r["maybe"]): r for r in rule_table(pictures, (0.8, 0.9), (0.05,), (1.0,))}
    assert [rows[0.8, 0.05][k] for k in ("exact", "unsure", "wrong")] == [2, 1, 1]
    assert [rows[0.9, 0.05][k] for k in ("exact", "unsure", "wrong")] == [1, 2, 1]


CUTS = JudgeCuts(maybe=0.1, sphere=0.8, none=0.7, veto=0.95)


def _p(sphere, none):
    return [sphere, none, 1 - sphere - none]


@pytest.mark.parametrize("score, probs, verdict", [
    (0.05, _p(0.99, 0.0), False),   # under `maybe`: no box, whatever the judge would say
    (0.5, _p(0.85, 0.1), True),     # a doubtful box the judge calls one sphere
    (0.5, _p(0.1, 0.75), False),    # ... no sphere
    (0.5, _p(0.6, 0.3), None),      # ... neither surely: the count is unsure
    (0.5, _p(0.1, 0.5), None),      # "part of one, or several" most likely: unsure
    (0.95, _p(0.3, 0.6), True),     # a sure box stands unless the judge vetoes it
    (0.95, _p(0.01, 0.97), None),   # vetoed
])
def test_the_judge_settles_each_doubtful_box(score, probs, verdict):
    assert judged_verdicts(np.array([score], np.float32), np.array([probs]), SURE, CUTS) == [verdict]
    if score >= SURE:  # with no veto a sure box is a sphere
        assert judged_verdicts(np.array([score]), np.array([probs]), SURE, JudgeCuts(0.1, 0.8, 0.7, None)) == [True]


class _Judge:
    def __init__(self, probs):
        self.probs = probs

    def probabilities(self, frame, boxes):
        return np.array([self.probs[b] for b in boxes])


@pytest.mark.parametrize("middle, count", [(_p(0.9, 0.05), 3), (_p(0.02, 0.95), 2), (_p(0.5, 0.4), None)])
def test_with_a_judge_the_count_stands_where_it_is_sure_of_every_doubtful_box(middle, count):
    a, b, c = (1.0, 1, 11, 11), (20.0, 1, 30, 11), (40.0, 1, 50, 11)
    model = SceneSpheres.__new__(SceneSpheres)
    model.detector = _Boxes([Detection("sphere", a, 0.97), Detection("sphere", b, 0.5), Detection("sphere", c, 0.92)])
    model.judge, model.cuts = _Judge({a: _p(0.9, 0.05), b: middle, c: _p(0.6, 0.3)}), CUTS
    n, counted = model.count(BLANK)
    assert n == count
    assert [d.box for d in counted] == ([] if count is None else [a, b, c] if count == 3 else [a, c])
    model.judge = None  # the detector's cuts alone: the box at 0.5 makes it unsure
    assert model.count(BLANK)[0] is None


def test_the_judge_is_taught_each_box_by_how_it_covers_the_spheres():
    whole = [(10.0, 10, 30, 30)]
    anywhere = whole + [(100.0, 100, 110, 104)]  # a sphere mostly hidden: never "one sphere"
    assert label_box((11.0, 9, 31, 29), whole, anywhere) == ONE_SPHERE
    assert label_box((10.0, 10, 20, 20), whole, anywhere) == PART  # a quarter of it
    assert label_box((100.0, 100, 110, 105), whole, anywhere) == PART
    assert label_box((200.0, 10, 220, 30), whole, anywhere) == NOT_SPHERE
    assert label_box((200.0, 10, 220, 30), [], []) == NOT_SPHERE


def test_training_crops_label_the_detectors_boxes_and_every_solid_in_sight():
    scene = render_table_scene(5, 4, SMALL)  # 5 spheres among eggs, discs, a cylinder and a ring
    spheres = scene.sphere_boxes()
    crops, ys = scene_crops(scene, spheres[:1] + [(0.0, 0, 5, 5)], np.random.default_rng(0))
    assert all(c.shape == (JUDGE_SIZE, JUDGE_SIZE, 3) for c in crops)
    assert np.array_equal(crops[0], judge_crop(scene.image, spheres[0]))
    assert ys[:2] == [ONE_SPHERE, NOT_SPHERE]
    assert len(ys) > 2 and set(ys) <= {ONE_SPHERE, NOT_SPHERE, PART}


def test_shape_cards_teach_whole_spheres_among_decoys_and_boxes_off_any_shape():
    ys = []
    for idx in range(6):
        crops, y = card_crops(43, idx)
        assert all(c.shape == (JUDGE_SIZE, JUDGE_SIZE, 3) for c in crops) and len(crops) == len(y)
        ys += y
    again, y_again = card_crops(43, 0)
    first, y_first = card_crops(43, 0)
    assert y_again == y_first and all(np.array_equal(a, b) for a, b in zip(again, first))
    # Cards hold 0-9 spheres and 0-6 decoys: every class shows over a few cards, "no sphere" most.
    counts = np.bincount(ys, minlength=3)
    assert counts[ONE_SPHERE] > 0 and counts[PART] > 0 and counts[NOT_SPHERE] > counts[ONE_SPHERE]


def test_the_choosing_bed_keeps_every_mesh_picture_with_its_count_and_the_detectors_boxes(tmp_path):
    pics = validation_pictures(MESH, 3, cache=tmp_path)
    assert [t for _, _, t in pics] == [render_mesh_scene(MESH_SEED, i).spheres for i in range(3)]
    assert all(len(scores) == len(crops) and (scores >= CANDIDATE).all() for scores, crops, _ in pics)
    assert validation_pictures(MESH, 3, cache=tmp_path)[0][2] == pics[0][2]  # read back from the cache
    # The pictures are kept losslessly: another detector's cache reads the very same pixels.
    kept, spheres = _bed_picture(MESH, 1, tmp_path / "pictures")
    assert np.array_equal(kept, render_mesh_scene(MESH_SEED, 1).image) and spheres == pics[1][2]


def test_the_judges_cuts_are_scored_as_the_photo_path_answers():
    pictures = [(np.array([0.95, 0.5]), np.array([_p(0.9, 0.05), _p(0.85, 0.1)]), 2),  # exact if 0.85 is enough
                (np.array([0.95, 0.5]), np.array([_p(0.9, 0.05), _p(0.1, 0.85)]), 1),
                (np.array([0.5]), np.array([_p(0.05, 0.9)]), 0),  # none: unsure
                (np.array([0.95, 0.5]), np.array([_p(0.9, 0.05), _p(0.95, 0.0)]), 1)]  # a decoy called a sphere
    rows = cut_table(pictures, [JudgeCuts(0.1, 0.8, 0.8, None), JudgeCuts(0.1, 0.9, 0.8, None)])
    assert [(r["exact"], r["unsure"], r["wrong"]) for r in rows] == [(2, 1, 1), (1, 2, 1)]


class _CardNet:
    """The detector network, seeing one card at `score` (or none)."""

    def __init__(self, score):
        self.score = score

    def detect(self, frame, conf, classes):
        seen = [Detection("quarx_card", (0.0, 0, 40, 60), self.score)] if self.score is not None else []
        return [d for d in seen if d.score >= conf and d.cls in classes]


@pytest.mark.parametrize("card, sure", [(None, True), (0.5, True), (0.95, False)])
def test_a_card_the_network_sees_but_the_finder_lost_makes_the_scene_count_unsure(monkeypatch, card, sure):
    """A lost Quarx card's printed spheres are not what the scene detector counts."""
    monkeypatch.setattr(photo, "load_scene_spheres", lambda: _Scenes(2))
    got = photo.count_quarx(BLANK, detector=_CardNet(card))
    assert got.sure is sure and (got.spheres == 2 if sure else got.to_json()["spheres"] is None)


def test_with_no_network_to_rule_out_a_lost_card_the_scene_count_is_unsure(monkeypatch):
    def missing():
        raise NoModelError("no detector installed")
    monkeypatch.setattr(photo, "load_scene_spheres", lambda: _Scenes(2))
    monkeypatch.setattr(photo, "load_detector", missing)
    assert not photo.count_quarx(BLANK).sure


def test_the_shipped_judge_tells_spheres_from_decoys_on_scenes_it_never_saw():
    """Training scenes of a seed no judge trained on: the boxes of the labelled spheres are called
    "one sphere" far more surely than the boxes of eggs, discs, boxes and rings."""
    judge = load_scene_judge()
    if judge is None:
        pytest.skip("models/scene_sphere_judge.onnx is not installed")
    on_spheres, on_decoys = [], []
    for idx in range(8):
        scene = render_table_scene(7, idx, (320, 240))
        whole = scene.sphere_boxes()
        decoys = [b for i, b in visible_boxes(scene).items() if scene.solids[i].kind != SPHERE
                  and np.count_nonzero(scene.ids == i) >= 100]
        probs = judge.probabilities(scene.image, whole + decoys)
        on_spheres += list(probs[:len(whole), ONE_SPHERE])
        on_decoys += list(probs[len(whole):, ONE_SPHERE])
    assert len(on_spheres) >= 8 and len(on_decoys) >= 8
    assert np.mean(on_spheres) > np.mean(on_decoys) + 0.3, (np.mean(on_spheres), np.mean(on_decoys))


def test_the_judges_cuts_are_chosen_for_no_more_wrong_pictures_on_any_look_then_the_most_exact():
    def row(maybe, looks):
        return {"maybe": maybe, "exact": sum(e for e, _, _ in looks), "wrong": sum(w for _, _, w in looks),
                "by_look": [list(x) for x in looks]}
    alone = row(MAYBE, [(25, 224, 0), (13, 231, 7)])
    bolder = row(MAYBE, [(40, 208, 1), (20, 224, 7)])      # a wrong picture on the first look
    blind = row(0.3, [(36, 213, 0), (20, 224, 7)])        # drops boxes the detector's cuts look at
    best, fewer_wrong, worse = (row(MAYBE, [(31, 218, 0), (18, 226, w)]) for w in (7, 5, 0))
    worse["by_look"][1][0] = worse["exact"] = 10
    assert choices([alone, bolder, blind, best, fewer_wrong, worse]) == [fewer_wrong, best, worse]
