"""The shapes on a Quarx card warped top-down, cut out one by one for the sphere classifier.

One function for training and run time (`vision.training.sphere_classifier` labels exactly these
blobs), so the classifier never sees a framing it was not taught:

- what differs from the card's paper by more than a contrast cut is printed art; a hole inside
  a blob smaller than a big sphere is filled (a metal sphere's mirrored sky, a ring's middle),
  so one shape is one blob;
- a blob as long as a card's side and thin for it is a printed frame or line with shapes
  touching it: the line is taken away and what it touched are the blobs;
- a notched blob is shapes that touch: it is also offered split at the narrowest erosion that
  parts it, each pixel going to the nearest core;
- each blob becomes a square crop around its box (`vision.detector.die_crop.square_crop`), and
  the same square of its own mask: which of the crop's pixels are this blob (a crop also shows
  its neighbours, and whether a blob holds a whole sphere or a piece is what its count needs).
"""
from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cached_property

import cv2
import numpy as np

from vision.detector.die_crop import square_crop
from vision.games.quarx.spheres import MERGED_SOLIDITY, notches

CROP = 32
MARGIN = 1.5  # the crop's side over the blob's long side: the classifier sees the blob's outline whole
INSET = 4  # px of the card's rim left out: the table may show there when the outline is a little off
MIN_SIDE = 10  # px: smaller blobs are background bubbles or dirt (the smallest sphere is 12 across)
MAX_HOLE = 48 * 48  # px: a hole this large inside a blob is paper, not a shape's inside
# A blob no thicker than this (the radius of the largest disc inside, px) is a line or a sliver,
# never a shape: the smallest sphere has a radius of 6.
MIN_THICKNESS = 4.0
# A blob this long (px; the card is 240 x 340) and thinner than FRAME_THIN of its length is a
# printed frame or line with shapes touching it (validation cards, seed 999: shapes are under 150
# px long; frames 199 px and more, at most 0.092 as thick as long alone and 0.11 with a big
# sphere on them).
FRAME_SIDE = 180
FRAME_THIN = 0.2
LINE_WIDTH = 4  # px: the least half-width of the opening that takes a printed line away


@dataclass
class Blob:
    box: tuple[int, int, int, int]  # x1, y1, x2, y2 in the card's pixels
    window: np.ndarray  # bool: the blob in a window of the card whose top left is `origin`
    origin: tuple[int, int]
    crop: np.ndarray  # CROP x CROP BGR
    at_edge: bool  # touches the card's (inset) rim
    thickness: float  # the radius of the largest disc inside it, px: a line is thin, a sphere is not
    parts: list["Blob"] = field(default_factory=list)  # a notched blob split where the shapes touch
    notched: bool = False  # its outline has the waist of shapes that touch

    def mask(self, shape: tuple[int, ...]) -> np.ndarray:
        """The blob as a bool mask of the whole card (`shape`: the card's)."""
        out = np.zeros(shape[:2], bool)
        x0, y0 = self.origin
        out[y0:y0 + self.window.shape[0], x0:x0 + self.window.shape[1]] = self.window
        return out

    @cached_property
    def crop_mask(self) -> np.ndarray:
        """CROP x CROP uint8, 255 on the blob: the square `crop` shows, of the blob's own mask.
        Made when first asked for: only a classifier that sees masks (v8 on) asks, and the blobs
        of every cut are cut on each read."""
        x1, y1, x2, y2 = self.box
        x0, y0 = self.origin
        pad = int(np.ceil(0.5 * MARGIN * max(x2 - x1, y2 - y1))) + 2  # the square stays inside the padding
        padded = np.pad(self.window.astype(np.uint8) * 255, pad)
        shift = pad - np.array([x0, y0, x0, y0])
        return square_crop(padded, tuple(np.array(self.box) + shift), CROP, MARGIN)


def paper_difference(card: np.ndarray) -> np.ndarray:
    """Per pixel, how far the colour is from the card's paper (the median colour), 0..255."""
    paper = np.median(card.reshape(-1, 3), axis=0)
    return np.abs(card.astype(np.int16) - paper.astype(np.int16)).max(axis=2).astype(np.uint8)


def _fill_small_holes(mask: np.ndarray) -> np.ndarray:
    contours, hierarchy = cv2.findContours(mask, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    if hierarchy is None:
        return mask
    out = mask.copy()
    for c, h in zip(contours, hierarchy[0]):
        if h[3] >= 0 and cv2.contourArea(c) <= MAX_HOLE:  # a hole (it has a parent)
            cv2.drawContours(out, [c], -1, 255, -1)
    return out


def _blob(card: np.ndarray, window: np.ndarray, x0: int, y0: int, inner: tuple[int, int, int, int]) -> Blob:
    """A blob from its mask in a window of the card whose top left is (x0, y0)."""
    ys, xs = np.nonzero(window)
    x1, y1, x2, y2 = x0 + int(xs.min()), y0 + int(ys.min()), x0 + int(xs.max()) + 1, y0 + int(ys.max()) + 1
    ix1, iy1, ix2, iy2 = inner
    at_edge = x1 <= ix1 or y1 <= iy1 or x2 >= ix2 or y2 >= iy2
    inside = np.pad(window, 1).astype(np.uint8)
    thickness = float(cv2.distanceTransform(inside, cv2.DIST_L2, 5).max())
    box = (x1, y1, x2, y2)
    return Blob(box, window, (x0, y0), square_crop(card, box, CROP, MARGIN), at_edge, thickness)


def _split(mask: np.ndarray) -> list[np.ndarray]:
    """A notched blob parted at the narrowest erosion that gives two or more cores; [] if none does."""
    m = mask.astype(np.uint8) * 255
    for k in range(2, 10):
        disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * k + 1, 2 * k + 1))
        cores = cv2.erode(m, disc)
        n, labels = cv2.connectedComponents(cores)
        if n - 1 < 2:
            continue
        if np.count_nonzero(mask & (cv2.dilate(cores, disc) == 0)) > 0.08 * np.count_nonzero(mask):
            return []  # a small shape wiped out by the erosion would join a neighbour's part
        # Each pixel of the blob goes to its nearest core.
        _, nearest = cv2.distanceTransformWithLabels((cores == 0).astype(np.uint8), cv2.DIST_L2, 5,
                                                     labelType=cv2.DIST_LABEL_PIXEL)
        core_of_seed = np.zeros(int(nearest.max()) + 1, np.int32)
        core_of_seed[nearest[cores > 0]] = labels[cores > 0]
        owner = core_of_seed[nearest]
        return [(owner == i) & mask for i in range(1, n) if np.count_nonzero((owner == i) & mask) >= 30]
    return []


def card_blobs_at(card: np.ndarray, cuts: tuple[int, ...]) -> list[list[Blob]]:
    """card_blobs at each of several cuts (the paper is measured once)."""
    h, w = card.shape[:2]
    diff = paper_difference(card[INSET:h - INSET, INSET:w - INSET])
    return [card_blobs(card, cut, diff) for cut in cuts]


def card_blobs(card: np.ndarray, cut: int, diff: np.ndarray | None = None) -> list[Blob]:
    """The blobs on a card warped top-down (BGR) at one contrast cut, notched ones with their
    parts; lines and slivers thinner than any shape are left out. `diff`: paper_difference of
    the card inside its inset rim, if already measured."""
    h, w = card.shape[:2]
    inner = (INSET, INSET, w - INSET, h - INSET)
    if diff is None:
        diff = paper_difference(card[INSET:h - INSET, INSET:w - INSET])
    mask = np.zeros((h, w), np.uint8)
    mask[INSET:h - INSET, INSET:w - INSET] = (diff > cut).astype(np.uint8) * 255
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    mask = _fill_small_holes(mask)
    return [b for one, x, y in _components(mask) for b in _shapes(card, one, x, y, inner)]


def _components(mask: np.ndarray) -> Iterator[tuple[np.ndarray, int, int]]:
    """Each connected part of `mask` at least MIN_SIDE long: its window (bool) and top left x, y."""
    n, labels, stats, _ = cv2.connectedComponentsWithStats(mask)
    for i in range(1, n):
        x, y, bw, bh, _ = (int(v) for v in stats[i])
        if max(bw, bh) >= MIN_SIDE:
            yield labels[y:y + bh, x:x + bw] == i, x, y


def _shapes(card: np.ndarray, one: np.ndarray, x: int, y: int, inner: tuple[int, int, int, int],
            line_removed: bool = False) -> list[Blob]:
    """The blob `one` (a window of the card at x, y), or what is left of it once a printed line
    is taken away; [] for a line or a sliver."""
    blob = _blob(card, one, x, y, inner)
    if blob.thickness < MIN_THICKNESS:
        return []
    long_side = max(one.shape)
    if not line_removed and long_side >= FRAME_SIDE and blob.thickness < FRAME_THIN * long_side:
        # A printed frame or a long line with shapes touching it. The line is never a shape,
        # and a crop of the whole would shrink what touches it to nothing: a sphere on a
        # card's frame was counted as no sphere, sure (validation cards, seed 999). The shapes
        # are what an opening wider than the line leaves (its half-width: the distance to the
        # outline along the line's ridge, measured where most of the blob's ridge lies).
        dist = cv2.distanceTransform(np.pad(one, 1).astype(np.uint8), cv2.DIST_L2, 5)[1:-1, 1:-1]
        ridge = (dist > 0) & (dist >= cv2.dilate(dist, np.ones((3, 3), np.uint8)))
        half = max(LINE_WIDTH, int(np.ceil(np.median(dist[ridge]))) + 1)
        disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * half + 1,) * 2)
        # Padded: erosion takes what lies beyond the window for foreground.
        opened = cv2.morphologyEx(np.pad(one, half + 1).astype(np.uint8), cv2.MORPH_OPEN,
                                  disc)[half + 1:-half - 1, half + 1:-half - 1]
        return [b for part, px, py in _components(opened) for b in _shapes(card, part, x + px, y + py, inner, True)]
    contours, _ = cv2.findContours(one.astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    c = max(contours, key=cv2.contourArea)
    solidity = cv2.contourArea(c) / max(1.0, cv2.contourArea(cv2.convexHull(c)))
    if solidity < MERGED_SOLIDITY or notches(c) >= 2:  # shapes that touch (vision.games.quarx.spheres)
        pad = 1  # the erosion needs the background round the blob
        window = np.pad(one, pad)
        blob.notched = True
        blob.parts = [_blob(card, p[pad:-pad, pad:-pad], x, y, inner) for p in _split(window)]
    return [blob]
