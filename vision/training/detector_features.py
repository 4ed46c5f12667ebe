"""Give an exported YOLO11 detector its per-scale features as further outputs, so that teaching
can fit a user's dice on them (vision.detector.taught_boxes).

The three outputs are the inputs of the last class layer of each scale (1 x 64 x h x w, finest
scale first); the detector's own output stays the first and is unchanged. Needs the onnx
package (the train extra); idempotent.

    python -m vision.training.detector_features models/detector.onnx
"""
from __future__ import annotations

import sys
from pathlib import Path

FEATURES = [f"/model.23/cv3.{k}/cv3.{k}.1/cv3.{k}.1.1/act/Mul_output_0" for k in range(3)]


def add_feature_outputs(path: Path) -> Path:
    import onnx

    model = onnx.load(str(path))
    have = {o.name for o in model.graph.output}
    produced = {out for node in model.graph.node for out in node.output}
    missing = [f for f in FEATURES if f not in produced]
    if missing:
        raise ValueError(f"{path} has no tensor {missing[0]}: not a YOLO11 detection head")
    for name in FEATURES:
        if name not in have:
            model.graph.output.append(onnx.helper.make_tensor_value_info(name, onnx.TensorProto.FLOAT, None))
    onnx.save(model, str(path))
    return path


if __name__ == "__main__":
    for arg in sys.argv[1:] or [str(Path(__file__).resolve().parents[2] / "models" / "detector.onnx")]:
        print(add_feature_outputs(Path(arg)))
