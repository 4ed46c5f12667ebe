"""The real set's scoring rule and our pip-box to face-box conversion, on hand-made cases."""
from vision.training.evaluate import match_centre_rule
from vision.training.real_dice import RealLabel, face_box


def test_centre_rule_value_must_match_and_label_used_once():
    labels = [((10, 10, 20, 20), 3), ((50, 50, 60, 60), 5)]
    preds = [((0, 0, 30, 30), 3, 0.9), ((0, 0, 30, 30), 3, 0.8), ((45, 45, 65, 65), 4, 0.9)]
    assert match_centre_rule(preds, labels) == (1, 1)


def test_centre_rule_box_must_contain_label_centre():
    labels = [((10, 10, 20, 20), 2)]
    assert match_centre_rule([((16, 16, 40, 40), 2, 0.9)], labels) == (0, 0)
    assert match_centre_rule([((14, 14, 40, 40), 2, 0.9)], labels) == (1, 1)


def test_face_box_keeps_centre_and_grows_pip_box():
    lb = RealLabel(6, (100.0, 100.0, 150.0, 146.0))
    x1, y1, x2, y2 = face_box(lb, 640, 480)
    assert (x1 + x2) / 2 == 125 and (y1 + y2) / 2 == 123
    assert x2 - x1 == 60  # 50 px pip box x 1.2
    one = face_box(RealLabel(1, (100.0, 100.0, 110.0, 110.0)), 640, 480)
    assert one[2] - one[0] == 40  # a lone pip: grown to the smallest plausible face
