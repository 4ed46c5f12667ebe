"""Measured figures: real valid split (its README's scoring rule) and a synthetic hold-out."""
from __future__ import annotations

import json
import time
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from vision.detector import load_detector, read_dice, read_image
from vision.detector.dice import VALUE_SOURCES, find_dice, read_found
from vision.games.quarx.photo import count_quarx
from vision.detector.classes import CLASSES, DIE_CLASSES
from vision.detector.geometry import iou_one_to_many
from vision.synth import render_image
from vision.training import real_dice


@dataclass
class Tally:
    """Right / total counts for a recall and a precision."""

    labels: int = 0
    found_right: int = 0
    found_any: int = 0
    preds: int = 0
    preds_right: int = 0

    def as_dict(self) -> dict:
        return {"labels": self.labels, "predictions": self.preds,
                "recall": round(self.found_right / max(self.labels, 1), 4),
                "precision": round(self.preds_right / max(self.preds, 1), 4),
                "found_any_value": round(self.found_any / max(self.labels, 1), 4)}


def match_centre_rule(preds: list[tuple[tuple[float, ...], int, float]],
                      labels: list[tuple[tuple[float, ...], int]]) -> tuple[int, int]:
    """README rule: a prediction is right when its box holds a label's centre and the values
    agree; each label matched at most once. Returns (labels matched, predictions right)."""
    used = [False] * len(labels)
    right = 0
    for box, value, _ in sorted(preds, key=lambda p: -p[2]):
        best, best_d = -1, 1e18
        for i, (lb, lv) in enumerate(labels):
            cx, cy = (lb[0] + lb[2]) / 2, (lb[1] + lb[3]) / 2
            if used[i] or lv != value or not (box[0] <= cx <= box[2] and box[1] <= cy <= box[3]):
                continue
            d = ((box[0] + box[2]) / 2 - cx) ** 2 + ((box[1] + box[3]) / 2 - cy) ** 2
            if d < best_d:
                best, best_d = i, d
        if best >= 0:
            used[best] = True
            right += 1
    return sum(used), right


def _any_value(preds, labels) -> int:
    return match_centre_rule([(b, 0, s) for b, _, s in preds], [(b, 0) for b, _ in labels])[0]


def eval_real(root: Path, split: str, det, conf: float) -> dict:
    """Recall and precision on the real photos, for each value source of `read_dice` ("reader" is
    the shipped one: the classifier checked by the pip counter; an unsure die is no answer)."""
    tallies = {src: Tally() for src in VALUE_SOURCES}
    for name in real_dice.split_names(root, split):
        frame = read_image(root / "images" / name)
        h, w = frame.shape[:2]
        labels = [(lb.box, lb.value) for lb in real_dice.read_labels(root, name, w, h)]
        dets = find_dice(frame, det, conf)  # one detection, read by each source
        for src, t in tallies.items():
            preds = [(r.box, r.value, r.confidence) for r in read_found(frame, dets, src)]
            m, right = match_centre_rule([p for p in preds if p[1] is not None], labels)
            t.labels += len(labels)
            t.found_right += m
            t.found_any += _any_value(preds, labels)
            t.preds += sum(p[1] is not None for p in preds)
            t.preds_right += right
    return {src: t.as_dict() for src, t in tallies.items()}


def eval_synthetic(seed: int, count: int, det, conf: float, imgsz: int | None) -> dict:
    """Per-class P/R of the detector's whole-frame pass (IoU >= 0.5), and on the dice the reader
    boxes: value right by the reader (the shipped rule; unsure apart), by the detector's class and
    by the pip counter, and colour right."""
    tp, fp, fn = Counter(), Counter(), Counter()
    val_reader = reader_unsure = val_net = val_pip = val_pip_none = col_ok = col_n = dice_matched = 0
    colour_confusion: dict[str, Counter] = defaultdict(Counter)
    for i in range(count):
        r = render_image(seed, i)
        gts = r.labels
        dets = det.detect(r.image, conf=conf, imgsz=imgsz)
        used = [False] * len(gts)
        gt_boxes = np.array([g.box for g in gts], np.float32).reshape(-1, 4)
        for d in dets:
            ok = False
            if len(gts):
                ious = iou_one_to_many(np.array(d.box, np.float32), gt_boxes)
                for j in np.argsort(-ious):
                    if ious[j] < 0.5:
                        break
                    if not used[j] and CLASSES[gts[j].cls] == d.cls:
                        used[j], ok = True, True
                        break
            (tp if ok else fp)[d.cls] += 1
        for j, g in enumerate(gts):
            if not used[j]:
                fn[CLASSES[g.cls]] += 1
        # Value and colour on dice matched by box alone (reading, not finding), as the reader reads them.
        readings = read_dice(r.image, det, conf=conf)
        for g in gts:
            if CLASSES[g.cls] not in DIE_CLASSES:
                continue
            best = None
            for rd in readings:
                iou = iou_one_to_many(np.array(g.box, np.float32), np.array([rd.box], np.float32))[0]
                if iou >= 0.5 and (best is None or iou > best[0]):
                    best = (iou, rd)
            if best is None:
                continue
            rd = best[1]
            dice_matched += 1
            gv = int(CLASSES[g.cls][4:])
            val_reader += rd.value == gv
            reader_unsure += rd.value is None
            val_net += rd.net_value == gv
            val_pip += rd.pip_value == gv
            val_pip_none += rd.pip_value is None
            if g.color:
                col_n += 1
                col_ok += rd.color == g.color
                colour_confusion[g.color][rd.color] += 1
    per_class = {}
    for c in CLASSES:
        n_gt = tp[c] + fn[c]
        n_pr = tp[c] + fp[c]
        per_class[c] = {"precision": round(tp[c] / max(n_pr, 1), 4), "recall": round(tp[c] / max(n_gt, 1), 4),
                        "labels": n_gt, "predictions": n_pr}
    return {"images": count, "seed": seed, "per_class": per_class,
            "dice_matched": dice_matched,
            "value_accuracy_reader": round(val_reader / max(dice_matched, 1), 4),
            "reader_unsure": round(reader_unsure / max(dice_matched, 1), 4),
            "value_accuracy_net": round(val_net / max(dice_matched, 1), 4),
            "value_accuracy_pips": round(val_pip / max(dice_matched, 1), 4),
            "pips_undecided": round(val_pip_none / max(dice_matched, 1), 4),
            "color_accuracy": round(col_ok / max(col_n, 1), 4),
            "color_confusion": {k: dict(v) for k, v in colour_confusion.items()}}


def eval_quarx(seed: int, count: int, det, conf: float) -> dict:
    """Per method, close-ups and tables apart: the share of images whose total is exact, unsure
    (no total: "auto" says so rather than guess) and wrong, and the mean error of the totals given."""
    out: dict = {}
    for kind in ("quarx_close", "quarx"):
        n = count // 2
        tally: dict[str, Counter] = defaultdict(Counter)
        errs: dict[str, list[int]] = defaultdict(list)
        for i in range(n):
            r = render_image(seed, i, kind=kind)
            truth = sum(1 for g in r.labels if CLASSES[g.cls] == "sphere")
            for method in ("net", "auto"):
                got = count_quarx(r.image, det, conf=conf, method=method)
                if not got.sure:
                    tally[method]["unsure"] += 1
                    continue
                tally[method]["exact" if got.spheres == truth else "wrong"] += 1
                errs[method].append(got.spheres - truth)
        out[kind] = {"images": n, **{m: {"exact": round(tally[m]["exact"] / max(n, 1), 4),
                                          "unsure": round(tally[m]["unsure"] / max(n, 1), 4),
                                          "wrong": round(tally[m]["wrong"] / max(n, 1), 4),
                                          "mean_abs_error": round(float(np.mean(np.abs(errs[m]))), 3) if errs[m] else None}
                                      for m in ("net", "auto")}}
    return out


def main_eval(args) -> int:
    det = load_detector(args.model)
    t0 = time.time()
    res: dict = {"model": str(det.path), "imgsz": args.imgsz or det.imgsz, "conf": args.conf}
    root = args.real_dir or real_dice.REAL_DICE_DIR
    if (root / "split.csv").exists():
        res["real_" + args.split] = eval_real(root, args.split, det, args.conf)
        print(json.dumps({"real_" + args.split: res["real_" + args.split]}), flush=True)
    if args.synthetic_count > 0:
        res["synthetic"] = eval_synthetic(args.synthetic_seed, args.synthetic_count, det, args.conf, args.imgsz)
        print(json.dumps({"synthetic": {k: v for k, v in res["synthetic"].items() if k != "color_confusion"}}),
              flush=True)
    if args.quarx_count > 0:
        res["quarx"] = eval_quarx(args.synthetic_seed + 1, args.quarx_count, det, 0.4)
        print(json.dumps({"quarx": res["quarx"]}), flush=True)
    res["seconds"] = round(time.time() - t0, 1)
    if args.out:
        args.out.write_text(json.dumps(res, indent=1))
    return 0
