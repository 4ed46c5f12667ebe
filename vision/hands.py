"""Is a hand or an arm over the table? Such frames are skipped, never read.

Skin colour is no use: a wooden table has skin-like chroma, and arms come in sleeves. An arm
is a large region that is NEW (differs from the table seen a moment ago) and reaches in from
the frame's edge; things laid on the table lie inside the frame and soon become table.
"""
from __future__ import annotations

import cv2
import numpy as np


def _edge_blob(mask: np.ndarray, min_area: float) -> bool:
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((5, 5), np.uint8))
    h, w = mask.shape
    n, _, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    for x, y, bw, bh, area in stats[1:n]:
        if (x == 0 or y == 0 or x + bw >= w or y + bh >= h) and area >= min_area * h * w:
            return True
    return False


class HandDetector:
    """Compares each frame with a slowly updated picture of the table without hands."""

    def __init__(self, min_area: float = 0.02, change: int = 30, learn: float = 0.1, size: int = 160,
                 relearn_after: int = 45):
        self.min_area, self.change, self.learn, self.size = min_area, change, learn, size
        self.relearn_after = relearn_after
        self._table: np.ndarray | None = None
        self._run = 0

    def _small(self, frame: np.ndarray) -> np.ndarray:
        h, w = frame.shape[:2]
        return cv2.resize(frame, (self.size, max(1, round(h * self.size / w))), interpolation=cv2.INTER_AREA)

    def __call__(self, frame: np.ndarray) -> bool:
        """True when a hand is over the table in `frame`."""
        small = cv2.GaussianBlur(self._small(frame), (5, 5), 0)
        if self._table is None or self._table.shape != small.shape:
            self._table = small.astype(np.float32)
            return False
        diff = np.abs(small.astype(np.float32) - self._table).max(axis=2)
        changed = (diff > self.change).astype(np.uint8) * 255
        hand = _edge_blob(changed, self.min_area)
        self._run = self._run + 1 if hand else 0
        if self._run > self.relearn_after:
            # No arm rests still for seconds: the light changed or the camera moved. Start over.
            self._table, self._run = small.astype(np.float32), 0
            return False
        if not hand:  # objects that stay (a card laid down) become part of the table
            cv2.accumulateWeighted(small.astype(np.float32), self._table, self.learn)
        return hand
