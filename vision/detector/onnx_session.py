"""Opening one of our ONNX models for onnxruntime on the CPU, the same way for every model,
and sharing each loaded model between callers."""
from __future__ import annotations

import hashlib
import os
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Generic, TypeVar

import onnxruntime as ort

from vision.detector.errors import NoModelError

M = TypeVar("M")


def model_digest(path: Path) -> str:
    """The first 16 hex digits of a model file's SHA-256: what a taught profile is bound to."""
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()[:16]


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


class SharedModels(Generic[M]):
    """One loaded model per file, shared by every caller (thread-safe).

    The file is `path`, else $`env`, else `default`; get() is None when no file is installed,
    so a reader can fall back to its classical counter instead of failing.
    """

    def __init__(self, make: Callable[[Path], M], env: str, default: Path):
        self.make, self.env, self.default = make, env, default
        self._loaded: dict[Path, M] = {}
        self._lock = threading.Lock()

    def path(self, path: str | Path | None = None) -> Path:
        return Path(path or os.environ.get(self.env, self.default))

    def get(self, path: str | Path | None = None) -> M | None:
        p = self.path(path)
        with self._lock:
            if p not in self._loaded:
                try:
                    self._loaded[p] = self.make(p)
                except NoModelError:
                    return None
            return self._loaded[p]
