"""Opening one of our ONNX models for onnxruntime on the CPU, the same way for every model."""
from __future__ import annotations

import os
from pathlib import Path

import onnxruntime as ort

from vision.detector.errors import NoModelError


def cpu_session(path: Path, missing: str, threads: int | None = None) -> ort.InferenceSession:
    """A CPU session for `path` (threads: TABLESIGHT_THREADS, default 2); NoModelError(missing)
    when the file is not there. A session may be run from several threads at once."""
    if not path.is_file():
        raise NoModelError(missing)
    opts = ort.SessionOptions()
    opts.intra_op_num_threads = threads or int(os.environ.get("TABLESIGHT_THREADS", "2"))
    opts.inter_op_num_threads = 1
    opts.log_severity_level = 3
    return ort.InferenceSession(str(path), opts, providers=["CPUExecutionProvider"])
