"""Side-by-side speed: our onnxruntime path vs ultralytics predict (or OpenCV dnn) on the same frames."""
from __future__ import annotations

import json
import time
from pathlib import Path

import cv2
import numpy as np

from vision.detector import load_detector, read_dice
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


def median_ms(fns, frames: list[np.ndarray], warmup: int = 3) -> list[float]:
    """Median ms per frame of each function, timed in blocks A B C ... A B: our paths run
    before and after the other one and their medians pool both blocks, so load drift hits
    all alike. (Taking turns frame by frame was unfair: torch's OpenMP threads keep spinning
    after a predict and slowed whichever call came next.)"""
    for f in frames[:warmup]:
        for fn in fns:
            fn(f)
    times: list[list[float]] = [[] for _ in fns]
    order = list(range(len(fns))) + list(range(len(fns) - 1))
    for k in order:
        for f in frames:
            t = time.perf_counter()
            fns[k](f)
            times[k].append((time.perf_counter() - t) * 1000)
    return [float(np.median(t)) for t in times]


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
    fns = [lambda f: det.detect(f), lambda f: read_dice(f, det)] + ([other] if other else [])
    ms = median_ms(fns, frames)
    ours, whole = ms[0], ms[1]
    res = {"frames": len(frames), "frame_size": f"{frames[0].shape[1]}x{frames[0].shape[0]}",
           "imgsz": det.imgsz, "threads": args.threads, "onnxruntime_detect_ms": round(ours, 2),
           "whole_dice_path_ms": round(whole, 2)}
    if other is not None:
        res.update({f"{kind}_ms": round(ms[2], 2), f"speedup_vs_{kind}": round(ms[2] / ours, 2)})
        if kind == "ultralytics_predict":
            res["ultralytics_weights"] = str(pt)
    print(json.dumps(res))
    if getattr(args, "out", None):
        Path(args.out).write_text(json.dumps(res, indent=1) + "\n")
    return 0
