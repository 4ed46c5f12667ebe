"""A YOLO dataset of Quarx cards warped top-down, one class: a sphere's visible part.

The sphere counter that cuts blobs by contrast and calls each one (vision/games/quarx/blobs.py,
the sphere classifier) is capped by its cuts: with every blob called by its true label it counts
123 of 240 randomised validation cards (models/MODEL_CARD.md), since a sphere as pale as the
paper, or one touching its shadow or another shape, is never one blob. A detector trained on the
same domain-randomised cards (`vision.synth.quarx_shapes`: every material, decoy, paper, shadow
and camera) looks for spheres themselves. Each sphere is boxed by the part of it that shows
(`PlacedShape.mask`, less what later shapes cover); eggs, discs, cylinders, tori, bubbles and
the rest are left unlabelled, so they are what the detector learns not to box. A quarter of the
cards are in our footage's look (`sphere_classifier.training_card`), as for the classifier.

    python -m vision.training.sphere_cards --out datasets/generated/sphere_cards --count 2000
"""
from __future__ import annotations

import argparse
from pathlib import Path

import cv2
import numpy as np

from vision.detector.geometry import pixel_box
from vision.synth.quarx_shapes import CARD_H, CARD_W, SPHERE, PlacedShape
from vision.training.sphere_classifier import training_card
from vision.yolo_labels import yolo_line

ROOT = Path(__file__).resolve().parents[2]
DEFAULT_OUT = ROOT / "datasets" / "generated" / "sphere_cards"
MIN_VISIBLE = 12  # px of a sphere that must show for it to be labelled (less is a sliver, not countable)
FOOTAGE_SHARE = 0.25


def sphere_boxes(shapes: list[PlacedShape]) -> list[tuple[float, float, float, float]]:
    """(x1, y1, x2, y2) of each sphere's visible part, in card pixels (edges inclusive + 1)."""
    out = []
    for s in shapes:
        if s.kind != SPHERE or int(s.mask.sum()) < MIN_VISIBLE:
            continue
        out.append(pixel_box(s.mask))
    return out


def yolo_lines(boxes: list[tuple[float, float, float, float]]) -> list[str]:
    """One `0 cx cy w h` line per box, normalised to the card."""
    return [yolo_line(0, b, CARD_W, CARD_H) for b in boxes]


def render_card(seed: int, index: int) -> tuple[np.ndarray, list[PlacedShape]]:
    """Card `index` of `seed` (deterministic): the picture and its shapes."""
    return training_card(np.random.default_rng([seed, index]), FOOTAGE_SHARE)


def build(out: Path = DEFAULT_OUT, seed: int = 7, count: int = 2000, val_count: int = 200) -> Path:
    """Write images/{train,val} and labels/{train,val} and a data.yaml; returns the yaml's path.
    The validation cards are drawn from seed + 1000, so no card is in both."""
    for split, s, n in (("train", seed, count), ("val", seed + 1000, val_count)):
        (out / "images" / split).mkdir(parents=True, exist_ok=True)
        (out / "labels" / split).mkdir(parents=True, exist_ok=True)
        for i in range(n):
            image, shapes = render_card(s, i)
            name = f"card_{s}_{i:05d}"
            cv2.imwrite(str(out / "images" / split / f"{name}.png"), image)
            (out / "labels" / split / f"{name}.txt").write_text("\n".join(yolo_lines(sphere_boxes(shapes))) + "\n")
    p = out / "data.yaml"
    p.write_text(f"path: {out.resolve()}\ntrain: images/train\nval: images/val\nnames:\n  0: sphere\n")
    return p


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description="build the sphere-card YOLO dataset (python -m vision.training.sphere_cards)")
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--count", type=int, default=2000)
    ap.add_argument("--val-count", type=int, default=200)
    a = ap.parse_args(argv)
    print(build(a.out, a.seed, a.count, a.val_count))


if __name__ == "__main__":
    main()
