"""The hands-free readers on real photos: the Diceline die reader and count_pips on real webcam dice.

The only real labelled photos we have (datasets/real-dice-webcam, see its README) show ivory
dice with black pips on a light wood desk, seen obliquely from the bottom of the frame. Each label
box encloses the top face's pips. Every labelled die is cut out as the Diceline reader would see it
in a cell (a WINDOW-mm window at PPM pixels per mm, the die's top face near the middle) and read by
`read_die`; the same window's top-face square goes to `count_pips`, as the detector's box would.

The Diceline reader was built for red/green/grey dice with white pips on white paper: an ivory die
brighter than the desk is not "body" to it at all. So it is run twice: as built, and through a
window adapter (grey, inverted, balanced by the desk around the die) that turns an ivory die with
black pips into a grey die with light pips, the kind it knows. Only the window changes.
"""
from __future__ import annotations

import csv
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from vision.detector.pips import count_pips
from vision.games.diceline.cells import PPM, WINDOW, read_die
from vision.games.diceline.spec import DIE
from vision.tally import Tally
from vision.training.real_dice import REAL_DICE_DIR, read_labels

# A label box's longest side relative to a 4's on the same die size, measured over the photos that
# hold a 4 or 5: a 1's box hugs its single pip, a 6's pips spread wider; 2-5 span the same corners.
BOX_REL = {1: 0.36, 2: 1.0, 3: 1.0, 4: 1.0, 5: 1.0, 6: 1.15}
# The top face's side over a 4's pip box, as the window maps it to DIE mm. Chosen on the author's
# train split (`sweep`): 1.1 reads most with the fewest wrong (0.4%) through the adapter; the real faces
# are ~1.45 boxes, so the face comes out ~30% larger than DIE and the reader's face square lies inside it.
FACE_PER_BOX = 1.1
TRUE_FACE_PER_BOX = 1.45  # the face's real side over a 4's box (looked at on the photos): count_pips' crop
TOWARD_CAMERA = np.array([0.0, 1.0])  # the webcam looks from the bottom of the frame: side faces show below
RIM = 6  # px of the window's edge that is desk, not die: the adapter's "paper"
MODES = ("as built", "adapted")
OUTCOMES = ("right", "wrong", "unsure")


@dataclass(frozen=True)
class Die:
    """One labelled die: its photo, value, and pip box in pixels (centre x, y, width, height)."""

    image: str
    split: str
    value: int
    box: tuple[float, float, float, float]


@dataclass
class ValueTally:
    """Right / wrong / unsure reads per true value."""

    counts: dict[int, Tally] = field(default_factory=lambda: {v: Tally() for v in range(1, 7)})

    def add(self, value: int, got: int | None) -> None:
        """Count one read of a die whose true value is `value` (None: the reader said nothing)."""
        self.counts[value].add(None if got is None else got == value)

    def total(self) -> Tally:
        """The counts over all values."""
        return sum(self.counts.values(), Tally())


@dataclass
class Report:
    """Tallies keyed by (reader, split): reader is 'read_die as built', 'read_die adapted' or 'count_pips'."""

    tallies: dict[tuple[str, str], ValueTally] = field(default_factory=dict)

    def tally(self, reader: str, split: str) -> ValueTally:
        """The tally for one reader on one split ('valid' or 'all'), made on first use."""
        return self.tallies.setdefault((reader, split), ValueTally())


def load_dice(root: Path = REAL_DICE_DIR, split: str | None = None) -> dict[str, list[Die]]:
    """Every labelled die by photo name, optionally only the author's `split` ('train' or 'valid')."""
    if not (root / "split.csv").exists():
        raise FileNotFoundError(f"real-dice-webcam dataset not found at {root}")
    out: dict[str, list[Die]] = {}
    with open(root / "split.csv", newline="") as fh:
        for row in csv.DictReader(fh):
            if split is not None and row["split"] != split:
                continue
            name = row["filename"]
            labels = read_labels(root, name, float(row["width"]), float(row["height"]))
            out[name] = [Die(name, row["split"], lb.value, _centre_size(lb.box)) for lb in labels]
    return out


def _centre_size(box: tuple[float, float, float, float]) -> tuple[float, float, float, float]:
    x1, y1, x2, y2 = box
    return (x1 + x2) / 2, (y1 + y2) / 2, x2 - x1, y2 - y1


def box_unit(dice: list[Die]) -> float:
    """A 4's pip-box side for this photo's dice, in px: the stand-in for the mat calibration's die size.

    Dice on one desk in one photo are about one size; the median over them tames a thin diagonal 2's box.
    The labels' values set the size only (as the mat geometry would), never what the window shows."""
    return float(np.median([max(d.box[2], d.box[3]) / BOX_REL[d.value] for d in dice]))


def die_window(frame: np.ndarray, die: Die, unit: float, face_per_box: float = FACE_PER_BOX) -> np.ndarray:
    """The WINDOW-mm window around the die's pip-box centre, scaled so its top face is DIE mm at PPM."""
    n = round(WINDOW * PPM)
    px_per_mm = face_per_box * unit / DIE
    half = WINDOW * px_per_mm / 2
    x, y = die.box[0], die.box[1]
    src = np.float32([[x - half, y - half], [x + half, y - half], [x - half, y + half]])
    dst = np.float32([[0, 0], [n, 0], [0, n]])
    m = cv2.getAffineTransform(src, dst)
    # Shrinking: INTER_AREA keeps the pips as blobs rather than aliasing them away.
    interp = cv2.INTER_AREA if 2 * half > n else cv2.INTER_LINEAR
    return cv2.warpAffine(frame, m, (n, n), flags=interp, borderMode=cv2.BORDER_REPLICATE)


def adapt_window(window: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(window, paper): an ivory die with black pips made a grey die with light pips, balanced by the desk.

    Grey: ivory is no colour the reader knows, and colour is not what is measured here. Inverted:
    the reader finds dark-bodied faces and matches light pips. The desk at the rim plays the paper."""
    g = 255 - cv2.cvtColor(window, cv2.COLOR_BGR2GRAY)
    out = cv2.cvtColor(g, cv2.COLOR_GRAY2BGR)
    rim = np.concatenate([out[:RIM].reshape(-1, 3), out[-RIM:].reshape(-1, 3),
                          out[:, :RIM].reshape(-1, 3), out[:, -RIM:].reshape(-1, 3)])
    return out, np.median(rim, 0).astype(np.float32) + 1.0  # +1: normalise() adds 1 to the window too


def face_crop(window: np.ndarray, face_per_box: float = FACE_PER_BOX) -> np.ndarray:
    """The window's middle square the size of the die's real top face: what a detector box would give count_pips."""
    c = window.shape[0] / 2
    r = DIE * PPM * TRUE_FACE_PER_BOX / face_per_box / 2
    a, b = round(c - r), round(c + r)
    return window[max(0, a):b, max(0, a):b]


def read_value(window: np.ndarray, adapted: bool) -> int | None:
    """read_die's value for the die in the window (None: absent or unsure), as built or through the adapter."""
    if adapted:
        w, paper = adapt_window(window)
        got = read_die(w, TOWARD_CAMERA, paper)
    else:
        got = read_die(window, TOWARD_CAMERA)
    return got.value if got.present else None


def evaluate(photos: dict[str, list[Die]], root: Path = REAL_DICE_DIR, face_per_box: float = FACE_PER_BOX) -> Report:
    """read_die (as built, adapted) and count_pips on every die of `photos`, tallied on 'valid' and 'all'."""
    report = Report()
    for name, dice in photos.items():
        if not dice:
            continue
        frame = cv2.imread(str(root / "images" / name))
        unit = box_unit(dice)
        for die in dice:
            window = die_window(frame, die, unit, face_per_box)
            got = {"read_die as built": read_value(window, False), "read_die adapted": read_value(window, True),
                   "count_pips": count_pips(face_crop(window, face_per_box))}
            splits = ("valid", "all") if die.split == "valid" else ("all",)
            for reader, value in got.items():
                for split in splits:
                    report.tally(reader, split).add(die.value, value)
    return report


def sweep(scales: tuple[float, ...] = (1.0, 1.05, 1.1, 1.15, 1.2, 1.3, 1.45, 1.6)) -> dict[float, Tally]:
    """The adapted reader's totals on the train split at each face-per-box scale: how FACE_PER_BOX was chosen."""
    train = load_dice(split="train")
    return {s: evaluate(train, face_per_box=s).tally("read_die adapted", "all").total() for s in scales}


def format_report(report: Report) -> str:
    """A small table: reader, split, then right/wrong/unsure per value and in total."""
    head = f"{'reader':<18} {'split':<5} " + " ".join(f"{v:>11}" for v in range(1, 7)) + "   total r/w/u"
    rows = [head, "-" * len(head)]
    for (reader, split), t in sorted(report.tallies.items(), key=lambda kv: (kv[0][1] != "valid", kv[0][0])):
        cells = " ".join(f"{c.right:>3}/{c.wrong:>3}/{c.unsure:>3}" for c in t.counts.values())
        tot = t.total()
        n = tot.total
        rows.append(f"{reader:<18} {split:<5} {cells}   {tot.right}/{tot.wrong}/{tot.unsure} of {n}"
                    f" ({100 * tot.right / n:.0f}% right, {100 * tot.wrong / n:.1f}% wrong)")
    return "\n".join(rows)


def main() -> None:
    """Print the table for every labelled die (valid split and all)."""
    print(f"real-dice-webcam: window {WINDOW:.0f} mm at {PPM:.0f} px/mm, face = {FACE_PER_BOX} x a 4's pip box;"
          " cells are right/wrong/unsure per true value")
    print(format_report(evaluate(load_dice())))


if __name__ == "__main__":
    main()
