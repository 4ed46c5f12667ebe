"""Running the detector at the scale the dice are: the whole frame plus overlapping tiles.

A 320 px network sees a 25 px die in a 640 px photo as a 12 px smudge. Tiles of the network's
own input size (stride half a tile) show it at full size; the whole-frame pass still finds dice
too large for a tile. Boxes cut by a tile's inner edge are dropped (the neighbouring tile or the
whole frame holds that die whole), then all passes are merged by class-agnostic NMS and by
dropping a box that lies mostly inside a better one (a pip cluster or half a die).
"""
from __future__ import annotations

import numpy as np

from vision.detector.geometry import holds_centre, nms
from vision.detector.model import Detection, Detector

EDGE = 2.0  # px: a box this close to a tile's inner edge was cut by it


def tiles(w: int, h: int, tile: int) -> list[tuple[int, int, int, int]]:
    """Overlapping tile windows (x1, y1, x2, y2) covering a w x h frame, stride tile / 2."""
    def starts(n: int) -> list[int]:
        if n <= tile:
            return [0]
        step = tile // 2
        s = list(range(0, n - tile, step))
        return s + [n - tile]
    return [(x, y, x + min(tile, w), y + min(tile, h)) for y in starts(h) for x in starts(w)]


def cut_by_tile(box: tuple[float, ...], win: tuple[int, int, int, int], w: int, h: int) -> bool:
    """True for a box (frame pixels) that a tile's inner edge cut; never for the whole frame."""
    x1, y1, x2, y2 = box
    wx1, wy1, wx2, wy2 = win
    return ((wx1 > 0 and x1 - wx1 < EDGE) or (wy1 > 0 and y1 - wy1 < EDGE)
            or (wx2 < w and wx2 - x2 < EDGE) or (wy2 < h and wy2 - y2 < EDGE))


def merge(dets: list[Detection], iou: float = 0.5, inside: float = 0.75) -> list[Detection]:
    """Class-agnostic NMS, then drop a box lying `inside` (share of its area) a kept better box
    or whose centre a kept better box holds (the same die boxed twice, off-centre)."""
    if not dets:
        return []
    boxes = np.array([d.box for d in dets], np.float32)
    scores = np.array([d.score for d in dets], np.float32)
    kept: list[int] = []
    for i in nms(boxes, scores, iou):
        b = boxes[i]
        area = max((b[2] - b[0]) * (b[3] - b[1]), 1e-6)
        covered = False
        for j in kept:
            o = boxes[j]
            iw = min(b[2], o[2]) - max(b[0], o[0])
            ih = min(b[3], o[3]) - max(b[1], o[1])
            if (iw > 0 and ih > 0 and iw * ih / area > inside) or holds_centre(o, b):
                covered = True
                break
        if not covered:
            kept.append(int(i))
    return [dets[i] for i in kept]


def windows(detector: Detector, frame: np.ndarray, tile: int | None = None) -> list[tuple[int, int, int, int]]:
    """The passes detect_sliced runs: the whole frame, then its tiles when the frame is larger
    than 1.25 tiles on its long side."""
    h, w = frame.shape[:2]
    size = tile or detector.imgsz
    return [(0, 0, w, h)] + (tiles(w, h, size) if max(w, h) > 1.25 * size else [])


def in_frame(dets: list[Detection], win: tuple[int, int, int, int], w: int, h: int) -> list[Detection]:
    """One pass's detections (in the window's pixels) in the w x h frame's pixels, without the
    boxes a tile's inner edge cut (the neighbouring tile or the whole frame holds those whole)."""
    x1, y1 = win[:2]
    moved = [Detection(d.cls, (d.box[0] + x1, d.box[1] + y1, d.box[2] + x1, d.box[3] + y1), d.score) for d in dets]
    return [d for d in moved if not cut_by_tile(d.box, win, w, h)]


def detect_sliced(detector: Detector, frame: np.ndarray, conf: float = 0.25, iou: float = 0.5,
                  classes: set[str] | None = None, tile: int | None = None) -> list[Detection]:
    """Detections from the whole frame and its tiles, merged; boxes in the frame's pixels.

    A frame no larger than 1.25 tiles on its long side gets the whole-frame pass only.
    """
    h, w = frame.shape[:2]
    out: list[Detection] = []
    for win in windows(detector, frame, tile):
        x1, y1, x2, y2 = win
        out += in_frame(detector.detect(frame[y1:y2, x1:x2], conf=conf, iou=iou, classes=classes), win, w, h)
    return merge(out, iou)
