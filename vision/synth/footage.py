"""Scripted table footage: a game's physical states as frames, with hands passing over.

The same script drives the bundled demo video and the end-to-end tests, which know exactly
which moves the footage shows and so can check that the camera finds all of them and
invents none.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from vision.synth import cards, textures

W, H = 640, 480
SKIN = (150, 185, 230)  # BGR, a light skin tone, darkened at random per hand


@dataclass(frozen=True)
class Shot:
    """A held table state: the sphere counts of the Quarx cards lying face up, for `frames` frames."""

    face_up: tuple[int, ...]
    frames: int
    hand: bool = False  # an arm reaches over the table in these frames


@dataclass
class QuarxScript:
    """The shots of a Quarx game and the reveals they show, in order."""

    players: int
    shots: list[Shot] = field(default_factory=list)

    @property
    def reveals(self) -> list[tuple[int, ...]]:
        return [s.face_up for s in self.shots if s.face_up and not s.hand]


def quarx_script(seed: int, players: int = 2, rounds: int = 3, hold: int = 8) -> QuarxScript:
    """Rounds of: empty table, a hand lays the cards, the cards lie there, a hand collects them."""
    rng = np.random.default_rng(seed)
    n = (2 if players <= 3 else 1) * players
    script = QuarxScript(players)
    for _ in range(rounds):
        counts = tuple(sorted(int(c) for c in rng.integers(1, 8, n)))
        script.shots += [Shot((), hold), Shot((), 3, hand=True), Shot(counts, hold * 2), Shot(counts, 3, hand=True)]
    script.shots.append(Shot((), hold))
    return script


def _layout(n: int) -> list[tuple[float, float]]:
    if n == 0:
        return []
    cols = min(n, 3)
    rows = (n + cols - 1) // cols
    # Cell centres of an even grid: cards never overlap (an overlap would hide spheres the script counts).
    return [(W * (c + 0.5) / cols, H * (r + 0.5) / rows) for r in range(rows) for c in range(cols)][:n]


def _arm(img: np.ndarray, rng: np.random.Generator) -> None:
    """A sleeved arm from the bottom edge with a hand at its end."""
    x = int(rng.uniform(0.2, 0.8) * W)
    tip = (x + int(rng.uniform(-80, 80)), int(rng.uniform(0.35, 0.6) * H))
    wrist = (int(x + (tip[0] - x) * 0.8), int(H + (tip[1] - H) * 0.8))
    sleeve = tuple(int(v) for v in rng.integers(20, 200, 3))
    poly = np.array([[x - 60, H], [x + 60, H], [wrist[0] + 42, wrist[1]], [wrist[0] - 42, wrist[1]]], np.int32)
    cv2.fillPoly(img, [poly], sleeve, cv2.LINE_AA)
    skin = tuple(int(v * rng.uniform(0.55, 1.0)) for v in SKIN)
    cv2.ellipse(img, tip, (46, 38), 0, 0, 360, skin, -1, cv2.LINE_AA)


def render_quarx_footage(script: QuarxScript, seed: int, quads: list | None = None) -> list[np.ndarray]:
    """Every frame of the script: a fixed table and camera, per-frame noise and light flicker.

    `quads`, if given, receives per frame the cards' corners (TL, TR, BR, BL) as drawn."""
    rng = np.random.default_rng(seed)
    table = textures.background(rng, H, W, "wood")
    tilt = float(rng.uniform(np.radians(10), np.radians(30)))
    art_cache: dict[tuple, cards.FlatArt] = {}  # the same cards stay put while a hand passes
    frames = []
    for shot in script.shots:
        base = table.copy()
        shot_quads = []
        for i, ((cx, cy), n) in enumerate(zip(_layout(len(shot.face_up)), shot.face_up)):
            key = (shot.face_up, i)
            if key not in art_cache:
                art_cache[key] = _card(np.random.default_rng([seed, len(art_cache)]), n)
            art = art_cache[key]
            hom = cards.table_homography(cx, cy, 0.45, float(rng.uniform(-0.15, 0.15)), tilt, 0.0, 240, 340)
            shot_quads.append(cards.warp_points(hom, np.float32([[0, 0], [240, 0], [240, 340], [0, 340]])))
            cards.paste(base, art, hom)
        for _ in range(shot.frames):
            img = base.copy()
            if shot.hand:
                _arm(img, rng)
            # Light flicker and sensor noise: enough to test stability, little enough to compress.
            gain = rng.uniform(0.93, 1.05)
            frames.append(np.clip(img.astype(np.float32) * gain + rng.normal(0, 2.0, img.shape), 0, 255).astype(np.uint8))
            if quads is not None:
                quads.append(shot_quads)
    return frames


def _card(rng: np.random.Generator, spheres: int) -> cards.FlatArt:
    for _ in range(20):
        try:
            return cards.quarx_card(rng, spheres)
        except RuntimeError:  # no room for that many spheres with these distractors: redraw
            continue
    raise RuntimeError(f"cannot draw a card with {spheres} spheres")


def write_video(frames: list[np.ndarray], path: str, fps: float = 8.0) -> None:
    """Frames to an MP4 (mp4v) file, as the demo source plays it."""
    out = cv2.VideoWriter(path, cv2.VideoWriter_fourcc(*"mp4v"), fps, (W, H))
    if not out.isOpened():
        raise OSError(f"cannot write video {path}")
    for f in frames:
        out.write(f)
    out.release()
