""""Teach it your dice": a few labelled photos of the user's own table make a dice profile.

Input: a folder with `images/` and `labels/` (one `.txt` per image, one line per die:
`value cx cy w h [colour]`, centre and size normalised to the image as YOLO tools write them;
the box may enclose the top face or just its pips; the colour word is optional).

What is learned (in seconds, on the CPU, with no torch):
- the value classifier's last layer, refitted on the features of the user's die crops (turned,
  mirrored, re-framed, and the reader's wider look at each) and of what the detector found away
  from every die, kept close to the shipped layer; only when every value shows on at least
  MIN_PER_VALUE dice (a value the photos never show would be left too unsure, and no held-out
  photo could tell);
- the measured colour of every colour word the user gave;
- the detection threshold, the value rule (pip check, or the classifier alone at a certainty)
  and, when every die has a colour word, the colour gate (boxes of no taught colour are dropped);
- a correction of the detector's die score (`vision.detector.taught_boxes`), whose boxes are
  added where the shipped detector found none: for dice it misses (a dark set on a checked cloth);
  and one of the second detector's, whose boxes are added among that detector's (they must hold).
Every combination is measured photo by photo on photos it was not fitted on (leave one photo
out), each photo read as the reader reads it (the second detector's boxes included, as boxes that
must hold; they are read, never taught on), against the shipped reader; one is kept only when it
reads more dice right and no more wrong, or as many right and fewer wrong ("never worse");
otherwise the profile keeps the shipped reader and says so.
"""
from __future__ import annotations

import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from vision.detector.classes import DIE_CLASSES
from vision.detector.color import face_colour, white_balance_gains
from vision.detector.die_crop import jitter_box, square_crop, wide_crop
from vision.detector.die_values import DieValueModel, softmax, symmetric_means, symmetries
from vision.detector.geometry import centre_in_either
from vision.detector.image_io import read_image
from vision.detector.model import Detector
from vision.detector.pips import PipCount, read_box_pips
from vision.detector.profile import MAX_GATE_SAMPLES, DiceProfile, lab
from vision.detector.second_detector import (SECOND_CONF, TAUGHT_SECOND_CONF, asked_second_detector, second_boxes,
                                              weak_where_none)
from vision.detector.same_die import agreed_value, same_die_groups
from vision.detector.side_faces import side_faces
from vision.detector.slicing import detect_sliced
from vision.detector.taught_boxes import (LOW_CONF, ScoreHead, TeachingAnchors, added_boxes, detect_taught, fit_score_head,
                                          shipped_and_anchors)
from vision.detector.value_rule import (OVERRIDE, READ_CONF, SHIPPED_RULE, STRICT_RULE, WEAK_CONF, ValueRule, decide,
                                       is_die, weak_box_holds)

IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp", ".webp")
MAX_PHOTOS = 100
MAX_DICE_PER_PHOTO = 60
DEFAULT_CONF = READ_CONF  # read_dice's own threshold
CONF_CHOICES = (LOW_CONF, 0.1, 0.15, DEFAULT_CONF)
# The value rules teaching may choose: the shipped one, one where every differing pip count
# vetoes, the classifier alone at a certainty, or one where a pip count that agrees is still
# enough at AGREE while one that differs vetoes only below a lower certainty than the shipped override:
# for dice whose pips the counter reads right on some dice and wrong on others, "alone" lost
# the agreeing dice the classifier was less sure of (big dice of a new set, models/eval/teach.json).
CERTAINTIES = (0.5, 0.6, 0.7, 0.8, 0.9)
# Each rule that checks pips comes twice: a count of more pips overruled at OVERRIDE (side faces'
# pips, which real webcam dice show) or never (dice the classifier misreads when tilted).
RULE_CHOICES = (SHIPPED_RULE, ValueRule(more=None), STRICT_RULE, *(ValueRule(False, t) for t in CERTAINTIES),
                *(ValueRule(True, t, t, m) for t in CERTAINTIES if t < OVERRIDE for m in (OVERRIDE, None)))
WRONG_COST = 5  # right answers a wrong one costs when choosing: unsure beats a guess
MIN_PER_VALUE = 2  # labelled dice of each value 1..6 before the value layer is refitted
JITTERS = 5  # jittered boxes per taught die beside its own box, each blurred and lit anew (`relit`)
COLOUR_WORD = re.compile(r"^[a-z][a-z-]{0,19}$")
Progress = Callable[[float, str], None]


class TeachError(ValueError):
    """A teaching folder that cannot be used, with the file and line at fault."""


@dataclass(frozen=True)
class TaughtDie:
    """One labelled die: box (x1, y1, x2, y2) in pixels, value 1..6, colour word or None."""

    box: tuple[float, float, float, float]
    value: int
    colour: str | None


@dataclass
class Photo:
    name: str
    frame: np.ndarray
    dice: list[TaughtDie]


def parse_label_line(line: str, w: int, h: int, where: str) -> TaughtDie:
    """`value cx cy w h [colour]` -> a TaughtDie in pixels; TeachError names the line at fault."""
    parts = line.split()
    if len(parts) not in (5, 6):
        raise TeachError(f"{where}: expected 'value cx cy w h [colour]', got {line.strip()[:60]!r}")
    try:
        value = int(parts[0])
        cx, cy, bw, bh = (float(t) for t in parts[1:5])
    except ValueError as e:
        raise TeachError(f"{where}: not a number ({e})") from e
    if not 1 <= value <= 6:
        raise TeachError(f"{where}: a die shows 1 to 6 pips, not {value}")
    if not (0 <= cx <= 1 and 0 <= cy <= 1 and 0 < bw <= 1 and 0 < bh <= 1):
        raise TeachError(f"{where}: centre and size are fractions of the image (0..1)")
    colour = parts[5].lower() if len(parts) == 6 else None
    if colour is not None and not COLOUR_WORD.match(colour):
        raise TeachError(f"{where}: a colour is one word of letters, not {parts[5][:30]!r}")
    return TaughtDie(((cx - bw / 2) * w, (cy - bh / 2) * h, (cx + bw / 2) * w, (cy + bh / 2) * h), value, colour)


def read_folder(folder: Path) -> list[Photo]:
    """The labelled photos of a teaching folder, in name order."""
    folder = Path(folder)
    images, labels = folder / "images", folder / "labels"
    if not images.is_dir() or not labels.is_dir():
        raise TeachError(f"{folder} needs images/ and labels/ folders")
    names = sorted(p for p in images.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
    if not names:
        raise TeachError(f"no photos in {images}")
    if len(names) > MAX_PHOTOS:
        raise TeachError(f"{len(names)} photos in {images}: at most {MAX_PHOTOS} are taught at once")
    photos = []
    for p in names:
        lab_path = labels / (p.stem + ".txt")
        if not lab_path.is_file():
            raise TeachError(f"{p.name} has no label file {lab_path}")
        frame = read_image(p)
        h, w = frame.shape[:2]
        lines = [ln for ln in lab_path.read_text(errors="replace").splitlines()[:MAX_DICE_PER_PHOTO + 1] if ln.strip()]
        if len(lines) > MAX_DICE_PER_PHOTO:
            raise TeachError(f"{lab_path}: more than {MAX_DICE_PER_PHOTO} dice in one photo")
        dice = [parse_label_line(ln, w, h, f"{lab_path.name}:{i + 1}") for i, ln in enumerate(lines)]
        photos.append(Photo(p.name, frame, dice))
    return photos


@dataclass
class Seen:
    """One photo as the reader sees it: detections with features, pips and colours, matched to labels."""

    boxes: list[tuple[float, float, float, float]]
    scores: np.ndarray
    logits: np.ndarray
    features: np.ndarray
    pips: list[PipCount]
    colours: list[np.ndarray]
    match: list[int]                 # detection -> label index, -1 for none
    labels: list[TaughtDie]
    train_x: np.ndarray = field(default_factory=lambda: np.zeros((0, 64), np.float32))
    train_y: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))
    train_logits: np.ndarray = field(default_factory=lambda: np.zeros((0, 7), np.float32))
    # more of the shipped layer's inputs and outputs (each teaching crop's symmetries as they are)
    layer_x: np.ndarray = field(default_factory=lambda: np.zeros((0, 64), np.float32))
    layer_logits: np.ndarray = field(default_factory=lambda: np.zeros((0, 7), np.float32))
    # The reader's wider look at each detection (vision.detector.die_crop.wide_crop); None: not taken
    wide_logits: np.ndarray | None = None
    wide_features: np.ndarray | None = None
    # The features as a taught layer reads them: each crop's eight symmetries' mean
    sym_features: np.ndarray | None = None
    sym_wide_features: np.ndarray | None = None
    # The detector's anchors for teaching its die score; None: the detector has no feature outputs
    anchors: TeachingAnchors | None = None
    # The same for the second detector; None: no second detector, or one without feature outputs
    second_anchors: TeachingAnchors | None = None
    # Per detection, whether its face straddles two generic colour names (`color.straddles`)
    straddles: list[bool] | None = None
    # Per detection, whether it is a second detector's box, kept only where its reading holds
    # (`Detection.weak`); None: none is
    weak: list[bool] | None = None

    def is_weak(self, i: int) -> bool:
        return bool(self.weak and self.weak[i])


def _match(boxes, labels: list[TaughtDie], weak: list[bool] | None = None) -> list[int]:
    """Each detection to the label whose centre it holds (nearest first, a weak box only after
    every other), each label once."""
    pairs = []
    for i, b in enumerate(boxes):
        for j, lb in enumerate(labels):
            cx, cy = (lb.box[0] + lb.box[2]) / 2, (lb.box[1] + lb.box[3]) / 2
            if b[0] <= cx <= b[2] and b[1] <= cy <= b[3]:
                pairs.append((bool(weak and weak[i]), ((b[0] + b[2]) / 2 - cx) ** 2 + ((b[1] + b[3]) / 2 - cy) ** 2,
                              i, j))
    out, used = [-1] * len(boxes), set()
    for _, _, i, j in sorted(pairs):
        if out[i] < 0 and j not in used:
            out[i] = j
            used.add(j)
    return out


def _touches_die(box, labels: list[TaughtDie]) -> bool:
    """True when a box holds a labelled die's centre or its centre lies on a labelled die: a
    second, off-centre box on a die is not what "no die" looks like."""
    return any(centre_in_either(box, lb.box) for lb in labels)


def seen_boxes(frame: np.ndarray, boxes: list, scores: np.ndarray, labels: list[TaughtDie],
               model: DieValueModel, weak: list[bool] | None = None) -> Seen:
    """Boxes of one photo as the reader reads them (each box and its wider look in one run of the
    classifier, as read_boxes does; pip counts, colours), matched to the labelled dice; the
    features also as a taught layer reads them (each crop's eight symmetries' mean). weak: which
    boxes must hold (a second detector's)."""
    crops = [square_crop(frame, b) for b in boxes] + [wide_crop(frame, b) for b in boxes]
    both_logits, both_feats = model.outputs(crops)
    _, sym_feats = model.outputs(crops, symmetric=True)
    n = len(boxes)
    gains = white_balance_gains(frame)
    colours, split = zip(*[face_colour(frame, b, gains) for b in boxes]) if boxes else ((), ())
    return Seen(list(boxes), np.asarray(scores, np.float32), both_logits[:n], both_feats[:n],
                [read_box_pips(frame, b) for b in boxes], list(colours),
                _match(boxes, labels, weak), labels, wide_logits=both_logits[n:], wide_features=both_feats[n:],
                sym_features=sym_feats[:n], sym_wide_features=sym_feats[n:],
                straddles=list(split), weak=None if weak is None else list(weak))


def see(photo: Photo, detector: Detector, model: DieValueModel, rng: np.random.Generator,
        second: Detector | None = None) -> Seen:
    """The photo's boxes (the shipped detector's down to LOW_CONF and, with `second`, that
    detector's boxes where the shipped one has none, marked weak) and its teaching crops."""
    frame = photo.frame
    taught_anchors = None
    if detector.has_features:
        # Its own generator: which anchors stand for the rest must not move the crops' jitter.
        dets, taught_anchors = shipped_and_anchors(detector, frame, [lb.box for lb in photo.dice],
                                                   np.random.default_rng(0))
    else:
        dets = detect_sliced(detector, frame, conf=LOW_CONF, classes=set(DIE_CLASSES))
    # A second box lies on no shipped box down to LOW_CONF, below every threshold a choice reads
    # at: no box it shares a die with can take that die's label from it. With feature outputs the
    # second detector's one pass per window also gives the anchors to teach its score on.
    second_anchors = None
    if second is not None and second.has_features:
        found, second_anchors = shipped_and_anchors(second, frame, [lb.box for lb in photo.dice],
                                                    np.random.default_rng(0))
        dets = dets + weak_where_none([d for d in found if d.score >= SECOND_CONF], [d.box for d in dets])
    elif second is not None:
        dets = dets + second_boxes(frame, dets, second)
    seen = seen_boxes(frame, [d.box for d in dets], np.array([d.score for d in dets], np.float32), photo.dice, model,
                      [d.weak for d in dets])
    seen.anchors, seen.second_anchors = taught_anchors, second_anchors
    boxes, match = seen.boxes, seen.match
    # Teaching crops: every labelled die, framed by its detection where one found it (as the
    # reader will frame it) or by its label; detections away from every die are "no die". Each
    # is read as the mean of its eight symmetries, as a taught layer reads; the symmetries as
    # they are also recover the shipped layer (base_head), however few the dice.
    crops, ys = [], []
    # (from the shipped detector's boxes only: a second box is read, never taught on)
    found = {j: boxes[i] for i, j in enumerate(match) if j >= 0 and not seen.is_weak(i)}
    for j, lb in enumerate(photo.dice):
        base = found.get(j, lb.box)
        for k in range(1 + JITTERS):
            crop = square_crop(frame, base if k == 0 else jitter_box(rng, base))
            crops.append(relit(rng, crop) if k else crop)
            ys.append(lb.value)
        # The reader's wider look at the die must read the same value: taught on the user's dice,
        # it sees their neighbours and cloth, and a veto it casts is then about the box, not the look.
        crops.append(wide_crop(frame, base))
        ys.append(lb.value)
    for i, j in enumerate(match):
        if j < 0 and not seen.is_weak(i) and not _touches_die(boxes[i], photo.dice):
            crops.append(square_crop(frame, boxes[i]))
            ys.append(0)
    logits, x = model.outputs([v for c in crops for v in symmetries(c)])
    seen.layer_x, seen.layer_logits = x, logits
    seen.train_logits, seen.train_x = symmetric_means(logits), symmetric_means(x)
    seen.train_y = np.array(ys, np.int64)
    return seen


def relit(rng: np.random.Generator, crop: np.ndarray) -> np.ndarray:
    """The crop blurred (sigma 0-1.2 px) and its brightness scaled (0.75-1.25)."""
    sigma = rng.uniform(0.0, 1.2)
    out = cv2.GaussianBlur(crop, (0, 0), sigma) if sigma > 0.2 else crop
    return np.clip(out.astype(np.float32) * rng.uniform(0.75, 1.25), 0, 255).astype(np.uint8)


def with_taught_boxes(photo: Photo, seen: Seen, detector: Detector, head: ScoreHead | None, model: DieValueModel,
                      second: Detector | None = None, second_head: ScoreHead | None = None) -> Seen:
    """The photo as a profile with taught detector scores reads it: its boxes, the taught score's
    boxes where none of the shipped detector's (down to LOW_CONF) lies, and (with `second_head`)
    the second detector's taught boxes where that detector boxed nothing and no other box lies,
    marked weak as second_boxes marks them."""
    extra = added_boxes(*detect_taught(detector, photo.frame, head, LOW_CONF)) if head is not None else []
    if second is not None and second_head is not None:
        extra += weak_where_none(added_boxes(*detect_taught(second, photo.frame, second_head, TAUGHT_SECOND_CONF)),
                                 seen.boxes + [d.box for d in extra])
    if not extra:
        return seen
    return seen_boxes(photo.frame, seen.boxes + [d.box for d in extra],
                      np.concatenate([seen.scores, np.array([d.score for d in extra], np.float32)]), photo.dice, model,
                      [seen.is_weak(i) for i in range(len(seen.boxes))] + [d.weak for d in extra])


def base_head(seen: list[Seen]) -> tuple[np.ndarray, np.ndarray]:
    """The shipped last layer, recovered exactly from features and logits (least squares)."""
    f = np.concatenate([s.features for s in seen] + [s.train_x for s in seen] + [s.layer_x for s in seen])
    lg = np.concatenate([s.logits for s in seen] + [s.train_logits for s in seen] + [s.layer_logits for s in seen])
    if len(f) < f.shape[1] + 1:
        raise TeachError(f"too few dice to teach from ({sum(len(s.labels) for s in seen)} labelled): add photos")
    a = np.hstack([f, np.ones((len(f), 1), np.float32)])
    sol, *_ = np.linalg.lstsq(a.astype(np.float64), lg.astype(np.float64), rcond=None)
    return sol[:-1].T.astype(np.float32), sol[-1].astype(np.float32)


def fit_head(x: np.ndarray, y: np.ndarray, w0: np.ndarray, b0: np.ndarray, steps: int = 300,
             keep: float = 1e-3) -> tuple[np.ndarray, np.ndarray]:
    """Softmax regression from (w0, b0): cross-entropy plus keep * |w - w0|^2 (stay near the
    shipped layer, which knows die styles the few photos do not show)."""
    w, b = w0.astype(np.float64).copy(), b0.astype(np.float64).copy()
    xf = x.astype(np.float64)
    onehot = np.eye(7)[y]
    lr = 1.0 / max(float((xf ** 2).sum(1).mean()), 1e-6)
    counts = np.bincount(y, minlength=7).astype(np.float64)
    weight = (len(y) / np.maximum(counts, 1) / 7)[y]  # classes count alike, however many crops
    for _ in range(steps):
        p = softmax(xf @ w.T + b)
        g = (p - onehot) * weight[:, None] / len(y)
        w -= lr * (g.T @ xf + 2 * keep * (w - w0))
        b -= lr * g.sum(0)
    return w.astype(np.float32), b.astype(np.float32)


@dataclass
class Score:
    """Reading of held-out photos: dice right, sure answers wrong, unsure, labels, colours."""

    right: int = 0
    wrong: int = 0
    unsure: int = 0
    labels: int = 0
    colour_right: int = 0
    colour_n: int = 0
    gated: int = 0  # labelled dice the colour gate dropped (a box on the die, none let through)

    def as_dict(self) -> dict:
        return {"dice": self.labels, "right": self.right, "wrong": self.wrong, "unsure": self.unsure,
                "gated": self.gated,
                "recall": round(self.right / max(self.labels, 1), 4),
                "answers_right": round(self.right / max(self.right + self.wrong + self.unsure, 1), 4),
                "colour_right": round(self.colour_right / self.colour_n, 4) if self.colour_n else None}


def read_seen(s: Seen, probs: np.ndarray, wide: np.ndarray | None, conf: float, rule: ValueRule, prof: DiceProfile,
              score: Score) -> None:
    """Score one photo as the reader would read it with these probabilities (and those of its
    wider look), threshold (at READ_CONF with its weak boxes, as read_dice), value rule, colour
    names and colour gate. A second detector's box lying on a box read at this threshold is not
    read (read_dice adds it only where the shipped detector boxed nothing)."""
    score.labels += len(s.labels)
    floor = WEAK_CONF if conf == READ_CONF else conf
    over = np.nonzero(s.scores >= floor)[0]
    boxed = [i for i in over if is_die(probs[i])]
    firm = [s.boxes[i] for i in over if not s.is_weak(i)]
    boxed = [i for i in boxed if not (s.is_weak(i) and any(centre_in_either(b, s.boxes[i]) for b in firm))]
    value = {i: decide(probs[i], s.pips[i].count, rule, None if wide is None else wide[i], s.pips[i].short,
                       s.pips[i].flat)
             for i in boxed}
    boxed = [i for i in boxed if (s.scores[i] >= conf and not s.is_weak(i))
             or weak_box_holds(value[i], s.pips[i].count, float(probs[i][1:].max()))]
    kept = [i for i in boxed if prof.admits(s.colours[i])]
    let_in = {s.match[i] for i in kept}
    score.gated += len({s.match[i] for i in boxed if s.match[i] >= 0 and s.match[i] not in let_in})
    sides = side_faces([s.boxes[i] for i in kept], [value[i] is not None for i in kept],
                       [float(s.scores[i]) for i in kept])
    kept = [i for k, i in enumerate(kept) if k not in sides]
    values = [value[i] for i in kept]
    for group in same_die_groups([s.boxes[i] for i in kept], [float(s.scores[i]) for i in kept]):
        i = kept[group[0]]
        v = agreed_value([values[g] for g in group])
        j = max(s.match[kept[g]] for g in group)  # the die's label, whichever of its boxes met it
        if v is None:
            score.unsure += 1
        elif j >= 0 and s.labels[j].value == v:
            score.right += 1
        else:
            score.wrong += 1
        if j >= 0 and s.labels[j].colour is not None:
            score.colour_n += 1
            score.colour_right += prof.colour_name(s.colours[i], bool(s.straddles and s.straddles[i])) == s.labels[j].colour


def _colour_table(seen: list[Seen]) -> dict[str, list[float]]:
    """Median Lab colour of each colour word, over the dice the detector found."""
    by: dict[str, list[np.ndarray]] = {}
    for s in seen:
        for i, j in enumerate(s.match):
            if j >= 0 and not s.is_weak(i) and s.labels[j].colour and s.colours[i] is not None:
                by.setdefault(s.labels[j].colour, []).append(lab(s.colours[i]))
    return {k: [round(float(x), 2) for x in np.median(np.array(v), 0)] for k, v in by.items()}


def _seen_colours(seen: list[Seen]) -> tuple[list[list[float]], list[list[float]]]:
    """Lab colours of the boxes on labelled dice and of those on no die (touching none), at most
    MAX_GATE_SAMPLES of each, spread evenly over the photos' boxes."""
    on, off = [], []
    for s in seen:
        for i, c in enumerate(s.colours):
            if c is None or s.is_weak(i):
                continue
            if s.match[i] >= 0:
                on.append(lab(c))
            elif not _touches_die(s.boxes[i], s.labels):
                off.append(lab(c))

    def spread(v: list[np.ndarray]) -> list[list[float]]:
        keep = np.linspace(0, len(v) - 1, min(len(v), MAX_GATE_SAMPLES)).round().astype(int) if v else []
        return [[round(float(x), 2) for x in v[k]] for k in keep]
    return spread(on), spread(off)


def teach(photos: list[Photo], detector: Detector, model: DieValueModel, progress: Progress | None = None,
          seed: int = 0, second: Detector | bool = True) -> DiceProfile:
    """Learn a profile from labelled photos; its report holds the held-out before/after figures.
    second: the second detector whose boxes the reader adds (`read_dice`): True for the installed
    one if any, False for none."""
    say = progress or (lambda f, m: None)
    t0 = time.perf_counter()
    if len(photos) < 2:
        raise TeachError("teaching needs at least 2 photos (each is scored on a model fitted to the others)")
    rng = np.random.default_rng(seed)
    helper = asked_second_detector(second)
    seen = []
    for k, ph in enumerate(photos):
        say(0.6 * k / len(photos), f"reading photo {k + 1}/{len(photos)}: {ph.name}")
        seen.append(see(ph, detector, model, rng, helper))

    def taught_view(k: int, head: ScoreHead | None, second_head: ScoreHead | None) -> Seen:
        return with_taught_boxes(photos[k], seen[k], detector, head, model, helper, second_head)

    second_sha = helper.digest if helper is not None and helper.has_features else ""
    return learn(seen, model.digest, say, t0, taught_view if detector.has_features or second_sha else None,
                 detector.digest if detector.has_features else "", second_sha)


@dataclass(frozen=True)
class Choice:
    """One way to read the user's dice: threshold, value rule, colour gate, taught or shipped
    value layer, and whether a taught detector score adds boxes (and one of the second detector)."""

    conf: float = DEFAULT_CONF
    rule: ValueRule = SHIPPED_RULE
    gate: bool = False
    taught_head: bool = False
    taught_boxes: bool = False
    taught_second: bool = False

    def caution(self, gated: int) -> tuple:
        """Larger is more cautious: what breaks a tie between choices that read alike. `gated`:
        the labelled dice this choice's colour gate dropped on the held-out photos. A gate that
        dropped none is taken (its boxes of no taught colour were not dice); one that hid a die
        is not, since a die silently gone is worse than a "?" the user sees. The second detector's
        taught score is taken on a tie of everything else: its boxes must hold, and the few
        teaching photos rarely show the small dice it is for
        (models/checkpoints/second_detector_taught_score_choice.md)."""
        never = 2.0  # no override: the pip counter always vetoes
        gate = 0 if not self.gate else 1 if gated == 0 else -1
        return (self.conf, self.rule.pip_check, self.rule.sure,
                never if self.rule.override is None else self.rule.override,
                never if self.rule.more is None else self.rule.more, gate, not self.taught_head,
                not self.taught_boxes, self.taught_second)


def covers_values(seen: list[Seen]) -> bool:
    """True when every value 1..6 shows on at least MIN_PER_VALUE labelled dice: a layer fitted
    without a value leaves that value's answers too unsure (it cannot be checked either)."""
    counts = np.bincount([d.value for s in seen for d in s.labels], minlength=7)
    return bool((counts[1:] >= MIN_PER_VALUE).all())


@dataclass
class _View:
    """A held-out photo as one kind of choice reads it: its boxes and each value layer's probabilities."""

    seen: Seen
    probs: dict[bool, np.ndarray]
    wide: dict[bool, np.ndarray | None]


def _view(s: Seen, fold: DiceProfile) -> _View:
    probs = {False: softmax(s.logits), True: softmax(fold.logits(s.sym_features, s.logits))}
    wide = ({False: None, True: None} if s.wide_logits is None else
            {False: softmax(s.wide_logits), True: softmax(fold.logits(s.sym_wide_features, s.wide_logits))})
    return _View(s, probs, wide)


def learn(seen: list[Seen], digest: str, say: Progress, t0: float,
          taught_view: Callable[[int, ScoreHead | None, ScoreHead | None], Seen] | None = None, detector_sha: str = "",
          second_sha: str = "") -> DiceProfile:
    """The profile from photos as the reader saw them: each choice scored photo by photo on a
    layer fitted without that photo, kept only when it reads them better ("never worse").
    taught_view(k, head, second_head): photo k read with the boxes taught detector scores add (the
    shipped detector's, the second detector's; either None), None when neither can be taught."""
    w0, b0 = base_head(seen)
    shipped = DiceProfile(digest)
    before = Score()
    # The colour gate is a choice only when the owner named the colour of every die.
    gates = (False, True) if all(d.colour for s in seen for d in s.labels) else (False,)
    heads = (False, True) if covers_values(seen) else (False,)
    boxes = (False, True) if taught_view is not None and all(s.anchors is not None for s in seen) else (False,)
    seconds = (False, True) if taught_view is not None and all(s.second_anchors is not None for s in seen) else (False,)
    after = {Choice(c, r, g, h, t, t2): Score() for c in CONF_CHOICES for r in RULE_CHOICES for g in gates
             for h in heads for t in boxes for t2 in seconds}
    for k, s in enumerate(seen):
        say(0.6 + 0.35 * k / len(seen), f"held-out check {k + 1}/{len(seen)}")
        rest = [o for o in seen if o is not s]
        cols = _colour_table(rest)
        fold = DiceProfile(digest, fit_head(np.concatenate([o.train_x for o in rest]),
                                            np.concatenate([o.train_y for o in rest]), w0, b0), cols)
        plain = _view(s, fold)
        fold_score = fit_score_head([o.anchors for o in rest], detector_sha) if True in boxes else None
        fold_second = fit_score_head([o.second_anchors for o in rest], second_sha) if True in seconds else None
        views = {}
        for t in boxes:
            for t2 in seconds:
                h1, h2 = fold_score if t else None, fold_second if t2 else None
                views[(t, t2)] = plain if h1 is None and h2 is None else _view(taught_view(k, h1, h2), fold)
        v = plain
        read_seen(s, v.probs[False], v.wide[False], DEFAULT_CONF, SHIPPED_RULE, shipped, before)
        on, off = _seen_colours(rest)
        reading = {g: DiceProfile(digest, None, cols, colour_gate=g, on_dice=on, off_dice=off) for g in gates}
        for ch, score in after.items():
            v = views[(ch.taught_boxes, ch.taught_second)]
            read_seen(v.seen, v.probs[ch.taught_head], v.wide[ch.taught_head], ch.conf, ch.rule, reading[ch.gate], score)
    # Never worse: only a choice that reads no fewer held-out dice right and no more wrong, and
    # one of them better; among those the most right, a wrong answer costing WRONG_COST right
    # ones; ties go to the cautious end.
    b = before
    fine = [ch for ch, a in after.items() if a.right >= b.right and a.wrong <= b.wrong
            and (a.right, a.wrong) != (b.right, b.wrong)]
    best = max(fine, key=lambda ch: (after[ch].right - WRONG_COST * after[ch].wrong, ch.caution(after[ch].gated)),
               default=None)
    improved = best is not None
    a = after[best] if improved else after[Choice()]
    colours = _colour_table(seen) if a.colour_right >= b.colour_right else {}
    ch = best or Choice()
    gate = ch.gate and bool(colours)
    head, score_head, second_head = None, None, None
    if ch.taught_head:
        say(0.97, "fitting on all photos")
        head = fit_head(np.concatenate([s.train_x for s in seen]), np.concatenate([s.train_y for s in seen]), w0, b0)
    if ch.taught_boxes:
        score_head = fit_score_head([s.anchors for s in seen], detector_sha)
    if ch.taught_second:
        second_head = fit_score_head([s.second_anchors for s in seen], second_sha)
    report = {"photos": len(seen), "dice": sum(len(s.labels) for s in seen),
              "held_out_before": b.as_dict(), "held_out_after": a.as_dict(),
              "kept": "taught" if improved else "shipped", "colours_kept": bool(colours),
              "conf": ch.conf, "rule": ch.rule.to_json(), "colour_gate": gate,
              "layer": "taught" if ch.taught_head else "shipped", "colour_names": sorted(colours),
              "detector": "taught" if score_head is not None else "shipped",
              "second_detector": "taught" if second_head is not None else "shipped",
              "seconds": round(time.perf_counter() - t0, 1)}
    if not covers_values(seen):
        report["layer_note"] = (f"the value layer was not refitted: show every value 1-6 on at least "
                                f"{MIN_PER_VALUE} dice to teach it")
    report["message"] = (f"taught: {a.right}/{a.labels} dice right on held-out photos (was {b.right}), "
                         f"{a.wrong} wrong (was {b.wrong})" if improved else
                         f"kept the shipped reader: teaching read {a.right}/{a.labels} right, {a.wrong} wrong "
                         f"on held-out photos against {b.right} and {b.wrong} before")
    say(1.0, report["message"])
    on, off = _seen_colours(seen) if gate else ([], [])
    return DiceProfile(digest, head, colours, ch.conf if improved else None, report, ch.rule, gate, score_head, on, off,
                       symmetric=head is not None, second_score_head=second_head)


def learned_words(report: dict) -> str:
    """What a kept profile changes in the reader, in words ("" when nothing)."""
    parts = []
    if report.get("layer") == "taught":
        parts.append("the value layer refitted on your dice")
    rule = report.get("rule") or {}
    if rule.get("pip_check") is False:
        parts.append(f"a value is read by the classifier alone when it is at least {round(rule['sure'] * 100)}% sure "
                     "(the pip counter misread your dice)")
    elif rule and rule.get("override") is None:
        parts.append("a pip count that differs always makes a die unsure (the classifier was surely wrong on your dice)")
    elif rule and rule["override"] < OVERRIDE:
        parts.append(f"a value is read by the classifier when it is at least {round(rule['override'] * 100)}% sure and "
                     "the pip counter finds fewer pips, or less sure where the pip counter agrees (the pip counter "
                     "missed pips on some of your dice)")
    if rule and rule.get("pip_check") and rule.get("override") is not None and rule.get("more", OVERRIDE) is None:
        parts.append("where the pip counter finds more pips than the classifier reads, the die is unsure (the "
                     "classifier surely misread some of your dice)")
    if report.get("colour_gate"):
        names = ", ".join(report.get("colour_names") or [])
        parts.append(f"boxes of none of your dice's colours ({names}) that look like what was no die on your photos "
                     "are ignored: teach every colour you play with")
    if report.get("detector") == "taught":
        parts.append("dice are also looked for where the camera's detector saw none, with its score taught on your dice")
    if report.get("second_detector") == "taught":
        parts.append("the second detector's score taught on your dice too (each die it adds kept only where the "
                     "classifier and the pip counter agree)")
    if report.get("conf") not in (None, DEFAULT_CONF):
        parts.append(f"dice found down to a detector score of {report['conf']}")
    return "; ".join(parts)
