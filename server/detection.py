"""What the server asks of the detector for a Quarx count."""
from __future__ import annotations

import numpy as np


def quarx_count(frame: np.ndarray) -> dict:
    """The spheres on the cards in `frame`, per card and in total, with the number cards."""
    from vision.detector import count_quarx

    result = count_quarx(frame)
    data = result.to_json()
    data["sentence"] = result.sentence()
    return data
