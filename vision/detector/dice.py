"""Reading dice: boxes from the detector (whole frame and tiles), value from the crop classifier
cross-checked by the classical pip counter, colour from the face's measured colour.

One die reader for every path: the `dice` command, the photo check and the hands-free readers.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import numpy as np

from vision.detector.classes import DIE_CLASSES, die_value
from vision.detector.color import die_color, face_colour, white_balance_gains
from vision.detector.die_crop import box_crop, square_crop
from vision.detector.die_values import NO_DIE, DieValueModel, load_value_model
from vision.detector.model import Detection, Detector, load_detector
from vision.detector.pips import count_pips
from vision.detector.profile import DiceProfile
from vision.detector.slicing import detect_sliced

ValueSource = Literal["reader", "net", "pips", "auto"]
VALUE_SOURCES: tuple[str, ...] = ("reader", "net", "pips", "auto")
# Chosen on the real-dice-webcam *train* split with the synthetic-only classifier (never on the
# valid split or the hold-out style): a lower NOT_A_DIE dropped 2 of 951 dice and half the boxes
# on clutter; letting the pip count overrule the classifier read 5 fewer dice right.
SURE = 0.9         # the classifier alone must be this sure when the pip counter cannot tell
AGREE = 0.4        # ... and only this sure when the pip counter reads the same value
NOT_A_DIE = 0.5    # a box the classifier calls "no die" this surely is dropped


@dataclass(frozen=True)
class DieReading:
    """One die: top value (None: unsure), colour name, top-face box in original pixels,
    detector confidence 0..1, and what each value source said."""

    value: int | None
    color: str
    box: tuple[float, float, float, float]
    confidence: float
    net_value: int
    pip_value: int | None
    crop_value: int | None = None
    crop_prob: float = 0.0

    def to_json(self) -> dict:
        return {"value": self.value, "color": self.color,
                "box": [round(v, 1) for v in self.box], "confidence": round(self.confidence, 3)}


def is_die(probs: np.ndarray) -> bool:
    """False when the classifier calls the box "no die" surely enough to drop it."""
    return bool(probs[NO_DIE] < NOT_A_DIE)


def decide(probs: np.ndarray, pip: int | None) -> int | None:
    """The value the classifier and the pip counter agree on, None when they do not.

    The classifier decides; the pip counter can only confirm or veto: a counted value that
    differs makes the die unsure (never a guess), and no count asks more of the classifier.
    """
    v = int(np.argmax(probs[1:])) + 1
    p = float(probs[v])
    if pip is None:
        return v if p >= SURE else None
    return v if pip == v and p >= AGREE else None


def read_dice(frame: np.ndarray, detector: Detector | None = None, conf: float = 0.25,
              value_source: ValueSource = "reader", sliced: bool = True,
              value_model: DieValueModel | None = None, profile: DiceProfile | None = None) -> list[DieReading]:
    """All pip dice in a BGR frame, left to right.

    value_source: "reader" (default: the crop classifier checked by the pip counter; boxes it
    calls "no die" are dropped; falls back to "pips" when no classifier is installed), "pips"
    (classical count, the network's class when the counter cannot tell), "net" (the detector's
    class) or "auto" (classical count only where the network is unsure).
    sliced: also run the detector on overlapping tiles so that small dice are found.
    profile: a user's taught profile (`vision.detector.profile`): its value layer, its colour
    names and its detection threshold replace the general ones.
    """
    if value_source not in VALUE_SOURCES:
        raise ValueError(f"value_source must be one of {VALUE_SOURCES}")
    det = detector or load_detector()
    if profile is not None and profile.conf is not None:
        conf = profile.conf
    classes = set(DIE_CLASSES)
    dets: list[Detection] = (detect_sliced(det, frame, conf=conf, classes=classes) if sliced
                             else det.detect(frame, conf=conf, classes=classes))
    # Only the "reader" source reads values with the classifier; the others never pay for it.
    model = (value_model or load_value_model()) if value_source == "reader" else None
    probs = (model.probabilities([square_crop(frame, d.box) for d in dets], profile) if model is not None
             else np.zeros((len(dets), 7), np.float32))
    gains = white_balance_gains(frame)
    out = []
    for d, p in zip(dets, probs):
        net = die_value(d.cls) or 0
        pip = count_pips(box_crop(frame, d.box))
        crop_v = int(np.argmax(p[1:])) + 1 if model is not None else None
        if model is not None:
            if not is_die(p):
                continue
            value: int | None = decide(p, pip)
        else:
            value = net
            if pip is not None and (value_source in ("pips", "reader") or (value_source == "auto" and d.score < 0.6)):
                value = pip
        colour = (profile.colour_name(face_colour(frame, d.box, gains)) if profile is not None
                  else die_color(frame, d.box, gains))
        out.append(DieReading(value, colour, d.box, d.score, net, pip,
                              crop_v, float(p[crop_v]) if crop_v else 0.0))
    return sorted(out, key=lambda r: (r.box[0], r.box[1]))
