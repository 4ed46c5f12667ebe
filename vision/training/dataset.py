"""Build a YOLO dataset folder: synthetic renders (+ the real train split) and a data.yaml."""
from __future__ import annotations

import json
import shutil
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import cv2

from vision.detector.classes import CLASSES, CLASS_ID
from vision.synth import render_image
from vision.synth.table_dice import render_table_dice
from vision.training import real_dice
from vision.yolo_labels import yolo_line

DEFAULT_OUT = Path(__file__).resolve().parents[2] / "datasets" / "generated"


def is_varied(index: int, varied: float) -> bool:
    """Whether image `index` is drawn with the varied looks: a share `varied` of every ten."""
    return index % 10 < round(varied * 10)


def _render_one(args: tuple[int, int, str, str, float, bool]) -> dict:
    """One picture into img_dir / lab_dir: the first renderer's, or with table_dice a ray-cast one."""
    seed, index, img_dir, lab_dir, varied, table_dice = args
    if table_dice:
        r, name = render_table_dice(seed, index), f"t{seed}_{index:06d}"
    else:
        r, name = render_image(seed, index, varied=is_varied(index, varied)), f"s{seed}_{index:06d}"
    cv2.imwrite(str(Path(img_dir) / f"{name}.jpg"), r.image, [cv2.IMWRITE_JPEG_QUALITY, 92])
    (Path(lab_dir) / f"{name}.txt").write_text("\n".join(r.yolo_lines()) + ("\n" if r.labels else ""))
    return {"name": name, "kind": r.kind,
            "labels": [{"cls": CLASSES[lb.cls], "box": [round(v, 2) for v in lb.box], "color": lb.color,
                        "count": lb.count} for lb in r.labels]}


def render_split(out: Path, split: str, seed: int, count: int, workers: int = 2,
                 varied: float = 0.0, table_dice: bool = False) -> list[dict]:
    """Render `count` images of `seed` into out/images/split and out/labels/split; a share
    `varied` of them (in tenths) with `vision.synth.variety`'s looks, or with `table_dice`
    `vision.synth.table_dice`'s ray-cast dice (named t<seed>_..., beside the others)."""
    img_dir, lab_dir = out / "images" / split, out / "labels" / split
    img_dir.mkdir(parents=True, exist_ok=True)
    lab_dir.mkdir(parents=True, exist_ok=True)
    jobs = [(seed, i, str(img_dir), str(lab_dir), varied, table_dice) for i in range(count)]
    if workers > 1:
        with ProcessPoolExecutor(workers) as ex:
            meta = list(ex.map(_render_one, jobs, chunksize=16))
    else:
        meta = [_render_one(j) for j in jobs]
    meta_name = f"meta_{split}_table_dice.jsonl" if table_dice else f"meta_{split}.jsonl"
    (out / meta_name).write_text("\n".join(json.dumps(m) for m in meta) + "\n")
    return meta


def add_real(out: Path, real_dir: Path, split: str = "train", repeat: int = 3) -> int:
    """Copy the real split into out/images/train with face-box labels, `repeat` times over."""
    img_dir, lab_dir = out / "images" / "train", out / "labels" / "train"
    n = 0
    for name in real_dice.split_names(real_dir, split):
        src = real_dir / "images" / name
        im = cv2.imread(str(src))
        if im is None:
            continue
        h, w = im.shape[:2]
        lines = []
        for lb in real_dice.read_labels(real_dir, name, w, h):
            lines.append(yolo_line(CLASS_ID[f"die_{lb.value}"], real_dice.face_box(lb, w, h), w, h))
        for k in range(repeat):  # copies under new names: ultralytics keeps duplicates apart
            stem = f"real{k}_{Path(name).stem}"
            shutil.copyfile(src, img_dir / f"{stem}.jpg")
            (lab_dir / f"{stem}.txt").write_text("\n".join(lines) + "\n")
            n += 1
    return n


def write_yaml(out: Path) -> Path:
    p = out / "data.yaml"
    names = "\n".join(f"  {i}: {n}" for i, n in enumerate(CLASSES))
    p.write_text(f"path: {out.resolve()}\ntrain: images/train\nval: images/val\nnames:\n{names}\n")
    return p


def build(out: Path = DEFAULT_OUT, seed: int = 1, count: int = 3000, val_count: int = 200,
          real_dir: Path | None = real_dice.REAL_DICE_DIR, real_repeat: int = 3, workers: int = 2,
          varied: float = 0.0, table_dice: int = 0) -> Path:
    """Build the whole dataset; the val split uses seed+1 so it never repeats a train image.
    table_dice: that many of `vision.synth.table_dice`'s pictures (seed `seed`) join the train split."""
    if out.exists():
        shutil.rmtree(out)
    render_split(out, "train", seed, count, workers, varied)
    if table_dice:
        render_split(out, "train", seed, table_dice, workers, table_dice=True)
    render_split(out, "val", seed + 1, val_count, workers, varied)
    n_real = add_real(out, real_dir, "train", real_repeat) if real_dir and real_repeat > 0 else 0
    (out / "recipe.json").write_text(json.dumps({"seed": seed, "count": count, "val_seed": seed + 1,
                                                 "val_count": val_count, "real_train_copies": n_real,
                                                 "real_repeat": real_repeat, "varied": varied,
                                                 "table_dice": table_dice}, indent=1))
    return write_yaml(out)
