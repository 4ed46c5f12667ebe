"""A Diceline TableView drawn on the play mat and seen by a pinhole camera: 3-D dice, flat tiles.

The truth of every picture is the view it was drawn from, so the reader can be scored cell by
cell. World: mat millimetres (x right, y down, origin at marker 0's outer corner), height up.
"""
from __future__ import annotations

import zlib
from dataclasses import dataclass

import cv2
import numpy as np

from rules.diceline.board import KIND_OF, layout_rotations
from vision.games.diceline.spec import (
    DIE, DIE_BODY, DIE_PIP, LAYOUT_MARK, LAYOUT_TILE, MAT_H, MAT_W, TILE, TILE_GROUND, mat_layout,
)
from vision.games.diceline.mat import MARGIN, render_mat
from vision.synth import effects, textures
from vision.synth.cube import PIP_LAYOUT, side_values

W, H = 1280, 720  # a 720p webcam
MAT_PPM = 3.0  # the mat picture's pixels per mm before it is laid in the scene


@dataclass(frozen=True)
class DiceSet:
    """How the dice look: a BGR body for each game colour, and the pips' BGR."""

    body: dict[str, tuple[int, int, int]]
    pip: tuple[int, int, int]


GAME_DICE = DiceSet(DIE_BODY, DIE_PIP)
# A set that is not the game's: the grey dice ivory with dark pips (as most household dice), every
# pip dark. The cell reader looks for coloured bodies with light pips and reads none of them.
IVORY_DICE = DiceSet(dict(DIE_BODY, grey=(200, 225, 235)), (30, 30, 30))


@dataclass(frozen=True)
class Camera:
    """Pinhole camera: intrinsics K and pose (world -> camera: R @ world + t), world z into the table."""

    K: np.ndarray
    R: np.ndarray
    t: np.ndarray
    tilt: float  # degrees from straight down

    def project(self, pts: np.ndarray) -> np.ndarray:
        """World points (N, 3) as (x, y, height) in mm -> image points (N, 2)."""
        p = np.asarray(pts, np.float64).reshape(-1, 3) * np.array([1.0, 1.0, -1.0])
        cam = p @ self.R.T + self.t
        uv = cam @ self.K.T
        return uv[:, :2] / uv[:, 2:3]

    def depth(self, pts: np.ndarray) -> np.ndarray:
        p = np.asarray(pts, np.float64).reshape(-1, 3) * np.array([1.0, 1.0, -1.0])
        return (p @ self.R.T + self.t)[:, 2]

    def plane_homography(self, height: float = 0.0) -> np.ndarray:
        """Mat mm on the plane at `height` -> image pixels."""
        r1, r2, r3 = self.R[:, 0], self.R[:, 1], self.R[:, 2]
        return self.K @ np.column_stack([r1, r2, self.t - height * r3])

    @property
    def centre(self) -> np.ndarray:
        return -self.R.T @ self.t


def camera(tilt_deg: float, rng: np.random.Generator, w: int = W, h: int = H, fill: float = 0.92) -> Camera:
    """A camera `tilt_deg` from straight down on the near side, a little turned and rolled, framing the mat."""
    f = w * rng.uniform(0.7, 0.95)
    K = np.array([[f, 0, w / 2], [0, f, h / 2], [0, 0, 1.0]])
    tilt, azim, roll = np.radians(tilt_deg), np.radians(rng.uniform(-10, 10)), np.radians(rng.uniform(-3, 3))
    centre = np.array([MAT_W / 2, MAT_H / 2, 0.0]) + np.r_[rng.uniform(-15, 15, 2), 0]
    # Where the camera sits, relative to the mat centre: behind the near edge and above (z < 0 is up).
    back = np.array([np.sin(azim) * np.sin(tilt), np.cos(azim) * np.sin(tilt), -np.cos(tilt)])
    hint = np.array([np.sin(azim), np.cos(azim), 0.0])  # image-down points to the near side
    corners = np.array([[-MARGIN, -MARGIN, 0], [MAT_W + MARGIN, -MARGIN, 0], [MAT_W + MARGIN, MAT_H + MARGIN, 0],
                        [-MARGIN, MAT_H + MARGIN, 0]], np.float64)
    lo, hi = 100.0, 10000.0
    for _ in range(40):  # the nearest distance at which the whole sheet is in view
        d = (lo + hi) / 2
        cam = _look_at(centre + d * back, centre, hint, roll, K, tilt_deg)
        uv = cam.project(corners)
        ok = (np.all(uv[:, 0] > w * (1 - fill) / 2) and np.all(uv[:, 0] < w * (1 + fill) / 2)
              and np.all(uv[:, 1] > h * (1 - fill) / 2) and np.all(uv[:, 1] < h * (1 + fill) / 2))
        lo, hi = (lo, d) if ok else (d, hi)
    return _look_at(centre + hi * back, centre, hint, roll, K, tilt_deg)


def _look_at(eye: np.ndarray, target: np.ndarray, hint: np.ndarray, roll: float, K: np.ndarray, tilt: float) -> Camera:
    z = target - eye
    z /= np.linalg.norm(z)
    x = np.cross(hint, z)
    if np.linalg.norm(x) < 1e-6:
        x = np.array([1.0, 0.0, 0.0])
    x /= np.linalg.norm(x)
    y = np.cross(z, x)
    c, s = np.cos(roll), np.sin(roll)
    x, y = c * x + s * y, -s * x + c * y
    R = np.stack([x, y, z])
    return Camera(K, R, -R @ eye, float(tilt))


@dataclass(frozen=True)
class Placed:
    """One die on the mat: where it lies (mm), how it is turned (rad), its colour and top value."""

    x: float
    y: float
    yaw: float
    colour: str
    value: int


def dice_in_view(view: dict, players: list[str], rng: np.random.Generator, jitter: float = 2.5,
                 stable: int | None = None) -> list[Placed]:
    """The dice a TableView puts on the mat, each nudged and turned a little as a hand leaves it.

    With `stable` (a seed), a die lies the same way as long as it stays in its cell with its value."""
    layout = mat_layout()
    cells: list[tuple] = []
    for r, row in enumerate(view.get("selection") or []):
        if row:
            cells += [(layout.selection[r][c], colour, v) for c, (colour, v) in
                      enumerate(zip(("red", "green", "grey", "grey"), row))]
    for name, die in (view.get("spaces") or {}).items():
        if die:
            cells.append((layout.spaces[name], die[0], die[1]))
    for seat, name in enumerate(players):
        for cell, die in zip(layout.boards[seat].dice, view["players"][name]["dice"]):
            if die:
                cells.append((cell, die[0], die[1]))
    out = []
    for c, colour, v in cells:
        r = rng if stable is None else np.random.default_rng([stable, zlib.crc32(f"{c.name}|{colour}|{v}".encode())])
        out.append(Placed(c.x + r.uniform(-jitter, jitter), c.y + r.uniform(-jitter, jitter), r.uniform(-0.35, 0.35),
                          colour, int(v)))
    return out


def tiles_in_view(view: dict, players: list[str]) -> list[tuple[float, float, str]]:
    """(x, y, look) of every bonus tile: a kind when face up, 'back' when face down."""
    layout = mat_layout()
    out = [(c.x, c.y, kind) for c, kind in zip(layout.bonus_display, view.get("bonus_display") or [])]
    for seat, name in enumerate(players):
        for cell, t in zip(layout.boards[seat].tiles, view["players"][name]["tiles"]):
            if t:
                out.append((cell.x, cell.y, KIND_OF[t.upper()] if t.isupper() else "back"))
    return out


def layouts_in_view(view: dict, players: list[str]) -> list[tuple[float, float, int]]:
    """(x, y, id) of every face-up layout tile: the red board's two, then each player's in id order."""
    layout = mat_layout()
    out = [(c.x, c.y, t) for c, t in zip(layout.layout_display, view.get("layout_display") or [])]
    for seat, name in enumerate(players):
        for cell, t in zip(layout.boards[seat].layouts, view["players"][name].get("layouts") or []):
            out.append((cell.x, cell.y, t))
    return out


def _layout_tile(img: np.ndarray, cam: Camera, x: float, y: float, tile_id: int) -> None:
    """A layout tile: white with its five marked squares tan, turned a quarter turn or more by its id."""
    turns = layout_rotations(tile_id)
    marked = turns[zlib.crc32(f"{tile_id}|{x}".encode()) % len(turns)]
    half, sq = LAYOUT_TILE / 2, LAYOUT_TILE / 3
    def quad(x0, y0, x1, y1):
        return np.round(cam.project(np.array([[x0, y0, 1.5], [x1, y0, 1.5], [x1, y1, 1.5], [x0, y1, 1.5]])) * 4).astype(np.int32)
    cv2.fillPoly(img, [quad(x - half, y - half, x + half, y + half)], (246, 246, 244), cv2.LINE_AA, 2)
    for i in marked:
        r, c = divmod(i, 3)
        x0, y0 = x - half + c * sq + 0.5, y - half + r * sq + 0.5
        cv2.fillPoly(img, [quad(x0, y0, x0 + sq - 1.0, y0 + sq - 1.0)], LAYOUT_MARK, cv2.LINE_AA, 2)


_MAT_CACHE: dict[float, np.ndarray] = {}


def _mat() -> np.ndarray:
    if MAT_PPM not in _MAT_CACHE:
        _MAT_CACHE[MAT_PPM] = render_mat(MAT_PPM)
    return _MAT_CACHE[MAT_PPM]


def render_view(view: dict, players: list[str], cam: Camera, rng: np.random.Generator,
                table: np.ndarray | None = None, dice: list[Placed] | None = None,
                dice_set: DiceSet = GAME_DICE) -> np.ndarray:
    """The table in `view` seen by `cam`, its dice drawn as `dice_set` (no noise: effects are the
    footage's job)."""
    img = table.copy() if table is not None else textures.background(rng, H, W, "wood")
    h, w = img.shape[:2]
    # mat picture pixels -> mat mm -> image
    px_to_mm = np.array([[1 / MAT_PPM, 0, -MARGIN], [0, 1 / MAT_PPM, -MARGIN], [0, 0, 1.0]])
    hom = cam.plane_homography(0.0) @ px_to_mm
    mat = _mat()
    warped = cv2.warpPerspective(mat, hom, (w, h), flags=cv2.INTER_AREA)
    mask = cv2.warpPerspective(np.full(mat.shape[:2], 255, np.uint8), hom, (w, h), flags=cv2.INTER_LINEAR)
    a = (mask.astype(np.float32) / 255.0)[..., None]
    img[:] = np.clip(img * (1 - a) + warped * a, 0, 255).astype(np.uint8)
    for x, y, look in tiles_in_view(view, players):
        _tile(img, cam, x, y, look, rng)
    for x, y, tile_id in layouts_in_view(view, players):
        _layout_tile(img, cam, x, y, tile_id)
    dice = dice if dice is not None else dice_in_view(view, players, rng)
    light = np.array([rng.uniform(-0.5, 0.5), rng.uniform(-0.6, 0.2), -1.0])
    light /= np.linalg.norm(light)
    far_first = sorted(dice, key=lambda d: -float(cam.depth(np.array([[d.x, d.y, DIE / 2]]))[0]))
    for d in far_first:
        _die(img, cam, d, light, rng, dice_set)
    return img


def _tile(img: np.ndarray, cam: Camera, x: float, y: float, look: str, rng: np.random.Generator) -> None:
    half = TILE / 2 - 0.5
    corners = np.array([[x - half, y - half, 1.5], [x + half, y - half, 1.5], [x + half, y + half, 1.5],
                        [x - half, y + half, 1.5]])
    poly = cam.project(corners)
    cv2.fillPoly(img, [np.round(poly * 4).astype(np.int32)], TILE_GROUND[look], cv2.LINE_AA, 2)
    # A small light symbol in the middle, as the printed art has (the reader must look past it).
    r = TILE * 0.16
    ring = np.array([[x + r * np.cos(a), y + r * np.sin(a), 1.5] for a in np.linspace(0, 2 * np.pi, 12, endpoint=False)])
    if look != "back":
        cv2.fillPoly(img, [np.round(cam.project(ring) * 4).astype(np.int32)], (235, 235, 235), cv2.LINE_AA, 2)


def _die(img: np.ndarray, cam: Camera, d: Placed, light: np.ndarray, rng: np.random.Generator,
         dice_set: DiceSet) -> None:
    s = DIE
    c, sn = np.cos(d.yaw), np.sin(d.yaw)
    ax, ay = np.array([c, sn, 0.0]) * s, np.array([-sn, c, 0.0]) * s  # the die's own x and y edges
    base = np.array([d.x, d.y, 0.0]) - (ax + ay) / 2
    up = np.array([0.0, 0.0, s])
    shadow = cam.project(np.array([base, base + ax, base + ax + ay, base + ay]))
    effects.shadow(img, shadow, np.array([light[0], light[1]]) * -6.0, 0.2, 3.0)
    body = np.array(dice_set.body[d.colour], np.float64)
    eye = cam.centre * np.array([1.0, 1.0, -1.0])  # camera centre as (x, y, height)
    sides = side_values(rng, d.value)
    faces = [(base, ax, up, -ay), (base + ax, ay, up, ax), (base + ax + ay, -ax, up, ay), (base + ay, -ay, up, -ax)]
    for i, (o, ea, eb, normal) in enumerate(faces):
        mid = o + ea / 2 + eb / 2
        if np.dot(normal, eye - mid) <= 0:
            continue  # faces away from the camera
        n = normal / np.linalg.norm(normal)
        _face(img, cam, o, ea, eb, body, 0.45 + 0.4 * max(0.0, float(-light @ n)), sides[i], dice_set.pip)
    _face(img, cam, base + up, ax, ay, body, 0.8 + 0.2 * max(0.0, float(-light[2])), d.value, dice_set.pip)


def _face(img: np.ndarray, cam: Camera, o: np.ndarray, ea: np.ndarray, eb: np.ndarray, body: np.ndarray,
          shade: float, value: int, pip_bgr: tuple[int, int, int]) -> None:
    colour = body * shade
    inset = 0.04
    quad = np.array([o + ea * a + eb * b for a, b in ((inset, inset), (1 - inset, inset), (1 - inset, 1 - inset),
                                                       (inset, 1 - inset))])
    rim = np.array([o + ea * a + eb * b for a, b in ((0, 0), (1, 0), (1, 1), (0, 1))])
    dark = tuple(float(v) * 0.8 for v in np.clip(colour, 0, 255))
    cv2.fillPoly(img, [np.round(cam.project(rim) * 4).astype(np.int32)], dark, cv2.LINE_AA, 2)
    cv2.fillPoly(img, [np.round(cam.project(quad) * 4).astype(np.int32)], tuple(float(v) for v in np.clip(colour, 0, 255)),
                 cv2.LINE_AA, 2)
    t = np.linspace(0, 2 * np.pi, 14, endpoint=False)
    pip_r = 0.095
    pip = np.clip(np.array(pip_bgr, np.float64) * shade, 0, 255)
    for a, b in PIP_LAYOUT[value]:
        pts = np.array([o + ea * (a + pip_r * np.cos(k)) + eb * (b + pip_r * np.sin(k)) for k in t])
        cv2.fillPoly(img, [np.round(cam.project(pts) * 4).astype(np.int32)], tuple(float(v) for v in pip), cv2.LINE_AA, 2)
