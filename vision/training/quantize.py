"""Quantise the detector to 8 bits for the CPU (onnxruntime static quantisation).

    python -m vision.training.quantize [--src models/detector.onnx] [--out models/detector_int8.onnx]
    TABLESIGHT_MODEL=models/detector_int8.onnx tablesight dice photo.jpg   # to read with it

Weights per channel in int8, activations in uint8 (QOperator: the x86 kernels without VNNI are
fast only for that pair), calibrated on the real-dice-webcam *train* photos (never the valid
split) and, with --renders, varied renders of a seed no test bed uses. The detection head's last
steps stay in float: its output holds box coordinates in pixels beside class scores in 0..1 in
one tensor, and one 8-bit scale for both wipes out the scores (every box lost, measured). Its
convolutions, but for the last one of each branch, are quantised. Measured for detector v4
(models/MODEL_CARD.md): 1.54x faster than the float pass, 1.6-2.6 points fewer hold-out dice
read right or more wrong answers, whatever the calibration: not shipped as the default.
Histogram methods (--method Percentile, Entropy) need calibration frames of one shape.
"""
from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

import cv2
import numpy as np
import onnx
from onnxruntime.quantization import (CalibrationDataReader, CalibrationMethod, QuantFormat, QuantType,
                                      quantize_static)
from onnxruntime.quantization.shape_inference import quant_pre_process

from vision.detector.model import Detector
from vision.synth import render_image
from vision.training import real_dice

MODELS = Path(__file__).resolve().parents[2] / "models"
CALIBRATION_SEED = 16
HEAD = "/model.23/"  # the Detect head of the exported yolo11n graph


class _Frames(CalibrationDataReader):
    """The detector's own preprocessing of each calibration frame."""

    def __init__(self, det: Detector, frames: list[np.ndarray]):
        self._blobs = iter([{det.input_name: det.preprocess(f)[0]} for f in frames])

    def get_next(self):
        return next(self._blobs, None)


def float_nodes(model: onnx.ModelProto) -> list[str]:
    """The head's nodes kept in float: all but its convolutions, and each branch's last conv
    (the one that writes the box or class values)."""
    out = []
    for node in model.graph.node:
        if not node.name.startswith(HEAD):
            continue
        last_conv = node.op_type == "Conv" and node.name.split("/")[-2].endswith(".2")
        if node.op_type != "Conv" or last_conv:
            out.append(node.name)
    return out


def calibration_frames(photos: int, renders: int) -> list[np.ndarray]:
    """The first `photos` real *train* photos, and `renders` varied renders of CALIBRATION_SEED
    (no test bed uses it) at 640x480, half of them cut to a 320 px tile as the sliced reader sees."""
    root = real_dice.REAL_DICE_DIR
    frames = [cv2.imread(str(root / "images" / n)) for n in real_dice.split_names(root, "train")[:photos]]
    for i in range(renders):
        img = render_image(CALIBRATION_SEED, i, width=640, height=480, kind="dice" if i % 3 else "mixed",
                           varied=True).image
        frames.append(img if i % 2 else img[80:400, 160:480])
    return frames


def quantise(src: Path, out: Path, calibration: int = 24, renders: int = 0, method: str = "MinMax") -> Path:
    det = Detector(src)
    frames = calibration_frames(calibration, renders)
    with tempfile.TemporaryDirectory() as tmp:
        pre = Path(tmp) / "pre.onnx"
        quant_pre_process(str(src), str(pre), skip_symbolic_shape=True)
        quantize_static(str(pre), str(out), _Frames(det, frames), quant_format=QuantFormat.QOperator,
                        per_channel=True, activation_type=QuantType.QUInt8, weight_type=QuantType.QInt8,
                        nodes_to_exclude=float_nodes(onnx.load(str(pre))),
                        calibrate_method=CalibrationMethod[method])
    return out


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--src", type=Path, default=MODELS / "detector.onnx")
    ap.add_argument("--out", type=Path, default=MODELS / "detector_int8.onnx")
    ap.add_argument("--calibration", type=int, default=24, help="train photos to calibrate on")
    ap.add_argument("--renders", type=int, default=0, help="varied renders to calibrate on as well")
    ap.add_argument("--method", choices=[m.name for m in CalibrationMethod], default="MinMax",
                    help="how activation ranges are set from the calibration frames")
    args = ap.parse_args(argv)
    print(quantise(args.src, args.out, args.calibration, args.renders, args.method))


if __name__ == "__main__":
    main()
