"""The hold-out Quarx style (test only) and its evaluation harness."""
from __future__ import annotations

import numpy as np

from vision.games.quarx.holdout_eval import evaluate
from vision.synth.holdout_quarx import DECOYS, render_quarx_holdout


def test_a_scene_is_fixed_by_its_seed_and_records_its_spheres():
    a, b = render_quarx_holdout(3, 1), render_quarx_holdout(3, 1)
    assert np.array_equal(a.image, b.image)
    assert a.image.shape == (480, 640, 3)
    assert 1 <= len(a.cards) <= 3 and a.spheres == sum(c.spheres for c in a.cards)
    assert all(d in DECOYS for c in a.cards for d in c.decoys)
    assert not np.array_equal(a.image, render_quarx_holdout(3, 2).image)


def test_the_harness_counts_every_card_once():
    t = evaluate(91, 2)
    assert t.pictures == 2 and t.cards == sum(len(render_quarx_holdout(91, i).cards) for i in range(2))
    assert t.card_right + t.card_unsure + t.card_wrong >= t.cards_found
    assert 0 <= t.exact <= t.pictures
