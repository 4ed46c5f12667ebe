"""A user's dice profile: what "teach it your dice" learned, applied by every die reader.

A profile holds (1) a new last layer for the value classifier, fitted on the features of the
user's own die crops, (2) the measured colour of each colour the user named, and (3) the
detection threshold that found most of the user's dice. It is tied to the value model it was
taught on (its SHA-256): a profile taught on another model is refused with a clear error, and
the shipped model file is never changed. JSON, a few kB.
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from vision.detector.color import name_color

PROFILE_FORMAT = 1
COLOUR_REACH = 30.0  # Lab distance beyond which a taught colour does not name a die


class ProfileError(ValueError):
    """A profile that cannot be used, with the reason in words."""


def model_digest(path: Path) -> str:
    """The first 16 hex digits of a model file's SHA-256: what a profile is bound to."""
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()[:16]


def lab(bgr: np.ndarray) -> np.ndarray:
    """CIE Lab (L 0..100) of BGR colours (..., 3), floats 0..255."""
    px = np.clip(np.asarray(bgr, np.float32).reshape(-1, 1, 3) / 255.0, 0, 1)
    return cv2.cvtColor(px, cv2.COLOR_BGR2Lab).reshape(np.shape(bgr))


@dataclass
class DiceProfile:
    """What was taught. head: (W 7x64, b 7) or None when the taught head did not help."""

    model_sha: str
    head: tuple[np.ndarray, np.ndarray] | None = None
    colours: dict[str, list[float]] = field(default_factory=dict)  # name -> Lab
    conf: float | None = None
    report: dict = field(default_factory=dict)

    def logits(self, features: np.ndarray, base: np.ndarray) -> np.ndarray:
        if self.head is None:
            return base
        w, b = self.head
        return features @ w.T + b

    def colour_name(self, bgr: np.ndarray | None) -> str:
        """The nearest taught colour within reach, else the generic name ("unknown": no colour)."""
        if bgr is None:
            return "unknown"
        if self.colours:
            here = lab(bgr)
            names = list(self.colours)
            d = np.linalg.norm(np.array([self.colours[n] for n in names]) - here, axis=1)
            if d.min() <= COLOUR_REACH:
                return names[int(d.argmin())]
        return name_color(bgr)

    def to_json(self) -> dict:
        return {"format": PROFILE_FORMAT, "model_sha": self.model_sha,
                "head": None if self.head is None else {"W": np.round(self.head[0], 6).tolist(),
                                                        "b": np.round(self.head[1], 6).tolist()},
                "colours": self.colours, "conf": self.conf, "report": self.report}

    def save(self, path: Path) -> Path:
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(self.to_json(), indent=1))
        return path


MAX_PROFILE_BYTES = 2_000_000


def load_profile(path: str | Path, model_sha: str) -> DiceProfile:
    """Read a profile and check it fits the value model in use; ProfileError says why not."""
    p = Path(path)
    if not p.is_file():
        raise ProfileError(f"no dice profile at {p} (make one with `tablesight teach DIR --out {p}`)")
    if p.stat().st_size > MAX_PROFILE_BYTES:
        raise ProfileError(f"{p} is not a dice profile: {p.stat().st_size} bytes")
    try:
        d = json.loads(p.read_text())
        if d.get("format") != PROFILE_FORMAT:
            raise ProfileError(f"{p}: profile format {d.get('format')!r}, this version reads {PROFILE_FORMAT}")
        head = None
        if d.get("head") is not None:
            head = (np.array(d["head"]["W"], np.float32), np.array(d["head"]["b"], np.float32))
            if head[0].ndim != 2 or head[0].shape[0] != 7 or head[1].shape != (7,):
                raise ProfileError(f"{p}: the taught layer has the wrong shape {head[0].shape}")
        colours = {str(k): [float(x) for x in v] for k, v in (d.get("colours") or {}).items()}
        conf = d.get("conf")
        prof = DiceProfile(str(d["model_sha"]), head, colours, float(conf) if conf is not None else None,
                           d.get("report") or {})
    except ProfileError:
        raise
    except (ValueError, KeyError, TypeError, AttributeError) as e:
        raise ProfileError(f"{p} is not a readable dice profile ({type(e).__name__}: {e})") from e
    if prof.model_sha != model_sha:
        raise ProfileError(f"{p} was taught on value model {prof.model_sha}, this one is {model_sha}: "
                           "teach it again with `tablesight teach`")
    return prof
