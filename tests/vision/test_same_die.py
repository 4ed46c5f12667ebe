"""One die, one answer: boxes on the same die are read as one."""
from __future__ import annotations

from vision.detector.dice import DieReading, one_per_die
from vision.detector.same_die import agreed_value, same_die_groups

DIE = (100.0, 100.0, 160.0, 160.0)
PIP = (140.0, 140.0, 158.0, 158.0)  # one pip of that die, boxed as a die of its own
NEIGHBOUR = (165.0, 100.0, 225.0, 160.0)


def test_a_box_on_part_of_a_die_joins_the_die_whichever_scores_higher():
    assert same_die_groups([DIE, PIP, NEIGHBOUR], [0.9, 0.5, 0.8]) == [[0, 1], [2]]
    assert same_die_groups([DIE, PIP, NEIGHBOUR], [0.4, 0.7, 0.8]) == [[2], [1, 0]]


def test_a_box_over_two_dice_merges_neither():
    both = (100.0, 100.0, 225.0, 160.0)
    assert sorted(same_die_groups([DIE, NEIGHBOUR, both], [0.9, 0.8, 0.3])) == [[0], [1], [2]]


def test_a_die_read_from_several_boxes_stands_only_where_its_sure_readings_agree():
    assert agreed_value([4, None, 4]) == 4
    assert agreed_value([4, 1]) is None
    assert agreed_value([None, None]) is None


def test_the_reader_gives_one_answer_per_die_from_its_best_box():
    def reading(box, value, conf):
        return DieReading(value, "red", box, conf, 0, value)

    out = one_per_die([reading(PIP, 1, 0.7), reading(DIE, 4, 0.6), reading(NEIGHBOUR, 2, 0.9)])
    assert [(r.box, r.value) for r in out] == [(PIP, None), (NEIGHBOUR, 2)]
    out = one_per_die([reading(PIP, None, 0.3), reading(DIE, 4, 0.6)])
    assert [(r.box, r.value) for r in out] == [(DIE, 4)]
