"""How many spheres are there? A photo of Quarx cards counted (`tablesight quarx`, the page's check).

The cards are found by their outlines and paper and each is counted on its own
(vision.games.quarx.cards); a card the counter is unsure of makes the count unsure, never a
guess. A photo with no card found whole (a close-up, or objects on a table with no card) is
counted by the spheres standing anywhere in it (vision.games.quarx.scene_spheres), again only
where every box is sure. The cards' detector network counts only when asked to.
"""
from __future__ import annotations

import numpy as np

from vision.detector.errors import NoModelError
from vision.detector.model import Detector, load_detector
from vision.detector.quarx import QuarxCard, QuarxCount, number_cards_for
from vision.games.quarx.cards import count_quarx_classical
from vision.games.quarx.scene_spheres import load_scene_spheres


def _grow(box, frac: float, w: int, h: int) -> tuple[int, int, int, int]:
    x1, y1, x2, y2 = box
    dx, dy = (x2 - x1) * frac, (y2 - y1) * frac
    return (int(max(0, x1 - dx)), int(max(0, y1 - dy)), int(min(w, x2 + dx)), int(min(h, y2 + dy)))


METHODS = ("auto", "net", "classical")


def _by_card(frame: np.ndarray) -> QuarxCount | None:
    """The cards found and counted one by one (vision.games.quarx.cards); None when no card is
    found; a card it is unsure of has spheres -1 and the count is not `sure`."""
    cards = count_quarx_classical(frame)
    if not cards:
        return None
    out = [QuarxCard(tuple(float(v) for v in c.box), -1 if c.spheres is None else c.spheres) for c in cards]
    if any(c.spheres is None for c in cards):
        return QuarxCount(0, out, [], sure=False)
    total = sum(c.spheres for c in cards)
    return QuarxCount(total, out, number_cards_for(total))


# A photo brought for the count holds spheres. The scene detector, taught spheres that stand on a
# table, does not see those printed on a card the finder lost: it answered 0 for a picture of the
# card hold-out style whose one card went unfound (5 spheres on it), so "none" is unsure.
MIN_SCENE_SPHERES = 1


# A Quarx or number card the detector network boxes at least this surely, where the card finder
# found none whole, is a game table whose Quarx cards were lost: their printed spheres are not
# what the scene detector counts. On the network's Quarx table renders (seed 1000) a judged scene
# count answered 1 for a grey ball beside a lost card of 14; no close-up it counted exact has such
# a box, and of the first 114 validation scenes of vision.synth.table_scenes 5 have a card boxed
# at 0.5 or more, none at 0.8.
CARD_SEEN = 0.9


def _card_seen(frame: np.ndarray, detector: Detector | None) -> bool:
    """True where the detector network boxes a card at least CARD_SEEN surely, or where no
    network is installed to tell (then nothing rules a lost card out)."""
    try:
        det = detector or load_detector()
    except NoModelError:
        return True
    return bool(det.detect(frame, conf=CARD_SEEN, classes={"quarx_card", "number_card"}))


def _by_scene(frame: np.ndarray, doubtful_cards: list[QuarxCard] = (), detector: Detector | None = None) -> QuarxCount:
    """No card found, or only cards the counter was unsure of: the spheres standing anywhere in
    the picture (vision.games.quarx.scene_spheres), unsure where a box is in doubt, where any box
    lies on one of the `doubtful_cards` (a real card: its spheres would go uncounted), where the
    detector network sees a card the finder lost (CARD_SEEN) or where no scene model is
    installed. The cards' detector network was wrong on 5 of the 7 close-ups it answered here (a
    card cut by the frame or seen steeply)."""
    model = load_scene_spheres()
    if model is None:
        return QuarxCount(0, [], [], sure=False)
    n, boxes = model.count(frame, keep_out=[c.box for c in doubtful_cards])
    if n is None or n < MIN_SCENE_SPHERES or _card_seen(frame, detector):
        return QuarxCount(0, [], [], sure=False)
    return QuarxCount(n, [], number_cards_for(n), [tuple(float(v) for v in d.box) for d in boxes])


def count_quarx(frame: np.ndarray, detector: Detector | None = None, conf: float = 0.4,
                method: str = "auto") -> QuarxCount:
    """Count spheres on the Quarx cards in a BGR frame (bubbles and other shapes do not count).

    method: "auto" (cards found by their outlines and paper, each counted by the sphere
    classifier: a card it is unsure of makes the count unsure, never a guess; where no card is
    found whole, the spheres in the whole picture by the scene detector, unsure where it is in
    doubt), "classical" (the same, and the net's count where it is unsure, as
    before the classifier) or "net" (detector: cards, then spheres in each card crop; always
    answers). Figures: models/MODEL_CARD.md.
    """
    if method not in METHODS:
        raise ValueError(f"method must be one of {METHODS}")
    if method != "net":
        got = _by_card(frame)
        if method == "auto":
            if got is None:
                return _by_scene(frame, detector=detector)
            if got.sure:
                return got
            # The finder also takes a box, a cylinder's side or a cloth's tile for a card, which
            # it then cannot count (35 of 300 validation scenes of vision.synth.table_scenes, all
            # unsure). Where no sphere is boxed on such a "card", the scene's count stands.
            scene = _by_scene(frame, got.cards, detector)
            return scene if scene.sure else got
        if got is not None and got.sure:
            return got
    det = detector or load_detector()
    h, w = frame.shape[:2]
    cards = [d for d in det.detect(frame, conf=conf, classes={"quarx_card"})]
    # A card crop is re-run at full network resolution: spheres on a far card are only a few
    # pixels in the whole frame.
    regions = [_grow(c.box, 0.04, w, h) for c in cards] or [(0, 0, w, h)]
    out_cards: list[QuarxCard] = []
    boxes: list[tuple[float, float, float, float]] = []
    for i, (x1, y1, x2, y2) in enumerate(regions):
        crop = frame[y1:y2, x1:x2]
        if crop.size == 0:
            continue
        found = det.detect(crop, conf=conf, classes={"sphere"})
        found = [s for s in found if _inside_card(s.box, cards[i].box if cards else None, x1, y1)]
        boxes += [(s.box[0] + x1, s.box[1] + y1, s.box[2] + x1, s.box[3] + y1) for s in found]
        if cards:
            out_cards.append(QuarxCard(cards[i].box, len(found)))
    total = len(boxes)
    return QuarxCount(total, out_cards, number_cards_for(total), boxes)


def _inside_card(sbox, card, ox: int, oy: int) -> bool:
    if card is None:
        return True
    cx, cy = (sbox[0] + sbox[2]) / 2 + ox, (sbox[1] + sbox[3]) / 2 + oy
    return card[0] <= cx <= card[2] and card[1] <= cy <= card[3]
