"""Classical pip counting inside a die's top-face crop: a check on the network's value."""
from __future__ import annotations

import cv2
import numpy as np


def count_pips(crop: np.ndarray) -> int | None:
    """Number of pips (1..6) on the face filling `crop`, or None when it cannot tell."""
    h, w = crop.shape[:2]
    if h < 8 or w < 8:
        return None
    side = 64
    g = cv2.cvtColor(cv2.resize(crop, (side, side), interpolation=cv2.INTER_AREA), cv2.COLOR_BGR2GRAY)
    g = cv2.GaussianBlur(g, (3, 3), 0)
    _, th = cv2.threshold(g, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    # Pips are the tone the face body is not; the body is the majority tone of the centre.
    body_light = (th[16:48, 16:48] > 0).mean() > 0.5
    pips = (th == 0) if body_light else (th > 0)
    mask = pips.astype(np.uint8)
    n, _, stats, cents = cv2.connectedComponentsWithStats(mask, connectivity=8)
    areas = []
    for i in range(1, n):
        x, y, bw, bh, area = stats[i]
        cx, cy = cents[i]
        if not (12 <= area <= 0.07 * side * side):
            continue
        if x == 0 or y == 0 or x + bw >= side or y + bh >= side:
            continue  # touches the crop edge: side face, shadow or background
        if max(bw, bh) > 2.2 * min(bw, bh) or area < 0.45 * bw * bh:
            continue  # not round enough for a pip
        if not (8 <= cx <= side - 8 and 8 <= cy <= side - 8):
            continue  # the box's rim holds side faces and neighbours; margin tuned on real train
        areas.append(area)
    if not areas:
        return None
    # Side-face pips are foreshortened: clearly smaller than the top face's own pips.
    big = max(areas)
    count = sum(1 for a in areas if a >= 0.6 * big)
    return count if 1 <= count <= 6 else None
