"""What the server asks of the detector: its loader for the readers, and a Quarx count."""
from __future__ import annotations

import logging
from collections.abc import Callable

import numpy as np

from vision.detector import Detector, NoModelError, load_detector
from vision.games.quarx.photo import count_quarx

log = logging.getLogger("tablesight")


def detector_loader() -> Callable[[], Detector] | None:
    """The detector's loader the server hands its readers, or None (with the reason logged) when
    no model is installed."""
    try:
        load_detector()
    except NoModelError as exc:
        log.warning("camera annotation off: %s", exc)
        return None
    return load_detector


def quarx_count(frame: np.ndarray) -> dict:
    """The spheres on the cards in `frame`, per card and in total, with the number cards and a
    sentence (spheres null: unsure, and the sentence says what to do)."""
    result = count_quarx(frame)
    data = result.to_json()
    data["sentence"] = result.sentence()
    return data
