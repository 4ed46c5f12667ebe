"""One cell of the warped Diceline mat: is a die there, its colour and pips; or which bonus tile.

Every window is first divided by the white paper's colour there (measured on blank spots of the
mat): that one step white-balances warm and cold light and evens out light falling off across
the table, so the thresholds below are in "paper = 1" units.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from rules.diceline.board import layout_rotations
from rules.diceline.components import LAYOUT_PATTERNS
from vision.games.diceline.spec import (DIE, DIE_BODY, LAYOUT_PITCH, LAYOUT_TILE, PAPER, PIP_RADIUS, PIP_SPOTS,
                                         TILE_GROUND)

PPM = 3.0  # pixels per mm of the warped windows
WINDOW = 30.0  # mm around a die cell's centre that is searched for the top face
SLACK = 6.0  # mm a die may lie off its cell's centre
# A top face's brightness on paper = 1: its printed colour over the paper's (vision/games/diceline/spec.py).
_TOP_LEVEL = {k: float(np.max(np.array(c, np.float32) / np.array(PAPER, np.float32))) for k, c in DIE_BODY.items()}
_ANGLES = np.arange(0, 90, 10)  # a square looks the same every quarter turn


def _prior(slack: int, toward_camera: np.ndarray) -> np.ndarray:
    """A small cost for lying off the cell's centre, larger toward the camera: side faces lie that way."""
    yy, xx = np.mgrid[-slack:slack + 1, -slack:slack + 1].astype(np.float32)
    lean = np.maximum(0.0, xx * float(toward_camera[0]) + yy * float(toward_camera[1]))
    return 0.0004 * (xx ** 2 + yy ** 2) + 0.004 * lean


@dataclass(frozen=True)
class DieRead:
    """What one die cell shows: present or not, colour (None: unsure), value (None: unsure), confidence."""

    present: bool
    colour: str | None = None
    value: int | None = None
    confidence: float = 1.0
    seen: bool = False  # something die-like was there but could not be read
    # Where the top face's centre was found, in mm off the cell's centre (x, y on the mat); None: not found.
    offset: tuple[float, float] | None = None


def normalise(window: np.ndarray, paper: np.ndarray | None = None) -> np.ndarray:
    """The window divided by the paper's colour there (paper -> 1.0), float32; without one, by its lightest part."""
    f = window.astype(np.float32) + 1.0
    if paper is not None:
        return f / paper
    lum = (f[..., 0] + f[..., 1] + f[..., 2]).ravel()
    sample = lum[::3]
    k = int(0.85 * (len(sample) - 1))
    light = lum >= np.partition(sample, k)[k]  # the paper: the lightest part of every window here
    ref = f.reshape(-1, 3)[light].mean(0) if light.any() else np.full(3, 255.0, np.float32)
    return f / np.maximum(ref, 1.0)


def _hsv(n: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    b, g, r = n[..., 0], n[..., 1], n[..., 2]
    v = cv2.max(cv2.max(b, g), r)
    lo = cv2.min(cv2.min(b, g), r)
    return v, (v - lo) / cv2.max(v, 1e-3)


def read_die(window: np.ndarray, toward_camera: np.ndarray, paper: np.ndarray | None = None) -> DieRead:
    """Read the die whose top face should lie near the centre of a WINDOW-mm window of the tops plane."""
    n = normalise(window, paper)
    v, s = _hsv(n)
    body = (s > 0.28) | (v < 0.72)
    if body.mean() < 0.12:
        return DieRead(False)
    side = DIE * PPM
    # The top face is the best lit part of the die: side faces, lit from the side, are darker.
    # Judged at the cell's middle: a neighbour's brighter side face must not set the level.
    c, r = window.shape[0] // 2, int(round(DIE * PPM / 2))
    mid_v, mid_body = v[c - r:c + r, c - r:c + r], body[c - r:c + r, c - r:c + r]
    if mid_body.mean() < 0.3:
        return DieRead(False)
    top_level = np.percentile(mid_v[mid_body], 80)
    top = (body & (v > 0.78 * top_level)).astype(np.uint8)
    top = cv2.morphologyEx(top, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))  # thin ticks and die edges
    top = _fill_holes(top).astype(np.float32)  # the pips: holes in the face
    # The face is a DIE x DIE square turned by some angle: find the square that top-lit pixels fill
    # best (a neighbour's side face or a printed tick cannot fill a whole square).
    best, where = 0.0, (0.0, 0.0, 0.0)
    prior = _prior(int(round(SLACK * PPM)), toward_camera)
    n_side = int(round(side))
    for angle in _ANGLES:
        rot = cv2.getRotationMatrix2D((c, c), float(angle), 1.0)
        turned = cv2.warpAffine(top, rot, top.shape[::-1], flags=cv2.INTER_NEAREST)
        cover = cv2.boxFilter(turned, -1, (n_side, n_side), normalize=True, borderType=cv2.BORDER_CONSTANT)
        slack = int(round(SLACK * PPM))
        # A face and a lit side face beside it leave a ridge of equal cover: prefer the middle.
        region = cover[c - slack:c + slack + 1, c - slack:c + slack + 1] - prior
        y, x = np.unravel_index(int(np.argmax(region)), region.shape)
        if region[y, x] > best + 1e-6:  # region holds cover less the small prior
            # back from the turned picture to the window's own pixels
            inv = cv2.invertAffineTransform(rot)
            px, py = inv @ np.array([c - slack + x, c - slack + y, 1.0])
            best, where = float(region[y, x]), (float(px), float(py), float(angle))
    if best < 0.6:
        return DieRead(False)
    cx, cy, angle = where
    offset = ((cx - c) / PPM, (cy - c) / PPM)
    face = _upright(n, cx, cy, angle, int(round(1.12 * side)))
    colour = _colour(face)
    value, conf = _pips(face)
    if colour is not None and _shade(face) < 0.85 * _TOP_LEVEL[colour]:
        # Darker than a top face of that colour can be: the top and the paper lie flat in the same
        # light, so a top keeps its printed brightness; a side face (a neighbour's) is shaded.
        colour = None
    if colour is None or value is None:
        # Something die-like that cannot be read (often a neighbour's side face at a steep angle):
        # say nothing rather than something wrong; the TableView's None matches anything.
        return DieRead(False, colour, value, 0.0, seen=True, offset=offset)
    return DieRead(True, colour, value, min(conf, best), offset=offset)


def _fill_holes(mask: np.ndarray) -> np.ndarray:
    """The mask with every hole it encloses filled."""
    pad = np.pad(mask, 1)
    outside = pad.copy()
    cv2.floodFill(outside, None, (0, 0), 1)
    return (mask | (1 - outside[1:-1, 1:-1])).astype(np.uint8)


def _shade(face: np.ndarray) -> float:
    """Median brightness of the face's body (pips left out), paper = 1."""
    v, _ = _hsv(face)
    m = face.shape[0] // 6
    core = v[m:-m, m:-m]
    return float(np.median(core[core <= np.percentile(core, 60)]))


def _upright(n: np.ndarray, cx: float, cy: float, angle: float, side: int) -> np.ndarray:
    """The side x side square centred on (cx, cy), turned by -angle (pips do not care which quarter turn)."""
    rot = cv2.getRotationMatrix2D((cx, cy), angle, 1.0)
    rot[:, 2] += np.array([side / 2 - cx, side / 2 - cy])
    return cv2.warpAffine(n, rot, (side, side), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


def _colour(face: np.ndarray) -> str | None:
    """red, green or grey from the paper-balanced body of the face (the pips left out)."""
    v, s = _hsv(face)
    m = face.shape[0] // 6
    core_v, core_s, core = v[m:-m, m:-m], s[m:-m, m:-m], face[m:-m, m:-m]
    keep = core_v <= np.percentile(core_v, 60)
    if keep.sum() < 10:
        return None
    b, g, r = np.median(core[keep], 0)
    if float(np.median(core_s[keep])) < 0.25:
        return "grey"
    if r > 1.3 * g and r > 1.3 * b:
        return "red"
    if g > 1.15 * r and g > b:
        return "green"
    return None


def _pips(face: np.ndarray) -> tuple[int | None, float]:
    """The value on an upright top face (paper-normalised, a little larger than the face).

    Matched against the six pip patterns (both quarter turns) rather than counted: blur runs the
    close pips of a 6 together, but a blurred 6 still looks most like a 6."""
    # Whiteness (the darkest channel): white pips stand out from a red or green body far more
    # than in brightness, where a red body is nearly as bright as a pip.
    white = cv2.min(cv2.min(face[..., 0], face[..., 1]), face[..., 2])
    side = int(round(DIE * PPM))
    scores: dict[int, float] = {}
    for value, template in _templates(side):
        r = cv2.matchTemplate(white, template, cv2.TM_CCOEFF_NORMED)
        scores[value] = max(scores.get(value, -1.0), float(r.max()))
    ranked = sorted(scores, key=scores.get, reverse=True)
    best, margin = ranked[0], scores[ranked[0]] - scores[ranked[1]]
    if scores[best] < 0.4 or margin < 0.07:
        return None, 0.0
    return best, min(1.0, margin / 0.2)


@lru_cache(maxsize=4)
def _templates(side: int) -> list[tuple[int, np.ndarray]]:
    """(value, light-pips-on-dark picture) for each value and quarter turn."""
    out = []
    for value, spots in PIP_SPOTS.items():
        for turn in (False, True):
            t = np.zeros((side, side), np.float32)
            for a, b in spots:
                x, y = ((1 - b), a) if turn else (a, b)
                cv2.circle(t, (int(round(x * side)), int(round(y * side))), int(round(PIP_RADIUS * side)), 1.0, -1,
                           cv2.LINE_AA)
            out.append((value, cv2.GaussianBlur(t, (0, 0), 1.2)))
    return out


def read_tile(window: np.ndarray, paper: np.ndarray | None = None) -> tuple[str | None, float]:
    """'' for an empty bonus space, a kind for a face-up tile, 'back' for a face-down one; None when unsure.

    `window` is one bonus-space pitch of the table plane: the tile plus a rim of paper to balance by."""
    n = normalise(window, paper)
    px = n.shape[0]
    q = px // 5
    centre = n[q:px - q, q:px - q]
    v, s = _hsv(centre)
    blank = (v > 0.8) & (s < 0.15)  # also the tile's light symbol: looked past, not matched
    if blank.mean() > 0.6:
        return "", float(blank.mean())
    ground = centre[~blank]
    if len(ground) < 10:
        return None, 0.0
    colour = np.median(ground, 0)
    dist = {k: float(np.linalg.norm(colour - ref)) for k, ref in _TILE_REFS.items()}
    ranked = sorted(dist, key=dist.get)
    margin = dist[ranked[1]] - dist[ranked[0]]
    if margin < 0.08:
        return None, 0.0
    return ranked[0], min(1.0, margin / 0.3)


_TILE_REFS = {k: np.array(c, np.float32) / np.array(PAPER, np.float32) for k, c in TILE_GROUND.items()}


def read_layout(window: np.ndarray, paper: np.ndarray | None = None) -> int | str | None:
    """A layout tile's id from its five tan squares (any quarter turn), '' for an empty spot, 'back', or None.

    `window` is LAYOUT_PITCH mm of the table plane centred on the spot; the tile lies within its marks."""
    n = normalise(window, paper)
    px = n.shape[0]
    mm = px / LAYOUT_PITCH
    v, s = _hsv(n)
    marked, blank = set(), 0
    for i in range(9):
        r, c = divmod(i, 3)
        x = int(round(px / 2 + (c - 1) * LAYOUT_TILE / 3 * mm))
        y = int(round(px / 2 + (r - 1) * LAYOUT_TILE / 3 * mm))
        h = int(round(2.0 * mm))
        b, g, rr = n[y - h:y + h, x - h:x + h].reshape(-1, 3).mean(0)  # a 4 mm patch: means are enough
        pv, ps = float(v[y - h:y + h, x - h:x + h].mean()), float(s[y - h:y + h, x - h:x + h].mean())
        if pv > 0.8 and ps < 0.15:
            blank += 1
        elif rr > 1.2 * b and ps > 0.2 and pv > 0.6:
            marked.add(i)
    if blank == 9:
        return ""
    if not marked and blank == 0:
        return "back"
    return _LAYOUT_IDS.get(frozenset(marked))


_LAYOUT_IDS = {cells: tile for tile in LAYOUT_PATTERNS for cells in layout_rotations(tile)}
