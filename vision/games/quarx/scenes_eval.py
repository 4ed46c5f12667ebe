"""`tablesight quarx` on the ray-marched scenes with no card (vision.synth.holdout_scenes), which
no model or threshold was fitted on; or, with `--style mesh`, on the choosing bed of
vision.synth.mesh_scenes (cuts are chosen there, so its figures are not a test).

    python -m vision.games.quarx.scenes_eval --count 200 [--out models/eval/quarx_scenes.json]
    python -m vision.games.quarx.scenes_eval --style mesh --count 300

Per picture: the answer exact, unsure or wrong, how often it answered 0, and "always 1" as the
floor any counter must beat; by how many spheres the picture holds, the same.
"""
from __future__ import annotations

import argparse
import json
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from vision.games.quarx.photo import count_quarx
from vision.games.quarx.scene_judge import SPHERE
from vision.games.quarx.scene_spheres import load_scene_spheres
from vision.synth import holdout_scenes, mesh_scenes

SEED = 91
# Each style's renderer and the seed its figures are read on.
STYLES = {"test": (holdout_scenes.render_scene, SEED), "mesh": (mesh_scenes.render_scene, mesh_scenes.CHOOSING_SEED)}


OUTCOMES = ("exact", "unsure", "wrong")


@dataclass
class SceneTally:
    """Per picture, the answer against the drawn spheres; the totals are sums over `by_spheres`."""

    answered_zero: int = 0
    always_one_exact: int = 0
    wrong_by: list[int] = field(default_factory=list)  # answer minus truth, per wrong answer
    by_spheres: dict[int, list[int]] = field(default_factory=lambda: defaultdict(lambda: [0, 0, 0]))  # OUTCOMES

    def add(self, truth: int, answer: int | None) -> None:
        self.always_one_exact += truth == 1
        self.answered_zero += answer == 0
        k = 0 if answer == truth else 1 if answer is None else 2
        self.by_spheres[truth][k] += 1
        if k == 2:
            self.wrong_by.append(answer - truth)

    def _total(self, outcome: str) -> int:
        k = OUTCOMES.index(outcome)
        return sum(v[k] for v in self.by_spheres.values())

    @property
    def pictures(self) -> int:
        return sum(map(sum, self.by_spheres.values()))

    @property
    def exact(self) -> int:
        return self._total("exact")

    @property
    def unsure(self) -> int:
        return self._total("unsure")

    @property
    def wrong(self) -> int:
        return self._total("wrong")

    def as_dict(self) -> dict:
        n = max(1, self.pictures)
        return {"pictures": self.pictures, "exact": self.exact, "unsure": self.unsure, "wrong": self.wrong,
                "answered_zero": self.answered_zero, "always_one_exact": self.always_one_exact,
                "wrong_by": self.wrong_by,
                "by_spheres": {str(k): dict(zip(OUTCOMES, v)) for k, v in sorted(self.by_spheres.items())},
                "exact_rate": round(self.exact / n, 4), "wrong_rate": round(self.wrong / n, 4),
                "always_one_rate": round(self.always_one_exact / n, 4)}


def kept_picture(stem: Path | None, draw: Callable[[], tuple[np.ndarray, int] | None]
                 ) -> tuple[np.ndarray, int] | None:
    """draw()'s picture and its one right count (None: the picture has none), drawn once into
    `stem`.png (lossless) and `stem`.json and read from there after (drawing takes seconds);
    drawn every time where `stem` is None."""
    if stem is None:
        return draw()
    png, truth = stem.with_suffix(".png"), stem.with_suffix(".json")
    if not truth.is_file():  # written after the picture: a count on disk has its picture
        pic = draw()
        stem.parent.mkdir(parents=True, exist_ok=True)
        if pic is not None:
            cv2.imwrite(str(png), pic[0])
        truth.write_text(json.dumps({"spheres": -1 if pic is None else pic[1]}))
    spheres = int(json.loads(truth.read_text())["spheres"])
    return None if spheres < 0 else (cv2.imread(str(png)), spheres)


def scene_picture(seed: int, idx: int, cache: Path | None = None, style: str = "test") -> tuple[np.ndarray, int]:
    """The picture and its spheres, from `cache` when it was drawn before."""
    render_scene = STYLES[style][0]

    def draw() -> tuple[np.ndarray, int]:
        scene = render_scene(seed, idx)
        return scene.image, scene.spheres

    stem = f"scene_{seed}_{idx:04d}" if style == "test" else f"{style}_{seed}_{idx:04d}"
    return kept_picture(None if cache is None else cache / stem, draw)


def evaluate(seed: int = SEED, count: int = 200, cache: Path | None = None, style: str = "test") -> SceneTally:
    t = SceneTally()
    for idx in range(count):
        image, spheres = scene_picture(seed, idx, cache, style)
        got = count_quarx(image)
        t.add(spheres, got.spheres if got.sure else None)
    return t


def reading_picture(seed: int, indices: list[int], cache: Path | None = None, height: int = 360,
                    style: str = "test") -> np.ndarray:
    """The scene detector's boxes on chosen pictures side by side, each scored: green where the
    box counts as a sphere, orange where it makes the count unsure, grey where it counts as none
    (with a judge installed, the judge's "one sphere" chance after the detector's score); above
    each, the answer against the drawn spheres."""
    model = load_scene_spheres()
    if model is None:
        raise FileNotFoundError("no scene sphere model is installed")
    colours = {True: (60, 200, 60), None: (0, 140, 255), False: (150, 150, 150)}
    panels = []
    for idx in indices:
        image, spheres = scene_picture(seed, idx, cache, style)
        got = count_quarx(image)
        k = height / image.shape[0]
        panel = cv2.resize(image, None, fx=k, fy=k, interpolation=cv2.INTER_AREA)
        found, probs, verdicts = model.judged(image)
        for i, (d, v) in enumerate(zip(found, verdicts)):
            x1, y1, x2, y2 = (int(round(c * k)) for c in d.box)
            cv2.rectangle(panel, (x1, y1), (x2, y2), colours[v], 2)
            # cut, not rounded: a box of 0.899 is under a SURE of 0.9 and must not read "0.90"
            text = f"{int(d.score * 100) / 100:.2f}"
            if probs is not None:
                text += f" / {int(probs[i][SPHERE] * 100) / 100:.2f}"
            cv2.putText(panel, text, (x1, max(12, y1 - 4)), cv2.FONT_HERSHEY_SIMPLEX, 0.45, colours[v], 1, cv2.LINE_AA)
        said = f"counted {got.spheres}" if got.sure else "unsure"
        head = np.full((28, panel.shape[1], 3), 255, np.uint8)
        cv2.putText(head, f"{said}; drawn: {spheres}", (6, 20), cv2.FONT_HERSHEY_SIMPLEX, 0.6, (0, 0, 0), 1, cv2.LINE_AA)
        panels.append(np.vstack([head, panel]))
    return np.hstack(panels)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--style", choices=sorted(STYLES), default="test",
                    help="test: the ray-marched test look; mesh: the choosing bed")
    ap.add_argument("--seed", type=int, help="default: the style's own")
    ap.add_argument("--count", type=int, default=200)
    ap.add_argument("--out", type=Path)
    ap.add_argument("--cache", type=Path, help="keep the drawn pictures here (PNG, lossless) for the next run")
    ap.add_argument("--picture", type=Path, help="draw the detector's boxes on the pictures --show names, to this PNG")
    ap.add_argument("--show", type=lambda v: [int(i) for i in v.split(",")], default=[0, 1], help="picture numbers, e.g. 3,17")
    args = ap.parse_args(argv)
    render_scene, default_seed = STYLES[args.style]
    seed = default_seed if args.seed is None else args.seed
    if args.picture:
        cv2.imwrite(str(args.picture), reading_picture(seed, args.show, args.cache, style=args.style))
        return
    result = {"seed": seed, "style": render_scene.__module__} | evaluate(seed, args.count, args.cache, args.style).as_dict()
    print(json.dumps(result, indent=1))
    if args.out:
        args.out.write_text(json.dumps(result, indent=1) + "\n")


if __name__ == "__main__":
    main()
