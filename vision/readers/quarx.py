"""Quarx: the Quarx cards face up in the middle and the spheres on each."""
from __future__ import annotations

import numpy as np

from vision.readers.base import Reading


def read_quarx(frame: np.ndarray, detector) -> Reading:
    """{"face_up": ascending sphere counts of the cards in view}; confidence = the weakest card's."""
    from vision.detector import count_quarx

    result = count_quarx(frame, detector)
    counts = sorted(card.spheres for card in result.cards)
    scores = [getattr(card, "confidence", 1.0) for card in result.cards]
    return Reading({"face_up": counts}, {"face_up": min(scores, default=1.0)}, result)
