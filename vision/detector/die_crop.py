"""The one way a die is cut out of a frame for the value reader, in training and at run time.

A die's top-face box (from the detector, a label or a person's click) becomes a square crop of
CROP_SIZE pixels around its centre, CROP_MARGIN times the box's long side, so a box that is a
little off or a little small still holds the whole face. Training cuts its crops with the same
function, so the classifier never sees a framing it was not taught.
"""
from __future__ import annotations

import cv2
import numpy as np

CROP_SIZE = 32
CROP_MARGIN = 1.3
WIDE_MARGIN = 1.8  # the reader's second look: a box on part of a die still shows the whole die


def square_crop(frame: np.ndarray, box: tuple[float, float, float, float], size: int = CROP_SIZE,
                margin: float = CROP_MARGIN) -> np.ndarray:
    """A size x size BGR crop centred on `box`, side = margin x the box's long side.

    Parts outside the frame are filled by repeating its edge; area averaging when shrinking
    keeps small pips from vanishing between samples.
    """
    x1, y1, x2, y2 = box
    cx, cy = (x1 + x2) / 2, (y1 + y2) / 2
    side = max(x2 - x1, y2 - y1, 2.0) * margin
    scale = size / side
    interp = cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR
    if scale < 0.5:
        # INTER_AREA only averages in resize(): cut the square (edge-padded), then shrink it.
        h, w = frame.shape[:2]
        s = max(int(round(side)), 1)
        sx1, sy1 = int(round(cx - side / 2)), int(round(cy - side / 2))
        sx2, sy2 = sx1 + s, sy1 + s
        if sx2 <= 0 or sy2 <= 0 or sx1 >= w or sy1 >= h:
            return np.zeros((size, size, 3), np.uint8)  # wholly outside the frame: nothing to see
        win = frame[max(sy1, 0):min(sy2, h), max(sx1, 0):min(sx2, w)]
        win = cv2.copyMakeBorder(win, max(-sy1, 0), max(sy2 - h, 0), max(-sx1, 0), max(sx2 - w, 0),
                                 cv2.BORDER_REPLICATE)
        return cv2.resize(win, (size, size), interpolation=cv2.INTER_AREA)
    m = np.array([[scale, 0, size / 2 - cx * scale], [0, scale, size / 2 - cy * scale]], np.float32)
    return cv2.warpAffine(frame, m, (size, size), flags=interp, borderMode=cv2.BORDER_REPLICATE)


def wide_crop(frame: np.ndarray, box) -> np.ndarray:
    """The reader's second, wider look at a box (vision.detector.value_rule.wide_disagrees)."""
    return square_crop(frame, box, CROP_SIZE, WIDE_MARGIN)


def box_crop(frame: np.ndarray, box) -> np.ndarray:
    """The frame's pixels inside `box` (rounded, clipped), as the pip counter reads them."""
    x1, y1, x2, y2 = (int(round(v)) for v in box)
    return frame[max(0, y1):max(0, y2), max(0, x1):max(0, x2)]


def jitter_box(rng: np.random.Generator, box, shift: float = 0.08, lo: float = 0.85, hi: float = 1.2):
    """A square box near `box`, off-centre and off-size the way the detector's boxes are."""
    x1, y1, x2, y2 = box
    side = max(x2 - x1, y2 - y1)
    cx = (x1 + x2) / 2 + rng.normal(0, shift) * side
    cy = (y1 + y2) / 2 + rng.normal(0, shift) * side
    s = side * rng.uniform(lo, hi) / 2
    return cx - s, cy - s, cx + s, cy + s


def crops_blob(crops: list[np.ndarray]) -> np.ndarray:
    """N BGR crops -> the classifier's input: N x 3 x S x S float32 RGB in 0..1."""
    arr = np.stack(crops)[:, :, :, ::-1].astype(np.float32) / 255.0
    return np.ascontiguousarray(arr.transpose(0, 3, 1, 2))
