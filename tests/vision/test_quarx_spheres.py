"""The Quarx sphere counter: cylinders and cubes told from spheres, touching spheres parted,
a card found inside its frame line moved out to its rim, and table inside a quad no count."""
from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.games.quarx.cards import (
    CARD_H,
    CARD_W,
    ClassicalCard,
    TableCards,
    _none_is_unsure,
    _off_size_unsure,
    _snap_out,
    find_cards,
    table_cards,
)
from vision.games.quarx.spheres import (
    BALL_MAX_OFF,
    _is_ball,
    _off_ellipse,
    count_spheres_on_card,
)
from vision.synth import shapes
from vision.synth.cards import quarx_card

LIGHT = np.array([0.3, -0.5, 0.81], np.float32)


def _paper() -> np.ndarray:
    img = np.empty((CARD_H, CARD_W, 3), np.uint8)
    img[:] = (235, 240, 245)
    return img


def _outline(img: np.ndarray) -> np.ndarray:
    """The largest blob's outline, as the counter finds it (differs from the paper by > 75)."""
    diff = np.abs(img.astype(np.int16) - np.array([235, 240, 245], np.int16)).max(axis=2)
    contours, _ = cv2.findContours((diff > 75).astype(np.uint8) * 255, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    return max(contours, key=cv2.contourArea)


def _squat_cylinder(img: np.ndarray, cx: float, cy: float, r: float) -> None:
    """A cylinder as wide as it is tall: its outline fills ~0.82 of its circle, like a sphere's nearly."""
    shapes.cylinder(img, cx, cy, r, (40, 160, 60), _FixedRng([0.9, 1.0, 0.35]))


class _FixedRng:
    """Hands out the given uniforms in turn (a cylinder's width, height and cap ratios)."""

    def __init__(self, values: list[float]) -> None:
        self.values = list(values)

    def uniform(self, lo: float, hi: float) -> float:
        return self.values.pop(0)


def test_a_squat_cylinder_is_no_sphere():
    img = _paper()
    _squat_cylinder(img, 120, 170, 28)
    c = _outline(img)
    assert _off_ellipse(c) >= BALL_MAX_OFF
    assert _is_ball(c) is False


@pytest.mark.parametrize("r", [8, 12, 20, 35])
def test_a_sphere_is_a_sphere(r):
    img = _paper()
    shapes.sphere(img, 120, 170, r, (60, 60, 200), LIGHT, spec=0.8)
    c = _outline(img)
    assert _off_ellipse(c) < BALL_MAX_OFF / 2
    assert _is_ball(c) is True


def test_a_sphere_beside_squat_cylinders_is_counted():
    img = _paper()
    shapes.sphere(img, 70, 90, 20, (200, 60, 60), LIGHT, spec=0.6)
    _squat_cylinder(img, 160, 200, 26)
    _squat_cylinder(img, 80, 260, 18)
    assert count_spheres_on_card(img) == 1


def test_a_small_sphere_touching_a_big_one_counts_two():
    img = _paper()
    shapes.sphere(img, 110, 170, 27, (40, 120, 220), LIGHT, spec=0.6)
    shapes.sphere(img, 110 + 27 + 13.5, 170, 13, (40, 120, 220), LIGHT, spec=0.6)
    assert count_spheres_on_card(img) == 2


def test_drawn_cards_are_never_counted_wrong():
    """Whole cards top-down as the footage draws them: a count is right or None, mostly right."""
    sure = 0
    for seed in range(40):
        rng = np.random.default_rng([seed, 99])
        n = int(rng.integers(1, 8))
        try:
            art = quarx_card(rng, n)
        except RuntimeError:
            continue
        got = count_spheres_on_card(art.image)
        assert got in (None, n), f"seed {seed}: {got} spheres read, {n} drawn"
        sure += got is not None
    assert sure >= 30


def test_table_inside_the_quad_is_no_count():
    img = _paper()
    shapes.sphere(img, 120, 170, 20, (60, 60, 200), LIGHT)
    # Wood taken in along both long sides, as by a quad joined to grain at its corners.
    for wedge in ([[0, 0], [30, 0], [0, CARD_H]], [[CARD_W, 0], [CARD_W - 30, CARD_H], [CARD_W, CARD_H]]):
        cv2.fillPoly(img, [np.array(wedge, np.int32)], (60, 130, 160))
    assert count_spheres_on_card(img) is None


def _band(outer: tuple[int, int, int, int], thick: int) -> np.ndarray:
    """An edge map: a rectangle's outline `thick` px wide (the card's rim and its frame line, merged)."""
    band = np.zeros((300, 300), np.uint8)
    x0, y0, x1, y1 = outer
    cv2.rectangle(band, (x0, y0), (x1, y1), 255, -1)
    cv2.rectangle(band, (x0 + thick, y0 + thick), (x1 - thick, y1 - thick), 0, -1)
    return band


def test_a_quad_on_the_inner_rim_of_its_band_moves_out_to_the_card():
    band = _band((50, 40, 200, 250), 7)
    inner = np.float32([[57, 47], [193, 47], [193, 243], [57, 243]])
    snapped = _snap_out(inner, band)
    assert np.abs(snapped - np.float32([[50, 40], [200, 40], [200, 250], [50, 250]])).max() <= 1.0


def test_a_quad_found_at_its_outline_stays():
    band = _band((50, 40, 200, 250), 7)
    outer = np.float32([[50, 40], [200, 40], [200, 250], [50, 250]])
    assert np.array_equal(_snap_out(outer, band), outer)


def test_a_band_running_on_past_a_rim_moves_nothing():
    band = _band((20, 10, 230, 280), 30)  # far thicker than any card's rim: grain, a neighbour
    inner = np.float32([[50, 40], [200, 40], [200, 250], [50, 250]])
    assert np.array_equal(_snap_out(inner, band), inner)


def test_a_filled_ellipse_a_little_squashed_is_too_close_to_call():
    """A torus warped by corners a few px off looks 0.87 round and filled, as a ball on a skewed card."""
    img = _paper()
    cv2.ellipse(img, (120, 170), (28, 24), 0, 0, 360, (40, 40, 200), -1, cv2.LINE_AA)
    assert _is_ball(_outline(img)) is None


def test_a_card_outline_not_the_size_of_the_others_loses_its_count():
    def card(x: float, h: float) -> ClassicalCard:
        q = np.float32([[x, 100], [x + 120, 100], [x + 120, 100 + h], [x, 100 + h]])
        return ClassicalCard(q, (x, 100, x + 120, 100 + h), 3)

    cards = _off_size_unsure([card(0, 165), card(150, 168), card(300, 195)])
    assert [c.spheres for c in cards] == [3, 3, None]


def test_a_card_read_with_no_sphere_is_unsure():
    """Every Quarx card shows a sphere: none read is spheres lost, not a count of 0."""
    img = _paper()
    _squat_cylinder(img, 120, 170, 26)
    assert count_spheres_on_card(img) == 0
    q = np.float32([[0, 0], [120, 0], [120, 170], [0, 170]])
    assert _none_is_unsure(ClassicalCard(q, (0, 0, 120, 170), 0)).spheres is None
    assert _none_is_unsure(ClassicalCard(q, (0, 0, 120, 170), 2)).spheres == 2


def test_an_outline_with_nothing_printed_inside_is_no_card():
    """A light box face (or a square of a checked cloth) is outlined like a card; every Quarx
    card shows shapes, so a plain one is none, and the photo is not held unsure by it."""
    frame = np.full((480, 640, 3), (90, 110, 120), np.uint8)
    cv2.rectangle(frame, (200, 100), (340, 300), (235, 235, 235), -1)
    assert len(find_cards(frame)) == 1
    assert table_cards(frame) == TableCards([], [], [])
    cv2.circle(frame, (270, 200), 20, (40, 40, 200), -1)  # something printed: a card, read or not
    assert len(table_cards(frame).quarx) == 1
