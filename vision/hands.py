"""Is a hand or an arm over the table? Such frames are skipped, never read."""
from __future__ import annotations

import cv2
import numpy as np


def skin_mask(frame: np.ndarray) -> np.ndarray:
    """Pixels whose chroma is skin-like (YCrCb box, robust to brightness)."""
    ycrcb = cv2.cvtColor(frame, cv2.COLOR_BGR2YCrCb)
    mask = cv2.inRange(ycrcb, (40, 138, 80), (250, 175, 128))
    return cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((5, 5), np.uint8))


def hand_in_view(frame: np.ndarray, min_area: float = 0.02) -> bool:
    """True when a large skin-coloured region reaches in from the frame's edge, as arms do."""
    mask = skin_mask(frame)
    h, w = mask.shape
    n, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    for i in range(1, n):
        x, y, bw, bh, area = stats[i]
        touches_edge = x == 0 or y == 0 or x + bw >= w or y + bh >= h
        if touches_edge and area >= min_area * h * w:
            return True
    return False
