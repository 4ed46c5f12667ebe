"""Whether a rendered picture resolves a die's pips: the ray-cast look's readability mark.

A die too small or too blurred for its pips to show is still a die (a detector may box it), but
no one can read its value from the picture; a label that names its value teaches a reader to
guess. `vision.synth.table_dice` marks each labelled die with `pips_resolved`, and its crop sets
and test bed treat an unreadable die as "a die, value unknown".

The first renderer (`vision.synth.scene`) carries no mark: tried there (2026-12-07, stop 47) the
same cuts marked 16-19% of its dice unreadable, and the classifier that learned their values
read 81% of those right from their label boxes (98.6% of the rest; 800 renders of seed 31):
its anti-aliased, high-contrast pips leave a pattern a classifier reads below the cuts. A
physical cut is a guess at what a reader can read; it held better for the ray-cast look (a
classifier taught only its readable dice, v12a, read 49% of the unreadable ones right and 91% of
the rest).
"""
from __future__ import annotations

import numpy as np

# A picture sampled once a pixel still spreads an edge over about a pixel (ASSUMPTION: sd 0.5 px).
SAMPLING_BLUR = 0.5
# Pips are read when their radius across the face's narrower extent is at least PIP_MIN_PX and
# the blur leaves their centre at least PIP_MIN_CONTRAST of their contrast. ASSUMPTION: both
# chosen by eye on the crops of 150 ray-cast pictures (seed 23, stop 46): below them most dice
# are blobs.
PIP_MIN_PX = 0.75
PIP_MIN_CONTRAST = 0.35


def picture_blur(sigma: float = 0.0, length: float = 0.0) -> float:
    """The blur (Gaussian sd, px) of a picture defocused by `sigma` px and smeared along a line of
    `length` px (a line of n px has sd n / sqrt(12); taken the same in every direction, the
    cautious side), on top of the sampling's own."""
    return float(np.sqrt(SAMPLING_BLUR ** 2 + sigma ** 2 + length ** 2 / 12))


def pips_resolved(radius: float, corners: np.ndarray, blur: float) -> bool:
    """Whether a picture blurred by `blur` (Gaussian sd, px) still shows pips of `radius` (a
    fraction of the face's side) on a top face projected to `corners` (4 x 2 px, in order): their
    radius across the face's narrower extent is at least PIP_MIN_PX, and the blur leaves their
    centres at least PIP_MIN_CONTRAST of their contrast (a disc of radius r keeps
    1 - exp(-r^2 / 2 sd^2))."""
    edges = np.roll(corners, -1, 0) - corners
    area = abs(float(edges[0, 0] * edges[1, 1] - edges[0, 1] * edges[1, 0]))
    narrow = area / max(float(np.linalg.norm(edges, axis=1).max()), 1e-9)  # the face's height across its longer edge
    r_px = radius * narrow
    return bool(r_px >= PIP_MIN_PX and 1 - np.exp(-r_px ** 2 / (2 * blur ** 2)) >= PIP_MIN_CONTRAST)
