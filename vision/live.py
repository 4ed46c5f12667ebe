"""The live-picture annotator the server's camera feed calls on each frame."""
from __future__ import annotations

from collections.abc import Callable

import numpy as np

from vision.detector import load_detector, read_dice
from vision.scene_words import DIE_CLASSES, GAME_CLASSES, draw_scene, labels_for


def annotate_all(frame: np.ndarray, det, conf: float = 0.25, game: str | None = None) -> np.ndarray:
    """The frame with the detections that matter for `game` drawn in players' words (None: all of
    them; dice with value and colour). The dice reader runs only where the game has dice, without
    the second detector: this is a picture drawn frame after frame, and that detector doubles a
    read's cost for the few dice it adds (`tablesight bench`: second_detector_cost); a photo
    check, teaching and `tablesight dice` read with it."""
    wanted = None if game is None else GAME_CLASSES.get(game, frozenset())
    dice = read_dice(frame, det, conf=conf, second=False) if wanted is None or wanted & DIE_CLASSES else []
    others = [d for d in det.detect(frame, conf=conf) if not d.cls.startswith("die_")] if wanted is None or wanted - DIE_CLASSES else []
    return draw_scene(frame, labels_for(game, dice) + labels_for(game, others))


def live_annotator(conf: float = 0.25) -> Callable[[np.ndarray], np.ndarray]:
    """A frame -> annotated frame function; raises NoModelError when no model is installed."""
    det = load_detector()
    return lambda frame: annotate_all(frame, det, conf)
