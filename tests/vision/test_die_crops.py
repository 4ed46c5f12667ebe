"""The value classifier's crop sets: side-face negatives come on their own random stream."""
import numpy as np

from vision.detector.value_rule import NO_DIE
from vision.training.die_crops import synthetic_crops


def test_side_face_crops_add_only_no_die_crops_and_leave_the_rest_alone():
    added = 0
    for i in range(0, 40, 5):
        x0, y0 = synthetic_crops(15, i, 1.0)
        x1, y1 = synthetic_crops(15, i, 1.0, side_faces=True)
        assert len(y1) >= len(y0)
        before = {c.tobytes() for c in x0}
        extra = [y for c, y in zip(x1, y1) if c.tobytes() not in before]
        assert len(extra) == len(y1) - len(y0) and all(y == NO_DIE for y in extra)
        assert np.array_equal(np.sort(y0), np.sort([y for c, y in zip(x1, y1) if c.tobytes() in before]))
        added += len(extra)
    assert added > 0
