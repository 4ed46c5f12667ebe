"""The ray-cast look's readability mark (vision.synth.readability): a die too small or blurred for
its pips is marked unreadable."""
from __future__ import annotations

import numpy as np

from vision.synth.readability import SAMPLING_BLUR, picture_blur, pips_resolved


def test_pips_are_resolved_on_a_large_sharp_face_and_not_when_small_or_blurred():
    square = np.array([[0, 0], [40, 0], [40, 40], [0, 40]], float)  # a face 40 px across
    assert pips_resolved(0.1, square, 0.5)  # pips 4 px in radius, sharp
    assert not pips_resolved(0.1, square, 6.0)  # a blur half again as wide as the pips
    assert not pips_resolved(0.1, square / 8, 0.5)  # 5 px across: pips of half a pixel
    # seen at a slant the face is narrow one way, and the pips are as narrow
    slanted = np.array([[0, 0], [40, 0], [40, 6], [0, 6]], float)
    assert pips_resolved(0.1, slanted, 0.5) is False


def test_a_pictures_blur_adds_up_its_causes_as_variances():
    assert picture_blur() == SAMPLING_BLUR
    assert np.isclose(picture_blur(1.2), np.hypot(SAMPLING_BLUR, 1.2))
    # a smear along 6 px is as wide as a Gaussian of sd 6 / sqrt(12)
    assert np.isclose(picture_blur(0.0, 6.0), np.hypot(SAMPLING_BLUR, 6 / np.sqrt(12)))
