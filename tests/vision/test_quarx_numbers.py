"""The number cards that make a Quarx total."""
import pytest

from vision.detector import QuarxCard, QuarxCount, number_cards_for


@pytest.mark.parametrize("total,cards", [(0, []), (1, [1]), (23, [16, 4, 2, 1]), (31, [16, 8, 4, 2, 1]),
                                         (32, [16, 8, 4, 2, 1]), (50, [16, 8, 4, 2, 1])])
def test_number_cards(total, cards):
    assert number_cards_for(total) == cards


def test_count_json_and_sentence():
    c = QuarxCount(23, [QuarxCard((1.0, 2.0, 3.0, 4.0), 23)], [16, 4, 2, 1])
    assert c.to_json() == {"spheres": 23, "cards": [[1.0, 2.0, 3.0, 4.0, 23]], "number_cards": [16, 4, 2, 1]}
    assert c.sentence() == "23 = 16 + 4 + 2 + 1"
