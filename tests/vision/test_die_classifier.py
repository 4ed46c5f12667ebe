"""The die classifier's training targets (needs the `train` extra: torch)."""
import numpy as np
import pytest

torch = pytest.importorskip("torch")

from vision.training.die_classifier import soft_targets  # noqa: E402
from vision.training.die_crops import UNREADABLE  # noqa: E402


def test_a_known_class_is_its_own_target_with_label_smoothing_as_torch_smooths_it():
    y = torch.tensor([0, 3, 6])
    logits = torch.randn(3, 7, generator=torch.Generator().manual_seed(0))
    t = soft_targets(y, 7, 0.05)
    assert np.allclose(t.sum(1).numpy(), 1)
    assert np.allclose(t[1].numpy(), [0.05 / 7] * 3 + [0.95 + 0.05 / 7] + [0.05 / 7] * 3)
    ours = torch.nn.functional.cross_entropy(logits, t)
    theirs = torch.nn.functional.cross_entropy(logits, y, label_smoothing=0.05)
    assert torch.isclose(ours, theirs)


def test_an_unreadable_die_is_an_even_share_of_every_value_and_never_no_die():
    t = soft_targets(torch.tensor([UNREADABLE, 2]), 7, 0.0)
    assert t[0, 0] == 0 and np.allclose(t[0, 1:].numpy(), 1 / 6)
    assert t[1, 2] == 1 and t[1].sum() == 1
