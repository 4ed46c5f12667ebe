"""The YOLO detector run by onnxruntime: one reused session, our letterbox, decoding and NMS."""
from __future__ import annotations

import os
import threading
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from vision.detector.classes import CLASSES, DIE_CLASSES
from vision.detector.errors import NoModelError
from vision.detector.onnx_session import cpu_session, model_digest
from vision.detector.geometry import letterbox, nms, xyxy

STRIDE = 32  # yolo11's largest stride: a dynamic input's sides must be multiples of it
DEFAULT_MODEL = Path(__file__).resolve().parents[2] / "models" / "detector.onnx"


@dataclass(frozen=True)
class Detection:
    """One detected object: class name, box (x1, y1, x2, y2) in original pixels, score 0..1."""

    cls: str
    box: tuple[float, float, float, float]
    score: float
    # A box the die reader keeps only where its reading holds (`value_rule.weak_box_holds`),
    # whatever the threshold: a second detector's box (`second_detector`)
    weak: bool = False


def die_score(out: np.ndarray) -> np.ndarray:
    """"Is it a die" per row of the network's output: the sum of the six value scores (an unsure
    value spreads its score over neighbours and would fall under the threshold die by die)."""
    return np.minimum(out[:, 4:4 + len(DIE_CLASSES)].sum(1), 1.0)


class Detector:
    """A loaded ONNX model; detect() is safe to call from several threads at once."""

    def __init__(self, path: str | Path | None = None, threads: int | None = None,
                 names: tuple[str, ...] | None = None):
        """names: the model's own class names, for a model of other classes than the dice
        detector's (vision.detector.classes.CLASSES); its scores are then read as they are."""
        self.path = Path(path) if path else Path(os.environ.get("TABLESIGHT_MODEL", DEFAULT_MODEL))
        self.session = cpu_session(self.path, f"no model installed: {self.path} not found "
                                   "(train one with `tablesight train` or restore models/detector.onnx)", threads)
        inp = self.session.get_inputs()[0]
        self.input_name = inp.name
        # An exported model takes either one fixed square or any shape (`dynamic=True`); the
        # latter reads a 640x480 frame as 320x256, not 320x320, as ultralytics' predict does.
        self.dynamic = not isinstance(inp.shape[2], int)
        self.imgsz = 320 if self.dynamic else int(inp.shape[2])
        out = self.session.get_outputs()[0].shape
        self.num_classes = int(out[1]) - 4 if isinstance(out[1], int) else len(CLASSES)
        self.names = names or CLASSES[: self.num_classes]
        self.merge_dice = names is None
        # A detector exported with the features under each scale's last class layer as further
        # outputs (vision.training.detector_features) can be taught a user's dice (taught_boxes).
        self.output_name = self.session.get_outputs()[0].name
        self.has_features = len(self.session.get_outputs()) == 4
        self._digest: str | None = None

    @property
    def digest(self) -> str:
        """The first 16 hex digits of the model file's SHA-256 (what a taught score is bound to)."""
        if self._digest is None:
            self._digest = model_digest(self.path)
        return self._digest

    def preprocess(self, frame: np.ndarray, imgsz: int | None = None):
        size = imgsz or self.imgsz
        img, lb = letterbox(frame, size, STRIDE if self.dynamic else None)
        blob = np.ascontiguousarray(img[:, :, ::-1].transpose(2, 0, 1)[None], dtype=np.float32) / 255.0
        return blob, lb

    def raw(self, blob: np.ndarray) -> np.ndarray:
        """Network output (N, 4 + classes): cx, cy, w, h in input pixels, class scores."""
        return self.session.run([self.output_name], {self.input_name: blob})[0][0].T

    def raw_with_features(self, blob: np.ndarray) -> tuple[np.ndarray, list[np.ndarray]]:
        """raw()'s output and the three feature maps (1 x 64 x h x w, finest scale first)."""
        if not self.has_features:
            raise ValueError(f"{self.path.name} was exported without its feature outputs")
        out, *feats = self.session.run(None, {self.input_name: blob})
        return out[0].T, feats

    def decode(self, out: np.ndarray, lb, w: int, h: int, conf: float, iou: float,
               max_det: int = 300) -> list[Detection]:
        scores_all = out[:, 4:].copy()
        if self.merge_dice:  # one die class, scored by die_score, named by its likeliest value
            die = scores_all[:, :len(DIE_CLASSES)]
            best = die.argmax(1)
            merged = die_score(out)
            die[:] = 0
            die[np.arange(len(best)), best] = merged
        cls = scores_all.argmax(1)
        scores = scores_all[np.arange(len(cls)), cls]
        m = scores >= conf
        if not m.any():
            return []
        boxes, cls, scores = xyxy(out[m, :4]), cls[m], scores[m]
        keep = nms(boxes, scores, iou)[:max_det]
        boxes = lb.to_original(boxes[keep], w, h)
        return [Detection(self.names[int(c)], tuple(float(v) for v in b), float(s))
                for b, c, s in zip(boxes, cls[keep], scores[keep])]

    def detect(self, frame: np.ndarray, conf: float = 0.25, iou: float = 0.5,
               classes: set[str] | None = None, imgsz: int | None = None) -> list[Detection]:
        """Detections in a BGR frame, boxes in its own pixels, best score first."""
        h, w = frame.shape[:2]
        blob, lb = self.preprocess(frame, imgsz)
        dets = self.decode(self.raw(blob), lb, w, h, conf, iou)
        if classes is not None:
            dets = [d for d in dets if d.cls in classes]
        return dets


_cache: dict[tuple[str, int | None], Detector] = {}
_cache_lock = threading.Lock()


def load_detector(path: str | Path | None = None, threads: int | None = None) -> Detector:
    """The shared Detector for a model path (loaded once per process, thread-safe)."""
    key = (str(path or os.environ.get("TABLESIGHT_MODEL", DEFAULT_MODEL)), threads)
    with _cache_lock:
        if key not in _cache:
            _cache[key] = Detector(path, threads)
        return _cache[key]


def installed_detector_digest() -> str | None:
    """The shared detector's digest, None when no detector is installed."""
    try:
        return load_detector().digest
    except NoModelError:
        return None
