"""Teaching the detector a user's dice: a per-scale linear correction of its "is it a die" score.

The detector's last class layer at each of its three scales reads 64 features per anchor. A
user's dice that the shipped detector scores too low (a dark body on a checked cloth) are
taught as a logistic regression on those features with the shipped score as its offset:
    taught logit = logit(shipped die score) + w_scale . features + b_scale
fitted, in numpy and in seconds, on the anchors of the user's labelled photos (an anchor whose
box frames a labelled die well is a die, one that frames none or only part of one is not).

The taught score only *adds* boxes: a taught box is kept where no box of the shipped detector
(at LOW_CONF) lies, since raising scores everywhere let boxes on parts of dice win over the
shipped detector's well framed ones (on a new set that lost a third of its dice). The boxes it
adds are read like any other (value classifier, pip check, wider look, colour gate).
"""
from __future__ import annotations

from dataclasses import dataclass, fields

import numpy as np

from vision.detector.classes import DIE_CLASSES
from vision.detector.geometry import centre_in_either, xyxy
from vision.detector.model import Detection, Detector, die_score
from vision.detector.slicing import in_frame, merge, windows

SCALES = 3
FEATURES = 64
LOW_CONF = 0.05  # the shipped boxes a taught box must not touch: every box the reader might keep
# Anchor labels, as IoU of the anchor's box with the best labelled die. ASSUMPTION: first chosen on
# the first 60 test photos of teach_eval's third dice set (charcoal, fitted on its 5 teaching
# photos: 0.65/0.5 found more than 0.7/0.55, 0.65/0.4 and 0.45/0.1, with fewer wrong answers), then
# checked on a set no figure reports (navy with yellow pips on a check, seed 61, 60 photos, the
# shipped value rule): 0.65/0.5, 0.65/0.4, 0.7/0.55 and 0.75/0.4 tie at 66.0% right and 1 wrong
# (0.45/0.1 and 0.8/0.6: 65.3%; no taught score: 55.9%).
DIE_IOU = 0.65     # an anchor framing a labelled die at least this well is a die ...
NOT_DIE_IOU = 0.5  # ... one framing every labelled die worse than this is not; between: not used
KEEP = 1e-3        # pull of the correction towards none (per anchor-averaged loss)
MAX_NEGATIVES = 4000  # anchors that are no die kept per photo (weighted up to stand for all)


@dataclass(frozen=True)
class ScoreHead:
    """The taught correction: weights (SCALES x FEATURES), biases (SCALES), and the SHA-256
    digest of the detector whose features it reads."""

    weights: np.ndarray
    biases: np.ndarray
    detector_sha: str

    def to_json(self) -> dict:
        return {"w": np.round(self.weights, 6).tolist(), "b": np.round(self.biases, 6).tolist(),
                "detector_sha": self.detector_sha}

    @staticmethod
    def from_json(d: dict) -> "ScoreHead":
        w, b = np.array(d["w"], np.float32), np.array(d["b"], np.float32)
        if w.shape != (SCALES, FEATURES) or b.shape != (SCALES,) or not (np.isfinite(w).all() and np.isfinite(b).all()):
            raise ValueError(f"a taught detector score has shape {w.shape} and {b.shape}, not "
                             f"({SCALES}, {FEATURES}) and ({SCALES},)")
        return ScoreHead(w, b, str(d["detector_sha"]))


@dataclass
class Anchors:
    """Every anchor of a frame's passes (whole frame and tiles): box in frame pixels, scale
    index, features, and the shipped die score's logit."""

    boxes: np.ndarray    # N x 4
    scale: np.ndarray    # N
    features: np.ndarray  # N x FEATURES
    logit: np.ndarray    # N


def _logit(p: np.ndarray) -> np.ndarray:
    p = np.clip(p.astype(np.float64), 1e-7, 1 - 1e-7)
    return np.log(p / (1 - p))


def _scale_index(feats: list[np.ndarray]) -> np.ndarray:
    return np.concatenate([np.full(f.shape[2] * f.shape[3], k) for k, f in enumerate(feats)])


def _flat(feats: list[np.ndarray]) -> np.ndarray:
    return np.concatenate([f[0].reshape(f.shape[1], -1).T for f in feats])


def _pass(detector: Detector, frame: np.ndarray, win: tuple[int, int, int, int]):
    """One window through the network: (output, feature maps, letterbox)."""
    x1, y1, x2, y2 = win
    blob, lb = detector.preprocess(frame[y1:y2, x1:x2])
    out, feats = detector.raw_with_features(blob)
    return out, feats, lb


def _dice(detector: Detector, out: np.ndarray, lb, win: tuple[int, int, int, int], conf: float) -> list[Detection]:
    """One pass's die boxes (in the window's pixels) from its network output, as Detector.detect decodes them."""
    x1, y1, x2, y2 = win
    return [d for d in detector.decode(out, lb, x2 - x1, y2 - y1, conf, 0.5) if d.cls in DIE_CLASSES]


def window_anchors(out: np.ndarray, feats: list[np.ndarray], lb, win: tuple[int, int, int, int]) -> Anchors:
    """The anchors of one pass (the whole frame or a tile), boxes in the frame's pixels."""
    x1, y1, x2, y2 = win
    boxes = lb.to_original(xyxy(out[:, :4]), x2 - x1, y2 - y1) + np.array([x1, y1, x1, y1], np.float32)
    return Anchors(boxes, _scale_index(feats), _flat(feats), _logit(die_score(out)))


def anchors(detector: Detector, frame: np.ndarray) -> Anchors:
    """The anchors of the whole frame and its tiles, as detect_sliced runs them."""
    return _joined([window_anchors(*_pass(detector, frame, win), win) for win in windows(detector, frame)])


def _joined(parts: list):
    """Several passes' anchors (all of one dataclass of arrays) as one."""
    kind = type(parts[0])
    return kind(*(np.concatenate([getattr(p, f.name) for p in parts]) for f in fields(kind)))


def best_iou(boxes: np.ndarray, labels: list[tuple[float, float, float, float]]) -> np.ndarray:
    """Each box's IoU with the labelled box it overlaps most (0 without labels)."""
    if not labels:
        return np.zeros(len(boxes))
    lab = np.asarray(labels, np.float64)
    iw = np.clip(np.minimum(boxes[:, None, 2], lab[None, :, 2]) - np.maximum(boxes[:, None, 0], lab[None, :, 0]), 0, None)
    ih = np.clip(np.minimum(boxes[:, None, 3], lab[None, :, 3]) - np.maximum(boxes[:, None, 1], lab[None, :, 1]), 0, None)
    inter = iw * ih
    area = (boxes[:, 2] - boxes[:, 0]) * (boxes[:, 3] - boxes[:, 1])
    lab_area = (lab[:, 2] - lab[:, 0]) * (lab[:, 3] - lab[:, 1])
    return (inter / np.maximum(area[:, None] + lab_area[None] - inter, 1e-9)).max(1)


@dataclass
class TeachingAnchors:
    """One photo's anchors for fitting: labelled die (1) or not (0), with a weight each."""

    scale: np.ndarray
    features: np.ndarray
    logit: np.ndarray
    label: np.ndarray
    weight: np.ndarray


def label_anchors(a: Anchors, labels: list[tuple[float, float, float, float]], rng: np.random.Generator,
                  max_negatives: int = MAX_NEGATIVES) -> TeachingAnchors:
    """The anchors to fit on: every one framing a die well, and up to `max_negatives` of those
    framing none (each weighted to stand for the ones left out)."""
    iou = best_iou(a.boxes.astype(np.float64), labels)
    pos = np.nonzero(iou >= DIE_IOU)[0]
    neg = np.nonzero(iou < NOT_DIE_IOU)[0]
    kept_neg = rng.choice(neg, max_negatives, replace=False) if len(neg) > max_negatives else neg
    idx = np.concatenate([pos, kept_neg])
    weight = np.concatenate([np.ones(len(pos)), np.full(len(kept_neg), len(neg) / max(len(kept_neg), 1))])
    return TeachingAnchors(a.scale[idx], a.features[idx].astype(np.float32), a.logit[idx],
                           np.concatenate([np.ones(len(pos)), np.zeros(len(kept_neg))]), weight)


def shipped_and_anchors(detector: Detector, frame: np.ndarray, labels: list[tuple[float, float, float, float]],
                        rng: np.random.Generator) -> tuple[list[Detection], TeachingAnchors]:
    """One photo for teaching, in one network pass per window: the shipped detector's die boxes
    down to LOW_CONF (as detect_sliced finds them) and the anchors to fit on, with MAX_NEGATIVES
    "no die" anchors shared out among the passes (a large photo has more tiles, not more memory)."""
    h, w = frame.shape[:2]
    wins = windows(detector, frame)
    quota = max(1, MAX_NEGATIVES // len(wins))
    found: list[Detection] = []
    parts = []
    for win in wins:
        out, feats, lb = _pass(detector, frame, win)
        found += in_frame(_dice(detector, out, lb, win, LOW_CONF), win, w, h)
        parts.append(label_anchors(window_anchors(out, feats, lb, win), labels, rng, quota))
    return merge(found), _joined(parts)


MIN_DIE_ANCHORS = 3  # a scale with fewer anchors on labelled dice is left as shipped


def _fit_scale(x: np.ndarray, z: np.ndarray, y: np.ndarray, sw: np.ndarray, iters: int = 30) -> np.ndarray:
    """Logistic regression with offset z (damped Newton): [w, b] minimising the weighted mean
    cross-entropy of sigmoid(z + x.w + b) plus KEEP/2 |w|^2 (the bias is pulled 100x less)."""
    a = np.hstack([x, np.ones((len(x), 1))]).astype(np.float64)
    sw = sw / sw.sum()
    reg = KEEP * np.eye(a.shape[1])
    reg[-1, -1] = KEEP * 0.01

    def loss(th: np.ndarray) -> float:
        t = z + a @ th
        return float((sw * (np.logaddexp(0, t) - y * t)).sum() + 0.5 * th @ reg @ th)

    th = np.zeros(a.shape[1])
    f0 = loss(th)
    for _ in range(iters):
        p = 1 / (1 + np.exp(-np.clip(z + a @ th, -50, 50)))
        g = a.T @ (sw * (p - y)) + reg @ th
        h = (a * (sw * p * (1 - p))[:, None]).T @ a + reg
        step = np.linalg.solve(h, g)
        t = 1.0
        while loss(th - t * step) > f0 and t > 1e-4:
            t /= 2
        th = th - t * step
        f1 = loss(th)
        if f0 - f1 < 1e-9:
            break
        f0 = f1
    return th


def fit_score_head(photos: list[TeachingAnchors], detector_sha: str) -> ScoreHead | None:
    """The correction from some photos' anchors; None when no scale has MIN_DIE_ANCHORS dice."""
    a = _joined(photos)
    w, b = np.zeros((SCALES, FEATURES), np.float32), np.zeros(SCALES, np.float32)
    fitted = False
    for k in range(SCALES):
        sel = a.scale == k
        if a.label[sel].sum() < MIN_DIE_ANCHORS:
            continue
        th = _fit_scale(a.features[sel], a.logit[sel], a.label[sel], a.weight[sel])
        w[k], b[k] = th[:-1], th[-1]
        fitted = True
    return ScoreHead(w, b, detector_sha) if fitted else None


def detect_taught(detector: Detector, frame: np.ndarray, head: ScoreHead,
                  conf: float) -> tuple[list[Detection], list[Detection]]:
    """(the shipped detector's die boxes down to LOW_CONF, the taught score's boxes at `conf`),
    each from the whole frame and its tiles merged as detect_sliced merges them; one network
    pass per window serves both."""
    h, w = frame.shape[:2]
    shipped: list[Detection] = []
    taught: list[Detection] = []
    for win in windows(detector, frame):
        out, feats, lb = _pass(detector, frame, win)
        scale = _scale_index(feats)
        z = _logit(die_score(out)) + (_flat(feats) * head.weights[scale]).sum(1) + head.biases[scale]
        score = 1 / (1 + np.exp(-np.clip(z, -50, 50)))
        rescored = out.copy()
        die = rescored[:, 4:4 + len(DIE_CLASSES)]
        # Each value keeps its share of the die score, so the box's class stays the detector's.
        die *= (score / np.maximum(die.sum(1), 1e-9))[:, None]
        shipped += in_frame(_dice(detector, out, lb, win, min(conf, LOW_CONF)), win, w, h)
        taught += in_frame(_dice(detector, rescored, lb, win, conf), win, w, h)
    return merge(shipped), merge(taught)


def taught_detections(det: Detector, frame: np.ndarray, head: ScoreHead, conf: float,
                      taught_conf: float | None = None) -> list[Detection]:
    """The detector's boxes at `conf`, plus the boxes of a taught score (at `taught_conf`, default
    `conf`) where the detector boxed nothing even at LOW_CONF (as teaching measured them)."""
    shipped, taught = detect_taught(det, frame, head, conf if taught_conf is None else taught_conf)
    return [d for d in shipped if d.score >= conf] + added_boxes(shipped, taught)


def added_boxes(shipped: list[Detection], taught: list[Detection]) -> list[Detection]:
    """The taught boxes where the shipped detector boxed nothing: a taught box whose centre lies
    in no shipped box and that holds no shipped box's centre."""
    return [t for t in taught if not any(centre_in_either(s.box, t.box) for s in shipped)]
