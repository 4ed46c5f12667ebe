"""A user's dice profile: what "teach it your dice" learned, applied by every die reader.

A profile holds (1) a new last layer for the value classifier, fitted on the features of the
user's own die crops, (2) the measured colour of each colour the user named, (3) the detection
threshold, (4) the value rule (whether the pip counter may veto, how sure the classifier must be
alone), (5) whether boxes of none of the named colours are dropped and (6) a taught correction
of the detector's die score that adds boxes where the shipped detector found none
(`taught_boxes`) and (7) the same for the second detector (`second_detector`), each kept only
where it read the user's held-out photos better. A taught layer
is fitted on, and reads, the mean of each crop's eight symmetries (format 5 on). It is tied to
the value model it was taught on (its SHA-256; a taught detector score also to the detector's):
a profile taught on another model is refused with a clear error, and the shipped model files
are never changed. JSON, about 12 kB with a taught layer, 3 kB more with a detector score.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from vision.detector.color import name_color
from vision.detector.taught_boxes import ScoreHead
from vision.detector.value_rule import OVERRIDE, SHIPPED_RULE, ValueRule

PROFILE_FORMAT = 6
# format 1 had no value rule (it reads with the shipped one), 2 no detector score, 3 no colours
# seen on dice and off them (its gate drops every box beyond reach of a taught colour), 4 a
# taught layer fitted on each crop as it is (not its eight symmetries' mean), 5 no taught score
# for the second detector
READABLE_FORMATS = (1, 2, 3, 4, 5, 6)
COLOUR_REACH = 30.0  # Lab distance beyond which a taught colour does not name a die
MAX_GATE_SAMPLES = 256  # colours kept of each kind (on dice, off them): a profile stays small


class ProfileError(ValueError):
    """A profile that cannot be used, with the reason in words."""


def lab(bgr: np.ndarray) -> np.ndarray:
    """CIE Lab (L 0..100) of BGR colours (..., 3), floats 0..255."""
    px = np.clip(np.asarray(bgr, np.float32).reshape(-1, 1, 3) / 255.0, 0, 1)
    return cv2.cvtColor(px, cv2.COLOR_BGR2Lab).reshape(np.shape(bgr))


def _nearest(points: list[list[float]], x: np.ndarray) -> float:
    """The Lab distance from x to the nearest of the points (infinite when there are none)."""
    return float(np.linalg.norm(np.array(points) - x, axis=1).min()) if points else float("inf")


@dataclass
class DiceProfile:
    """What was taught. head: (W 7x64, b 7) or None when the taught head did not help."""

    model_sha: str
    head: tuple[np.ndarray, np.ndarray] | None = None
    colours: dict[str, list[float]] = field(default_factory=dict)  # name -> Lab
    conf: float | None = None
    report: dict = field(default_factory=dict)
    rule: ValueRule = SHIPPED_RULE
    colour_gate: bool = False  # every die of the set has a taught colour: drop boxes of no such colour
    score_head: ScoreHead | None = None  # taught detector score: boxes where the shipped detector found none
    # Lab colours measured while teaching on the labelled dice and on boxes that were no die;
    # both empty in a profile of format 3 or older
    on_dice: list[list[float]] = field(default_factory=list)
    off_dice: list[list[float]] = field(default_factory=list)
    # The taught layer reads the mean of each crop's eight symmetries, as it was fitted; False in
    # a profile of format 4 or older, and with no taught layer (the shipped one reads crops as they are)
    symmetric: bool = False
    # a taught score for the second detector (`second_detector.second_boxes`), bound to its SHA-256
    second_score_head: ScoreHead | None = None

    def logits(self, features: np.ndarray, base: np.ndarray) -> np.ndarray:
        if self.head is None:
            return base
        w, b = self.head
        return features @ w.T + b

    def taught_colour(self, bgr: np.ndarray | None) -> str | None:
        """The nearest taught colour within COLOUR_REACH of a measured colour, else None."""
        if bgr is None or not self.colours:
            return None
        names = list(self.colours)
        d = np.linalg.norm(np.array([self.colours[n] for n in names]) - lab(bgr), axis=1)
        return names[int(d.argmin())] if d.min() <= COLOUR_REACH else None

    def admits(self, bgr: np.ndarray | None) -> bool:
        """False for a box whose colour is none of the set's, when the profile gates by colour:
        beyond reach of every taught colour, and (in a profile that kept the colours it saw)
        nearer a colour seen on a box that was no die than any seen on a die. Light moves a
        die's measured colour further than any one reach allows (a mint set: 8% of its dice
        beyond 30 on photos it was not taught on), while what the gate is for, the cloth and
        clutter that pass for dice, sits nearer the colours seen off the dice."""
        if not self.colour_gate or self.taught_colour(bgr) is not None:
            return True
        if bgr is None or not (self.on_dice or self.off_dice):
            return False
        x = lab(bgr)
        return _nearest(self.on_dice, x) <= _nearest(self.off_dice, x)

    def colour_name(self, bgr: np.ndarray | None, straddles: bool = False) -> str | None:
        """The nearest taught colour within reach, else the generic name; None where there is no
        colour or, with no taught colour near, the face `straddles` two generic names (unsure).
        With the colour gate (the user named every die's colour) a die beyond reach of every
        taught colour is one of them all the same: the only one taught, else the generic name
        where the user used that word, else unsure (never a word the user did not use)."""
        if bgr is None:
            return None
        taught = self.taught_colour(bgr)
        if taught is not None:
            return taught
        generic = None if straddles else name_color(bgr)
        if self.colour_gate and self.colours:
            if len(self.colours) == 1:
                return next(iter(self.colours))
            return generic if generic in self.colours else None
        return generic

    def to_json(self) -> dict:
        return {"format": PROFILE_FORMAT, "model_sha": self.model_sha,
                "head": None if self.head is None else {"W": np.round(self.head[0], 6).tolist(),
                                                        "b": np.round(self.head[1], 6).tolist()},
                "colours": self.colours, "conf": self.conf, "rule": self.rule.to_json(),
                "colour_gate": self.colour_gate, "on_dice": self.on_dice, "off_dice": self.off_dice,
                "detector_score": None if self.score_head is None else self.score_head.to_json(),
                "symmetric": self.symmetric,
                "second_detector_score": None if self.second_score_head is None else self.second_score_head.to_json(),
                "report": self.report}

    def save(self, path: Path) -> Path:
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(self.to_json(), indent=1))
        return path


MAX_PROFILE_BYTES = 2_000_000


def load_profile(path: str | Path, model_sha: str, detector_sha: str | None = None,
                 second_sha: str | None = None) -> DiceProfile:
    """Read a profile and check it fits the value model in use (and, when it has a taught
    detector score and `detector_sha` is given, the detector in use; the same for the second
    detector and `second_sha`); ProfileError says why not."""
    p = Path(path)
    if not p.is_file():
        raise ProfileError(f"no dice profile at {p} (make one with `tablesight teach DIR --out {p}`)")
    if p.stat().st_size > MAX_PROFILE_BYTES:
        raise ProfileError(f"{p} is not a dice profile: {p.stat().st_size} bytes")
    try:
        d = json.loads(p.read_text())
        if d.get("format") not in READABLE_FORMATS:
            raise ProfileError(f"{p}: profile format {d.get('format')!r}, this version reads {READABLE_FORMATS}")
        head = None
        if d.get("head") is not None:
            head = (np.array(d["head"]["W"], np.float32), np.array(d["head"]["b"], np.float32))
            if head[0].ndim != 2 or head[0].shape[0] != 7 or head[1].shape != (7,):
                raise ProfileError(f"{p}: the taught layer has the wrong shape {head[0].shape}")
        colours = {str(k): [float(x) for x in v] for k, v in (d.get("colours") or {}).items()}
        conf = d.get("conf")
        r = d.get("rule")
        # A rule saved before "override" existed let every differing pip count veto.
        # ... and one saved before "more" existed needed OVERRIDE where the counter finds more pips.
        more = None if r is None else r.get("more", OVERRIDE)
        rule = SHIPPED_RULE if r is None else ValueRule(
            bool(r["pip_check"]), float(r["sure"]), None if r.get("override") is None else float(r["override"]),
            None if more is None else float(more))
        if not 0.0 < rule.sure <= 1.0:
            raise ProfileError(f"{p}: the value rule's certainty must be in (0, 1], not {rule.sure}")
        if rule.override is not None and not 0.0 < rule.override <= 1.0:
            raise ProfileError(f"{p}: the value rule's override must be in (0, 1], not {rule.override}")
        if rule.more is not None and not 0.0 < rule.more <= 1.0:
            raise ProfileError(f"{p}: the value rule's certainty against more pips must be in (0, 1], not {rule.more}")
        score = None if d.get("detector_score") is None else ScoreHead.from_json(d["detector_score"])
        second = None if d.get("second_detector_score") is None else ScoreHead.from_json(d["second_detector_score"])
        seen = {k: [[float(x) for x in c] for c in (d.get(k) or [])][:MAX_GATE_SAMPLES] for k in ("on_dice", "off_dice")}
        if any(len(c) != 3 for v in seen.values() for c in v):
            raise ProfileError(f"{p}: a colour seen while teaching is not three numbers (L, a, b)")
        prof = DiceProfile(str(d["model_sha"]), head, colours, float(conf) if conf is not None else None,
                           d.get("report") or {}, rule, bool(d.get("colour_gate", False)), score,
                           seen["on_dice"], seen["off_dice"], head is not None and d.get("symmetric") is True, second)
    except ProfileError:
        raise
    except (ValueError, KeyError, TypeError, AttributeError) as e:
        raise ProfileError(f"{p} is not a readable dice profile ({type(e).__name__}: {e})") from e
    if prof.model_sha != model_sha:
        raise ProfileError(f"{p} was taught on value model {prof.model_sha}, this one is {model_sha}: "
                           "teach it again with `tablesight teach`")
    if prof.score_head is not None and detector_sha is not None and prof.score_head.detector_sha != detector_sha:
        raise ProfileError(f"{p} was taught on detector {prof.score_head.detector_sha}, this one is {detector_sha}: "
                           "teach it again with `tablesight teach`")
    if prof.second_score_head is not None and second_sha is not None and prof.second_score_head.detector_sha != second_sha:
        raise ProfileError(f"{p} was taught on second detector {prof.second_score_head.detector_sha}, this one is "
                           f"{second_sha}: teach it again with `tablesight teach`")
    return prof
