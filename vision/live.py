"""The live-picture annotator the server's camera feed calls on each frame."""
from __future__ import annotations

from collections.abc import Callable

import numpy as np

from vision.detector import annotate, load_detector, read_dice


def annotate_all(frame: np.ndarray, det, conf: float = 0.25) -> np.ndarray:
    """The frame with every die (value and colour) and every other detection drawn on it."""
    dice = read_dice(frame, det, conf=conf)
    others = [d for d in det.detect(frame, conf=conf) if not d.cls.startswith("die_")]
    return annotate(annotate(frame, dice), others)


def live_annotator(conf: float = 0.25) -> Callable[[np.ndarray], np.ndarray]:
    """A frame -> annotated frame function; raises NoModelError when no model is installed."""
    det = load_detector()
    return lambda frame: annotate_all(frame, det, conf)
