"""A YOLO dataset of table scenes with no card (vision.synth.table_scenes), one class: a sphere's
visible part.

Where no Quarx card is found whole, the photo's spheres are counted by a detector that looks for
spheres standing on the table (vision.games.quarx.scene_spheres). It is trained here, on scenes
of the training renderer only; the ray-marched look of `vision.synth.holdout_scenes` is kept for
testing it.

    python -m vision.training.sphere_scenes --out datasets/generated/sphere_scenes --count 1200
    python -m vision.training.sphere_scenes --validate models/scene_spheres.onnx   # the count rule's cuts
"""
from __future__ import annotations

import argparse
import itertools
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import cv2
import numpy as np

from vision.games.quarx.photo import MIN_SCENE_SPHERES
from vision.games.quarx.scene_spheres import SceneSpheres, count_from_scores
from vision.synth.table_scenes import LOOKS, render_table_scene
from vision.yolo_labels import yolo_line

ROOT = Path(__file__).resolve().parents[2]
DEFAULT_OUT = ROOT / "datasets" / "generated" / "sphere_scenes"


def _write(job: tuple[Path, str, int, int, tuple[int, int] | None, int]) -> None:
    out, split, seed, i, size, look = job
    scene = render_table_scene(seed, i, size, look)
    h, w = scene.image.shape[:2]
    name = f"scene_{seed}_{i:05d}"
    cv2.imwrite(str(out / "images" / split / f"{name}.jpg"), scene.image, [cv2.IMWRITE_JPEG_QUALITY, 95])
    (out / "labels" / split / f"{name}.txt").write_text("\n".join(yolo_line(0, b, w, h) for b in scene.sphere_boxes()) + "\n")


def build(out: Path = DEFAULT_OUT, seed: int = 11, count: int = 1200, val_count: int = 150, workers: int = 1,
          size: tuple[int, int] | None = None, look: int = 4) -> Path:
    """Write images/{train,val}, labels/{train,val} and a data.yaml; returns the yaml's path.
    Validation scenes come from seed + 1000, so no scene is in both. `size` (w, h): every
    picture that size (default: the renderer's own mix of sizes); `look`: the renderer's look."""
    jobs = []
    for split, s, n in (("train", seed, count), ("val", seed + 1000, val_count)):
        (out / "images" / split).mkdir(parents=True, exist_ok=True)
        (out / "labels" / split).mkdir(parents=True, exist_ok=True)
        jobs += [(out, split, s, i, size, look) for i in range(n)]
    if workers > 1:
        with ProcessPoolExecutor(workers) as pool:
            list(pool.map(_write, jobs, chunksize=8))
    else:
        for job in jobs:
            _write(job)
    p = out / "data.yaml"
    p.write_text(f"path: {out.resolve()}\ntrain: images/train\nval: images/val\nnames:\n  0: sphere\n")
    return p


def validate(model: SceneSpheres, seed: int = 1011, count: int = 300, look: int = 4,
             sures: tuple[float, ...] = (0.5, 0.6, 0.7, 0.8, 0.9),
             maybes: tuple[float, ...] = (0.05, 0.1, 0.2, 0.3, 0.4),
             certains: tuple[float, ...] = (1.0, 0.95, 0.9, 0.85, 0.8)) -> list[dict]:
    """The count rule at each set of cuts on validation scenes of the training renderer: exact,
    unsure and wrong pictures. The cuts are chosen here, never on the test look."""
    scenes = [render_table_scene(seed, i, look=look) for i in range(count)]
    truth = [len(sc.sphere_boxes()) for sc in scenes]
    # A picture whose spheres are not all labelled (one mostly hidden) has no one right count.
    clear = [sc.spheres == t for sc, t in zip(scenes, truth)]
    scores = [np.array([d.score for d in model.boxes(sc.image, min(maybes))], np.float32) for sc in scenes]
    return rule_table([(s, t) for s, t, c in zip(scores, truth, clear) if c], sures, maybes, certains)


def rule_table(pictures: list[tuple[np.ndarray, int]], sures: tuple[float, ...], maybes: tuple[float, ...],
               certains: tuple[float, ...]) -> list[dict]:
    """Per set of cuts, how many of the pictures (box scores, spheres drawn) the rule reads exact,
    unsure and wrong, answering as `tablesight quarx` does: a count of none is unsure there too."""
    rows = []
    for sure, maybe, certain in itertools.product(sures, maybes, certains):
        got = [count_from_scores(s, sure, maybe, certain) for s, _ in pictures]
        got = [None if n is not None and n < MIN_SCENE_SPHERES else n for n in got]
        pairs = [(g, t) for g, (_, t) in zip(got, pictures)]
        rows.append({"sure": sure, "maybe": maybe, "certain": certain, "pictures": len(pairs),
                     "exact": sum(g == t for g, t in pairs), "unsure": sum(g is None for g, _ in pairs),
                     "wrong": sum(g is not None and g != t for g, t in pairs)})
    return rows


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description="build the sphere-scene YOLO dataset (python -m vision.training.sphere_scenes)")
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT)
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--count", type=int, default=1200)
    ap.add_argument("--val-count", type=int, default=150)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--look", type=int, choices=LOOKS, default=4, help="the renderer's look (3: as of v3 and v4)")
    ap.add_argument("--validate", type=Path, metavar="ONNX", help="score the count rule's cuts with this model instead")
    a = ap.parse_args(argv)
    if a.validate:
        for row in validate(SceneSpheres(a.validate), look=a.look):
            print(row)
        return
    print(build(a.out, a.seed, a.count, a.val_count, a.workers, look=a.look))


if __name__ == "__main__":
    main()
