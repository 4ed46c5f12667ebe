"""The camera picture for people at one game's table: only what matters for that game, each thing
labelled in the words a player uses ("red 4", "7 spheres", "unsure: move your hand"), and what
the camera waits for along the bottom.

Contract: `labels_for(game, items) -> list[Label]` turns what a reader or the detector found into
labels, dropping every detector class the game has no use for (a Diceline table shows no
"quarx_card" boxes); `game=None` (no table) keeps everything. An unsure reading is labelled
"unsure: ..." with what to do, never with a guessed value. `draw_scene(frame, labels, waiting,
headline)` draws them: sure things in a solid box, unsure ones in a dashed orange box.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable

import cv2
import numpy as np

from vision.detector.dice import DieReading
from vision.detector.model import Detection
from vision.detector.quarx import QuarxCount

Box = tuple[float, float, float, float]

# The detector classes each game's picture shows; anything else on the table is not drawn.
DIE_CLASSES = frozenset(f"die_{i}" for i in range(1, 7))
GAME_CLASSES: dict[str, frozenset[str]] = {
    "quarx": frozenset({"sphere", "quarx_card", "number_card"}),
    "diceline": DIE_CLASSES | {"bonus_tile"},
    "ubongo": frozenset({"ubongo_die"}),
    "dreams": frozenset(),
}
WORDS = {"sphere": "sphere", "quarx_card": "Quarx card", "number_card": "number card", "ubongo_die": "Ubongo die",
         "bonus_tile": "bonus tile"}
SURE, UNSURE = (60, 200, 60), (0, 140, 255)  # BGR: green, orange


@dataclass(frozen=True)
class Label:
    """One thing on the picture: where, what a player calls it, and whether the camera is sure."""

    box: Box
    text: str
    sure: bool = True

    def to_json(self) -> dict:
        return {"box": [round(float(v), 1) for v in self.box], "text": self.text, "sure": self.sure}


def _wants(game: str | None, cls: str) -> bool:
    return game is None or cls in GAME_CLASSES.get(game, frozenset())


COUNT_HIDDEN = "counted: hidden until everyone has laid"


def _quarx_labels(count: QuarxCount, hide_counts: bool) -> list[Label]:
    out = []
    for card in count.cards:
        if hide_counts:  # no number and no sphere marks: marked spheres would count for the players
            out.append(Label(card.box, COUNT_HIDDEN if card.spheres >= 0 else "unsure: spread the card out",
                             card.spheres >= 0))
        elif card.spheres >= 0:
            out.append(Label(card.box, f"{card.spheres} sphere{'s' if card.spheres != 1 else ''}"))
        else:
            out.append(Label(card.box, "unsure: spheres too close, spread the card out", False))
    if not hide_counts:
        out += [Label(b, "sphere") for b in count.sphere_boxes]
    for box, text in count.labels:  # the number cards: "red 16", "red down", "?"
        if text == "?":
            out.append(Label(box, "unsure: number card, lay it flat", False))
        else:
            out.append(Label(box, text.replace(" down", " face down")))
    return out


def labels_for(game: str | None, items: Any, hide_counts: bool = False) -> list[Label]:
    """Labels for what a reader returned (QuarxCount, DieReadings, Detections) at a `game` table.
    `hide_counts`: the rules hide the Quarx counts on the shared screen now (vision.waiting)."""
    if items is None:
        return []
    if isinstance(items, QuarxCount):
        return _quarx_labels(items, hide_counts) if game in (None, "quarx") else []
    out: list[Label] = []
    for it in items:
        if isinstance(it, DieReading):
            if not _wants(game, "die_1"):
                continue
            out.append(Label(it.box, f"{it.color or 'die'} {it.value}") if it.value is not None
                       else Label(it.box, f"unsure: {it.color + ' ' if it.color else ''}die, turn it to face the camera",
                                  False))
        elif isinstance(it, Detection):
            if it.cls in WORDS or it.cls in DIE_CLASSES:
                if not _wants(game, it.cls):
                    continue
                out.append(Label(it.box, f"die {it.cls[4:]}" if it.cls in DIE_CLASSES else WORDS[it.cls]))
            else:  # a reader's own label, e.g. Ubongo's "black L4" / "white ?", Diceline's "unsure: die"
                if it.cls.startswith("unsure"):
                    out.append(Label(it.box, it.cls, False))
                elif it.cls.endswith("?"):
                    out.append(Label(it.box, f"unsure: {it.cls[:-1].strip()} die, turn it face up", False))
                else:
                    out.append(Label(it.box, it.cls))
    return out


def _dashed_rect(img: np.ndarray, p1: tuple[int, int], p2: tuple[int, int], colour, dash: int = 8) -> None:
    (x1, y1), (x2, y2) = p1, p2
    for a, b in (((x1, y1), (x2, y1)), ((x2, y1), (x2, y2)), ((x2, y2), (x1, y2)), ((x1, y2), (x1, y1))):
        length = max(abs(b[0] - a[0]), abs(b[1] - a[1]), 1)
        for s in range(0, length, dash * 2):
            t0, t1 = s / length, min(1.0, (s + dash) / length)
            cv2.line(img, (int(a[0] + (b[0] - a[0]) * t0), int(a[1] + (b[1] - a[1]) * t0)),
                     (int(a[0] + (b[0] - a[0]) * t1), int(a[1] + (b[1] - a[1]) * t1)), colour, 2)


def _text(img: np.ndarray, text: str, org: tuple[int, int], colour, scale: float = 0.5) -> None:
    # Dark outline under the letters: readable on a white card and on a dark table alike.
    cv2.putText(img, text, org, cv2.FONT_HERSHEY_SIMPLEX, scale, (0, 0, 0), 3, cv2.LINE_AA)
    cv2.putText(img, text, org, cv2.FONT_HERSHEY_SIMPLEX, scale, colour, 1, cv2.LINE_AA)


def _strip(img: np.ndarray, text: str, top: bool, colour) -> None:
    h, w = img.shape[:2]
    y0, y1 = (0, 28) if top else (h - 28, h)
    cv2.rectangle(img, (0, y0), (w, y1), colour, -1)
    cv2.putText(img, text[:110], (8, y0 + 20), cv2.FONT_HERSHEY_SIMPLEX, 0.6, (255, 255, 255), 1, cv2.LINE_AA)


def draw_scene(frame: np.ndarray, labels: Iterable[Label], waiting: str | None = None,
               headline: str | None = None, alarm: bool = False) -> np.ndarray:
    """A copy of `frame` with `labels`, a `headline` along the top (red when `alarm`) and, along
    the bottom, what the camera waits for."""
    img = frame.copy()
    placed: list[tuple[int, int, int, int]] = []
    # Unsure things first: their words say what to do, so they get the free space. A label whose
    # words would cover another's keeps its box but not its words (the page says them too).
    for lab in sorted(labels, key=lambda lab: lab.sure):
        x1, y1, x2, y2 = (int(round(v)) for v in lab.box)
        colour = SURE if lab.sure else UNSURE
        if lab.sure:
            cv2.rectangle(img, (x1, y1), (x2, y2), colour, 2)
        else:
            _dashed_rect(img, (x1, y1), (x2, y2), colour)
        if not lab.text or lab.text == "sphere":
            continue
        scale = 0.5 if (x2 - x1) >= 40 else 0.4
        (tw, th), _ = cv2.getTextSize(lab.text, cv2.FONT_HERSHEY_SIMPLEX, scale, 1)
        for ox, oy in ((x1, y1 - 5), (x1, y2 + th + 5)):
            oy = max(th + 2, oy)
            rect = (ox, oy - th - 2, ox + tw, oy + 3)
            if not any(rect[0] < r[2] and r[0] < rect[2] and rect[1] < r[3] and r[1] < rect[3] for r in placed):
                placed.append(rect)
                _text(img, lab.text, (ox, oy), colour, scale)
                break
    if headline:
        _strip(img, headline, True, (0, 0, 160) if alarm else (60, 60, 60))
    if waiting:
        _strip(img, f"waiting for: {waiting}", False, (90, 60, 20))
    return img
