"""What the server asks of the detector for a Quarx count."""
from __future__ import annotations

import numpy as np

from vision.games.quarx.photo import count_quarx


def quarx_count(frame: np.ndarray) -> dict:
    """The spheres on the cards in `frame`, per card and in total, with the number cards and a
    sentence (spheres null: unsure, and the sentence says what to do)."""
    result = count_quarx(frame)
    data = result.to_json()
    data["sentence"] = result.sentence()
    return data
