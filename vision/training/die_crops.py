"""Crops for the die value classifier: synthetic renders of many die styles, and real photos.

Every crop is cut by `vision.detector.die_crop.square_crop`, the function the reader uses at
run time. Positives are dice (class = top value 1..6), with their box jittered the way the
detector's boxes are off; class 0 ("no die") holds what the detector must not read as a die:
Ubongo dice, bonus and number cards, spheres, clutter, bare table, boxes that slid off a
die onto its side faces, and (with `side_faces`) boxes on a tilted die's side face that is seen
nearly square: a webcam looking across the table sees such a face below the top one, and the
reader took it for a die of its own; (with `whole_die`) a die framed whole, top and visible side
faces in one box, still labelled with its top value: a detector that has not seen a dice set
boxes its dice so, and the classifier read a dark 2 framed whole as a 1 (the pip counter read 2).
`table_dice_crops` cuts the same kinds of crops from `vision.synth.table_dice`'s ray-cast dice (a
second look: another lamp, shadows, clear coats and glass, engraved pips as dimples), the
"no die" ones off the dice, on bare cloth and on the other solids there. `mined_negatives` adds
the detectors' own die boxes on renders where no labelled object lies: the clutter they mistake for dice (a USB plug's end with
its two square holes reads as a 2).
"""
from __future__ import annotations

from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np

from vision.detector.classes import CLASSES, DIE_CLASSES, die_value
from vision.detector.die_crop import CROP_SIZE, jitter_box, square_crop
from vision.detector.image_io import read_image
from vision.detector.model import Detector, load_detector
from vision.detector.slicing import detect_sliced
from vision.detector.value_rule import NO_DIE
from vision.synth import render_image
from vision.synth.scene import Label
from vision.synth.table_dice import render_table_dice
from vision.training import real_dice
from vision.training.dataset import is_varied

KINDS = ("dice", "dice", "dice", "mixed", "quarx")  # renders drawn per cycle: mostly dice
# The class of a die whose value the picture does not show (pips too small or blurred): a die,
# any value alike; `die_classifier` teaches it as an even share over 1-6, so such a die is unsure.
UNREADABLE = -1


def _off_die(rng: np.random.Generator, box):
    """A box slid 0.75-1.1 sides away: side faces, shadow and table, not the top face."""
    x1, y1, x2, y2 = box
    side = max(x2 - x1, y2 - y1)
    a = rng.uniform(0, 2 * np.pi)
    d = side * rng.uniform(0.75, 1.1)
    cx, cy = (x1 + x2) / 2 + np.cos(a) * d, (y1 + y2) / 2 + np.sin(a) * d
    s = side * rng.uniform(0.8, 1.1) / 2
    return cx - s, cy - s, cx + s, cy + s


def _overlap(a, b) -> float:
    """Intersection over the smaller box's area."""
    iw = min(a[2], b[2]) - max(a[0], b[0])
    ih = min(a[3], b[3]) - max(a[1], b[1])
    if iw <= 0 or ih <= 0:
        return 0.0
    return iw * ih / max(min((a[2] - a[0]) * (a[3] - a[1]), (b[2] - b[0]) * (b[3] - b[1])), 1e-6)


def _free_box(rng: np.random.Generator, w: int, h: int, taken: list) -> tuple | None:
    for _ in range(10):
        side = float(np.exp(rng.uniform(np.log(12), np.log(90))))
        cx, cy = rng.uniform(side / 2, w - side / 2), rng.uniform(side / 2, h - side / 2)
        b = (cx - side / 2, cy - side / 2, cx + side / 2, cy + side / 2)
        if all(b[2] < t[0] or b[0] > t[2] or b[3] < t[1] or b[1] > t[3] for t in taken):
            return b
    return None


def _off_die_crops(rng: np.random.Generator, image: np.ndarray, box, taken: list) -> list[np.ndarray]:
    """Now and then (3 in 10) a "no die" crop of a box slid off the die at `box`, where it lies
    on no other labelled box."""
    off = _off_die(rng, box)
    if rng.random() < 0.3 and not any(_overlap(off, t) > 0.25 for t in taken if t is not box):
        return [square_crop(image, off)]
    return []


def _free_crops(rng: np.random.Generator, image: np.ndarray, taken: list, n: int) -> list[np.ndarray]:
    """Up to `n` "no die" crops of boxes on no labelled box."""
    h, w = image.shape[:2]
    boxes = [_free_box(rng, w, h, taken) for _ in range(n)]
    return [square_crop(image, b) for b in boxes if b is not None]


def _square_sides(lb, taken: list) -> list[tuple]:
    """The label's side-face boxes that look like a face seen head-on (sides within 0.55 of each
    other, 8 px and over) and hold no other die's top face."""
    out = []
    for b in lb.sides:
        w, h = b[2] - b[0], b[3] - b[1]
        if min(w, h) >= 8 and min(w, h) >= 0.55 * max(w, h) and not any(
                _overlap(b, t) > 0.25 for t in taken if t is not lb.box):
            out.append(b)
    return out


def _copies(frame: np.ndarray, box, rng: np.random.Generator, copies: int) -> list[np.ndarray]:
    """`copies` crops of one box: the first as it is, the rest jittered."""
    return [square_crop(frame, box if k == 0 else jitter_box(rng, box)) for k in range(copies)]


def _arrays(crops: list[np.ndarray], ys: list[int]) -> tuple[np.ndarray, np.ndarray]:
    """Crops and classes as arrays, an empty pair of the right shapes when there are none."""
    if not crops:
        return np.zeros((0, CROP_SIZE, CROP_SIZE, 3), np.uint8), np.zeros(0, np.int64)
    return np.stack(crops), np.array(ys, np.int64)


def whole_box(lb: Label) -> tuple[float, float, float, float]:
    """The box around a die's top face and its visible side faces."""
    boxes = [lb.box, *lb.sides]
    return (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes))


def synthetic_crops(seed: int, index: int, varied: float = 0.0,
                    side_faces: bool = False, whole_die: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """Crops and classes from one render of `seed` (deterministic); `varied` as in
    `vision.training.dataset.is_varied`. side_faces adds "no die" crops on side faces seen
    nearly square, whole_die a crop of each tilted die framed whole; each is drawn from its own
    random stream so that the other crops stay the same."""
    kind = KINDS[index % len(KINDS)]
    r = render_image(seed, index, kind=kind, varied=is_varied(index, varied))
    rng = np.random.default_rng([seed, index, 7])
    crops, ys = [], []
    taken = [lb.box for lb in r.labels]
    for lb in r.labels:
        v = die_value(CLASSES[lb.cls])
        if v is not None:
            for _ in range(2):
                crops.append(square_crop(r.image, jitter_box(rng, lb.box)))
                ys.append(v)
            off = _off_die_crops(rng, r.image, lb.box, taken)
            crops += off
            ys += [NO_DIE] * len(off)
        elif rng.random() < 0.5:
            crops.append(square_crop(r.image, jitter_box(rng, lb.box)))
            ys.append(NO_DIE)
    if side_faces:
        side_rng = np.random.default_rng([seed, index, 9])
        for lb in r.labels:
            if die_value(CLASSES[lb.cls]) is not None:
                for b in _square_sides(lb, taken):
                    crops.append(square_crop(r.image, jitter_box(side_rng, b)))
                    ys.append(NO_DIE)
    if whole_die:
        whole_rng = np.random.default_rng([seed, index, 11])
        for lb in r.labels:
            v = die_value(CLASSES[lb.cls])
            if v is not None and lb.sides:
                crops.append(square_crop(r.image, jitter_box(whole_rng, whole_box(lb), shift=0.04, lo=0.95, hi=1.1)))
                ys.append(v)
    free = _free_crops(rng, r.image, taken, 2 if kind == "dice" else 1)
    return _arrays(crops + free, ys + [NO_DIE] * len(free))


def table_dice_crops(seed: int, index: int) -> tuple[np.ndarray, np.ndarray]:
    """Crops and classes from one `vision.synth.table_dice` picture of `seed` (deterministic):
    each labelled die twice, jittered, as its value where the picture resolves its pips and as
    UNREADABLE where it does not (more than half of them: small dice under the look's blur); now
    and then a box slid off a die; two boxes on no die."""
    r = render_table_dice(seed, index)
    rng = np.random.default_rng([seed, index, 13])
    crops, ys = [], []
    taken = [lb.box for lb in r.labels]
    for lb in r.labels:
        for _ in range(2):
            crops.append(square_crop(r.image, jitter_box(rng, lb.box)))
            ys.append(die_value(CLASSES[lb.cls]) if lb.pips_seen else UNREADABLE)
        off = _off_die_crops(rng, r.image, lb.box, taken)
        crops += off
        ys += [NO_DIE] * len(off)
    free = _free_crops(rng, r.image, taken, 2)
    return _arrays(crops + free, ys + [NO_DIE] * len(free))


def mined_negatives(detectors: list[Detector], seed: int, images: int, varied: float,
                    copies: int = 3) -> tuple[np.ndarray, np.ndarray]:
    """"No die" crops of the detectors' die boxes on 640x480 renders of `seed` that overlap no
    labelled object or side face (more than 10% of the smaller box) and keep 4 px off the frame's
    edge (a die cut by the edge loses its label but is still a die); each box once, the first as
    it is and the rest jittered."""
    crops = []
    for i in range(images):
        r = render_image(seed, i, width=640, height=480, kind=KINDS[i % len(KINDS)], varied=is_varied(i, varied))
        h, w = r.image.shape[:2]
        taken = [lb.box for lb in r.labels] + [b for lb in r.labels for b in lb.sides]
        boxes: list[tuple] = []
        for det in detectors:
            for d in detect_sliced(det, r.image, classes=set(DIE_CLASSES)):
                b = d.box
                if (min(b[0], b[1]) < 4 or b[2] > w - 4 or b[3] > h - 4
                        or any(_overlap(b, t) > 0.1 for t in taken) or any(_overlap(b, o) > 0.5 for o in boxes)):
                    continue
                boxes.append(b)
        rng = np.random.default_rng([seed, i, 11])
        for b in boxes:
            crops += _copies(r.image, b, rng, copies)
    return _arrays(crops, [NO_DIE] * len(crops))


def _job(args: tuple[int, int, int, float, bool, bool, bool]) -> tuple[np.ndarray, np.ndarray]:
    seed, start, stop, varied, side_faces, whole_die, table_dice = args
    parts = [table_dice_crops(seed, i) if table_dice else synthetic_crops(seed, i, varied, side_faces, whole_die)
             for i in range(start, stop)]
    return np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts])


def build_synthetic(seed: int, images: int, workers: int = 1, varied: float = 0.0,
                    side_faces: bool = False, whole_die: bool = False,
                    table_dice: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """Crops from `images` renders of `seed`, a share `varied` of them with the varied looks
    (side_faces: see synthetic_crops), or with `table_dice` from as many ray-cast pictures."""
    step = 100
    jobs = [(seed, s, min(s + step, images), varied, side_faces, whole_die, table_dice)
            for s in range(0, images, step)]
    if workers > 1:
        with ProcessPoolExecutor(workers) as ex:
            parts = list(ex.map(_job, jobs))
    else:
        parts = [_job(j) for j in jobs]
    return np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts])


def real_crops(root: Path, split: str, copies: int = 3, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Crops of the real photos of one split, their pip boxes grown to face boxes, jittered."""
    rng = np.random.default_rng(seed)
    crops, ys = [], []
    for name in real_dice.split_names(root, split):
        frame = read_image(root / "images" / name)
        h, w = frame.shape[:2]
        for lb in real_dice.read_labels(root, name, w, h):
            face = real_dice.face_box(lb, w, h)
            crops += _copies(frame, face, rng, copies)
            ys += [lb.value] * copies
    return _arrays(crops, ys)


def real_negatives(root: Path, split: str, detector: Detector, copies: int = 3,
                   seed: int = 1) -> tuple[np.ndarray, np.ndarray]:
    """"No die" crops of the real photos of one split: the detector's die boxes that hold no
    labelled die's centre (on the webcam set, side faces seen below a die's top face)."""
    rng = np.random.default_rng(seed)
    crops, ys = [], []
    for name in real_dice.split_names(root, split):
        frame = read_image(root / "images" / name)
        h, w = frame.shape[:2]
        centres = [((b[0] + b[2]) / 2, (b[1] + b[3]) / 2) for b in
                   (lb.box for lb in real_dice.read_labels(root, name, w, h))]
        for d in detect_sliced(detector, frame, classes=set(DIE_CLASSES)):
            x1, y1, x2, y2 = d.box
            if any(x1 <= cx <= x2 and y1 <= cy <= y2 for cx, cy in centres):
                continue
            crops += _copies(frame, d.box, rng, copies)
            ys += [NO_DIE] * copies
    return _arrays(crops, ys)


def main() -> None:
    import argparse

    ap = argparse.ArgumentParser(description="build die-crop arrays (python -m vision.training.die_crops)")
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--images", type=int, default=4000)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--varied", type=float, default=0.0, help="share of renders with the varied looks")
    ap.add_argument("--side-faces", action="store_true", help="add 'no die' crops on side faces seen nearly square")
    ap.add_argument("--whole-die", action="store_true", help="add a crop of each tilted die framed whole (top and sides)")
    ap.add_argument("--table-dice", action="store_true",
                    help="crops of vision.synth.table_dice's ray-cast dice instead of the first renderer's")
    ap.add_argument("--mine", nargs="+", type=Path, metavar="DETECTOR",
                    help="'no die' crops of these detectors' boxes on no labelled object, instead of renders' crops")
    ap.add_argument("--real", metavar="SPLIT", help="crops of this split of the real webcam set instead of renders")
    ap.add_argument("--real-negatives", action="store_true",
                    help="with --real: add 'no die' crops of the shipped detector's boxes on no labelled die")
    a = ap.parse_args()
    if a.mine:
        x, y = mined_negatives([Detector(p, threads=1) for p in a.mine], a.seed, a.images, a.varied)
    elif a.real:
        x, y = real_crops(real_dice.REAL_DICE_DIR, a.real)
        if a.real_negatives:
            nx, ny = real_negatives(real_dice.REAL_DICE_DIR, a.real, load_detector())
            x, y = np.concatenate([x, nx]), np.concatenate([y, ny])
    else:
        x, y = build_synthetic(a.seed, a.images, a.workers, a.varied, a.side_faces, a.whole_die, a.table_dice)
    a.out.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(a.out, x=x, y=y)
    print(f"{len(y)} crops -> {a.out}; per class {np.bincount(y[y >= 0], minlength=7).tolist()}, "
          f"unreadable dice {int((y == UNREADABLE).sum())}")


if __name__ == "__main__":
    main()
