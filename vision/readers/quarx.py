"""Quarx: the Quarx cards face up in the middle and the spheres on each.

The spheres are counted by plain OpenCV (vision.quarx_classical), which was measured better
than the network on our footage; when unsure about any shape it reports no count at all, so
the game waits (or a person types the reveal) rather than applying a wrong one.
"""
from __future__ import annotations

import numpy as np

from vision.quarx_classical import count_quarx_classical
from vision.readers.base import Reading


def read_quarx(frame: np.ndarray, detector=None) -> Reading:
    """{"face_up": ascending sphere counts of the cards in view, or None when unsure}."""
    from vision.detector import QuarxCard, QuarxCount, number_cards_for

    cards = count_quarx_classical(frame)
    counts = [c.spheres for c in cards]
    sure = None not in counts
    total = sum(counts) if sure else 0
    drawn = QuarxCount(total, [QuarxCard(c.box, c.spheres if c.spheres is not None else -1) for c in cards],
                       number_cards_for(total))
    return Reading({"face_up": sorted(counts) if sure else None}, {"face_up": 1.0 if sure else 0.0}, drawn)
