"""Pictures for the model card and the README: the reader on a real photo, a page of its
worst mistakes (wrong sure answers first) on the hold-out render style and the real valid split,
and precision-recall per value class on both.

    python -m vision.training.reader_pictures     # needs the train extra (matplotlib)
    # writes docs/real_photo_reading.png, docs/reader_mistakes.png, docs/reader_precision_recall.png
"""
from __future__ import annotations

from pathlib import Path

import cv2
import matplotlib
import numpy as np

matplotlib.use("Agg")  # files only: no screen here
import matplotlib.pyplot as plt  # noqa: E402  (after the backend is chosen)

from vision.detector import annotate, load_detector, read_dice, read_image
from vision.synth.holdout_dice import render_holdout
from vision.training import real_dice
from vision.training.reader_eval import ReaderTally, eval_holdout, eval_real

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


def pr_curve(tally: ReaderTally, value: int) -> tuple[list[float], list[float]]:
    """(recall, precision) as the classifier's threshold for `value` falls, over the answers it
    gave that value (a box on no labelled die counts as a false answer)."""
    hits = sorted(((p, t == value) for v, p, t in tally.scored if v == value), key=lambda x: -x[0])
    total = max(1, tally.per_value.get(value, 0))
    recall, precision, tp = [], [], 0
    for k, (_, ok) in enumerate(hits, 1):
        tp += ok
        recall.append(tp / total)
        precision.append(tp / k)
    return recall, precision


def operating_point(tally: ReaderTally, value: int) -> tuple[float, float]:
    """(recall, precision) of the reader's sure answers for `value` (classifier and pip counter)."""
    right = tally.value_confusion.get(value, {}).get(value, 0)
    said = sum(row.get(value, 0) for row in tally.value_confusion.values())
    return right / max(1, tally.per_value.get(value, 0)), right / max(1, said)


def precision_recall_page(tallies: dict[str, ReaderTally]) -> Path:
    """One panel per test bed: a curve per value class (the classifier alone) and a dot where
    the reader answers (after the pip counter's check)."""
    fig, axes = plt.subplots(1, len(tallies), figsize=(6 * len(tallies), 5), squeeze=False)
    for ax, (title, tally) in zip(axes[0], tallies.items()):
        for value in range(1, 7):
            r, p = pr_curve(tally, value)
            line, = ax.plot(r, p, label=f"{value}", linewidth=1.5)
            orr, op = operating_point(tally, value)
            ax.plot([orr], [op], "o", color=line.get_color())
        ax.set(title=title, xlabel="recall (labelled dice of that value)", ylabel="precision",
               xlim=(0, 1.02), ylim=(0.5, 1.01))
        ax.grid(alpha=0.3)
        ax.legend(title="value", loc="lower left")
    fig.suptitle("Die values: the classifier's precision-recall per class; dots: the reader's sure answers")
    fig.tight_layout()
    out = DOCS / "reader_precision_recall.png"
    fig.savefig(out, dpi=90)
    plt.close(fig)
    return out


def mistakes_page(count: int = 60, per_row: int = 10) -> Path:
    det = load_detector()
    tiles = []
    real = eval_real(real_dice.REAL_DICE_DIR, "valid", det)
    for name, box, what, _ in real.mistakes:
        tiles.append(_tile(read_image(real_dice.REAL_DICE_DIR / "images" / name), box, "real: " + what))
    seed = 77
    holdout = eval_holdout(seed, 200, det)
    print(precision_recall_page({"real webcam dice, valid split": real, "hold-out render style (200 images)": holdout}))
    for name, box, what, _ in holdout.mistakes:
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
