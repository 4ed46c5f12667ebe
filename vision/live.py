"""The live-picture annotator the server's camera feed calls on each frame."""
from __future__ import annotations

from collections.abc import Callable

import numpy as np

from vision.detector import annotate, load_detector, read_dice


def live_annotator(conf: float = 0.25) -> Callable[[np.ndarray], np.ndarray]:
    """A frame -> annotated frame function; raises NoModelError when no model is installed."""
    det = load_detector()

    def run(frame: np.ndarray) -> np.ndarray:
        dice = read_dice(frame, det, conf=conf)
        others = [d for d in det.detect(frame, conf=conf) if not d.cls.startswith("die_")]
        return annotate(annotate(frame, dice), others)

    return run
