"""Scripted Diceline footage: a real game played by the engine, its tables rendered, hands passing.

The script plays seeded random legal moves with rules.core.Match from the first roll on: the
roll, the set selection and the phase-2 turns. Each state's expected TableView is drawn on the
play mat by a fixed camera (up to 45 degrees), with slowly changing light, sensor noise, some
defocus and an arm over the table while a move is made. So the truth of every frame is known.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Iterator

import cv2
import numpy as np

from rules.core.match import Match
from rules.core.camera import view_matches
from rules.diceline import state as S
from rules.diceline.moves import Done, Place, ReturnDie, Stop
from rules.registry import ENGINES
from vision.games.diceline.reader import readable
from vision.synth import textures
from vision.synth.diceline_render import H, W, Camera, camera, dice_in_view, render_view
from vision.synth.footage import H as ARM_H, W as ARM_W, _arm

PLAYERS = ["Ann", "Ben", "Cat"]


@dataclass(frozen=True)
class DicelineShot:
    """A held table for `frames` frames; `upto` = how many script moves the table shows by then."""

    view: dict
    frames: int
    upto: int
    hand: bool = False


@dataclass
class DicelineScript:
    """The setup typed before the camera watches, the moves after it, which the camera can see, the shots."""

    seed: int
    players: list[str]
    setup: list[str] = field(default_factory=list)
    moves: list[str] = field(default_factory=list)
    visible: list[bool] = field(default_factory=list)
    shots: list[DicelineShot] = field(default_factory=list)
    scores: dict[str, int] = field(default_factory=dict)


def _policy(engine, state, rng: random.Random):
    """A random legal move, leaning to what a camera can follow: place or return a die, then 'done'.

    Bonus tiles and layout completions are optional and stay unused; a grey 4~6 step sequence is
    stopped at once ('stop' is typed: nothing on the table shows it)."""
    moves = engine.legal_moves(state)
    if state.phase != S.ACTIONS:
        return rng.choice(moves)
    if state.steps_left:
        return next(m for m in moves if isinstance(m, Stop))
    main = [m for m in moves if isinstance(m, Place)] or [m for m in moves if isinstance(m, ReturnDie)]
    if main:
        return rng.choice(main)
    return next((m for m in moves if isinstance(m, Done)), rng.choice(moves))


def diceline_script(seed: int, players: list[str] | None = None, max_moves: int | None = None,
                    hold: int = 4, hand: int = 2) -> DicelineScript:
    """Round 1 of a seeded game from the roll (or its first `max_moves` moves after setup)."""
    engine = ENGINES["diceline"]
    names = list(players or PLAYERS)
    match = Match(engine, names, seed=seed)
    rng = random.Random(seed)
    script = DicelineScript(seed, names)
    while match.state.phase != S.ROLL:
        st = match.state
        move = engine.sample_chance(st, rng) if engine.chance(st) else _policy(engine, st, rng)
        script.setup.append(match.play(move))
    script.shots.append(DicelineShot(engine.expected_view(match.state), hold * 2, 0))
    while match.state.round == 1 and not engine.is_over(match.state):
        if max_moves is not None and len(script.moves) >= max_moves:
            break
        st = match.state
        before = engine.expected_view(st)
        move = engine.sample_chance(st, rng) if engine.chance(st) else _policy(engine, st, rng)
        script.moves.append(match.play(move))
        after = engine.expected_view(match.state)
        seen = not view_matches(before, readable(after))
        script.visible.append(seen)
        if seen:
            upto = len(script.moves)
            script.shots += [DicelineShot(after, hand, upto, hand=True), DicelineShot(after, hold, upto)]
    script.scores = engine.scores(match.state)
    return script


@dataclass
class _Light:
    """Light that drifts slowly (a cloud, a lamp) so that a hand, not the light, is what changes fast."""

    gain: float
    cast: np.ndarray

    def step(self, rng: np.random.Generator) -> None:
        self.gain = float(np.clip(self.gain + rng.normal(0, 0.006), 0.85, 1.08))
        self.cast = np.clip(self.cast + rng.normal(0, 0.003, 3), 0.9, 1.1).astype(np.float32)


def render_footage(script: DicelineScript, seed: int, tilt: float = 35.0) -> Iterator[np.ndarray]:
    """Every frame of the script, lazily: a fixed table and camera, light drift, noise, blur, arms."""
    rng = np.random.default_rng(seed)
    table = textures.background(rng, H, W, "wood")
    cam = camera(tilt, rng)
    noise = [rng.normal(0, rng.uniform(2.0, 4.0), (H, W, 3)).astype(np.float32) for _ in range(4)]
    light = _Light(float(rng.uniform(0.92, 1.02)), rng.uniform(0.93, 1.07, 3).astype(np.float32))
    for shot in script.shots:
        base = _render(shot.view, script, cam, table, rng)
        for k in range(shot.frames):
            img = base.copy()
            if shot.hand:
                _arm_over(img, rng)
            light.step(rng)
            f = img.astype(np.float32) * (light.cast * light.gain) + noise[int(rng.integers(len(noise)))]
            out = np.clip(f, 0, 255).astype(np.uint8)
            if rng.random() < 0.3:  # autofocus hunting now and then
                out = cv2.GaussianBlur(out, (0, 0), float(rng.uniform(0.5, 1.1)))
            yield out


def _render(view: dict, script: DicelineScript, cam: Camera, table: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    dice = dice_in_view(view, script.players, rng, stable=script.seed)
    return render_view(view, script.players, cam, np.random.default_rng(script.seed), table=table, dice=dice)


def _arm_over(img: np.ndarray, rng: np.random.Generator) -> None:
    """The Quarx footage's arm (drawn for 640 x 480), scaled to this frame, reaching in from the near edge."""
    layer = np.zeros((ARM_H, ARM_W, 3), np.uint8)
    _arm(layer, rng)
    layer = cv2.resize(layer, (img.shape[1], img.shape[0]), interpolation=cv2.INTER_LINEAR)
    mask = layer.max(axis=2) > 0
    img[mask] = layer[mask]


def frame_count(script: DicelineScript) -> int:
    """How many frames render_footage yields."""
    return sum(s.frames for s in script.shots)

