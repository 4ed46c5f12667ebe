"""How much "teach it your dice" helps, measured on photos the profile never saw.

Real: teach with the first K photos of the real-dice-webcam valid split, score on the rest of
that split. Synthetic: one dice set of the hold-out render style (a body colour, pip colour and
table no model trained on), teach with K photos, score on 200 more of that set. Before = the
shipped reader; after = the same reader with the profile. Writes the teaching folder exactly
as a user would (images/ + labels/ with `value cx cy w h [colour]`), so the file path is tested
too.
"""
from __future__ import annotations

import json
import tempfile
import time
from pathlib import Path

import cv2
import numpy as np

from vision.detector import load_detector, read_dice, read_image
from vision.detector.die_values import DieValueModel, load_value_model, softmax
from vision.detector.profile import DiceProfile
from vision.detector.value_rule import ValueRule
from vision.synth.holdout_dice import Style, render_holdout
from vision.teach import (DEFAULT_CONF, RULE_CHOICES, Photo, Score, TaughtDie, read_folder, read_seen, see,
                          teach)
from vision.training import real_dice
from vision.training.reader_eval import ReaderTally
from vision.yolo_labels import yolo_line

SYNTH_ONLY_MODEL = Path(__file__).resolve().parents[2] / "models" / "die_values_synth_only.onnx"
NEW_SET = Style(body="lavender", pip=1, cloth=0, cloth_bgr=(150, 190, 120))  # dark pips, green gingham
# Two more sets of the hold-out style, each with its own seed, so that one set's figure is not
# the whole story: mint with red pips on wood, charcoal with yellow pips on a grey check.
MORE_SETS = {"mint_red_wood": (Style(body="mint", pip=1, cloth=2, cloth_bgr=(60, 90, 140)), 41),
             "charcoal_yellow_check": (Style(body="charcoal", pip=2, cloth=1, cloth_bgr=(200, 200, 200)), 51)}

# Teaching as the page asks for it: every photo a roll of about ten dice, so that 5 photos hold
# about 50 (issue 14), not the test images' 1 to 8.
ROLL = 10
ROLLS_FROM = 1000


def _write(folder: Path, name: str, frame, lines: list[str]) -> None:
    (folder / "images").mkdir(parents=True, exist_ok=True)
    (folder / "labels").mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(folder / "images" / f"{name}.png"), frame)
    (folder / "labels" / f"{name}.txt").write_text("\n".join(lines) + "\n")


def _line(box, value: int, w: int, h: int, colour: str | None = None) -> str:
    return yolo_line(value, box, w, h) + (f" {colour}" if colour else "")


def real_case(k: int, det, model, root: Path = real_dice.REAL_DICE_DIR, pick: str = "first",
              teach_seed: int = 0) -> dict:
    """pick "first": the first k photos by name; "most": the k holding the most dice (a user
    teaching rolls many dice at once; ties by name). teach_seed: teaching's own (its jittered views)."""
    names = real_dice.split_names(root, "valid")
    if pick == "most":
        counts = {n: len(real_dice.read_labels(root, n, 1, 1)) for n in names}
        chosen = set(sorted(names, key=lambda n: (-counts[n], n))[:k])
        teach_names, test_names = [n for n in names if n in chosen], [n for n in names if n not in chosen]
    else:
        teach_names, test_names = names[:k], names[k:]
    with tempfile.TemporaryDirectory() as tmp:
        for n in teach_names:
            frame = read_image(root / "images" / n)
            h, w = frame.shape[:2]
            _write(Path(tmp), Path(n).stem, frame,
                   [_line(lb.box, lb.value, w, h) for lb in real_dice.read_labels(root, n, w, h)])
        t0 = time.perf_counter()
        prof = teach(read_folder(Path(tmp)), det, model, seed=teach_seed)
        secs = time.perf_counter() - t0
    out = {"teach_photos": k, "pick": pick, "teach_seed": teach_seed, "test_photos": len(test_names),
           "seconds": round(secs, 1),
           "report": prof.report}
    for label, p in (("before", None), ("after", prof)):
        t = ReaderTally()
        for n in test_names:
            frame = read_image(root / "images" / n)
            h, w = frame.shape[:2]
            labels = [(lb.box, lb.value, None, 0.0) for lb in real_dice.read_labels(root, n, w, h)]
            t.add(n, read_dice(frame, det, value_model=model, profile=p), labels)
        out[label] = {k2: v for k2, v in t.as_dict().items() if "confusion" not in k2 and "size" not in k2}
    return out


def teaching_render(style: Style, seed: int, i: int, dice: int | None = None):
    """The i-th teaching photo of a set: its i-th picture, or (dice given) a roll of that many dice
    (as many as fit; pictures from ROLLS_FROM on, never among the test pictures)."""
    if dice is None:
        return render_holdout(seed, i, style=style)
    return render_holdout(seed, ROLLS_FROM + i, style=style, n_dice=dice)


def teach_rendered(renders: list, det, model, teach_seed: int = 0) -> tuple[DiceProfile, float]:
    """A profile taught on rendered photos written as a user writes a teaching folder (images/ +
    labels/ with `value cx cy w h colour`), and the seconds teaching took."""
    with tempfile.TemporaryDirectory() as tmp:
        for i, r in enumerate(renders):
            h, w = r.image.shape[:2]
            _write(Path(tmp), f"photo{i}", r.image, [_line(d.box, d.value, w, h, d.color) for d in r.dice])
        t0 = time.perf_counter()
        prof = teach(read_folder(Path(tmp)), det, model, seed=teach_seed)
        return prof, time.perf_counter() - t0


def synthetic_case(k: int, det, model, count: int = 200, style: Style = NEW_SET, seed: int = 31,
                   dice: int | None = None, teach_seed: int = 0) -> dict:
    """dice: each teaching photo a roll of that many dice instead of the test images' 1 to 8."""
    prof, secs = teach_rendered([teaching_render(style, seed, i, dice) for i in range(k)], det, model, teach_seed)
    out = {"teach_photos": k, "test_images": count, "teach_seed": teach_seed, "style": style.__dict__,
           "seconds": round(secs, 1),
           "dice_per_teaching_photo": dice or "1-8", "report": prof.report}
    for label, p in (("before", None), ("after", prof)):
        t = ReaderTally()
        for i in range(k, k + count):
            r = render_holdout(seed, i, style=style)
            t.add(f"s{i}", read_dice(r.image, det, value_model=model, profile=p),
                  [(d.box, d.value, d.color, d.side) for d in r.dice])
        out[label] = {k2: v for k2, v in t.as_dict().items() if "confusion" not in k2}
    return out


def shipped_rule_check(det, root: Path = real_dice.REAL_DICE_DIR) -> dict:
    """The value rules teaching may choose, and overrides above and below the shipped one, on the
    real *train* split read by the classifier that never saw a real photo
    (models/die_values_synth_only.onnx): is the shipped rule the right one for dice nobody has
    taught?"""
    model = DieValueModel(SYNTH_ONLY_MODEL)
    rng = np.random.default_rng(0)
    seen = []
    for n in real_dice.split_names(root, "train"):
        frame = read_image(root / "images" / n)
        h, w = frame.shape[:2]
        dice = [TaughtDie(lb.box, lb.value, None) for lb in real_dice.read_labels(root, n, w, h)]
        seen.append(see(Photo(n, frame, dice), det, model, rng))
    out = {"model": SYNTH_ONLY_MODEL.name, "split": "train"}
    overrides = [ValueRule(override=t) for t in (0.9, 0.98)]
    for rule in (*RULE_CHOICES, *overrides):
        score = Score()
        for sn in seen:
            read_seen(sn, softmax(sn.logits), softmax(sn.wide_logits), DEFAULT_CONF, rule, DiceProfile(model.digest), score)
        out[f"pip_check={rule.pip_check} sure={rule.sure} override={rule.override}"] = score.as_dict()
    return out


def main() -> None:
    import argparse

    ap = argparse.ArgumentParser(description="measure teaching (python -m vision.training.teach_eval)")
    ap.add_argument("--photos", type=int, nargs="+", default=[5, 10])
    ap.add_argument("--count", type=int, default=200, help="synthetic test images")
    ap.add_argument("--out", type=Path)
    ap.add_argument("--seed", type=int, default=0,
                    help="teaching's own seed (its jittered views); the profiles a user gets use 0")
    ap.add_argument("--rules-only", action="store_true",
                    help="only the shipped-rule check on the real train split, merged into --out")
    ap.add_argument("--rolls-only", action="store_true",
                    help=f"only the synthetic sets taught with rolls of {ROLL} dice, merged into --out")
    a = ap.parse_args()
    det, model = load_detector(), load_value_model()
    if model is None:
        raise SystemExit("no die value model installed (models/die_values.onnx)")
    if a.rules_only:
        res = json.loads(a.out.read_text()) if a.out and a.out.is_file() else {}
        res["shipped_rule_on_train_split"] = shipped_rule_check(det)
        print(json.dumps(res["shipped_rule_on_train_split"], indent=1))
        if a.out:
            a.out.write_text(json.dumps(res, indent=1))
        return
    res = json.loads(a.out.read_text()) if a.rolls_only and a.out and a.out.is_file() else {}
    for k in [] if a.rolls_only else a.photos:
        for pick in ("first", "most"):
            key = f"real_{k}" + ("" if pick == "first" else "_most_dice")
            res[key] = real_case(k, det, model, pick=pick, teach_seed=a.seed)
            print(json.dumps({key: res[key]}), flush=True)
        res[f"synthetic_{k}"] = synthetic_case(k, det, model, a.count, teach_seed=a.seed)
        print(json.dumps({f"synthetic_{k}": res[f"synthetic_{k}"]}), flush=True)
    k = min(a.photos)
    for name, (style, seed) in [] if a.rolls_only else MORE_SETS.items():
        res[f"{name}_{k}"] = synthetic_case(k, det, model, a.count, style, seed, teach_seed=a.seed)
        print(json.dumps({f"{name}_{k}": res[f"{name}_{k}"]}), flush=True)
    for name, (style, seed) in {"synthetic": (NEW_SET, 31), **MORE_SETS}.items():
        key = f"{name}_{k}_rolls_of_{ROLL}"
        res[key] = synthetic_case(k, det, model, a.count, style, seed, dice=ROLL, teach_seed=a.seed)
        print(json.dumps({key: res[key]}), flush=True)
    if not a.rolls_only:
        res["shipped_rule_on_train_split"] = shipped_rule_check(det)
    if a.out:
        a.out.write_text(json.dumps(res, indent=1))


if __name__ == "__main__":
    main()
