"""Board-reading accuracy: random mat contents rendered at an angle, read back, scored cell by cell."""
from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from rules.diceline.board import LETTER
from rules.diceline.components import LAYOUT_PATTERNS
from vision.detector.die_values import DieValueModel, load_value_model
from vision.games.diceline.reader import read_cells
from vision.games.diceline.spec import mat_layout
from vision.synth.diceline_render import GAME_DICE, IVORY_DICE, DiceSet, camera, render_view
from vision.tally import Tally, add_counts

SEATS = ["s1", "s2", "s3", "s4"]
LOOKS = ("", "", "die", "movement", "order", "vp", "back")  # open spaces twice as likely


@dataclass
class BoardScore:
    """Cells (die, bonus and layout spaces) read right out of all; dice read right (colour and value) out of all dice."""

    cells: int = 0
    cells_right: int = 0
    dice: int = 0
    dice_right: int = 0
    misread: int = 0  # a die read with a wrong colour or value, or read where none lies (the harmful kind)
    missed: int = 0  # a die left unread (None: matches anything, so it only costs information)
    part_unsure: int = 0  # a die read with its colour or value unsure (None) and the rest right: harmless
    empty_read: int = 0  # a die read in a cell where none lies (counted in misread too)
    # dice per true colour: value right (colour right or unsure) / wrong / unread or value unsure
    by_colour: dict[str, Tally] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)

    def add(self, other: BoardScore) -> None:
        add_counts(self, other)

    @property
    def cell_rate(self) -> float:
        return self.cells_right / max(1, self.cells)

    @property
    def dice_rate(self) -> float:
        return self.dice_right / max(1, self.dice)


def random_contents(rng: np.random.Generator, fill: float = 0.6) -> dict:
    """A TableView-shaped dict for all four seats and five selection rows, filled at random (rules aside)."""
    layout = mat_layout()
    def die(colour: str | None = None):
        return [colour or str(rng.choice(["red", "green", "grey"])), int(rng.integers(1, 7))]
    selection = [[int(rng.integers(1, 7)) for _ in range(4)] if rng.random() < fill else None
                 for _ in layout.selection]
    spaces = {name: (die(c.colour) if rng.random() < fill else None) for name, c in layout.spaces.items()}
    players = {}
    for seat in SEATS:
        tiles = []
        for _ in range(9):
            look = str(rng.choice(LOOKS))
            if look == "back":  # face down: the kind under it is not seen
                tiles.append(LETTER[str(rng.choice(list(LETTER)))].lower())
            else:
                tiles.append(LETTER[look] if look else "")
        players[seat] = {"dice": [die() if rng.random() < fill else None for _ in range(4)], "tiles": tiles}
    display = sorted(str(rng.choice(list(LETTER))) for _ in range(int(rng.integers(0, 5))))
    ids = [int(i) for i in rng.permutation(list(LAYOUT_PATTERNS))]  # each layout tile exists once
    layout_display = sorted(ids.pop() for _ in range(int(rng.integers(0, 3))))
    for seat in SEATS:
        players[seat]["layouts"] = sorted(ids.pop() for _ in range(int(rng.integers(0, 3))))
    return {"selection": selection, "spaces": spaces, "players": players, "bonus_display": display,
            "layout_display": layout_display}


def truth_cells(view: dict) -> tuple[dict[str, tuple | None], dict[str, str | int]]:
    """Cell name -> (colour, value) or None; tile or layout spot name -> '', a kind, 'back' or a layout id."""
    layout = mat_layout()
    dice: dict[str, tuple | None] = {}
    for r, row in enumerate(view["selection"]):
        for c, cell in enumerate(layout.selection[r]):
            dice[cell.name] = (cell.colour, row[c]) if row else None
    for name, cell in layout.spaces.items():
        d = view["spaces"][name]
        dice[cell.name] = tuple(d) if d else None
    tiles = {c.name: "" for c in layout.bonus_display}
    for c, kind in zip(layout.bonus_display, view["bonus_display"]):
        tiles[c.name] = kind
    kinds = {v: k for k, v in LETTER.items()}
    for seat, board in zip(SEATS, layout.boards):
        p = view["players"][seat]
        for cell, d in zip(board.dice, p["dice"]):
            dice[cell.name] = tuple(d) if d else None
        for cell, t in zip(board.tiles, p["tiles"]):
            tiles[cell.name] = "" if not t else (kinds[t] if t.isupper() else "back")
        for i, cell in enumerate(board.layouts):
            tiles[cell.name] = p["layouts"][i] if i < len(p["layouts"]) else ""
    for i, cell in enumerate(layout.layout_display):
        tiles[cell.name] = view["layout_display"][i] if i < len(view["layout_display"]) else ""
    return dice, tiles


def score_board(seed: int, tilt: float, noise: bool = True, values: DieValueModel | None = None,
                dice_set: DiceSet = GAME_DICE) -> BoardScore:
    """Render one random board at `tilt` degrees (light, blur and noise when `noise`), its dice drawn
    as `dice_set`, and score the reading (with the die value classifier `values` too, as read_cells
    takes it)."""
    rng = np.random.default_rng([seed, int(tilt)])
    view = random_contents(rng)
    img = render_view(view, SEATS, camera(tilt, rng), rng, dice_set=dice_set)
    if noise:
        img = camera_effects(img, rng)
    read = read_cells(img, values=values)
    dice, tiles = truth_cells(view)
    out = BoardScore()
    for name, want in dice.items():
        got = read.dice[name]
        right = (got.present, (got.colour, got.value) if got.present else None) == (want is not None, want)
        out.cells += 1
        out.cells_right += right
        fits = (want is not None and got.present and got.colour in (None, want[0])
                and got.value in (None, want[1]))
        if want is not None:
            out.dice += 1
            out.dice_right += right
            value_right = fits and got.value == want[1]
            out.by_colour.setdefault(want[0], Tally()).add(value_right if got.value is not None else None)
        if not right:
            if fits:
                out.part_unsure += 1
                kind = "part unsure"
            elif got.present:
                out.misread += 1
                out.empty_read += want is None
                kind = "misread"
            else:
                out.missed += 1
                kind = "unread"
            out.errors.append(f"{kind}: seed {seed} tilt {tilt}: {name} {want} read {got}")
    for name, want in tiles.items():
        got = read.tiles[name] if name in read.tiles else read.layouts[name]
        out.cells += 1
        out.cells_right += got == want
        if got != want:
            out.errors.append(f"seed {seed} tilt {tilt}: {name} {want!r} read {got!r}")
    return out


def camera_effects(img: np.ndarray, rng: np.random.Generator, blur: tuple[float, float] = (0.5, 1.3),
                   noise: tuple[float, float] = (2.0, 6.0)) -> np.ndarray:
    """A webcam's picture: uneven warm or cold light, slight defocus (sigma px), sensor noise (sigma levels)."""
    img = cv2.GaussianBlur(_light(img, rng), (0, 0), rng.uniform(*blur))
    return np.clip(img.astype(np.float32) + rng.normal(0, rng.uniform(*noise), img.shape), 0, 255).astype(np.uint8)


def _light(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Warm or cold light, brighter or dimmer, falling off across the table."""
    h, w = img.shape[:2]
    cast = rng.uniform(0.85, 1.12, 3).astype(np.float32)
    gain = rng.uniform(0.75, 1.1)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    ang = rng.uniform(0, 2 * np.pi)
    ramp = 1.0 + 0.15 * ((xx / w - 0.5) * np.cos(ang) + (yy / h - 0.5) * np.sin(ang))
    return np.clip(img.astype(np.float32) * cast * gain * ramp[..., None], 0, 255).astype(np.uint8)


def board_accuracy(seeds: range | list[int], tilts: tuple[float, ...] = (0, 30, 45), noise: bool = True,
                   values: DieValueModel | None = None, dice_set: DiceSet = GAME_DICE) -> dict[float, BoardScore]:
    """Scores per tilt over the seeds."""
    out = {}
    for tilt in tilts:
        total = BoardScore()
        for seed in seeds:
            total.add(score_board(seed, tilt, noise, values, dice_set))
        out[tilt] = total
    return out


def main() -> None:
    import argparse

    ap = argparse.ArgumentParser(description="read rendered Diceline mats back and score them cell by cell "
                                             "(python -m vision.games.diceline.accuracy)")
    ap.add_argument("--seeds", type=int, nargs=2, default=[0, 20], metavar=("FIRST", "STOP"))
    ap.add_argument("--tilts", type=float, nargs="+", default=[0, 30, 45])
    ap.add_argument("--ivory", action="store_true", help="grey dice ivory with dark pips, every pip dark")
    ap.add_argument("--cells-only", action="store_true", help="the cell reader alone (no die value classifier)")
    a = ap.parse_args()
    values = None if a.cells_only else load_value_model()
    res = board_accuracy(range(*a.seeds), tuple(a.tilts), values=values,
                         dice_set=IVORY_DICE if a.ivory else GAME_DICE)
    total = BoardScore()
    for tilt, sc in res.items():
        total.add(sc)
        print(f"tilt {tilt:g}: {_line(sc)}")
    print(f"all: {_line(total)}")
    print("per colour, a value read right with its colour right or unsure:")
    for c, t in sorted(total.by_colour.items()):
        print(f"  {c}: {t}")
    for e in total.errors:
        if e.startswith("misread"):
            print(" ", e)


def _line(sc: BoardScore) -> str:
    return (f"dice {sc.dice_right}/{sc.dice} right, {sc.part_unsure} right but part unsure, {sc.misread} misread "
            f"({sc.empty_read} in empty cells), {sc.missed} unread")


if __name__ == "__main__":
    main()
