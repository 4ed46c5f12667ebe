"""Reading dice: boxes from the detector (whole frame and tiles), value from the crop classifier
cross-checked by the classical pip counter, colour from the face's measured colour.

One die reader for every path: the `dice` command, the photo check and the hands-free readers.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal

import numpy as np

from vision.detector.classes import DIE_CLASSES, die_value
from vision.detector.color import die_color, face_colour, white_balance_gains
from vision.detector.die_crop import square_crop, wide_crop
from vision.detector.die_values import DieValueModel, load_value_model
from vision.detector.model import Detection, Detector, load_detector
from vision.detector.pips import read_box_pips
from vision.detector.profile import DiceProfile
from vision.detector.same_die import agreed_value, same_die_groups
from vision.detector.second_detector import asked_second_detector, second_boxes
from vision.detector.side_faces import side_faces
from vision.detector.slicing import detect_sliced
from vision.detector.taught_boxes import taught_detections
from vision.detector.value_rule import READ_CONF, SHIPPED_RULE, WEAK_CONF, decide, is_die, weak_box_holds

ValueSource = Literal["reader", "net", "pips", "auto"]
VALUE_SOURCES: tuple[str, ...] = ("reader", "net", "pips", "auto")


@dataclass(frozen=True)
class DieReading:
    """One die: top value (None: unsure), colour name (None: unsure), top-face box in original pixels,
    detector confidence 0..1, and what each value source said."""

    value: int | None
    color: str | None
    box: tuple[float, float, float, float]
    confidence: float
    net_value: int
    pip_value: int | None
    crop_value: int | None = None
    crop_prob: float = 0.0
    weak: bool = False  # its box must hold (`Detection.weak`)

    def to_json(self) -> dict:
        return {"value": self.value, "color": self.color,
                "box": [round(v, 1) for v in self.box], "confidence": round(self.confidence, 3)}


def read_dice(frame: np.ndarray, detector: Detector | None = None, conf: float = READ_CONF,
              value_source: ValueSource = "reader", sliced: bool = True,
              value_model: DieValueModel | None = None, profile: DiceProfile | None = None,
              second: Detector | bool = True) -> list[DieReading]:
    """All pip dice in a BGR frame, left to right.

    value_source: "reader" (default: the crop classifier checked by the pip counter; boxes it
    calls "no die" are dropped; falls back to "pips" when no classifier is installed), "pips"
    (classical count, the network's class when the counter cannot tell), "net" (the detector's
    class) or "auto" (classical count only where the network is unsure).
    sliced: also run the detector on overlapping tiles so that small dice are found.
    profile: a user's taught profile (`vision.detector.profile`): its value layer, its colour
    names, its detection threshold and its value rule replace the general ones, with its
    colour gate a box of none of the set's colours is dropped, and with its taught detector
    score (on the detector it was taught on) boxes are added where the shipped one found none.
    A box on the side face right under another die's top face (read sure) is dropped
    (`side_faces`), boxes on one die give one answer (`one_per_die`), and a die whose wider look
    reads another value is unsure (`wide_disagrees`: a box on part of a die). At the reader's own
    threshold (READ_CONF) the classifier reads boxes down to WEAK_CONF as well, each kept only
    where the classifier and the pip counter both give its value surely (`weak_box_holds`), and so
    (whatever the profile's threshold) are the boxes of a second detector where the first boxed
    nothing (`second_detector`; second: True for the installed one if any, False for none, or a
    Detector; read by "reader" at the reader's own threshold `conf` = READ_CONF, sliced), with
    the boxes of the profile's taught second score among them where it has one.
    """
    if value_source not in VALUE_SOURCES:
        raise ValueError(f"value_source must be one of {VALUE_SOURCES}")
    weak = value_source == "reader" and reading_conf(conf, profile) == READ_CONF
    dets = find_dice(frame, detector, WEAK_CONF if weak else conf, sliced, profile, threshold_given=weak)
    if value_source == "reader" and conf == READ_CONF and sliced:
        helper = asked_second_detector(second)
        if helper is not None:
            dets = dets + second_boxes(frame, dets, helper, profile.second_score_head if profile is not None else None)
    return read_found(frame, dets, value_source, value_model, profile, READ_CONF if weak else None)


def reading_conf(conf: float, profile: DiceProfile | None) -> float:
    """The detector threshold a read uses: the profile's taught one, else `conf`."""
    return profile.conf if profile is not None and profile.conf is not None else conf


def find_dice(frame: np.ndarray, detector: Detector | None = None, conf: float = READ_CONF, sliced: bool = True,
              profile: DiceProfile | None = None, threshold_given: bool = False) -> list[Detection]:
    """The detector's die boxes in a BGR frame, as read_dice finds them (see there), down to the
    profile's taught threshold, or `conf` without one or when `threshold_given`."""
    det = detector or load_detector()
    if not threshold_given:
        conf = reading_conf(conf, profile)
    classes = set(DIE_CLASSES)
    head = profile.score_head if profile is not None else None
    if head is not None and sliced and det.has_features and det.digest == head.detector_sha:
        return taught_detections(det, frame, head, conf)
    return (detect_sliced(det, frame, conf=conf, classes=classes) if sliced
            else det.detect(frame, conf=conf, classes=classes))


def read_found(frame: np.ndarray, dets: list[Detection], value_source: ValueSource = "reader",
               value_model: DieValueModel | None = None, profile: DiceProfile | None = None,
               weak_below: float | None = None) -> list[DieReading]:
    """The dice find_dice boxed, read as read_dice reads them: side faces under another die's
    top face dropped, boxes on one die read as one (`one_per_die`). One detection serves every
    value source (what `tablesight eval` compares). weak_below: a box scored under it, and a box
    marked weak at any score, is kept only where its reading holds (`weak_box_holds`; with no
    classifier, never)."""
    # Only the "reader" source reads values with the classifier; the others never pay for it.
    model = (value_model or load_value_model()) if value_source == "reader" else None
    readings = read_boxes(frame, dets, model, value_source, profile)
    readings = [r for r in readings if (not r.weak and (weak_below is None or r.confidence >= weak_below))
                or (model is not None and weak_box_holds(r.value, r.pip_value, r.crop_prob))]
    sides = side_faces([r.box for r in readings], [r.value is not None for r in readings],
                       [r.confidence for r in readings])
    return one_per_die([r for i, r in enumerate(readings) if i not in sides])


def one_per_die(readings: list[DieReading]) -> list[DieReading]:
    """Readings whose boxes lie on one die (`same_die`) as one: the best scored box, unsure
    where two sure values differ; left to right."""
    groups = same_die_groups([r.box for r in readings], [r.confidence for r in readings])
    out = [replace(readings[g[0]], value=agreed_value([readings[i].value for i in g])) for g in groups]
    return sorted(out, key=lambda r: (r.box[0], r.box[1]))


def read_boxes(frame: np.ndarray, dets: list[Detection], model: DieValueModel | None,
               value_source: ValueSource = "reader", profile: DiceProfile | None = None,
               probs: np.ndarray | None = None) -> list[DieReading]:
    """The dice in `dets` (boxes on a die's top face, from the detector or from where a game's
    mat says a die lies), read as read_dice() reads them; left to right. With `model`, a box the
    classifier calls "no die" is dropped; without one the value comes from the pip counter and
    the box's class (see read_dice's value_source). probs: the classifier's probabilities, one
    row per box, when the caller has read better crops than square_crop's (a top face warped
    upright) with `model` and `profile` already; without them each box is also read from a wider
    crop, and a die that look reads as another value is unsure (a box on part of a die)."""
    wide = None
    if probs is None and model is not None:
        both = model.probabilities([square_crop(frame, d.box) for d in dets] + [wide_crop(frame, d.box) for d in dets],
                                   profile)
        probs, wide = both[:len(dets)], both[len(dets):]
    elif probs is None:
        probs = np.zeros((len(dets), 7), np.float32)
    gains = white_balance_gains(frame)
    out = []
    for i, (d, p) in enumerate(zip(dets, probs)):
        net = die_value(d.cls) or 0
        pips = read_box_pips(frame, d.box)
        pip = pips.count
        crop_v = int(np.argmax(p[1:])) + 1 if model is not None else None
        if model is not None:
            if not is_die(p):
                continue
            value: int | None = decide(p, pip, profile.rule if profile is not None else SHIPPED_RULE,
                                       None if wide is None else wide[i], pips.short, pips.flat)
        else:
            value = net
            if pip is not None and (value_source in ("pips", "reader") or (value_source == "auto" and d.score < 0.6)):
                value = pip
        if profile is not None:
            face, split = face_colour(frame, d.box, gains)
            if not profile.admits(face):
                continue
            colour = profile.colour_name(face, split)
        else:
            colour = die_color(frame, d.box, gains)
        out.append(DieReading(value, colour, d.box, d.score, net, pip,
                              crop_v, float(p[crop_v]) if crop_v else 0.0, d.weak))
    return sorted(out, key=lambda r: (r.box[0], r.box[1]))
