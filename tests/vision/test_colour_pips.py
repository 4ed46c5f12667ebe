"""Colour names and the classical pip counter on clean rendered faces."""
import cv2
import numpy as np
import pytest

from vision.detector.color import die_color, name_color, name_colors
from vision.detector.die_crop import box_crop
from vision.detector.pips import PipCount, count_pips, read_box_pips, read_pips
from vision.synth.cube import PIP_LAYOUT


@pytest.mark.parametrize("bgr,name", [((240, 240, 240), "white"), ((20, 20, 20), "black"),
                                      ((128, 128, 128), "grey"), ((30, 30, 200), "red"),
                                      ((40, 150, 40), "green"), ((190, 90, 30), "blue"),
                                      ((40, 210, 235), "yellow")])
def test_name_color(bgr, name):
    assert name_color(np.array(bgr, np.float32)) == name


def test_name_colors_names_each_colour_as_name_color_does():
    colours = np.random.default_rng(0).uniform(0, 255, (500, 3))
    assert name_colors(colours) == [name_color(c) for c in colours]


def test_a_face_of_several_names_is_unsure_and_a_plain_one_is_named():
    """Unsure is None, never a guess: a marbled face of blue, purple and red has a median colour
    (pink) that none of its pixels carries, so it has no colour name; a plain face keeps its name."""
    gains = np.ones(3, np.float32)
    blue = np.full((30, 30, 3), (200, 80, 40), np.uint8)
    assert die_color(blue, (0, 0, 30, 30), gains) == "blue"
    marbled = np.zeros((30, 30, 3), np.uint8)
    streaks = ((200, 60, 80), (200, 60, 110), (60, 60, 200))
    for i, c in enumerate(streaks):
        marbled[:, i::3] = c
    assert [name_color(np.array(c, np.float32)) for c in streaks] == ["blue", "purple", "red"]
    assert die_color(marbled, (0, 0, 30, 30), gains) is None
    assert die_color(blue, (50, 50, 60, 60), gains) is None  # no pixel of the frame in the box


def face(value: int, body=(235, 235, 235), pip=(20, 20, 20), side=60) -> np.ndarray:
    img = np.full((side, side, 3), body, np.uint8)
    for a, b in PIP_LAYOUT[value]:
        cv2.circle(img, (int(a * side), int(b * side)), int(side * 0.09), pip, -1, cv2.LINE_AA)
    return img


@pytest.mark.parametrize("value", range(1, 7))
def test_count_pips_light_and_dark_faces(value):
    assert count_pips(face(value)) == value
    assert count_pips(face(value, body=(25, 25, 25), pip=(240, 240, 240))) == value


def test_count_pips_blank_or_tiny_is_none():
    assert count_pips(np.full((60, 60, 3), 200, np.uint8)) is None
    assert count_pips(np.zeros((4, 4, 3), np.uint8)) is None


@pytest.mark.parametrize("value", range(1, 7))
def test_a_clean_face_is_not_short(value):
    assert read_pips(face(value)) == PipCount(value, short=False)


def test_a_smeared_pip_is_set_aside_and_the_count_may_be_short():
    img = face(4)
    # one pip of the 4 smeared into a streak (motion blur, an engraved pip filled unevenly): not
    # round enough to count, but the size of a pip
    a, b = PIP_LAYOUT[4][0]
    cv2.circle(img, (int(a * 60), int(b * 60)), 8, (235, 235, 235), -1)
    cv2.ellipse(img, (int(a * 60) + 2, int(b * 60)), (9, 3), 0, 0, 360, (20, 20, 20), -1)
    assert read_pips(img) == PipCount(3, short=True)
    assert count_pips(img) == 3


def test_a_box_that_cuts_pips_off_gives_a_count_that_may_be_short():
    frame = np.full((200, 200, 3), (60, 90, 140), np.uint8)  # a wooden table
    frame[70:130, 70:130] = face(5)
    # The detector's box, tight on the left: the two left pips are cut by its edge and dropped as
    # a side face's. The counter reads 3 and, looking again at the box grown, knows it may be short.
    tight = (83, 72, 128, 128)
    assert read_pips(box_crop(frame, tight)) == PipCount(3, short=False)
    assert read_box_pips(frame, tight) == PipCount(3, short=True)
    # A box on the whole face: the grown look shows no more pips, the count stands.
    assert read_box_pips(frame, (70, 70, 130, 130)) == PipCount(5, short=False)


def test_pips_run_together_into_a_bar_make_the_count_maybe_short():
    img = face(6)
    # the left column of a 6 blurred into one bar (motion, a small die): three pips the counter
    # cannot count apart
    cv2.rectangle(img, (11, 13), (19, 47), (20, 20, 20), -1)
    assert read_pips(img) == PipCount(3, short=True)
    assert read_pips(face(6)) == PipCount(6, short=False)


def test_a_side_faces_flat_pips_are_counted_as_flat():
    # A tilted die's box takes in part of a side face below the top face: its two pips are seen
    # edge-on, flattened into ellipses, where the top face's one pip is round.
    img = face(1)
    cv2.ellipse(img, (18, 46), (7, 3), 10, 0, 360, (20, 20, 20), -1, cv2.LINE_AA)
    cv2.ellipse(img, (40, 46), (7, 3), 10, 0, 360, (20, 20, 20), -1, cv2.LINE_AA)
    assert read_pips(img) == PipCount(3, short=False, flat=2)


@pytest.mark.parametrize("value", range(1, 7))
def test_a_face_seen_at_a_slant_has_no_flat_pips(value):
    # Every pip of a face seen at a slant is flattened alike: none is flatter than the others.
    slanted = cv2.resize(face(value, side=90), (90, 54), interpolation=cv2.INTER_AREA)
    assert read_pips(slanted) == PipCount(value, short=False, flat=0)
