"""Pictures for the model card and the README: the reader on a real photo, and a page of its
worst mistakes (wrong sure answers first) on the hold-out render style and the real valid split.

    python -m vision.training.reader_pictures   # writes docs/real_photo_reading.png, docs/reader_mistakes.png
"""
from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from vision.detector import annotate, load_detector, read_dice, read_image
from vision.synth.holdout_dice import render_holdout
from vision.training import real_dice
from vision.training.reader_eval import eval_holdout, eval_real

DOCS = Path(__file__).resolve().parents[2] / "docs"


def real_photo(name: str = "real_valid_45.jpg") -> Path:
    """One real valid photo as the camera reads it (values, colours, '?' where unsure)."""
    root = Path(__file__).resolve().parents[2] / "datasets" / "samples"
    frame = read_image(root / name)
    out = DOCS / "real_photo_reading.png"
    cv2.imwrite(str(out), annotate(frame, read_dice(frame, load_detector())))
    return out


def _tile(frame: np.ndarray, box, text: str, size: int = 120) -> np.ndarray:
    x1, y1, x2, y2 = box
    cx, cy, side = (x1 + x2) / 2, (y1 + y2) / 2, max(x2 - x1, y2 - y1) * 1.6
    m = np.array([[size / side, 0, size / 2 - cx * size / side], [0, size / side, size / 2 - cy * size / side]], np.float32)
    t = cv2.warpAffine(frame, m, (size, size), borderMode=cv2.BORDER_CONSTANT)
    t = cv2.copyMakeBorder(t, 0, 18, 0, 0, cv2.BORDER_CONSTANT, value=(255, 255, 255))
    cv2.putText(t, text[:20], (2, size + 13), cv2.FONT_HERSHEY_SIMPLEX, 0.38, (0, 0, 160), 1, cv2.LINE_AA)
    return t


def mistakes_page(count: int = 60, per_row: int = 10) -> Path:
    det = load_detector()
    tiles = []
    for name, box, what, _ in eval_real(real_dice.REAL_DICE_DIR, "valid", det).mistakes:
        tiles.append(_tile(read_image(real_dice.REAL_DICE_DIR / "images" / name), box, "real: " + what))
    seed = 77
    for name, box, what, _ in eval_holdout(seed, 200, det).mistakes:
        idx = int(name.rsplit("_", 1)[1])
        tiles.append(_tile(render_holdout(seed, idx).image, box, what))
    tiles = tiles[:count] or [np.full((138, 120, 3), 255, np.uint8)]
    while len(tiles) % per_row:
        tiles.append(np.full_like(tiles[0], 255))
    rows = [np.concatenate(tiles[i:i + per_row], 1) for i in range(0, len(tiles), per_row)]
    out = DOCS / "reader_mistakes.png"
    cv2.imwrite(str(out), np.concatenate(rows, 0))
    return out


if __name__ == "__main__":
    print(real_photo())
    print(mistakes_page())
