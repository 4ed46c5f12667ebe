"""The die reader as a user meets it, measured on pictures it never trained on.

Test beds: the real webcam photos (`datasets/real-dice-webcam`, any split), the hold-out render
style (`vision.synth.holdout_dice`, never trained on) and, to choose a setting without looking at
the hold-out, fresh renders of the training looks (`--renders`, seed 98: no training set uses
it; `--table-dice`, seed 99: the ray-cast look's). A prediction is right when its box holds a labelled die's centre and the values agree (the
real set's README rule), each label matched at most once. Reported: recall (dice found with the right value), precision (sure
answers that are right), dice found at all, unsure answers, colour right, recall by die size.
"""
from __future__ import annotations

import json
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path


from vision.detector import load_detector, read_dice, read_image
from vision.detector.classes import CLASSES, die_value
from vision.detector.die_values import load_value_model
from vision.detector.geometry import holds_centre
from vision.detector.second_detector import load_second_detector
from vision.synth import render_image
from vision.synth.holdout_dice import render_holdout
from vision.synth.table_dice import render_table_dice
from vision.training import real_dice

SIZE_BINS = (0, 20, 35, 60, 100, 10_000)  # die side in pixels


def _bin(side: float) -> str:
    for lo, hi in zip(SIZE_BINS, SIZE_BINS[1:]):
        if lo <= side < hi:
            return f"{lo}-{hi}px" if hi < 10_000 else f">={lo}px"
    return "?"


@dataclass
class ReaderTally:
    """Counts over a test bed; as_dict() gives the rates."""

    labels: int = 0
    found_any: int = 0
    found_right: int = 0
    answers: int = 0
    sure: int = 0
    sure_right: int = 0
    colour_n: int = 0
    colour_right: int = 0
    colour_unsure: int = 0
    by_size: dict = field(default_factory=lambda: defaultdict(lambda: [0, 0]))
    value_confusion: dict = field(default_factory=lambda: defaultdict(lambda: defaultdict(int)))
    colour_confusion: dict = field(default_factory=lambda: defaultdict(lambda: defaultdict(int)))
    mistakes: list = field(default_factory=list)
    # (classifier's value, its probability, the labelled value or None for no die) per answer:
    # the precision-recall curves per value class (vision.training.reader_pictures).
    scored: list = field(default_factory=list)
    per_value: dict = field(default_factory=lambda: defaultdict(int))  # labelled dice per value
    causes: dict = field(default_factory=lambda: defaultdict(int))  # why a die was not read right (`cause`)
    # Dice whose pips the picture does not resolve (`vision.synth.readability`), by outcome:
    # "right", "unsure", "wrong" (a sure other value) or "missed". They count in every figure
    # above too; this says how many of those figures such dice make.
    unreadable: dict = field(default_factory=lambda: defaultdict(int))

    def add(self, name: str, readings, labels: list[tuple[tuple, int, str | None, float]],
            ignore: list[tuple] = (), unreadable: frozenset[int] = frozenset()) -> None:
        """labels: (box, value, colour or None, side in px); a reading whose box holds no label's
        centre and whose centre lies in an `ignore` box (an object with no label) is not counted;
        `unreadable`: the indices of the labels whose pips the picture does not resolve."""
        readings = [r for r in readings if not _on_ignored(r.box, labels, ignore)]
        self.labels += len(labels)
        self.answers += len(readings)
        for _, value, _, _ in labels:
            self.per_value[value] += 1
        used_any = [False] * len(labels)
        used = [False] * len(labels)
        for r in sorted(readings, key=lambda r: -r.confidence):
            if r.value is not None:
                self.sure += 1
            best = -1
            best_d = 1e18
            for i, (lb, _, _, _) in enumerate(labels):
                if used_any[i] or not holds_centre(r.box, lb):
                    continue
                cx, cy = (lb[0] + lb[2]) / 2, (lb[1] + lb[3]) / 2
                d = ((r.box[0] + r.box[2]) / 2 - cx) ** 2 + ((r.box[1] + r.box[3]) / 2 - cy) ** 2
                if d < best_d:
                    best, best_d = i, d
            truth = labels[best][1] if best >= 0 else None
            if r.crop_value is not None:
                self.scored.append((r.crop_value, r.crop_prob, truth))
            if best < 0:
                if r.value is not None:
                    self.mistakes.append((name, r.box, "no die here", r.value))
                continue
            used_any[best] = True
            _, value, colour, _ = labels[best]
            self.value_confusion[value][r.value if r.value is not None else "unsure"] += 1
            if colour is not None:
                self.colour_n += 1
                self.colour_right += r.color == colour
                self.colour_unsure += r.color is None
                self.colour_confusion[colour][r.color] += 1
            if r.value == value:
                used[best] = True
                self.sure_right += 1
            elif r.value is not None:
                self.mistakes.append((name, r.box, f"read {r.value}, is {value}", r.value))
            if best in unreadable:
                self.unreadable["right" if r.value == value else "unsure" if r.value is None else "wrong"] += 1
            if r.value != value:
                self.causes[cause(r, value)] += 1
        if missed := used_any.count(False):
            self.causes["missed: no reading on the die"] += missed
        self.unreadable["missed"] += sum(not used_any[i] for i in unreadable)
        self.found_any += sum(used_any)
        self.found_right += sum(used)
        for (lb, _, _, side), ok in zip(labels, used):
            b = self.by_size[_bin(side)]
            b[0] += 1
            b[1] += ok

    def as_dict(self) -> dict:
        n = max(self.labels, 1)
        return {"labels": self.labels, "recall": round(self.found_right / n, 4),
                "precision_of_sure_answers": round(self.sure_right / max(self.sure, 1), 4),
                "answers_right": round(self.sure_right / max(self.answers, 1), 4),
                "found_any": round(self.found_any / n, 4), "answers": self.answers,
                "unsure_answers": self.answers - self.sure, "wrong_sure_answers": self.sure - self.sure_right,
                "colour_right": round(self.colour_right / max(self.colour_n, 1), 4) if self.colour_n else None,
                "colours": {"right": self.colour_right, "unsure": self.colour_unsure,
                            "wrong": self.colour_n - self.colour_right - self.colour_unsure},
                "recall_by_size": {k: round(v[1] / max(v[0], 1), 4) for k, v in sorted(self.by_size.items())},
                "dice_by_size": {k: v[0] for k, v in sorted(self.by_size.items())},
                "value_confusion": {str(k): dict(v) for k, v in sorted(self.value_confusion.items())},
                "colour_confusion": {k: dict(v) for k, v in sorted(self.colour_confusion.items())},
                "not_right_causes": dict(sorted(self.causes.items(), key=lambda kv: -kv[1])),
                "unreadable_dice": {k: self.unreadable[k] for k in ("right", "unsure", "wrong", "missed")}}


def _on_ignored(box, labels, ignore) -> bool:
    """Whether a reading's `box` holds no label's centre and its centre lies in an ignore box."""
    return any(holds_centre(b, box) for b in ignore) and not any(holds_centre(box, lb) for lb, _, _, _ in labels)


def cause(r, value: int) -> str:
    """Why a reading on a die of `value` is not that value, as far as the reading tells (its
    classifier's value and the pip count): the first of these that holds."""
    if r.value is not None:
        return "wrong: a sure other value"
    if r.crop_value != value:
        return "unsure: the classifier read another value"
    if r.pip_value is None:
        return "unsure: no pip count, the classifier not sure enough alone"
    if r.pip_value == value:
        return "unsure: the pip count agrees, the classifier not sure enough or the wider look disagrees"
    return "unsure: the pip counter found fewer pips" if r.pip_value < value else "unsure: the pip counter found more pips"


def eval_real(root: Path, split: str, det, **kw) -> ReaderTally:
    t = ReaderTally()
    for name in real_dice.split_names(root, split):
        frame = read_image(root / "images" / name)
        h, w = frame.shape[:2]
        labels = []
        for lb in real_dice.read_labels(root, name, w, h):
            x1, y1, x2, y2 = real_dice.face_box(lb, w, h)
            labels.append((lb.box, lb.value, None, max(x2 - x1, y2 - y1)))
        t.add(name, read_dice(frame, det, **kw), labels)
    return t


def eval_holdout(seed: int, count: int, det, **kw) -> ReaderTally:
    t = ReaderTally()
    for i in range(count):
        r = render_holdout(seed, i)
        labels = [(d.box, d.value, d.color, d.side) for d in r.dice]
        t.add(f"holdout_{seed}_{i}", read_dice(r.image, det, **kw), labels)
    return t


def _labels(dice) -> list[tuple[tuple, int, None, float]]:
    """A renderer's die labels as the tally takes them (values only: no colour is scored here)."""
    return [(lb.box, die_value(CLASSES[lb.cls]), None, max(lb.box[2] - lb.box[0], lb.box[3] - lb.box[1]))
            for lb in dice]


def _unreadable(dice) -> frozenset[int]:
    """The indices of the labels whose pips the picture does not resolve (`Label.pips_seen`)."""
    return frozenset(i for i, lb in enumerate(dice) if not lb.pips_seen)


def eval_renders(seed: int, count: int, det, **kw) -> ReaderTally:
    """Dice scenes of the training renderer, all with the varied looks, at 640x480."""
    t = ReaderTally()
    for i in range(count):
        r = render_image(seed, i, width=640, height=480, kind="dice", varied=True)
        dice = [lb for lb in r.labels if die_value(CLASSES[lb.cls]) is not None]
        t.add(f"render_{seed}_{i}", read_dice(r.image, det, **kw), _labels(dice))
    return t


def eval_table_dice(seed: int, count: int, det, **kw) -> ReaderTally:
    """Ray-cast dice (`vision.synth.table_dice`, a training look since 2026-12-07) at 640x480,
    every labelled die counted, whether its pips are resolved or not; a reading on a die with no
    label (cut by the picture's edge or mostly hidden) counted neither way."""
    t = ReaderTally()
    for i in range(count):
        r = render_table_dice(seed, i, size=(640, 480))
        t.add(f"table_dice_{seed}_{i}", read_dice(r.image, det, **kw), _labels(r.labels), r.ignore,
              _unreadable(r.labels))
    return t


def main() -> None:
    import argparse

    ap = argparse.ArgumentParser(description="measure the die reader (python -m vision.training.reader_eval)")
    ap.add_argument("--model", type=Path, help="detector ONNX (default models/detector.onnx)")
    ap.add_argument("--value-model", type=Path, help="value classifier ONNX (default models/die_values.onnx)")
    ap.add_argument("--real-dir", type=Path, default=real_dice.REAL_DICE_DIR)
    ap.add_argument("--splits", nargs="*", default=["valid"])
    ap.add_argument("--holdout-seed", type=int, default=77)
    ap.add_argument("--holdout-count", type=int, default=200)
    ap.add_argument("--renders", type=int, default=0, help="also this many training-look renders")
    ap.add_argument("--renders-seed", type=int, default=98)
    ap.add_argument("--table-dice", type=int, default=0, help="also this many ray-cast dice pictures")
    ap.add_argument("--table-dice-seed", type=int, default=99)
    ap.add_argument("--value-source", default="reader")
    ap.add_argument("--no-slice", action="store_true")
    ap.add_argument("--second-model", type=Path, help="second detector ONNX (default models/second_detector.onnx)")
    ap.add_argument("--no-second", action="store_true", help="read the first detector's boxes alone")
    ap.add_argument("--conf", type=float, default=0.25, help="the detector's threshold for a box")
    ap.add_argument("--out", type=Path)
    a = ap.parse_args()
    det = load_detector(a.model)
    second = False if a.no_second else load_second_detector(a.second_model) or False
    kw = {"value_source": a.value_source, "sliced": not a.no_slice, "conf": a.conf, "second": second,
          "value_model": load_value_model(a.value_model) if a.value_model else None}
    res: dict = {"detector": str(det.path), "value_model": str(a.value_model or "default"),
                 "second_detector": str(second.path) if second else None, **{
                     k: v for k, v in kw.items() if k not in ("value_model", "second")}}

    def keep(bed: str, tally: ReaderTally) -> None:
        """One bed's figures into the JSON, and onto stdout as it finishes (confusions left out)."""
        res[bed] = tally.as_dict()
        print(json.dumps({bed: {k: v for k, v in res[bed].items() if "confusion" not in k}}), flush=True)

    for split in a.splits:
        keep(f"real_{split}", eval_real(a.real_dir, split, det, **kw))
    if a.holdout_count:
        keep("holdout", eval_holdout(a.holdout_seed, a.holdout_count, det, **kw))
    if a.renders:
        keep("renders", eval_renders(a.renders_seed, a.renders, det, **kw))
    if a.table_dice:
        keep("table_dice", eval_table_dice(a.table_dice_seed, a.table_dice, det, **kw))
    if a.out:
        a.out.write_text(json.dumps(res, indent=1))


if __name__ == "__main__":
    main()
