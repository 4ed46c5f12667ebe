"""Scripted table footage: a game's physical states as frames, with hands passing over.

The same script drives the bundled demo video and the end-to-end tests, which know exactly
which moves the footage shows and so can check that the camera finds all of them and
invents none.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace

import cv2
import numpy as np

from rules.quarx.components import NUMBER_CARD_COLOURS, cards_per_player
from rules.quarx.scoring import cards_for
from vision.synth import cards, number_cards, textures

W, H = 640, 480
SKIN = (150, 185, 230)  # BGR, a light skin tone, darkened at random per hand


NAMES = ("Ann", "Ben", "Cat", "Dan")  # the default players, in seat order


@dataclass(frozen=True)
class Pile:
    """The number cards one player laid, in the order they lie along the row, and which side is up."""

    seat: int
    values: tuple[int, ...]
    face_up: bool = False

    @property
    def colour(self) -> str:
        return NUMBER_CARD_COLOURS[self.seat]


@dataclass(frozen=True)
class Shot:
    """A held table state: the sphere counts of the Quarx cards lying face up, for `frames` frames.

    `moves` are the move texts the camera should play on reaching this state; `piles` the
    number cards on the table; `reach` the seats whose arms reach over their own piles."""

    face_up: tuple[int, ...]
    frames: int
    hand: bool = False  # an arm reaches over the table in these frames
    piles: tuple[Pile, ...] = ()
    moves: tuple[str, ...] = ()
    reach: tuple[int, ...] = ()

    @property
    def laid(self) -> list[list]:
        """The truth in the TableView's form: [[colour, "down" | [values, descending]], ...] by colour."""
        return [[p.colour, sorted(p.values, reverse=True) if p.face_up else "down"]
                for p in sorted(self.piles, key=lambda p: p.colour)]

    @property
    def view(self) -> dict:
        """The whole TableView this shot shows: {"face_up": [...], "laid": [...]}."""
        return {"face_up": sorted(self.face_up), "laid": self.laid}


@dataclass
class QuarxScript:
    """The shots of a Quarx game and the reveals they show, in order."""

    players: int
    shots: list[Shot] = field(default_factory=list)
    names: tuple[str, ...] = NAMES[:2]
    number_cards: bool = False  # the players lay number cards (and the middle leaves them room)

    @property
    def reveals(self) -> list[tuple[int, ...]]:
        return [s.face_up for s in self.shots if any(m.startswith("reveal ") for m in s.moves)]

    @property
    def moves(self) -> list[str]:
        """Every move the footage shows, in order."""
        return [m for s in self.shots for m in s.moves]


def reveal_text(counts: tuple[int, ...]) -> str:
    """The reveal move as the engine takes it: `reveal 3 4 5 7`."""
    return "reveal " + " ".join(map(str, sorted(counts)))


def turn_over_text(names: tuple[str, ...], piles: tuple[Pile, ...]) -> str:
    """`turn over: Ann 16+4+2+1, Ben 8+4`: the piles in seat order, values descending."""
    parts = [f"{names[p.seat]} " + "+".join(map(str, sorted(p.values, reverse=True)))
             for p in sorted(piles, key=lambda p: p.seat)]
    return "turn over: " + ", ".join(parts)


def quarx_script(seed: int, players: int = 2, rounds: int = 3, hold: int = 8, *,
                 names: tuple[str, ...] | list[str] | None = None, number_cards: bool = False,
                 together_every: int = 0, wrong_rate: float = 0.15) -> QuarxScript:
    """Rounds of: empty table, a hand lays the cards, the cards lie there, a hand collects them.

    With `number_cards`, each round goes on: each player in a seeded finishing order lays
    a pile face down ("Ann lays"), hands turn them all over ("turn over: ..."), hands collect
    everything. Answers are the exact cards for the total, but wrong with `wrong_rate`.
    Every `together_every`-th round (0: never) the first two piles are laid under one arm pass,
    so the camera cannot tell who was first. The Quarx counts are the same with or without."""
    rng = np.random.default_rng(seed)
    n = cards_per_player(players) * players
    names = tuple(names) if names else NAMES[:players]
    if len(names) != players or not 1 <= players <= len(NAMES):
        raise ValueError(f"{players} players need {players} names (at most {len(NAMES)} seats)")
    script = QuarxScript(players, names=names, number_cards=number_cards)
    answers = np.random.default_rng([seed, 7])  # apart, so the counts match the plain footage
    for r in range(rounds):
        counts = tuple(sorted(int(c) for c in rng.integers(1, 8, n)))
        if not number_cards:
            script.shots += [Shot((), hold), Shot((), 3, hand=True), Shot(counts, hold * 2, moves=(reveal_text(counts),)),
                             Shot(counts, 3, hand=True)]
            continue
        together = together_every > 0 and players >= 2 and (r + 1) % together_every == 0
        script.shots += _number_round(answers, counts, names, hold, together, wrong_rate)
    script.shots.append(Shot((), hold))
    return script


def _answer(rng: np.random.Generator, total: int, wrong_rate: float) -> tuple[int, ...]:
    """A player's cards for `total`, in the order laid: right, or now and then a miscount."""
    if rng.random() < wrong_rate:
        total = max(1, total + int(rng.choice([-3, -2, -1, 1, 2, 3])))
    cards = list(cards_for(total))
    rng.shuffle(cards)
    return tuple(int(c) for c in cards)


def _number_round(rng: np.random.Generator, counts: tuple[int, ...], names: tuple[str, ...], hold: int,
                  together: bool, wrong_rate: float) -> list[Shot]:
    players = len(names)
    order = [int(s) for s in rng.permutation(players)]
    cards = {s: _answer(rng, sum(counts), wrong_rate) for s in range(players)}
    groups = [order[:2]] + [[s] for s in order[2:]] if together else [[s] for s in order]
    shots = [Shot((), hold), Shot((), 3, hand=True), Shot(counts, hold * 2, moves=(reveal_text(counts),))]
    piles: tuple[Pile, ...] = ()
    for group in groups:
        shots.append(Shot(counts, 3, hand=True, piles=piles, reach=tuple(group)))
        piles = tuple(sorted(piles + tuple(Pile(s, cards[s]) for s in group), key=lambda p: p.seat))
        shots.append(Shot(counts, hold, piles=piles, moves=tuple(f"{names[s]} lays" for s in group)))
    shots.append(Shot(counts, 3, hand=True, piles=piles, reach=tuple(range(players))))
    piles = tuple(replace(p, face_up=True) for p in piles)
    shots.append(Shot(counts, hold * 2, piles=piles, moves=(turn_over_text(names, piles),)))
    shots.append(Shot(counts, 3, hand=True, piles=piles))
    return shots


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

    `quads`, if given, receives per frame the Quarx cards' corners (TL, TR, BR, BL) as drawn."""
    if script.number_cards:
        return _render_with_number_cards(script, seed, quads)
    rng, table, tilt = _set_table(seed)
    art_cache: dict[tuple, cards.FlatArt] = {}  # the same cards stay put while a hand passes
    frames: list[np.ndarray] = []
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
        _film(shot, base, shot_quads, rng, frames, quads, reach=False)
    return frames


def _set_table(seed: int) -> tuple[np.random.Generator, np.ndarray, float]:
    """The footage's random stream, its wooden table and the camera's tilt (fixed for the clip)."""
    rng = np.random.default_rng(seed)
    table = textures.background(rng, H, W, "wood")
    return rng, table, float(rng.uniform(np.radians(10), np.radians(30)))


def _film(shot: Shot, base: np.ndarray, shot_quads: list, rng: np.random.Generator, frames: list[np.ndarray],
          quads: list | None, reach: bool) -> None:
    """The shot's frames of the table `base`: arms over it where the shot has a hand, camera noise on all.

    `reach`: an arm reaches over each seat in `shot.reach` (laying or turning number cards)."""
    for _ in range(shot.frames):
        img = base.copy()
        if shot.hand and reach and shot.reach:
            for seat in shot.reach:
                _arm_over_seat(img, rng, seat)
        elif shot.hand:
            _arm(img, rng)
        frames.append(_camera_noise(img, rng))
        if quads is not None:
            quads.append(shot_quads)


def _middle_layout(n: int, players: int) -> tuple[list[tuple[float, float]], float]:
    """Cell centres and scale of n Quarx cards in the middle, clear of the players' bands."""
    x0, x1 = (20, W - 20) if players <= 2 else (110, W - 110)
    y0, y1 = 100, H - 100
    cols = n if n <= 4 else (n + 1) // 2
    rows = (n + cols - 1) // cols if n else 0
    centres = [(x0 + (x1 - x0) * (c + 0.5) / cols, y0 + (y1 - y0) * (r + 0.5) / rows)
               for r in range(rows) for c in range(cols)][:n]
    return centres, (0.50 if players <= 2 else 0.36)


def _arm_between(img: np.ndarray, rng: np.random.Generator, base: np.ndarray, tip: np.ndarray) -> None:
    """A sleeved arm from `base` (beyond the frame's edge) with a hand at `tip`."""
    d = tip - base
    u = d / max(float(np.linalg.norm(d)), 1.0)
    nrm = np.array([-u[1], u[0]])
    wrist = base + 0.8 * d
    poly = np.array([base + 60 * nrm, base - 60 * nrm, wrist - 42 * nrm, wrist + 42 * nrm], np.int32)
    cv2.fillPoly(img, [poly], tuple(int(v) for v in rng.integers(20, 200, 3)), cv2.LINE_AA)
    skin = tuple(int(v * rng.uniform(0.55, 1.0)) for v in SKIN)
    angle = float(np.degrees(np.arctan2(u[1], u[0])))
    cv2.ellipse(img, (int(tip[0]), int(tip[1])), (46, 38), angle, 0, 360, skin, -1, cv2.LINE_AA)


def _arm_over_seat(img: np.ndarray, rng: np.random.Generator, seat: int) -> None:
    """The arm of the player at `seat`, reaching over their own band (laying or turning cards)."""
    ax, ay = number_cards.seat_anchor(seat, W, H)
    inward = np.array([(0, -1), (0, 1), (1, 0), (-1, 0)][seat], np.float64)
    along = np.array([inward[1], inward[0]]) * rng.uniform(-110, 110)
    tip = np.array([ax, ay]) + along + inward * rng.uniform(0, 40)
    to_edge = [H - ay, ay, ax, W - ax][seat]  # from the band's middle out to the seat's edge
    base = tip - inward * (to_edge + rng.uniform(40, 80)) + along * 0.2
    _arm_between(img, rng, base, tip)


def _render_with_number_cards(script: QuarxScript, seed: int, quads: list | None) -> list[np.ndarray]:
    """Footage with bands for the number cards: Quarx cards smaller in the middle, rows at the edges."""
    rng, table, tilt = _set_table(seed)
    art: dict[tuple, cards.FlatArt] = {}  # the same cards stay put while a hand passes
    frames: list[np.ndarray] = []
    for shot in script.shots:
        base = table.copy()
        shot_quads = []
        centres, scale = _middle_layout(len(shot.face_up), script.players)
        place = np.random.default_rng([seed, 11, *shot.face_up])  # still all round, not only per shot
        for i, ((cx, cy), n) in enumerate(zip(centres, shot.face_up)):
            key = ("quarx", shot.face_up, i)
            if key not in art:
                art[key] = _card(np.random.default_rng([seed, 12, len(art)]), n)
            hom = cards.table_homography(cx + place.uniform(-6, 6), cy + place.uniform(-6, 6), scale,
                                         float(place.uniform(-0.1, 0.1)), tilt, 0.0, 240, 340)
            shot_quads.append(cards.warp_points(hom, np.float32([[0, 0], [240, 0], [240, 340], [0, 340]])))
            cards.paste(base, art[key], hom)
        for pile in shot.piles:
            row = np.random.default_rng([seed, 21, pile.seat, *pile.values])  # same place face down and up
            homs = number_cards.row_homographies(pile.seat, len(pile.values), tilt, row, W, H, script.players > 2)
            for k, (value, hom) in enumerate(zip(pile.values, homs)):
                key = ("number", pile.seat, pile.values, pile.face_up, k)
                if key not in art:
                    art[key] = number_cards.number_card_art(np.random.default_rng([seed, 22, len(art)]), pile.colour,
                                                            value, pile.face_up)
                cards.paste(base, art[key], hom)
        _film(shot, base, shot_quads, rng, frames, quads, reach=True)
    return frames


def _camera_noise(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Light flicker and sensor noise: enough to test stability, little enough to compress."""
    gain = rng.uniform(0.93, 1.05)
    return np.clip(img.astype(np.float32) * gain + rng.normal(0, 2.0, img.shape), 0, 255).astype(np.uint8)


def _card(rng: np.random.Generator, spheres: int) -> cards.FlatArt:
    for _ in range(20):
        try:
            return cards.quarx_card(rng, spheres)
        except RuntimeError:  # no room for that many spheres with these distractors: redraw
            continue
    raise RuntimeError(f"cannot draw a card with {spheres} spheres")
