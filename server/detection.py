"""What the server asks of the detector: the annotated live picture and Quarx counts."""
from __future__ import annotations

from typing import Callable

import numpy as np


def live_annotator() -> Callable[[np.ndarray], np.ndarray]:
    """A function drawing every detection on a frame; NoModelError when no model is installed."""
    from vision.detector import annotate, load_detector

    detector = load_detector()

    def draw(frame: np.ndarray) -> np.ndarray:
        return annotate(frame, detector.detect(frame))

    return draw


def quarx_count(frame: np.ndarray) -> dict:
    """The spheres on the cards in `frame`, per card and in total, with the number cards."""
    from vision.detector import count_quarx

    result = count_quarx(frame)
    data = result.to_json()
    data["sentence"] = result.sentence()
    return data
