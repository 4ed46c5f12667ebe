"""Where a card lies in the frame: its four corners, portrait order, and whether the frame cuts it.

Shared by the Quarx-card finder (vision.games.quarx.cards) and the number-card reader
(vision.games.quarx.numbers): both kinds of card are rectangles on the table.
"""
from __future__ import annotations

import cv2
import numpy as np

FRAME_MARGIN = 3  # px: a corner this close to the frame's edge may be cut off there


def card_quad(contour: np.ndarray) -> np.ndarray | None:
    """The four corners of a card-shaped outline (a rectangle 1.15-1.9 long), else None."""
    hull = cv2.convexHull(contour)
    approx = cv2.approxPolyDP(hull, 0.04 * cv2.arcLength(hull, True), True)
    if len(approx) != 4:
        return None
    (rw, rh) = cv2.minAreaRect(approx)[1]
    if min(rw, rh) == 0 or not 1.15 < max(rw, rh) / min(rw, rh) < 1.9:
        return None
    if cv2.contourArea(approx) < 0.85 * rw * rh:
        return None
    return approx.reshape(4, 2).astype(np.float32)


def portrait_corners(pts: np.ndarray) -> np.ndarray:
    """Order a rectangle's corners TL, TR, BR, BL with the long side vertical."""
    pts = pts[np.argsort(np.arctan2(pts[:, 1] - pts[:, 1].mean(), pts[:, 0] - pts[:, 0].mean()))]
    pts = np.roll(pts, -int(np.argmin(pts.sum(1))), axis=0)
    if np.linalg.norm(pts[1] - pts[0]) > np.linalg.norm(pts[3] - pts[0]):  # lying landscape
        pts = np.roll(pts, -1, axis=0)
    return pts.astype(np.float32)


def cut_by_frame(corners: np.ndarray, shape: tuple[int, ...]) -> bool:
    """True when a corner lies at the edge of a frame of `shape`: part of the card may be outside."""
    h, w = shape[:2]
    return bool((corners.min(0) < FRAME_MARGIN).any() or corners[:, 0].max() > w - FRAME_MARGIN - 1
                or corners[:, 1].max() > h - FRAME_MARGIN - 1)
