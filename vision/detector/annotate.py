"""Drawing detections on a frame for people (MJPEG stream, CLI --annotate)."""
from __future__ import annotations

import cv2
import numpy as np

from vision.detector.dice import DieReading
from vision.detector.model import Detection
from vision.detector.quarx import QuarxCount

_COLOURS = {"die": (0, 200, 255), "sphere": (255, 0, 200), "quarx_card": (0, 255, 0), "label": (255, 255, 0)}


def annotate(frame: np.ndarray, items: list[Detection] | list[DieReading] | QuarxCount) -> np.ndarray:
    """A copy of `frame` with boxes and short labels drawn on it."""
    img = frame.copy()
    rows: list[tuple[tuple[float, ...], str, tuple[int, int, int]]] = []
    if isinstance(items, QuarxCount):
        rows += [(c.box, f"{c.spheres}" if c.spheres >= 0 else "?", _COLOURS["quarx_card"]) for c in items.cards]
        rows += [(b, "", _COLOURS["sphere"]) for b in items.sphere_boxes]
        rows += [(b, text, _COLOURS["label"]) for b, text in items.labels]
    else:
        for it in items:
            if isinstance(it, DieReading):
                rows.append((it.box, f"{it.color or '?'} {it.value or '?'}", _COLOURS["die"]))
            else:
                rows.append((it.box, f"{it.cls} {it.score:.2f}", _COLOURS.get(it.cls, (255, 200, 0))))
    for box, text, col in rows:
        x1, y1, x2, y2 = (int(round(v)) for v in box)
        cv2.rectangle(img, (x1, y1), (x2, y2), col, 2)
        if text:
            cv2.putText(img, text, (x1, max(12, y1 - 4)), cv2.FONT_HERSHEY_SIMPLEX, 0.5, col, 1, cv2.LINE_AA)
    if isinstance(items, QuarxCount):
        cv2.putText(img, items.sentence(), (8, 24), cv2.FONT_HERSHEY_SIMPLEX, 0.7, (0, 0, 255), 2, cv2.LINE_AA)
    return img
