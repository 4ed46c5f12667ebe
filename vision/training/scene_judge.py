"""Train the scene sphere judge (vision.games.quarx.scene_judge) on the scene detector's own boxes.

Fresh scenes of the training renderer (vision.synth.table_scenes, the third and fourth looks;
seeds no detector run or validation used) are read by the shipped scene detector down to a score
of CANDIDATE, and every box it draws is labelled from the rendered solids:

- 0 one sphere: the box matches a labelled sphere's visible part (IoU >= WHOLE_IOU);
- 1 no sphere: it overlaps no sphere's visible part (IoU < NONE_IOU with each);
- 2 part of one, or several: anything between.

Each solid's own visible box, jittered as the detector's are, is added the same way, so decoys
the detector never boxed are taught as well; `--cards N` adds crops of N of the sphere
classifier's shape cards (vision.synth.quarx_shapes). Crops are written in chunks of CHUNK scenes
(whole chunks; a run that stops resumes from the chunks on disk), then the die classifier's small
CNN is trained on them at 48 px and exported to ONNX. Needs the `train` extra (torch).

    python -m vision.training.scene_judge crops --scenes 1500 --workers 2
    python -m vision.training.scene_judge train --epochs 12 --output models/scene_sphere_judge.onnx
    python -m vision.training.scene_judge validate runs/scene_judge/scene_sphere_judge.onnx --mesh

The judge's cuts (vision.games.quarx.scene_spheres.JudgeCuts) are chosen by `validate --mesh` on
three beds: the validation scenes the detector's cuts were chosen on (seed 1011, the third and
fourth looks, pictures with a sphere mostly hidden left out) and 300 pictures of the mesh
renderer (vision.synth.mesh_scenes, which nothing trains on), by the rule of `choices`: no more
wrong pictures than the detector's cuts alone on any bed, then the most exact.
"""
from __future__ import annotations

import argparse
import itertools
from collections.abc import Iterable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np

from vision.detector.die_crop import jitter_box
from vision.detector.geometry import iou_one_to_many, pixel_box
from vision.games.quarx.photo import MIN_SCENE_SPHERES
from vision.games.quarx.scene_judge import JUDGE_SIZE, NOT_SPHERE, PART, SPHERE, SceneJudge, judge_crop
from vision.games.quarx.scene_spheres import MAYBE, SURE, JudgeCuts, SceneSpheres, judged_verdicts
from vision.games.quarx.scenes_eval import kept_picture, scene_picture
from vision.synth.mesh_scenes import CHOOSING_SEED
from vision.synth.quarx_shapes import SPHERE as CARD_SPHERE
from vision.synth.quarx_shapes import render_shape_card
from vision.synth.table_scenes import SPHERE as SPHERE_KIND
from vision.synth.table_scenes import TableScene, render_table_scene
from vision.training import die_classifier
from vision.training.train import RUNS

ROOT = Path(__file__).resolve().parents[2]
DEFAULT_CROPS = ROOT / "datasets" / "generated" / "scene_judge"
CANDIDATE = 0.05  # the detector's boxes down to this score are shown to the judge in training
WHOLE_IOU, NONE_IOU = 0.5, 0.15
MIN_VISIBLE = 40  # a solid showing fewer pixels gives no crop of its own
JITTERS = 2  # crops per solid around its visible box
CHUNK = 50
# Seeds of the looks, none used by a detector run (11-14) or a validation set (1011-1014).
LOOK_SEEDS = {3: 41, 4: 42}


def _mask_boxes(masks: Iterable[np.ndarray], least: int = 1) -> dict[int, tuple[float, float, float, float]]:
    """(x1, y1, x2, y2) in pixels of each mask showing at least `least` pixels, by its index."""
    out = {}
    for i, mask in enumerate(masks):
        if np.count_nonzero(mask) >= least:
            out[i] = pixel_box(mask)
    return out


def visible_boxes(scene: TableScene) -> dict[int, tuple[float, float, float, float]]:
    """Each solid's visible part in pixels (x1, y1, x2, y2), by its index; solids out of sight are left out."""
    return _mask_boxes(scene.ids == i for i in range(len(scene.solids)))


def _best_iou(box, boxes: list) -> float:
    return float(iou_one_to_many(np.array(box, np.float32), np.array(boxes, np.float32)).max()) if boxes else 0.0


def label_box(box, spheres_whole: list, spheres_any: list) -> int:
    """The class of a box given the labelled spheres' visible boxes and every sphere's."""
    if _best_iou(box, spheres_whole) >= WHOLE_IOU:
        return SPHERE
    return NOT_SPHERE if _best_iou(box, spheres_any) < NONE_IOU else PART


def scene_crops(scene: TableScene, boxes: list, rng: np.random.Generator) -> tuple[list, list]:
    """(crops, classes) for one scene: the detector's `boxes`, then each solid's jittered visible box."""
    vis = visible_boxes(scene)
    whole = scene.sphere_boxes()
    spheres_any = [b for i, b in vis.items() if scene.solids[i].kind == SPHERE_KIND]
    crops, ys = [], []
    for b in boxes:
        crops.append(judge_crop(scene.image, b))
        ys.append(label_box(b, whole, spheres_any))
    for i, b in vis.items():
        if np.count_nonzero(scene.ids == i) < MIN_VISIBLE:
            continue
        for _ in range(JITTERS):
            j = jitter_box(rng, b)
            crops.append(judge_crop(scene.image, j))
            ys.append(label_box(j, whole, spheres_any))
    return crops, ys


CARD_SEED = 43  # the shape cards' stream, used by no other judge data
CARD_GAP = 2  # px between a card's shapes: each is whole, so its mask's box is the sphere's


def card_crops(seed: int, idx: int) -> tuple[list, list]:
    """(crops, classes) of one shape card (vision.synth.quarx_shapes, the sphere classifier's
    domain-randomised art: matte, glossy, metal, glass and banded spheres among eggs, discs,
    domes, cylinders end-on, tori): each shape's box jittered JITTERS times, and as many boxes
    of a shape's size anywhere on the card, labelled as scene crops are."""
    rng = np.random.default_rng([seed, idx, 11])
    card = render_shape_card(rng, min_gap=CARD_GAP)
    boxes = _mask_boxes((sh.mask for sh in card.shapes), MIN_VISIBLE)
    spheres = [b for i, b in boxes.items() if card.shapes[i].kind == CARD_SPHERE]
    h, w = card.image.shape[:2]
    crops, ys = [], []
    for b in boxes.values():
        for _ in range(JITTERS):
            j = jitter_box(rng, b)
            crops.append(judge_crop(card.image, j))
            ys.append(label_box(j, spheres, spheres))
        side = max(b[2] - b[0], b[3] - b[1])
        x, y = rng.uniform(0, w - side), rng.uniform(0, h - side)
        crops.append(judge_crop(card.image, (x, y, x + side, y + side)))
        ys.append(label_box((x, y, x + side, y + side), spheres, spheres))
    return crops, ys


_detector: SceneSpheres | None = None


def _chunk(job: tuple[Path, int, int, int]) -> str:
    out, look, seed, start = job
    path = out / (f"cards_seed{seed}_{start:05d}.npz" if look == 0 else f"look{look}_seed{seed}_{start:05d}.npz")
    if path.exists():
        return f"{path.name} (kept)"
    if look == 0:
        xs, ys = [], []
        for i in range(start, start + CHUNK):
            c, y = card_crops(seed, i)
            xs += c
            ys += y
        return _save_chunk(path, xs, ys)
    global _detector
    if _detector is None:
        _detector = SceneSpheres(threads=1, judged=False)
    xs, ys = [], []
    for i in range(start, start + CHUNK):
        scene = render_table_scene(seed, i, look=look)
        boxes = [d.box for d in _detector.boxes(scene.image, CANDIDATE)]
        c, y = scene_crops(scene, boxes, np.random.default_rng([seed, i, 7]))
        xs += c
        ys += y
    return _save_chunk(path, xs, ys)


def _save_chunk(path: Path, xs: list, ys: list) -> str:
    tmp = path.with_suffix(".tmp.npz")
    np.savez_compressed(tmp, x=np.stack(xs), y=np.array(ys, np.int64))
    tmp.rename(path)
    return path.name


def build_crops(out: Path = DEFAULT_CROPS, scenes: int = 1500, workers: int = 1, cards: int = 0) -> list[Path]:
    """Crops of `scenes` scenes of each look in LOOK_SEEDS, and of `cards` shape cards, in chunk
    files under `out` (kept ones are not redone)."""
    out.mkdir(parents=True, exist_ok=True)
    jobs = [(out, look, seed, s) for look, seed in LOOK_SEEDS.items() for s in range(0, scenes, CHUNK)]
    jobs += [(out, 0, CARD_SEED, s) for s in range(0, cards, CHUNK)]
    if workers > 1:
        with ProcessPoolExecutor(workers) as pool:
            for name in pool.map(_chunk, jobs):
                print(name, flush=True)
    else:
        for job in jobs:
            print(_chunk(job), flush=True)
    return sorted(out.glob("look*_seed*_*[0-9].npz")) + sorted(out.glob("cards_seed*_*[0-9].npz"))


VALIDATION_SEED = 1011
MESH = "mesh"  # the choosing bed of vision.synth.mesh_scenes, beside the validation looks 3 and 4
MESH_SEED = CHOOSING_SEED
Bed = int | str  # a validation look (3, 4) or MESH


def _bed_picture(bed: Bed, i: int, keep: Path | None = None) -> tuple[np.ndarray, int] | None:
    """The picture and its one right count, or None where a sphere is mostly hidden; drawn once
    into `keep` where given, so that another detector reads the same pictures without drawing
    them again (a scene takes about a second)."""
    if bed == MESH:
        return scene_picture(MESH_SEED, i, keep, style=MESH)

    def draw() -> tuple[np.ndarray, int] | None:
        scene = render_table_scene(VALIDATION_SEED, i, look=int(bed))
        t = len(scene.sphere_boxes())
        return (scene.image, t) if scene.spheres == t else None

    return kept_picture(keep / f"{bed}_{VALIDATION_SEED}_{i:04d}" if keep else None, draw)


def validation_pictures(bed: Bed, count: int = 300, cache: Path = DEFAULT_CROPS.parent / "scene_judge_val",
                        detector: Path | None = None) -> list[tuple[np.ndarray, np.ndarray, int]]:
    """Per picture of a bed with one right count: (the detector's box scores down to CANDIDATE,
    the judge's crops of those boxes, the spheres drawn). Kept in `cache`. `detector`: another
    scene detector's ONNX than the installed one (its file name tags the cache)."""
    name = f"{MESH}_{MESH_SEED}_{count}" if bed == MESH else f"look{bed}_{VALIDATION_SEED}_{count}"
    path = cache / (f"{name}_{detector.stem}.npz" if detector else f"{name}.npz")
    if not path.exists():
        det = SceneSpheres(detector, threads=1, judged=False)
        scores, crops, starts, truth = [], [], [0], []
        for i in range(count):
            pic = _bed_picture(bed, i, cache / "pictures")
            if pic is None:
                continue
            image, t = pic
            found = det.boxes(image, CANDIDATE)
            scores += [d.score for d in found]
            crops += [judge_crop(image, d.box) for d in found]
            starts.append(len(scores))
            truth.append(t)
        cache.mkdir(parents=True, exist_ok=True)
        np.savez_compressed(path, scores=np.array(scores, np.float32), starts=np.array(starts),
                            truth=np.array(truth), crops=np.stack(crops) if crops else np.zeros((0, JUDGE_SIZE, JUDGE_SIZE, 3), np.uint8))
    d = np.load(path)
    st = d["starts"]
    return [(d["scores"][a:b], d["crops"][a:b], int(t)) for a, b, t in zip(st[:-1], st[1:], d["truth"])]


def cut_table(pictures: list[tuple[np.ndarray, np.ndarray, int]], cuts: list[JudgeCuts]) -> list[dict]:
    """Per set of cuts, the pictures (box scores, the judge's probabilities, spheres drawn) read
    exact, unsure and wrong, answering as `tablesight quarx` does (a count of none is unsure)."""
    rows = []
    for c in cuts:
        exact = unsure = wrong = 0
        for scores, probs, truth in pictures:
            v = judged_verdicts(scores, probs, SURE, c)
            n = None if None in v else sum(v)
            if n is None or n < MIN_SCENE_SPHERES:
                unsure += 1
            elif n == truth:
                exact += 1
            else:
                wrong += 1
        rows.append({"maybe": c.maybe, "sphere": c.sphere, "none": c.none, "veto": c.veto,
                     "exact": exact, "unsure": unsure, "wrong": wrong})
    return rows


CUT_GRID = [JudgeCuts(m, s, n, v) for m, s, n, v in itertools.product(
    (0.05, 0.1, 0.2, 0.3), (0.8, 0.9, 0.93, 0.95, 0.97, 0.99), (0.6, 0.7, 0.8, 0.9, 0.95), (None, 0.3, 0.5, 0.7, 0.9))]
# The detector's cuts alone, as a JudgeCuts: no box between them is ever settled.
NO_JUDGE = JudgeCuts(MAYBE, 2.0, 2.0, None)


def validate(judge: SceneJudge, beds: tuple[Bed, ...] = (3, 4), count: int = 300,
             detector: Path | None = None) -> list[dict]:
    """cut_table over NO_JUDGE (first) and CUT_GRID on each bed's pictures, the beds' rows
    summed, each with its per-bed [exact, unsure, wrong] (`by_look`)."""
    per_look = []
    for bed in beds:
        pics = validation_pictures(bed, count, detector=detector)
        per_look.append(cut_table([(s, judge.of_crops(c), t) for s, c, t in pics], [NO_JUDGE, *CUT_GRID]))
    rows = []
    for parts in zip(*per_look):
        row = dict(parts[0])
        for k in ("exact", "unsure", "wrong"):
            row[k] = sum(p[k] for p in parts)
        row["by_look"] = [[p["exact"], p["unsure"], p["wrong"]] for p in parts]
        rows.append(row)
    return rows


def choices(rows: list[dict]) -> list[dict]:
    """The rule the shipped cuts were chosen by, best first: no more wrong pictures than the
    detector's cuts alone (rows[0]) on any look, every box those cuts look at shown to the judge
    (maybe at most MAYBE), then the most exact, then the fewest wrong."""
    base = rows[0]["by_look"]
    ok = [r for r in rows[1:] if r["maybe"] <= MAYBE and all(b[2] <= a[2] for a, b in zip(base, r["by_look"]))]
    return sorted(ok, key=lambda r: (-r["exact"], r["wrong"]))


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description="the scene sphere judge (python -m vision.training.scene_judge)")
    sub = ap.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("crops", help="render scenes and cut labelled crops of the detector's boxes")
    c.add_argument("--out", type=Path, default=DEFAULT_CROPS)
    c.add_argument("--scenes", type=int, default=1500, help="scenes of each look")
    c.add_argument("--workers", type=int, default=1)
    c.add_argument("--cards", type=int, default=0, help="shape cards (vision.synth.quarx_shapes) as well")
    t = sub.add_parser("train", help="train on the crops and export ONNX")
    t.add_argument("--crops", type=Path, default=DEFAULT_CROPS)
    t.add_argument("--epochs", type=int, default=12)
    t.add_argument("--lr", type=float, default=3e-3)
    t.add_argument("--threads", type=int, default=1)
    t.add_argument("--seed", type=int, default=0)
    t.add_argument("--width", type=int, default=1, help="the CNN's channels times this")
    t.add_argument("--smoothing", type=float, default=0.05, help="label smoothing")
    t.add_argument("--name", default="scene_judge", help="run folder under runs/")
    t.add_argument("--output", type=Path, help="also export ONNX here (models/scene_sphere_judge.onnx)")
    t.add_argument("--cards", action="store_true", help="train on the shape cards' crops too")
    v = sub.add_parser("validate", help="score the judge's cuts on validation scenes")
    v.add_argument("model", type=Path)
    v.add_argument("--count", type=int, default=300, help="validation scenes of each look")
    v.add_argument("--mesh", action="store_true", help="the mesh renderer's choosing bed as well")
    v.add_argument("--detector", type=Path, help="a scene detector's ONNX other than the installed one")
    a = ap.parse_args(argv)
    if a.cmd == "validate":
        rows = validate(SceneJudge(a.model), (3, 4, MESH) if a.mesh else (3, 4), a.count, a.detector)
        print("the detector's cuts alone:", rows[0])
        for row in choices(rows)[:15]:
            print(row)
        return
    if a.cmd == "crops":
        build_crops(a.out, a.scenes, a.workers, a.cards)
        return
    files = sorted(a.crops.glob("look*_seed*_*[0-9].npz"))
    if a.cards:
        files += sorted(a.crops.glob("cards_seed*_*[0-9].npz"))
    x, y = die_classifier.load_crops(files)
    run = RUNS / a.name
    run.mkdir(parents=True, exist_ok=True)
    with die_classifier.run_log(run) as log:
        log(f"{len(y)} crops from {len(files)} chunks; per class {np.bincount(y, minlength=3).tolist()}")
        model = die_classifier.train(x, y, a.epochs, lr=a.lr, seed=a.seed, threads=a.threads, log=log,
                                     init=die_classifier.build_model(3, width=a.width), smoothing=a.smoothing)
    print(die_classifier.save_run(model, run, {"chunks": len(files), "crops": int(len(y)), "epochs": a.epochs,
                                               "seed": a.seed, "lr": a.lr, "size": JUDGE_SIZE,
                                               "width": a.width, "smoothing": a.smoothing, "cards": a.cards},
                                  "scene_sphere_judge.onnx", a.output, JUDGE_SIZE))


if __name__ == "__main__":
    main()
