"""The sphere counter on the hold-out Quarx style (vision.synth.holdout_quarx), which no model
or threshold was fitted on.

    python -m vision.games.quarx.holdout_eval --count 100 [--out models/eval/quarx_holdout.json]

Reported per picture: the `tablesight quarx` answer exact, unsure or wrong, how often it answered
0, and "always 1" as the floor any counter must beat;
per card, the counter the hands-free reader uses: right, unsure (None) or wrong, and whether the
card was found at all (a found card's middle within a drawn card); and the counter alone on each
drawn card warped by its true corners, which leaves the card finder out.
"""
from __future__ import annotations

import argparse
import json
from dataclasses import asdict, dataclass
from pathlib import Path

import cv2
import numpy as np

from vision.detector import load_detector
from vision.games.quarx.photo import count_quarx
from vision.games.quarx.cards import count_card, count_quarx_classical, top_down
from vision.synth.holdout_quarx import render_quarx_holdout


@dataclass
class QuarxHoldoutTally:
    pictures: int = 0
    exact: int = 0  # the command's total equals the drawn spheres
    answered_zero: int = 0
    unsure: int = 0  # the command said unsure (no total)
    wrong: int = 0  # the command gave a total, not the drawn one
    always_one_exact: int = 0
    cards: int = 0
    cards_found: int = 0
    card_right: int = 0
    card_unsure: int = 0
    card_wrong: int = 0
    # The counter alone, on each drawn card warped by its true corners (the finder left out).
    given_right: int = 0
    given_unsure: int = 0
    given_wrong: int = 0

    def as_dict(self) -> dict:
        n, c = max(1, self.pictures), max(1, self.cards)
        return asdict(self) | {"exact_rate": round(self.exact / n, 4), "wrong_rate": round(self.wrong / n, 4), "always_one_rate": round(self.always_one_exact / n, 4),
                               "cards_found_rate": round(self.cards_found / c, 4), "card_right_rate": round(self.card_right / c, 4),
                               "card_wrong_rate": round(self.card_wrong / c, 4),
                               "given_right_rate": round(self.given_right / c, 4),
                               "given_wrong_rate": round(self.given_wrong / c, 4)}


def _drawn_card_at(x: float, y: float, scene) -> int | None:
    for i, card in enumerate(scene.cards):
        if cv2.pointPolygonTest(card.corners.astype(np.float32), (float(x), float(y)), False) >= 0:
            return i
    return None


def evaluate(seed: int, count: int, detector=None) -> QuarxHoldoutTally:
    t = QuarxHoldoutTally()
    for idx in range(count):
        scene = render_quarx_holdout(seed, idx)
        t.pictures += 1
        got = count_quarx(scene.image, detector)
        total = got.spheres if got.sure else None
        t.exact += total == scene.spheres
        t.answered_zero += total == 0
        t.unsure += total is None
        t.wrong += total is not None and total != scene.spheres
        t.always_one_exact += scene.spheres == 1
        t.cards += len(scene.cards)
        seen: set[int] = set()
        for card in count_quarx_classical(scene.image):
            x1, y1, x2, y2 = card.box
            i = _drawn_card_at((x1 + x2) / 2, (y1 + y2) / 2, scene)
            if i is None or i in seen:
                if card.spheres is not None:
                    t.card_wrong += 1  # a count for a card that is not there
                continue
            seen.add(i)
            if card.spheres is None:
                t.card_unsure += 1
            elif card.spheres == scene.cards[i].spheres:
                t.card_right += 1
            else:
                t.card_wrong += 1
        t.cards_found += len(seen)
        for card in scene.cards:
            got = count_card(top_down(scene.image, card.corners.astype(np.float32)))
            t.given_right += got == card.spheres
            t.given_unsure += got is None
            t.given_wrong += got is not None and got != card.spheres
    return t


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, default=91)
    ap.add_argument("--count", type=int, default=100)
    ap.add_argument("--out", type=Path)
    args = ap.parse_args(argv)
    result = {"seed": args.seed, "style": "vision.synth.holdout_quarx"} | evaluate(args.seed, args.count, load_detector()).as_dict()
    print(json.dumps(result, indent=1))
    if args.out:
        args.out.write_text(json.dumps(result, indent=1) + "\n")


if __name__ == "__main__":
    main()
