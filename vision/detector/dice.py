"""Reading dice: network boxes, value from the network or the classical pip counter, colour."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from vision.detector.classes import DIE_CLASSES, die_value
from vision.detector.color import die_color, white_balance_gains
from vision.detector.model import Detector, load_detector
from vision.detector.pips import count_pips

VALUE_SOURCES = ("net", "pips", "auto")


@dataclass(frozen=True)
class DieReading:
    """One die: top value, colour name, top-face box in original pixels, confidence 0..1."""

    value: int
    color: str
    box: tuple[float, float, float, float]
    confidence: float
    net_value: int
    pip_value: int | None

    def to_json(self) -> dict:
        return {"value": self.value, "color": self.color,
                "box": [round(v, 1) for v in self.box], "confidence": round(self.confidence, 3)}


def _crop(frame: np.ndarray, box) -> np.ndarray:
    x1, y1, x2, y2 = (int(round(v)) for v in box)
    return frame[max(0, y1):max(0, y2), max(0, x1):max(0, x2)]


def read_dice(frame: np.ndarray, detector: Detector | None = None, conf: float = 0.25,
              value_source: str = "pips") -> list[DieReading]:
    """All pip dice in a BGR frame, left to right.

    value_source: "pips" (default: classical count, the network's class when the counter
    cannot tell; measured better on real photos, see models/MODEL_CARD.md), "net" (the
    detector's class) or "auto" (classical count only where the network is unsure).
    """
    if value_source not in VALUE_SOURCES:
        raise ValueError(f"value_source must be one of {VALUE_SOURCES}")
    det = detector or load_detector()
    dets = [d for d in det.detect(frame, conf=conf) if d.cls in DIE_CLASSES]
    gains = white_balance_gains(frame)
    out = []
    for d in dets:
        net = die_value(d.cls) or 0
        pip = count_pips(_crop(frame, d.box))
        value = net
        if pip is not None and (value_source == "pips" or (value_source == "auto" and d.score < 0.6)):
            value = pip
        out.append(DieReading(value, die_color(frame, d.box, gains), d.box, d.score, net, pip))
    return sorted(out, key=lambda r: (r.box[0], r.box[1]))
