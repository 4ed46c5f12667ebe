"""Letterboxing, class-agnostic non-maximum suppression and box relations in numpy."""
from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

PAD_VALUE = 114  # ultralytics pads with grey 114; matching it keeps train and run time alike


@dataclass(frozen=True)
class Letterbox:
    """How an image was fitted into the network input: scale, then padding."""

    scale: float
    pad_x: float
    pad_y: float

    def to_original(self, boxes: np.ndarray, w: int, h: int) -> np.ndarray:
        """Map xyxy boxes from network input pixels back to the original image, clipped."""
        out = boxes.astype(np.float32).copy()
        out[:, [0, 2]] = (out[:, [0, 2]] - self.pad_x) / self.scale
        out[:, [1, 3]] = (out[:, [1, 3]] - self.pad_y) / self.scale
        out[:, [0, 2]] = out[:, [0, 2]].clip(0, w)
        out[:, [1, 3]] = out[:, [1, 3]].clip(0, h)
        return out


def holds_centre(box, other) -> bool:
    """True when the xyxy `box` holds the centre of the xyxy `other` (edges included)."""
    cx, cy = (other[0] + other[2]) / 2, (other[1] + other[3]) / 2
    return bool(box[0] <= cx <= box[2] and box[1] <= cy <= box[3])


def pixel_box(mask: np.ndarray) -> tuple[float, float, float, float] | None:
    """The xyxy box round a mask's true pixels, its right and bottom edges those of the last pixel
    (a one-pixel mask is a 1 x 1 box); None for a mask with none."""
    ys, xs = np.nonzero(mask)
    if len(xs) == 0:
        return None
    return float(xs.min()), float(ys.min()), float(xs.max() + 1), float(ys.max() + 1)


def centre_in_either(a, b) -> bool:
    """True when one box holds the other's centre: two boxes on one thing (a die and a part of it)."""
    return holds_centre(a, b) or holds_centre(b, a)


def xyxy(xywh: np.ndarray) -> np.ndarray:
    """Boxes given as centre and size (N x 4) as corners (x1, y1, x2, y2)."""
    out = np.empty_like(xywh)
    out[:, :2] = xywh[:, :2] - xywh[:, 2:4] / 2
    out[:, 2:] = xywh[:, :2] + xywh[:, 2:4] / 2
    return out


def letterbox(img: np.ndarray, size: int, stride: int | None = None) -> tuple[np.ndarray, Letterbox]:
    """Resize keeping the aspect ratio so the long side is `size`, pad centred to size x size,
    or with `stride` (a network that takes any shape) only up to the next multiple of it."""
    h, w = img.shape[:2]
    scale = size / max(h, w)
    nw, nh = max(1, round(w * scale)), max(1, round(h * scale))
    interp = cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR
    resized = cv2.resize(img, (nw, nh), interpolation=interp) if (nw, nh) != (w, h) else img
    out_w, out_h = (size, size) if stride is None else (-(-nw // stride) * stride, -(-nh // stride) * stride)
    px, py = (out_w - nw) / 2, (out_h - nh) / 2
    top, left = int(round(py - 0.1)), int(round(px - 0.1))
    out = cv2.copyMakeBorder(resized, top, out_h - nh - top, left, out_w - nw - left,
                             cv2.BORDER_CONSTANT, value=(PAD_VALUE,) * 3)
    return out, Letterbox(scale, float(left), float(top))


def iou_one_to_many(box: np.ndarray, boxes: np.ndarray) -> np.ndarray:
    x1 = np.maximum(box[0], boxes[:, 0])
    y1 = np.maximum(box[1], boxes[:, 1])
    x2 = np.minimum(box[2], boxes[:, 2])
    y2 = np.minimum(box[3], boxes[:, 3])
    inter = np.clip(x2 - x1, 0, None) * np.clip(y2 - y1, 0, None)
    a = (box[2] - box[0]) * (box[3] - box[1])
    b = (boxes[:, 2] - boxes[:, 0]) * (boxes[:, 3] - boxes[:, 1])
    return inter / np.maximum(a + b - inter, 1e-9)


def nms(boxes: np.ndarray, scores: np.ndarray, iou: float = 0.5) -> np.ndarray:
    """Indices kept by greedy NMS over all classes together, highest score first.

    Class-agnostic on purpose: per-class NMS let one die carry two values (DESIGN.md).
    """
    order = np.argsort(-scores, kind="stable")
    keep: list[int] = []
    while order.size:
        i = int(order[0])
        keep.append(i)
        if order.size == 1:
            break
        rest = order[1:]
        order = rest[iou_one_to_many(boxes[i], boxes[rest]) <= iou]
    return np.array(keep, dtype=np.int64)
