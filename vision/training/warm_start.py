"""Rebuild a trainable ultralytics checkpoint from our own shipped ONNX detector.

The first detector was trained before checkpoints were kept, so only `models/detector.onnx`
survived. Its initializers carry the module names (`model.2.cv1.conv.weight`) with batch norm
fused into each convolution. A fused conv `w*x + b` is exactly the unfused conv followed by a
batch norm with mean 0, variance 1 - eps, scale 1 and shift b, so the network is recovered
bit for bit (up to float rounding) and training continues where it stopped instead of starting
from scratch. Nothing is downloaded: the architecture comes from ultralytics' own YAML.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np

from vision.detector.classes import CLASSES
from vision.training.train import MODELS, RUNS, offline_env


def onnx_weights(path: Path) -> dict[str, np.ndarray]:
    """The named conv weights and biases of an exported detector."""
    import onnx
    from onnx import numpy_helper

    m = onnx.load(str(path))
    return {i.name: numpy_helper.to_array(i) for i in m.graph.initializer
            if i.name.startswith("model.") and i.name.endswith((".weight", ".bias"))}


def rebuild(onnx_path: Path = MODELS / "detector.onnx", out: Path = RUNS / "warm" / "detector_from_onnx.pt",
            model_yaml: str = "yolo11n.yaml") -> Path:
    """Write a checkpoint ultralytics can train from, holding the ONNX model's weights."""
    offline_env(1)
    import torch
    from ultralytics.nn.tasks import DetectionModel

    weights = onnx_weights(onnx_path)
    model = DetectionModel(model_yaml, nc=len(CLASSES), verbose=False)
    modules = dict(model.named_modules())
    state = model.state_dict()
    loaded = 0
    for name, arr in weights.items():
        t = torch.from_numpy(arr.copy())
        if name in state and state[name].shape == t.shape:  # a plain conv with bias (head outputs)
            state[name].copy_(t)
            loaded += 1
            continue
        stem, kind = name.rsplit(".", 1)  # "model.2.cv1.conv", "weight" | "bias"
        parent = stem.rsplit(".", 1)[0]   # "model.2.cv1": holds .conv and .bn
        bn = modules.get(parent + ".bn")
        if kind == "weight":
            state[stem + ".weight"].copy_(t)
        elif bn is not None:
            state[parent + ".bn.weight"].fill_(1.0)
            state[parent + ".bn.bias"].copy_(t)
            state[parent + ".bn.running_mean"].zero_()
            state[parent + ".bn.running_var"].fill_(1.0 - bn.eps)
        else:
            raise KeyError(f"no place for {name} in {model_yaml}")
        loaded += 1
    model.load_state_dict(state)
    model.names = dict(enumerate(CLASSES))
    model.args = {"imgsz": 320}
    out.parent.mkdir(parents=True, exist_ok=True)
    torch.save({"model": model, "train_args": {}, "epoch": -1, "date": None, "version": None}, out)
    print(f"{loaded} tensors from {onnx_path.name} -> {out}")
    return out


def check(pt: Path, onnx_path: Path = MODELS / "detector.onnx", imgsz: int = 320) -> float:
    """Largest absolute difference between the checkpoint's and the ONNX model's raw outputs."""
    import onnxruntime as ort
    import torch

    x = np.random.default_rng(0).random((1, 3, imgsz, imgsz), dtype=np.float32)
    sess = ort.InferenceSession(str(onnx_path), providers=["CPUExecutionProvider"])
    ref = sess.run(None, {sess.get_inputs()[0].name: x})[0]
    model = torch.load(pt, weights_only=False)["model"].float().eval()
    with torch.no_grad():
        got = model(torch.from_numpy(x))[0].numpy()
    return float(np.abs(got - ref).max())


if __name__ == "__main__":
    p = rebuild()
    print("max |pt - onnx| on a random input:", check(p))
