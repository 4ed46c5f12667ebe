"""Spheres on one Quarx card by a learned look at each shape (ONNX, run by onnxruntime).

Every blob on the card warped top-down (vision.games.quarx.blobs) is shown to a small classifier
trained on domain-randomised cards (vision.training.sphere_classifier): sphere, not a sphere, or
unsure (part of a shape, or shapes that touch; a notched blob is then tried in its parts). The
card's count is the spheres counted at every contrast cut, and only when the cuts agree and every
blob is called with confidence: otherwise None, never a guess.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np

from vision.detector.die_crop import crops_blob
from vision.detector.die_values import softmax
from vision.detector.onnx_session import SharedModels, cpu_session
from vision.games.quarx.blobs import MIN_THICKNESS, Blob, card_blobs_at

DEFAULT_SPHERE_MODEL = Path(__file__).resolve().parents[3] / "models" / "sphere_shapes.onnx"
# Contrast cuts against the paper (0..255) a classifier was taught, all of them; its file names
# them in its metadata ("cuts": "18,30,45,65", v10 on), and a file that names none was taught these.
CUTS = (30, 45, 65)
SPHERE_CLASS, OTHER_CLASS, UNSURE_CLASS = 0, 1, 2
# A blob is a sphere with at least SURE; it is none when a sphere is at most NOT_SPHERE likely and
# "part of a shape, or several" at most UNSURE_MAX (a non-sphere need not be told from that).
# Chosen on fresh cards of the training looks (120 of our footage's, 240 randomised; 0 wrong),
# never on the hold-out style; NOT_SPHERE 0.4 until v6, which was wrong on 2 of those cards at 0.4.
SURE, NOT_SPHERE, UNSURE_MAX = 0.9, 0.3, 0.5
# A notched blob (shapes that touch) is "not a sphere" as a whole only when "several shapes" is
# at most this likely: a sphere touching a cone was once called not a sphere (0.05 sphere, 0.43
# unsure) and a footage reveal applied one short.
NOTCHED_UNSURE_MAX = 0.2
# ... and only when a sphere is at most this likely: a blue sphere touching a blue cone, one blob
# that would not split, was called 0.15 sphere, 0.68 not, and a hands-free reveal (game 15 of
# `tablesight handsfree-eval`) was applied one short.
NOTCHED_NOT_SPHERE = 0.05


class SphereModel:
    """A loaded classifier; probabilities() is safe to call from several threads at once."""

    def __init__(self, path: str | Path | None = None, threads: int | None = None):
        self.path = _shared.path(path)
        self.session = cpu_session(self.path, f"no sphere model installed: {self.path} not found "
                                   "(train one with `python -m vision.training.sphere_classifier`)", threads)
        inp = self.session.get_inputs()[0]
        self.input_name = inp.name
        # v8 on: a fourth channel, the blob's own mask in the crop (v1-v6 see the colours alone)
        self.sees_masks = inp.shape[1] == 4
        meta = self.session.get_modelmeta().custom_metadata_map
        self.cuts: tuple[int, ...] = tuple(int(c) for c in meta["cuts"].split(",")) if "cuts" in meta else CUTS

    def probabilities(self, blobs: list[Blob]) -> np.ndarray:
        """N x 3 probabilities (sphere, not a sphere, unsure) for N blobs."""
        if not blobs:
            return np.zeros((0, 3), np.float32)
        x = crops_blob([b.crop for b in blobs])
        if self.sees_masks:
            x = np.concatenate([x, np.stack([b.crop_mask for b in blobs])[:, None].astype(np.float32) / 255.0], 1)
        logits = self.session.run(None, {self.input_name: x})[0]
        return softmax(logits)


_shared = SharedModels(SphereModel, "TABLESIGHT_SPHERE_MODEL", DEFAULT_SPHERE_MODEL)


def load_sphere_model(path: str | Path | None = None) -> SphereModel | None:
    """The shared classifier for a path (else $TABLESIGHT_SPHERE_MODEL, else the shipped file),
    or None when no model file is installed."""
    return _shared.get(path)


# A blob along the card's rim this many times longer than wide is the table or an uneven light
# showing inside an outline found a little off, not a shape (spheres keep clear of the rim).
RIM_STRIP = 2.5
# Any other blob at the rim may be a sphere cut off by an outline found a little inside the card:
# it is "not a sphere" only when the classifier is this sure of it (a cut sphere called 0.27
# sphere, 0.48 not, was once left out of a count of 7).
NOT_SPHERE_AT_RIM = 0.1


def _no_shape(blob: Blob) -> bool:
    """A line, or a strip along the rim: no shape, whatever the classifier says."""
    x1, y1, x2, y2 = blob.box
    return blob.thickness < MIN_THICKNESS or (blob.at_edge and max(x2 - x1, y2 - y1) > RIM_STRIP * min(x2 - x1, y2 - y1))


def _verdict(p: np.ndarray, blob: Blob) -> int | None:
    """1 for a sure sphere, 0 for a sure non-sphere, None otherwise."""
    if _no_shape(blob):
        return 0
    if p[SPHERE_CLASS] >= SURE:
        return 1
    if p[SPHERE_CLASS] <= (NOT_SPHERE_AT_RIM if blob.at_edge else NOT_SPHERE) and p[UNSURE_CLASS] <= UNSURE_MAX:
        return 0
    return None


def count_blobs(blobs: list[Blob], probs: dict[int, np.ndarray]) -> int | None:
    """Spheres among one cut's blobs given each blob's (and part's) probabilities by id(); None
    when any is in doubt."""
    n = 0
    for blob in blobs:
        pr = probs[id(blob)]
        whole = _verdict(pr, blob)
        if (whole == 0 and blob.notched and not _no_shape(blob)
                and (pr[UNSURE_CLASS] > NOTCHED_UNSURE_MAX or pr[SPHERE_CLASS] > NOTCHED_NOT_SPHERE)):
            whole = None  # maybe shapes that touch, one a sphere: by the parts, or not at all
        if whole is None and blob.parts:
            parts = [_verdict(probs[id(p)], p) for p in blob.parts]
            whole = None if None in parts else sum(parts)
        if whole is None:
            return None
        n += whole
    return n


def count_by_shape(card: np.ndarray, model: SphereModel) -> int | None:
    """Spheres on a card warped top-down (BGR), or None when any shape or cut is in doubt (the
    counts at every cut the model was taught must agree)."""
    per_cut = card_blobs_at(card, model.cuts)
    every = [b for blobs in per_cut for blob in blobs for b in (blob, *blob.parts)]
    # A shape is often the same blob at every cut: the same box (and, for a model that sees it,
    # the same mask) is the same input, classified once.
    def key(b: Blob) -> tuple:
        return (b.box, b.crop_mask.tobytes()) if model.sees_masks else b.box

    unique: dict[tuple, Blob] = {}
    for b in every:
        unique.setdefault(key(b), b)
    by_key = dict(zip(unique, model.probabilities(list(unique.values()))))
    probs = {id(b): by_key[key(b)] for b in every}
    counts = {count_blobs(blobs, probs) for blobs in per_cut}
    return counts.pop() if len(counts) == 1 else None
