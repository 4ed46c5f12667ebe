"""One label line as YOLO tools write them, the format every dataset and teaching folder here uses."""
from __future__ import annotations


def yolo_line(cls: int | str, box: tuple[float, float, float, float], w: int, h: int) -> str:
    """`cls cx cy bw bh` for a pixel box (x1, y1, x2, y2) in a w x h picture, normalised to it."""
    x1, y1, x2, y2 = box
    return f"{cls} {(x1 + x2) / 2 / w:.6f} {(y1 + y2) / 2 / h:.6f} {(x2 - x1) / w:.6f} {(y2 - y1) / h:.6f}"
