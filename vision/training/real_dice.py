"""Reading the real-dice-webcam set and converting its pip boxes to our top-face convention."""
from __future__ import annotations

import csv
from dataclasses import dataclass
from pathlib import Path

REAL_DICE_DIR = Path(__file__).resolve().parents[2] / "datasets" / "real-dice-webcam"

# Its boxes enclose the pips, ours the whole top face. Factor = face side / pip-box long side,
# estimated from the set's median box sizes per value (a "1" box is about one pip wide,
# a "6" box about 0.8 of the face); centres are kept, which is what scoring uses.
PIP_TO_FACE = {1: 2.6, 2: 1.55, 3: 1.4, 4: 1.35, 5: 1.35, 6: 1.2}


@dataclass
class RealLabel:
    """One labelled die: value and pip box in pixels (x1, y1, x2, y2)."""

    value: int
    box: tuple[float, float, float, float]


def split_names(root: Path, split: str) -> list[str]:
    with open(root / "split.csv", newline="") as f:
        return [r["filename"] for r in csv.DictReader(f) if r["split"] == split]


def read_labels(root: Path, name: str, w: int = 640, h: int = 480) -> list[RealLabel]:
    out = []
    p = root / "labels" / (Path(name).stem + ".txt")
    for line in p.read_text().split("\n"):
        if not line.strip():
            continue
        v, cx, cy, bw, bh = (float(t) for t in line.split())
        out.append(RealLabel(int(v), ((cx - bw / 2) * w, (cy - bh / 2) * h, (cx + bw / 2) * w, (cy + bh / 2) * h)))
    return out


def face_box(lb: RealLabel, w: int, h: int) -> tuple[float, float, float, float]:
    """The top-face box we train on, grown from the pip box around the same centre."""
    x1, y1, x2, y2 = lb.box
    cx, cy = (x1 + x2) / 2, (y1 + y2) / 2
    long = max(x2 - x1, y2 - y1)
    # Some "1" boxes already span the face; the set's dice faces are 40-80 px at 640x480.
    side = min(long * PIP_TO_FACE[lb.value], max(80 * w / 640, long * 1.05))
    s = max(side, 40 * w / 640, long) / 2
    return max(0.0, cx - s), max(0.0, cy - s), min(float(w), cx + s), min(float(h), cy + s)
