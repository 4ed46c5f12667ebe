"""Is this camera picture good enough to read a table? Resolution, focus, exposure and framing,
each with a plain sentence of what to fix ("too dark: switch on a lamp").

Contract: `check_picture(frame, corners=None) -> PictureCheck`. Each aspect gets a `Finding`
whose verdict is "good", "fix" (with what to do) or "unsure" (the picture cannot tell, and the
sentence says why): an aspect that cannot be judged is never passed as good.

- focus: variance of the Laplacian, per 64 px tile of the picture scaled to 640 px wide, 90th
  percentile over the tiles with something on them (a bare table has no edges to be sharp, so a
  whole-picture variance would call a sharp empty table blurred);
- exposure: mean grey level and the fractions of crushed-black and blown-white pixels;
- resolution: the frame's own size;
- framing: the printed corner markers (vision.calibration) when they are in view, else the four
  clicked corners of a saved calibration: a board corner missing or at the picture's edge names
  the side that is cut off.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Literal, Sequence

import cv2
import numpy as np

from vision.calibration import CORNER_IDS, find_markers

Aspect = Literal["resolution", "focus", "exposure", "framing"]
Verdict = Literal["good", "fix", "unsure"]

WORK_WIDTH = 640  # focus is measured at this width, so a 1080p camera is not called sharper for its size
TILE = 64
BUSY_STD = 12.0  # grey-level spread of a tile with something on it (a card edge, a die, print)
SHARP = 100.0  # 90th-percentile tile Laplacian variance: demo footage 157-1883, blurred (sigma 1.5) 9-70
SOFT = 40.0
DARK_MEAN, BRIGHT_MEAN = 70.0, 235.0  # a bright scene with nothing blown white reads fine
CLIPPED = 0.05  # more than this fraction of blown-white pixels is glare that hides pips and spheres
CRUSHED = 0.30  # more than this fraction of near-black pixels: the table is in shadow
MIN_SIZE = (640, 480)
GOOD_SIZE = (1280, 720)
EDGE = 0.01  # a board corner closer than this (fraction of the side) to the edge is cut off


@dataclass(frozen=True)
class Finding:
    """One aspect of the picture, judged, with what a person should do about it."""

    aspect: Aspect
    verdict: Verdict
    say: str
    value: float | None = None  # the measure behind the verdict (focus score, mean grey), if any


@dataclass(frozen=True)
class PictureCheck:
    """Every aspect of one picture; `ok` when none needs fixing."""

    width: int
    height: int
    focus: float | None  # None: nothing on the table to judge focus by
    brightness: float
    crushed: float
    clipped: float
    findings: tuple[Finding, ...]

    @property
    def ok(self) -> bool:
        return all(f.verdict != "fix" for f in self.findings)

    def to_json(self) -> dict:
        data = asdict(self)
        data["findings"] = [asdict(f) for f in self.findings]
        data["ok"] = self.ok
        for k in ("focus", "brightness", "crushed", "clipped"):
            if data[k] is not None:
                data[k] = round(float(data[k]), 3)
        return data


def _grey(frame: np.ndarray) -> np.ndarray:
    return cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY) if frame.ndim == 3 else frame


def focus_score(frame: np.ndarray) -> float | None:
    """90th-percentile Laplacian variance of the busy tiles at 640 px wide; None with no busy tile."""
    grey = _grey(frame)
    scale = WORK_WIDTH / grey.shape[1]
    if scale < 1:
        grey = cv2.resize(grey, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    scores = []
    for y in range(0, grey.shape[0] - TILE + 1, TILE):
        for x in range(0, grey.shape[1] - TILE + 1, TILE):
            tile = grey[y:y + TILE, x:x + TILE]
            if tile.std() > BUSY_STD:
                scores.append(cv2.Laplacian(tile, cv2.CV_64F).var())
    return float(np.percentile(scores, 90)) if scores else None


def _resolution(w: int, h: int) -> Finding:
    size = f"{w}x{h}"
    if w * h < MIN_SIZE[0] * MIN_SIZE[1]:
        return Finding("resolution", "fix", f"too small ({size}): choose at least 640x480, better 1280x720, in the camera's settings")
    if w * h < GOOD_SIZE[0] * GOOD_SIZE[1]:
        return Finding("resolution", "good", f"{size}: enough for Quarx and Ubongo; Diceline's mat reads best at 1280x720")
    return Finding("resolution", "good", f"{size}: good")


def _focus(score: float | None) -> Finding:
    if score is None:
        return Finding("focus", "unsure", "nothing on the table to judge the focus by: put the board or a card in view")
    if score < SOFT:
        return Finding("focus", "fix", "blurred: turn the focus ring, wipe the lens, or move the camera a little further away", score)
    if score < SHARP:
        return Finding("focus", "fix", "a little soft: turn the focus ring until the card edges are crisp", score)
    return Finding("focus", "good", "sharp", score)


def _exposure(mean: float, crushed: float, clipped: float) -> Finding:
    if mean < DARK_MEAN or crushed > CRUSHED:
        return Finding("exposure", "fix", "too dark: switch on a lamp over the table", mean)
    if clipped > CLIPPED:
        return Finding("exposure", "fix", "glare: part of the picture is pure white; move the lamp to the side or close the curtain", mean)
    if mean > BRIGHT_MEAN:
        return Finding("exposure", "fix", "too bright: dim the lamp or turn the camera away from the window", mean)
    return Finding("exposure", "good", "well lit", mean)


def _sides(points: np.ndarray, w: int, h: int) -> list[str]:
    """The sides of the picture that the points touch or cross."""
    sides = []
    mx, my = EDGE * w, EDGE * h
    if (points[:, 0] <= mx).any():
        sides.append("left")
    if (points[:, 0] >= w - 1 - mx).any():
        sides.append("right")
    if (points[:, 1] <= my).any():
        sides.append("top")
    if (points[:, 1] >= h - 1 - my).any():
        sides.append("bottom")
    return sides


# Which sides a missing corner marker lies toward: 0 top-left, 1 top-right, 2 bottom-right, 3 bottom-left.
_MARKER_SIDES = {0: ("left", "top"), 1: ("right", "top"), 2: ("right", "bottom"), 3: ("left", "bottom")}


def _shared_side(markers: Sequence[int]) -> str | None:
    """The side of the board that all `markers` lie on, if one."""
    common = set.intersection(*(set(_MARKER_SIDES[i]) for i in markers))
    return next(iter(common)) if len(common) == 1 else None


def _cut_off(sides: Sequence[str]) -> str:
    return "the board is cut off at the " + " and the ".join(sides) + ": move the camera back or turn it toward that side"


def _framing(frame: np.ndarray, corners: Sequence[Sequence[float]] | None) -> Finding:
    h, w = frame.shape[:2]
    found = {i: c for i, c in find_markers(frame).items() if i in CORNER_IDS}
    if found:
        missing = [i for i in CORNER_IDS if i not in found]
        if len(missing) == 1:
            # Three markers fix the sheet's parallelogram: where the fourth should be says whether it
            # is outside the picture (cut off) or inside and unreadable (blur, glare, a hand).
            i = missing[0]
            centre = {k: c.mean(0) for k, c in found.items()}
            guess = centre[(i + 1) % 4] + centre[(i + 3) % 4] - centre[(i + 2) % 4]
            sides = _sides(guess[None, :], w, h)
            if sides:
                return Finding("framing", "fix", _cut_off(sides))
            return Finding("framing", "unsure", f"corner marker {i} is in view but cannot be read: check the focus and the glare, or move your hand")
        if len(missing) == 2 and len(found) == 2:
            side = _shared_side(missing)
            if side is not None:
                # Two markers on one edge of the board: the board reaches at least half that edge's
                # length toward the missing side (no board is twice as long as it is wide), so with
                # less room than that in the picture, that side is cut off.
                a, b = (c.mean(0) for c in found.values())
                room = {"left": a[0], "right": w - a[0], "top": a[1], "bottom": h - a[1]}[side]
                room = min(room, {"left": b[0], "right": w - b[0], "top": b[1], "bottom": h - b[1]}[side])
                if room < 0.5 * float(np.linalg.norm(a - b)):
                    return Finding("framing", "fix", _cut_off([side]))
        if missing:
            return Finding("framing", "unsure", f"only corner marker(s) {sorted(found)} seen: the others are cut off, "
                           "blurred or covered; check the focus first")
        touching = _sides(np.concatenate(list(found.values())), w, h)
        if touching:
            return Finding("framing", "fix", _cut_off(touching))
        return Finding("framing", "good", "all four corner markers in view")
    if corners is not None:
        touching = _sides(np.asarray(corners, float), w, h)
        if touching:
            return Finding("framing", "fix", _cut_off(touching))
        return Finding("framing", "good", "the calibrated corners are inside the picture")
    return Finding("framing", "unsure", "no corner markers seen and no calibration yet: calibrate to check the board is whole")


def check_picture(frame: np.ndarray, corners: Sequence[Sequence[float]] | None = None) -> PictureCheck:
    """Judge `frame` (BGR or grey); `corners`: the four board corners of a saved calibration, if any.

    ValueError for something that is not a picture (empty, or not 2-D / 3-channel)."""
    if frame is None or frame.ndim not in (2, 3) or frame.size == 0 or (frame.ndim == 3 and frame.shape[2] != 3):
        raise ValueError("not a camera picture")
    h, w = frame.shape[:2]
    grey = _grey(frame)
    mean = float(grey.mean())
    crushed = float((grey <= 8).mean())
    clipped = float((grey >= 250).mean())
    score = focus_score(frame)
    findings = (_resolution(w, h), _focus(score), _exposure(mean, crushed, clipped), _framing(frame, corners))
    return PictureCheck(w, h, score, mean, crushed, clipped, findings)
