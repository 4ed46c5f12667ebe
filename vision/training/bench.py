"""Side-by-side speed: our onnxruntime path vs ultralytics predict (or OpenCV dnn) on the same frames."""
from __future__ import annotations

import json
import time
from pathlib import Path

import cv2
import numpy as np

from vision.detector import load_detector, read_dice
from vision.detector.die_values import load_value_model
from vision.detector.profile import DiceProfile
from vision.detector.second_detector import load_second_detector
from vision.detector.taught_boxes import FEATURES, SCALES, ScoreHead
from vision.synth import render_image
from vision.training import real_dice

ROOT = Path(__file__).resolve().parents[2]


def bench_frames(n: int) -> list[np.ndarray]:
    """640x480 frames: the real valid photos when present, else synthetic renders."""
    root = real_dice.REAL_DICE_DIR
    if (root / "split.csv").exists():
        names = real_dice.split_names(root, "valid")[:n]
        return [cv2.imread(str(root / "images" / nm)) for nm in names]
    return [cv2.resize(render_image(7, i).image, (640, 480)) for i in range(n)]


def round_medians(fns, frames: list[np.ndarray], rounds: int = 5, warmup: int = 3) -> np.ndarray:
    """Median ms per frame of each function in each round (rounds x functions). In a round each
    function runs on every frame in turn, in an order that rotates from round to round, so a
    change of load on a shared machine hits every function alike and cancels out of the per-round
    ratios. (Taking turns frame by frame was unfair: torch's OpenMP threads keep spinning after a
    predict and slowed whichever call came next.)"""
    for f in frames[:warmup]:
        for fn in fns:
            fn(f)
    out = np.zeros((rounds, len(fns)))
    for r in range(rounds):
        for k in np.roll(np.arange(len(fns)), r):
            times = []
            for f in frames:
                t = time.perf_counter()
                fns[k](f)
                times.append((time.perf_counter() - t) * 1000)
            out[r, k] = np.median(times)
    return out


def _ultralytics_predict(pt: Path, imgsz: int, threads: int):
    from vision.training.train import _threads, offline_env

    offline_env(threads)
    from ultralytics import YOLO

    _threads(threads)
    model = YOLO(str(pt))
    return lambda f: model.predict(f, imgsz=imgsz, device="cpu", verbose=False, conf=0.25, iou=0.5,
                                   agnostic_nms=True)


def _opencv_dnn(path: Path, imgsz: int):
    from vision.detector.geometry import letterbox

    net = cv2.dnn.readNetFromONNX(str(path))

    def run(f):
        img, _ = letterbox(f, imgsz)
        net.setInput(cv2.dnn.blobFromImage(img, 1 / 255.0, swapRB=True))
        return net.forward()

    return run


def main_bench(args) -> int:
    det = load_detector(args.model, threads=args.threads)
    frames = bench_frames(args.frames)
    pt = args.pt or ROOT / "models" / "detector.pt"
    try:
        other = _ultralytics_predict(pt, det.imgsz, args.threads) if pt.exists() else None
        kind = "ultralytics_predict"
    except ImportError:
        other = None
    if other is None:
        try:
            other, kind = _opencv_dnn(det.path, det.imgsz), "opencv_dnn"
        except cv2.error:
            other, kind = None, ""
    # The whole reader, and the same without the second detector's boxes (what they cost).
    fns = [lambda f: det.detect(f), lambda f: read_dice(f, det), lambda f: read_dice(f, det, second=False)]
    if det.has_features:
        # A profile with a taught value layer (on the classifier's features, read over each
        # crop's eight symmetries) and taught detector scores (the second detector's too, where
        # one with feature outputs is installed): all zero, the passes of taught ones.
        values = load_value_model()
        width = values.features if values is not None else 0  # no classifier: the layer is never read
        second = load_second_detector()

        def zero_score(digest: str) -> ScoreHead:
            return ScoreHead(np.zeros((SCALES, FEATURES), np.float32), np.zeros(SCALES, np.float32), digest)
        taught = DiceProfile("", head=(np.zeros((7, width), np.float32), np.zeros(7, np.float32)),
                             score_head=zero_score(det.digest), symmetric=True,
                             second_score_head=zero_score(second.digest) if second and second.has_features else None)
        fns.append(lambda f: read_dice(f, det, profile=taught))
    other_at = len(fns)
    fns += [other] if other else []
    per_round = round_medians(fns, frames, args.rounds)
    ms = np.median(per_round, axis=0)
    res = {"frames": len(frames), "frame_size": f"{frames[0].shape[1]}x{frames[0].shape[0]}",
           "imgsz": det.imgsz, "input": "any shape" if det.dynamic else f"{det.imgsz}x{det.imgsz}",
           "threads": args.threads, "rounds": args.rounds, "onnxruntime_detect_ms": round(float(ms[0]), 2),
           "whole_dice_path_ms": round(float(ms[1]), 2),
           "whole_dice_path_first_detector_only_ms": round(float(ms[2]), 2),
           "second_detector_cost": round(float(np.median(per_round[:, 1] / per_round[:, 2])), 2)}
    if det.has_features:
        res.update({"whole_dice_path_taught_ms": round(float(ms[3]), 2),
                    # against the untaught read: both ask the second detector
                    "taught_cost": round(float(np.median(per_round[:, 3] / per_round[:, 1])), 2)})
    if other is not None:
        ratios = per_round[:, other_at] / per_round[:, 0]
        res.update({f"{kind}_ms": round(float(ms[other_at]), 2),
                    # The median of the rounds' own ratios: each round's pair ran under the same load.
                    f"speedup_vs_{kind}": round(float(np.median(ratios)), 2),
                    "speedup_range": [round(float(ratios.min()), 2), round(float(ratios.max()), 2)]})
        if kind == "ultralytics_predict":
            res["ultralytics_weights"] = str(pt)
    print(json.dumps(res))
    if getattr(args, "out", None):
        Path(args.out).write_text(json.dumps(res, indent=1) + "\n")
    return 0
