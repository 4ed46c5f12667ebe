"""Train the Quarx sphere classifier on blobs cut from domain-randomised cards; export ONNX.

    python -m vision.training.sphere_classifier --cards 3000 --output models/sphere_shapes.onnx
    python -m vision.training.sphere_classifier --validate models/eval/quarx_sphere_validation.json

Cards come from `vision.synth.quarx_shapes` (training only) and, for a share, from our own
footage renderer (`vision.synth.cards`), so the footage look is not lost. Each blob that
`vision.games.quarx.blobs.card_blobs` cuts, and each part of a notched one, is labelled from the
drawn masks, by its shape (`--labels shape`, v1-v3):

- 0 sphere: one sphere, at least 75% of it, and little else;
- 1 not a sphere: one other shape (or a bubble) likewise, or no drawn shape at all (a frame
  line, a shadow, dirt);
- 2 unsure: part of a shape, or several shapes together. The counter reads this as "no count".

or by the spheres it adds to the card's count (`--labels count`, `label_by_count`): none, one
(whatever touches it), or two or a piece of one (unsure).

The network is the die classifier's small CNN (`vision.training.die_classifier`) with three
outputs; it trains in minutes on a laptop CPU. With `--masks` (v8 on) it also sees the blob's own
mask as a fourth channel: which pixels of the crop the blob is, so "the whole of a sphere" and "a
piece of one" need not be guessed from a crop that also shows the neighbours. Needs the `train`
extra (torch).
"""
from __future__ import annotations

import argparse
import json
from pathlib import Path

import cv2
import numpy as np

from vision.games.quarx.blobs import Blob, card_blobs
from vision.games.quarx.sphere_detector import SphereDetector, load_sphere_detector
from vision.games.quarx.sphere_model import CUTS, OTHER_CLASS, SPHERE_CLASS, UNSURE_CLASS, SphereModel, count_by_shape
from vision.games.quarx.spheres import count_spheres_on_card
from vision.synth.cards import quarx_card
from vision.synth.quarx_shapes import CARD_H, CARD_W, SPHERE, PlacedShape, render_shape_card
from vision.training import die_classifier
from vision.training.train import RUNS

CLASS_NAMES = ("sphere", "not a sphere", "unsure")
WHOLE = 0.75  # a blob holds at least this share of its shape to be that shape


def label(blob_mask: np.ndarray, shapes: list[PlacedShape]) -> int:
    """The class of one blob from the drawn shapes' masks (see the module doc)."""
    size = np.count_nonzero(blob_mask)
    hits = []
    for s in shapes:
        inside = np.count_nonzero(blob_mask & s.mask)
        area = max(1, np.count_nonzero(s.mask))
        if inside >= 0.1 * size or inside >= 0.3 * area:
            hits.append((s, inside / area, inside / size))
    if not hits:
        return OTHER_CLASS
    if len(hits) > 1:
        return UNSURE_CLASS
    shape, covered, share = hits[0]
    if covered < WHOLE or share < 0.5:
        return UNSURE_CLASS
    return SPHERE_CLASS if shape.kind == SPHERE else OTHER_CLASS


# Labels that follow the count (v6 on): what matters is how many spheres a blob adds to the card's
# count. The shape labels above leave most cards uncountable even for a perfect classifier: on
# the 240 randomised validation cards (seed 999) counting with each blob's true label reads 36
# right, because a contrast cut often takes only 50-75% of a shaded sphere (its highlight is as
# light as the paper) and a sphere's shadow or a touching shape joins its blob. With these labels
# the same perfect classifier reads 123 right (5 wrong: spheres so faint no cut sees them).
OWNS = 0.5      # a blob holding this share of a sphere counts it
PIECE = 0.1     # ... one holding less, but at least this share, holds a piece of it: unsure


def label_by_count(blob_mask: np.ndarray, shapes: list[PlacedShape]) -> int:
    """The class of one blob by the spheres it accounts for: none -> not a sphere (other shapes,
    their pieces, shadows and lines add nothing to the count), one -> sphere (whatever else
    touches it), two or more, or a piece of a sphere -> unsure (tried in parts, or no count)."""
    n = 0
    for s in shapes:
        if s.kind != SPHERE:
            continue
        inside = np.count_nonzero(blob_mask & s.mask) / max(1, np.count_nonzero(s.mask))
        if inside >= OWNS:
            n += 1
        elif inside >= PIECE:
            return UNSURE_CLASS
    return OTHER_CLASS if n == 0 else SPHERE_CLASS if n == 1 else UNSURE_CLASS


LABELLERS = {"shape": label, "count": label_by_count}


def footage_card(rng: np.random.Generator) -> tuple[np.ndarray, list[PlacedShape]]:
    """One card of our footage's look: its spheres as drawn circles (the other shapes are not
    recorded, so a blob there is "not a sphere" unless it takes in part of a sphere)."""
    art = quarx_card(rng, int(rng.integers(1, 10)))
    img = cv2.resize(art.image, (CARD_W, CARD_H), interpolation=cv2.INTER_AREA)
    sx, sy = CARD_W / art.image.shape[1], CARD_H / art.image.shape[0]
    shapes = []
    for cx, cy, r in art.spheres:
        m = np.zeros((CARD_H, CARD_W), np.uint8)
        cv2.circle(m, (int(round(cx * sx)), int(round(cy * sy))), max(1, int(round(r * (sx + sy) / 2))), 1, -1)
        shapes.append(PlacedShape(SPHERE, m.astype(bool)))
    if rng.random() < 0.7:
        small = cv2.resize(img, None, fx=rng.uniform(0.35, 0.9), fy=rng.uniform(0.35, 0.9), interpolation=cv2.INTER_AREA)
        ok, buf = cv2.imencode(".jpg", small, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(50, 95))])
        img = cv2.resize(cv2.imdecode(buf, cv2.IMREAD_COLOR), (CARD_W, CARD_H), interpolation=cv2.INTER_LINEAR)
    return img, shapes


def training_card(rng: np.random.Generator, footage_share: float) -> tuple[np.ndarray, list[PlacedShape]]:
    """One training card and its shapes: in our footage's look with probability `footage_share`,
    else a randomised one (vision.synth.quarx_shapes)."""
    if rng.random() < footage_share:
        return footage_card(rng)
    card = render_shape_card(rng)
    return card.image, card.shapes


def _blobs_with_parts(blobs: list[Blob]) -> list[Blob]:
    return [b for blob in blobs for b in (blob, *blob.parts)]


def crops(cards: int, seed: int, footage_share: float = 0.25, labels: str = "shape",
          masks: bool = False, cuts: tuple[int, ...] = CUTS) -> tuple[np.ndarray, np.ndarray]:
    """Labelled crops (N x 32 x 32 x 3 uint8, or x 4 with `masks`: the blob's mask after BGR; N
    classes) from `cards` cards at every one of `cuts`; `labels`: "shape" (v1-v3) or "count"
    (`label_by_count`)."""
    labeller = LABELLERS[labels]
    rng = np.random.default_rng([seed, 5150])
    xs, ys = [], []
    for _ in range(cards):
        image, shapes = training_card(rng, footage_share)
        for cut in cuts:
            for blob in _blobs_with_parts(card_blobs(image, cut)):
                xs.append(np.dstack([blob.crop, blob.crop_mask]) if masks else blob.crop)
                ys.append(labeller(blob.mask(image.shape), shapes))
    return np.stack(xs), np.array(ys, np.int64)


def validate(cards: int = 360, seed: int = 999, model: SphereModel | None = None,
             detector: SphereDetector | None = None) -> dict:
    """The counters on fresh cards of the training looks (never trained on; the thresholds in
    vision.games.quarx.sphere_model and sphere_detector were chosen here): a third in our
    footage's look, the rest randomised with 1-9 spheres kept apart as on real cards. Per look:
    right, unsure, wrong. With `detector` also "learned, else detector": the detector's count
    where the classifier is unsure (measured only; count_card does not ask it, models/MODEL_CARD.md)."""
    model = model or SphereModel()
    rng = np.random.default_rng([seed, 1])
    out: dict = {}
    for i in range(cards):
        if i % 3 == 0:
            look = "footage"
            image, shapes = footage_card(rng)
            truth = sum(s.kind == SPHERE for s in shapes)
        else:
            look = "randomised"
            card = render_shape_card(rng, spheres=int(rng.integers(1, 10)), min_gap=int(rng.integers(2, 8)))
            image, truth = card.image, card.spheres
        learned = count_by_shape(image, model)
        counts = [("outlines", count_spheres_on_card(image)), ("learned", learned)]
        if detector is not None:
            counts.append(("learned, else detector", learned if learned is not None else detector.count(image)))
        for counter, got in counts:
            row = out.setdefault(look, {}).setdefault(counter, {"right": 0, "unsure": 0, "wrong": 0})
            row["unsure" if got is None else "right" if got == truth else "wrong"] += 1
    return {"cards": cards, "seed": seed, **out}


def cuts_metadata(cuts: tuple[int, ...]) -> dict[str, str]:
    """The ONNX metadata naming the cuts a classifier was taught, as SphereModel reads them (a
    file without it was taught sphere_model.CUTS)."""
    return {"cuts": ",".join(str(c) for c in cuts)}


def with_mask_channel(state: dict) -> dict:
    """Torch weights of a 3-channel classifier for the 4-channel network: the mask's input
    weights start at zero, so training starts from what the colours alone already told."""
    first = next(k for k in state if k.endswith("weight"))  # the first convolution's
    w = state[first]
    if w.shape[1] != 3:
        return state
    grown = w.new_zeros(w.shape[0], 4, *w.shape[2:])
    grown[:, :3] = w
    return {**state, first: grown}


def main(argv: list[str] | None = None) -> None:
    import torch

    ap = argparse.ArgumentParser(description="train the Quarx sphere classifier (python -m vision.training.sphere_classifier)")
    ap.add_argument("--cards", type=int, default=3000)
    ap.add_argument("--epochs", type=int, default=10)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--name", default="sphere_shapes", help="run folder under runs/")
    ap.add_argument("--output", type=Path, help="also export ONNX here (e.g. models/sphere_shapes.onnx)")
    ap.add_argument("--init", type=Path, help="start from these weights (a run's weights.pt)")
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--labels", choices=sorted(LABELLERS), default="shape",
                    help="how a blob is labelled: by its shape (v1-v3) or by the spheres it counts")
    ap.add_argument("--masks", action="store_true", help="a fourth input channel: the blob's own mask (v8 on)")
    ap.add_argument("--width", type=int, default=1, help="every layer this many times as wide (cost: its square; v9)")
    ap.add_argument("--cuts", type=lambda v: tuple(int(c) for c in v.split(",")), default=CUTS,
                    help="the contrast cuts to teach, e.g. 18,30,45,65 (v10); the export names them")
    ap.add_argument("--validate", type=Path, metavar="JSON",
                    help="only score the installed model, the outline counter and (where installed) the sphere detector "
                         "on fresh training-look cards, into JSON")
    a = ap.parse_args(argv)
    if a.validate:
        got = validate(detector=load_sphere_detector())
        a.validate.write_text(json.dumps(got, indent=1) + "\n")
        print(json.dumps(got, indent=1))
        return
    run = RUNS / a.name
    run.mkdir(parents=True, exist_ok=True)
    cuts_tag = "" if a.cuts == CUTS else "_cuts" + "-".join(str(c) for c in a.cuts)
    tag = f"{'' if a.labels == 'shape' else '_' + a.labels}{'_masks' if a.masks else ''}{cuts_tag}"
    data = run / f"crops_{a.cards}_{a.seed}{tag}.npz"
    if data.is_file():
        got = np.load(data)
        x, y = got["x"], got["y"]
    else:
        x, y = crops(a.cards, a.seed, labels=a.labels, masks=a.masks, cuts=a.cuts)
        np.savez_compressed(data, x=x, y=y)
    with die_classifier.run_log(run) as log:
        log(f"{len(y)} crops from {a.cards} cards; per class {np.bincount(y, minlength=3).tolist()}")
        init = die_classifier.build_model(len(CLASS_NAMES), 4 if a.masks else 3, a.width)
        if a.init:
            init.load_state_dict(with_mask_channel(torch.load(a.init)) if a.masks else torch.load(a.init))
            log(f"starting from {a.init}")
        model = die_classifier.train(x, y, a.epochs, lr=a.lr, seed=a.seed, threads=a.threads, log=log, init=init)
    print(die_classifier.save_run(model, run, {"cards": a.cards, "epochs": a.epochs, "seed": a.seed,
                                               "crops": int(len(y)), "cuts": a.cuts, "lr": a.lr, "labels": a.labels,
                                               "masks": a.masks, "width": a.width,
                                               "init": str(a.init) if a.init else None},
                                  "sphere_shapes.onnx", a.output, metadata=cuts_metadata(a.cuts)))


if __name__ == "__main__":
    main()
