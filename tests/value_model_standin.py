"""A tiny stand-in die value model (ONNX) for tests that teach dice before the shipped
models/die_values.onnx is installed: the same inputs and outputs (N x 3 x 32 x 32 crops ->
7 logits and 64 features), fixed random weights, so teaching runs end to end and
deterministically. It reads no die well; tests check the flow, not the accuracy.

Built with the `onnx` package (the train extra); tests that need it skip without it.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from vision.detector.die_crop import CROP_SIZE

SHIPPED = Path(__file__).resolve().parent.parent / "models" / "die_values.onnx"


def write_standin(path: Path, seed: int = 0) -> Path:
    """An ONNX file: crops -> (logits N x 7, features N x 64), both linear in the pooled crop."""
    onnx = pytest.importorskip("onnx", reason="no models/die_values.onnx yet, and the stand-in value model "
                               "needs the onnx package (pip install -e '.[train]')")
    from onnx import TensorProto, helper, numpy_helper

    rng = np.random.default_rng(seed)
    w1 = (rng.standard_normal((3 * 8 * 8, 64)) * 0.3).astype(np.float32)
    w2 = (rng.standard_normal((64, 7)) * 0.5).astype(np.float32)
    b2 = np.array([1.0, 0, 0, 0, 0, 0, 0], np.float32)
    k = CROP_SIZE // 8
    nodes = [
        helper.make_node("AveragePool", ["crops"], ["pooled"], kernel_shape=[k, k], strides=[k, k]),
        helper.make_node("Flatten", ["pooled"], ["flat"], axis=1),
        helper.make_node("MatMul", ["flat", "w1"], ["hidden"]),
        helper.make_node("Relu", ["hidden"], ["features"]),
        helper.make_node("MatMul", ["features", "w2"], ["scaled"]),
        helper.make_node("Add", ["scaled", "b2"], ["logits"]),
    ]
    graph = helper.make_graph(
        nodes, "standin_die_values",
        [helper.make_tensor_value_info("crops", TensorProto.FLOAT, ["n", 3, CROP_SIZE, CROP_SIZE])],
        [helper.make_tensor_value_info("logits", TensorProto.FLOAT, ["n", 7]),
         helper.make_tensor_value_info("features", TensorProto.FLOAT, ["n", 64])],
        [numpy_helper.from_array(w1, "w1"), numpy_helper.from_array(w2, "w2"), numpy_helper.from_array(b2, "b2")])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    onnx.checker.check_model(model)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(model.SerializeToString())
    return path


def value_model_path(tmp_path: Path) -> Path:
    """The shipped value model when installed, else a stand-in written under tmp_path."""
    return SHIPPED if SHIPPED.is_file() else write_standin(tmp_path / "standin_die_values.onnx")
