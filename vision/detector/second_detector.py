"""A second detector's die boxes where the shipped detector boxed nothing, read as weak boxes.

The shipped detector (v4) misses some dice outright. Detector v7 (v4 trained six more epochs with a
second look of dice, `models/checkpoints/detector_v7_choice.md`) finds more of them, but read like
the shipped detector's own boxes its extra boxes gave more wrong answers. As a second source of
boxes only, each one is a weak box: kept only where the classifier is at least WEAK_SURE sure of a
value and the pip counter counts the same (`value_rule.weak_box_holds`), else dropped, never
shown as unsure. Chosen by rules written before the runs (`models/checkpoints/
second_detector_choice.md`, `second_detector_conf_choice.md`): on the choosing beds 12 more of
2,048 render dice right, no more wrong, the real train split the same; then once on the test
beds, the hold-out style 603 -> 625 dice right (found at all 87.3% -> 90.1%), 2 wrong all along,
the real valid split the same. A taught profile reads them too, still as boxes that must hold
whatever its threshold (`Detection.weak`; `models/checkpoints/second_detector_taught_choice.md`),
and where teaching fitted a score of its own for this detector too, that score's boxes
(`models/checkpoints/second_detector_taught_score_choice.md`).
"""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np

from vision.detector.classes import DIE_CLASSES
from vision.detector.geometry import centre_in_either
from vision.detector.model import Detection, Detector
from vision.detector.onnx_session import SharedModels
from vision.detector.slicing import detect_sliced
from vision.detector.taught_boxes import ScoreHead, taught_detections

SECOND_MODEL = Path(__file__).resolve().parents[2] / "models" / "second_detector.onnx"
# The second detector's own threshold for a box, and the score its added box is read at: under
# the reader's threshold (value_rule.READ_CONF), so the reader keeps it only where both readers
# agree, as in the measured runs. 0.15 read 5 and 4 more render dice than 0.25 and 0.2, no more
# wrong, then 11 more hold-out dice (`models/checkpoints/second_detector_conf_choice.md`).
SECOND_CONF = 0.15
SECOND_SCORE = 0.2
# A taught score's box on the second detector (where that detector boxed nothing down to
# LOW_CONF) is added from this score. ASSUMPTION, from a look on two dark sets made only for
# looking (second_detector_taught_score_choice.md): at 0.5 such a score boxed 35 of 37 and 11 of
# 14 dice a taught profile missed, with about one box a photo on no die; at 0.25, three.
TAUGHT_SECOND_CONF = 0.5

_shared: SharedModels[Detector] = SharedModels(Detector, "TABLESIGHT_SECOND_MODEL", SECOND_MODEL)


def load_second_detector(path: str | Path | None = None) -> Detector | None:
    """The shared second detector (`path`, else $TABLESIGHT_SECOND_MODEL, else
    models/second_detector.onnx), None when it is not installed: the reader then reads the shipped
    detector's boxes alone."""
    return _shared.get(path)


def installed_second_digest() -> str | None:
    """The installed second detector's digest, None when none is installed."""
    second = load_second_detector()
    return None if second is None else second.digest


def asked_second_detector(second: Detector | bool) -> Detector | None:
    """The second detector a reader is asked to use: True for the installed one (None when none
    is), False for none, or the Detector given."""
    return load_second_detector() if second is True else None if second is False else second


def second_boxes(frame: np.ndarray, found: list[Detection], second: Detector,
                 head: ScoreHead | None = None) -> list[Detection]:
    """`second`'s die boxes in `frame` (whole frame and tiles) scored at least SECOND_CONF, and
    with a taught `head` for this detector (`taught_boxes`) its boxes from TAUGHT_SECOND_CONF
    where the detector boxed nothing, that lie on no box of `found` (neither holds the other's
    centre), each scored at most SECOND_SCORE and marked weak (kept only where its reading holds)."""
    return weak_where_none(second_detections(frame, second, head), [d.box for d in found])


def weak_where_none(extra: list[Detection], boxes: list) -> list[Detection]:
    """The detections of `extra` that lie on none of `boxes` (neither holds the other's centre),
    each scored at most SECOND_SCORE and marked weak: a second detector's boxes as the reader adds them."""
    return [replace(e, score=min(e.score, SECOND_SCORE), weak=True) for e in extra
            if not any(centre_in_either(b, e.box) for b in boxes)]


def second_detections(frame: np.ndarray, second: Detector, head: ScoreHead | None = None) -> list[Detection]:
    """`second`'s die boxes from SECOND_CONF, and a taught head's (on this very detector) from
    TAUGHT_SECOND_CONF where it boxed nothing down to LOW_CONF."""
    if head is None or not second.has_features or second.digest != head.detector_sha:
        return detect_sliced(second, frame, conf=SECOND_CONF, classes=set(DIE_CLASSES))
    return taught_detections(second, frame, head, SECOND_CONF, TAUGHT_SECOND_CONF)
