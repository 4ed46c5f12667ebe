"""Scripted Ubongo footage: rolls and grabs as frames, seen obliquely, with hands passing over.

Table coordinates are normalised to the visible table area: u across (0 left, 1 right), v in
depth (0 the far edge, 1 the near edge by the camera). The camera is orthographic and tilted
by `tilt` from straight down (as vision.synth.cube draws cubes), so the four frame corners are
the table area's corners and `UbongoFootage.calibration` is what a person's four clicks give.
Seats follow vision.games.ubongo.reader: clockwise from the near (bottom) edge.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from rules.ubongo.components import DEFAULT, Components
from vision.calibration import Calibration
from vision.games.ubongo.reader import ART_GAP, DIE_ART_CELL, SEAT_EDGES
from vision.synth import textures
from vision.synth.cube import CubePose, draw_cube, outline
from vision.synth.footage import H, W, _arm

DIE = 0.06             # die side as a fraction of the table area's width (~38 px at 640 px)
SS = 2                 # draw at 2x, then area-downscale: anti-aliased edges at no risk
BODIES = {"black": (28, 28, 30), "white": (232, 236, 238)}
# Symbol colours by body: luminance contrast is what a reader may rely on, not hue.
SYMBOLS = {"black": [(236, 236, 236), (90, 225, 245)], "white": [(30, 30, 30), (40, 40, 150), (120, 50, 20)]}


@dataclass(frozen=True)
class Placed:
    """One die on the table: colour, the shape on top, where (table u, v) and its turn (rad)."""

    colour: str
    face: str
    u: float
    v: float
    yaw: float
    die: int = 0  # which die of its colour (its other faces show on the sides)


@dataclass(frozen=True)
class UShot:
    """A held table state for `frames` frames; `hand`: an arm reaches in (from `edge`)."""

    dice: tuple[Placed, ...]
    frames: int
    hand: bool = False
    edge: str = "bottom"
    gain: float = 1.0          # the room light in this shot (drifts slowly between shots)
    moves: tuple[str, ...] = ()  # what this state shows that the camera should turn into moves


@dataclass
class UbongoScript:
    """The shots of an Ubongo game and the camera-visible moves they show, in order."""

    players: list[str]
    shots: list[UShot] = field(default_factory=list)

    @property
    def moves(self) -> list[str]:
        return [m for s in self.shots for m in s.moves]


@dataclass
class UbongoFootage:
    """Frames, the calibration a person would click, and the tilt used."""

    frames: list[np.ndarray]
    calibration: Calibration
    tilt: float
    shot_of_frame: list[int]


def depth(tilt: float) -> float:
    """The table area's depth in widths: an oblique camera sees further across the table."""
    return H / (W * np.cos(tilt))


def calibration_for(tilt: float, width: int = 600) -> Calibration:
    """The four frame corners as the table area, mapped top-down at its true aspect."""
    return Calibration(((0.0, 0.0), (float(W), 0.0), (float(W), float(H)), (0.0, float(H))), width,
                       int(round(width * depth(tilt))))


def roll_dice(rng: np.random.Generator, comps: Components, n: int) -> list[Placed]:
    """All 2n dice of a game rolled into the middle of the table (faces from the dice in play)."""
    # A jittered 2 x 4 grid: rolled dice scatter but never touch. Seen obliquely a die's sides
    # reach toward the camera, so dice one behind the other need more room than side by side.
    slots = [(0.3 + 0.4 * c / 3, 0.37 + 0.26 * r) for r in range(2) for c in range(4)]
    spots = [(u + rng.uniform(-0.02, 0.02), v + rng.uniform(-0.015, 0.015))
             for u, v in (slots[int(i)] for i in rng.permutation(len(slots))[:2 * n])]
    dice = []
    for i, (u, v) in enumerate(spots):
        colour, k = ("black", i) if i < n else ("white", i - n)
        faces = (comps.black_dice if colour == "black" else comps.white_dice)[k]
        dice.append(Placed(colour, str(rng.choice(faces)), u, v, float(rng.uniform(0, np.pi / 2)), k))
    return dice


def seat_spots(rng: np.random.Generator, edge: str) -> list[tuple[float, float]]:
    """Where a player puts the two grabbed dice: side by side in front of them, inside the frame."""
    j = rng.uniform(-0.015, 0.015, 4)
    pair = {"bottom": [(0.4, 0.87), (0.6, 0.87)], "top": [(0.4, 0.13), (0.6, 0.13)],
            "left": [(0.09, 0.36), (0.09, 0.64)], "right": [(0.91, 0.36), (0.91, 0.64)]}[edge]
    spots = [(u + j[2 * i], v + j[2 * i + 1]) for i, (u, v) in enumerate(pair)]
    return spots if rng.random() < 0.5 else spots[::-1]


def ubongo_script(seed: int, players: list[str] | None = None, rounds: int = 2, hold: int = 6,
                  comps: Components = DEFAULT) -> UbongoScript:
    """Rounds of: roll into the middle, each player grabs a black and a white die, pick-up.

    Every player grabs every round, which the rules require while nobody has filled the area
    (always so with two players). Now and then a hand passes without changing anything, or
    two players grab at once."""
    players = list(players or ["Ann", "Ben"])
    rng = np.random.default_rng([seed, 7])
    n = len(players)
    script = UbongoScript(players)
    light = 1.0

    def shot(dice, frames, hand=False, edge="bottom", moves=()):
        nonlocal light
        light = float(np.clip(light + rng.uniform(-0.03, 0.03), 0.85, 1.12))
        script.shots.append(UShot(tuple(dice), frames, hand, edge, light, tuple(moves)))

    shot([], hold)
    last: tuple = ()
    for _ in range(rounds):
        if last:
            shot(last, 3, hand=True)
            shot([], hold)
        shot([], 3, hand=True)
        dice = roll_dice(rng, comps, n)
        black = sorted(d.face for d in dice if d.colour == "black")
        white = sorted(d.face for d in dice if d.colour == "white")
        shot(dice, hold * 2, moves=[f"roll black {' '.join(black)} white {' '.join(white)}"])
        if rng.random() < 0.5:
            shot(dice, 3, hand=True, edge=str(rng.choice(["bottom", "top"])))
            shot(dice, hold)
        order = [int(i) for i in rng.permutation(n)]
        while order:
            group = order[:2] if len(order) >= 2 and rng.random() < 0.25 else order[:1]
            order = order[len(group):]
            group.sort()  # grabs seen together are told in seat order, as the engine lists them
            shot(dice, 3, hand=True, edge=SEAT_EDGES[n][group[0]])
            moves = []
            for i in group:
                dice, move = _grab(rng, dice, players[i], SEAT_EDGES[n][i])
                moves.append(move)
            shot(dice, hold, moves=moves)
        last = tuple(dice)
    return script


def _grab(rng: np.random.Generator, dice: list[Placed], player: str, edge: str) -> tuple[list[Placed], str]:
    """One black and one white die of the middle moved to `player`'s seat, faces kept."""
    middle = [d for d in dice if 0.25 < d.u < 0.75 and 0.25 < d.v < 0.75]
    b = middle[int(rng.choice([i for i, d in enumerate(middle) if d.colour == "black"]))]
    w = middle[int(rng.choice([i for i, d in enumerate(middle) if d.colour == "white"]))]
    spots = seat_spots(rng, edge)
    moved = {id(b): spots[0], id(w): spots[1]}
    out = [Placed(d.colour, d.face, *moved[id(d)], float(rng.uniform(0, np.pi / 2)), d.die) if id(d) in moved else d
           for d in dice]
    return out, f"{player} takes black {b.face} white {w.face}"


def _face_quads(face, cells: frozenset) -> list[np.ndarray]:
    """Screen quads of a shape's squares centred on a cube face (squares DIE_ART_CELL of the face wide)."""
    rows = 1 + max(r for r, _ in cells)
    cols = 1 + max(c for _, c in cells)
    a0, b0 = 0.5 - cols * DIE_ART_CELL / 2, 0.5 - rows * DIE_ART_CELL / 2
    gap = DIE_ART_CELL * ART_GAP
    quads = []
    for r, c in cells:
        x, y = a0 + c * DIE_ART_CELL + gap, b0 + r * DIE_ART_CELL + gap
        s = DIE_ART_CELL - 2 * gap
        quads.append(face.to_screen(np.array([[x, y], [x + s, y], [x + s, y + s], [x, y + s]], np.float32)))
    return quads


def draw_die(img: np.ndarray, d: Placed, tilt: float, dep: float, light: np.ndarray, ambient: float,
             symbol, comps: Components, scale: float) -> None:
    """One Ubongo die as a shaded cube; its other faces' shapes show on the visible sides."""
    side = DIE * W * scale
    cx, cy = d.u * W * scale, d.v * dep * W * np.cos(tilt) * scale - side * np.sin(tilt)
    pose = CubePose(cx, cy, side, d.yaw, tilt)
    faces = (comps.black_dice if d.colour == "black" else comps.white_dice)[d.die]
    others = [f for f in faces if f != d.face] or [d.face]
    body = np.array(BODIES[d.colour], np.float32)

    def decorate(roi, face, i):
        name = d.face if face.is_top else others[i % len(others)]
        col = tuple(float(v) * (ambient + (1 - ambient) * face.light) for v in symbol)
        for q in _face_quads(face, comps.shape(name)):
            cv2.fillPoly(roi, [np.round(q * 4).astype(np.int32)], col, cv2.LINE_AA, 2)

    draw_cube(img, pose, body, light, ambient, decorate)


def _shadow(img: np.ndarray, d: Placed, tilt: float, dep: float, scale: float) -> None:
    """A soft contact shadow beside the die (drawn and blurred in its own small window)."""
    side = DIE * W * scale
    cx, cy = d.u * W * scale, d.v * dep * W * np.cos(tilt) * scale - side * np.sin(tilt)
    hull = outline(CubePose(cx, cy, side, d.yaw, tilt)) + [side * 0.12, side * 0.1]
    pad = int(side * 0.5)
    x0, y0 = np.maximum(np.floor(hull.min(0)).astype(int) - pad, 0)
    x1, y1 = np.minimum(np.ceil(hull.max(0)).astype(int) + pad, [img.shape[1], img.shape[0]])
    m = np.zeros((y1 - y0, x1 - x0), np.float32)
    cv2.fillPoly(m, [np.round(hull - [x0, y0]).astype(np.int32)], 0.3, cv2.LINE_AA)
    m = cv2.GaussianBlur(m, (0, 0), side * 0.12)
    roi = img[y0:y1, x0:x1]
    roi[:] = np.clip(roi * (1 - m[..., None]), 0, 255).astype(np.uint8)


@dataclass
class Look:
    """A footage's fixed table, camera and lighting."""

    table: np.ndarray
    tilt: float
    light: np.ndarray
    ambient: float
    symbols: dict
    blur: float = 0.0  # defocus (Gaussian sigma, px) of this camera


def look_for(seed: int, tilt: float | None = None) -> Look:
    """The table, camera tilt (random up to 45 degrees unless given) and light of a seed."""
    rng = np.random.default_rng([seed, 11])
    table = textures.background(rng, H * SS, W * SS, "wood")
    tilt = float(rng.uniform(0, np.radians(45))) if tilt is None else tilt
    lx, ly = rng.uniform(-0.5, 0.5, 2)
    light = np.array([lx, ly, 1.0], np.float32)
    light /= np.linalg.norm(light)
    symbols = {c: [tuple(opts[int(rng.integers(len(opts)))]) for _ in range(8)] for c, opts in SYMBOLS.items()}
    return Look(table, tilt, light, float(rng.uniform(0.55, 0.7)), symbols, float(rng.uniform(0.0, 1.2)))


def render_state(look: Look, dice: tuple[Placed, ...] | list[Placed], comps: Components = DEFAULT) -> np.ndarray:
    """The table with these dice on it (no noise), far dice first so near ones cover them."""
    img = look.table.copy()
    dep = depth(look.tilt)
    for d in dice:
        _shadow(img, d, look.tilt, dep, SS)
    for d in sorted(dice, key=lambda d: d.v):
        draw_die(img, d, look.tilt, dep, look.light, look.ambient, look.symbols[d.colour][d.die], comps, SS)
    return cv2.resize(img, (W, H), interpolation=cv2.INTER_AREA)


def _with_arm(img: np.ndarray, rng: np.random.Generator, edge: str) -> np.ndarray:
    """vision.synth.footage's sleeved arm, reaching in from the bottom or (flipped) the top."""
    if edge == "top":
        flipped = np.ascontiguousarray(img[::-1])
        _arm(flipped, rng)
        return np.ascontiguousarray(flipped[::-1])
    _arm(img, rng)
    return img


def render_ubongo_footage(script: UbongoScript, seed: int, tilt: float | None = None,
                          comps: Components = DEFAULT) -> UbongoFootage:
    """Every frame of the script, with light drift and flicker, defocus and sensor noise."""
    look = look_for(seed, tilt)
    rng = np.random.default_rng([seed, 13])
    frames, shot_of = [], []
    cache: dict[tuple, np.ndarray] = {}
    # Sensor noise from a small bank of fields: fresh noise each frame costs more than the reading.
    noise = [rng.standard_normal((H, W, 3), dtype=np.float32) * 2.5 for _ in range(6)]
    for k, shot in enumerate(script.shots):
        if shot.dice not in cache:
            cache[shot.dice] = render_state(look, shot.dice, comps)
            if look.blur > 0.3:  # a webcam slightly out of focus
                cache[shot.dice] = cv2.GaussianBlur(cache[shot.dice], (0, 0), look.blur)
        base = cache[shot.dice].astype(np.float32)
        for _ in range(shot.frames):
            img = base * (shot.gain * rng.uniform(0.97, 1.03)) + noise[int(rng.integers(len(noise)))]
            img = np.clip(img, 0, 255).astype(np.uint8)
            if shot.hand:
                img = _with_arm(img, rng, shot.edge)
            frames.append(img)
            shot_of.append(k)
    return UbongoFootage(frames, calibration_for(look.tilt), look.tilt, shot_of)


def render_table(seed: int, tilt: float, players: int = 4, grabs: int = 1) -> tuple[np.ndarray, list[Placed], Calibration]:
    """One noisy frame of a rolled table after `grabs` players grabbed (for reader accuracy tests)."""
    rng = np.random.default_rng([seed, 17])
    dice = roll_dice(rng, DEFAULT, players)
    for i in range(grabs):
        dice, _ = _grab(rng, dice, f"P{i}", SEAT_EDGES[players][i])
    look = look_for(seed, tilt)
    img = render_state(look, dice).astype(np.float32) * rng.uniform(0.85, 1.12) + rng.normal(0, 2.5, (H, W, 3))
    return np.clip(img, 0, 255).astype(np.uint8), dice, calibration_for(tilt)
