"""The camera picture speaks the players' words and shows only what the game uses."""
from __future__ import annotations

import numpy as np

from rules.core.match import Match
from rules.registry import ENGINES
from vision.detector.dice import DieReading
from vision.detector.model import Detection
from vision.detector.quarx import QuarxCard, QuarxCount
from vision.games.quarx.glance import glance_of
from vision.scene_words import Label, draw_scene, labels_for
from vision.pipeline import FramePipeline
from vision.waiting import hides_counts, waiting_for

QUARX_THINGS = [Detection("quarx_card", (0, 0, 10, 10), 0.9), Detection("number_card", (20, 0, 30, 10), 0.9),
                Detection("sphere", (1, 1, 3, 3), 0.8)]


def test_a_diceline_picture_shows_dice_not_quarx_cards():
    die = DieReading(4, "red", (40, 40, 60, 60), 0.9, 4, 4)
    unsure = DieReading(None, "green", (70, 40, 90, 60), 0.9, 4, None)
    labels = labels_for("diceline", [die, unsure, *QUARX_THINGS])
    assert [lab.text for lab in labels] == ["red 4", "unsure: green die, turn it to face the camera"]
    assert [lab.sure for lab in labels] == [True, False]
    assert labels_for("ubongo", QUARX_THINGS + [die]) == []
    no_colour = [DieReading(5, None, (0, 0, 9, 9), 0.9, 5, 5), DieReading(None, None, (0, 0, 9, 9), 0.9, 5, None)]
    assert [lab.text for lab in labels_for("diceline", no_colour)] == [
        "die 5", "unsure: die, turn it to face the camera"]  # an unsure colour is not named
    assert [lab.text for lab in labels_for("quarx", QUARX_THINGS)] == ["Quarx card", "number card", "sphere"]
    assert len(labels_for(None, QUARX_THINGS)) == 3  # no table: everything the detector finds


def test_quarx_cards_and_number_cards_in_words():
    count = QuarxCount(0, [QuarxCard((0, 0, 50, 70), 7), QuarxCard((60, 0, 110, 70), -1)], [],
                       labels=[((0, 80, 20, 100), "red 16"), ((30, 80, 50, 100), "blue down"), ((60, 80, 80, 100), "?")],
                       sure=False)
    texts = [lab.text for lab in labels_for("quarx", count)]
    assert texts == ["7 spheres", "unsure: spheres too close, spread the card out", "red 16", "blue face down",
                     "unsure: number card, lay it flat"]
    assert labels_for("diceline", count) == []


def test_ubongo_reader_labels_keep_their_words_and_mark_unsure():
    got = labels_for("ubongo", [Detection("black L4", (0, 0, 9, 9), 0.9), Detection("white ?", (0, 0, 9, 9), 0.5)])
    assert [(lab.text, lab.sure) for lab in got] == [("black L4", True), ("unsure: white die, turn it face up", False)]


def test_draw_scene_draws_without_touching_the_frame():
    frame = np.zeros((120, 160, 3), np.uint8)
    out = draw_scene(frame, [Label((10, 10, 50, 50), "red 4"), Label((60, 10, 100, 50), "unsure: x", False)],
                     waiting="roll the dice", headline="23 = 16 + 4 + 2 + 1")
    assert frame.sum() == 0 and out.sum() > 0
    assert out[-5:, :, :].any()  # the waiting strip along the bottom


def test_waiting_for_in_table_words():
    quarx = Match(ENGINES["quarx"], ["Ann", "Ben"], seed=1)
    eng = quarx.engine
    assert waiting_for("quarx", eng.view(quarx.state, None)).startswith("turn over 4 Quarx cards")
    quarx.play("random")
    assert waiting_for("quarx", eng.view(quarx.state, None)).startswith("lay your number cards")
    ubongo = Match(ENGINES["ubongo"], ["Ann", "Ben"], seed=1)
    assert waiting_for("ubongo", ENGINES["ubongo"].view(ubongo.state, None)).endswith("roll the dice")
    assert waiting_for("dreams", {}) == "the camera does not read dreams: play on the page"
    assert waiting_for("quarx", {}, over=True) == "the game is over"


def test_quarx_glance_marks_unsure_cards_with_a_reason_and_no_total():
    sure = QuarxCount(12, [QuarxCard((60, 0, 110, 70), 5), QuarxCard((0, 0, 50, 70), 7)], [8, 4])
    assert glance_of(sure, (480, 640, 3)) == {"cards": [{"spheres": 7, "reason": None}, {"spheres": 5, "reason": None}],
                                              "total": 12, "reason": None}
    unsure = QuarxCount(0, [QuarxCard((0, 0, 50, 70), 7), QuarxCard((60, 0, 110, 70), -1)], [], sure=False)
    g = glance_of(unsure, (480, 640, 3))
    assert g["total"] is None and g["cards"][1]["spheres"] is None and "too close" in g["cards"][1]["reason"]
    assert glance_of(None, (480, 640, 3), hand=True)["reason"].endswith("move your hand")


def test_quarx_glance_hides_counts_while_players_count():
    sure = QuarxCount(12, [QuarxCard((0, 0, 50, 70), 7), QuarxCard((60, 0, 110, 70), 5)], [8, 4])
    g = glance_of(sure, (480, 640, 3), hide_counts=True)
    assert g["total"] is None and all(c["spheres"] is None and c["hidden"] for c in g["cards"])


def test_a_test_reading_in_words():
    from vision.reading_words import describe

    assert describe("quarx", {"face_up": [3, 5], "laid": [["red", "down"], ["blue", [16, 2]]]}) == [
        "Quarx cards: 3 + 5 = 8 spheres", "red number cards: face down", "blue number cards: 16 + 2"]
    assert describe("quarx", {"face_up": None, "laid": None})[0].startswith("Quarx cards: unsure")
    assert describe("ubongo", {"middle": {"black": ["L4"], "white": []}, "grabbed": {"Ann": ["P5", "I1"]}}) == [
        "black dice in the middle: L4", "white dice in the middle: none", "Ann grabbed P5 + I1"]
    assert describe("diceline", {})[0].startswith("nothing found")
    assert describe("diceline", None)[0].startswith("unsure")


def test_the_diceline_reader_labels_each_die_at_its_cell():
    import cv2

    from vision.games.diceline.reader import read_diceline
    from vision.sources import DEMO_DIR

    cap = cv2.VideoCapture(str(DEMO_DIR / "diceline_round.mp4"))
    cap.set(cv2.CAP_PROP_POS_FRAMES, 150)
    ok, frame = cap.read()
    cap.release()
    assert ok
    reading = read_diceline(frame, None, None, ["Ann", "Ben", "Cid"])
    labels = labels_for("diceline", reading.drawables)
    assert len(labels) >= 10  # the frame shows a dozen dice on the mat
    h, w = frame.shape[:2]
    assert all(0 <= lab.box[0] < lab.box[2] <= w and 0 <= lab.box[1] < lab.box[3] <= h for lab in labels)
    assert all(lab.text.split()[0] in ("red", "green", "grey") or (lab.text.startswith("unsure:") and not lab.sure) for lab in labels)


def test_the_picture_hides_quarx_counts_while_players_count():
    """Quarx: "all players, without taking turns, race to count the total of all colored spheres":
    while they count, the shared picture marks the cards the camera counted but neither their
    numbers nor the spheres it found."""
    count = QuarxCount(12, [QuarxCard((0, 0, 50, 70), 7), QuarxCard((60, 0, 110, 70), -1)], [8, 4],
                       sphere_boxes=[(1, 1, 5, 5), (7, 7, 11, 11)])
    hidden = labels_for("quarx", count, hide_counts=True)
    assert [(lab.text, lab.sure) for lab in hidden] == [("counted: hidden until everyone has laid", True),
                                                         ("unsure: spread the card out", False)]
    assert any(lab.text == "sphere" for lab in labels_for("quarx", count))

    quarx = Match(ENGINES["quarx"], ["Ann", "Ben"], seed=1)
    pipeline = FramePipeline(Recording())
    assert not pipeline.hides_counts(quarx.engine, quarx.state)
    quarx.play("random")  # the reveal: now the players count
    assert pipeline.hides_counts(quarx.engine, quarx.state)
    assert not hides_counts(ENGINES["ubongo"].view(Match(ENGINES["ubongo"], ["Ann", "Ben"], seed=1).state, None))


class Recording:
    settle, reread = "whole", 1

    def read(self, frame, context):
        raise AssertionError("not read in this test")
