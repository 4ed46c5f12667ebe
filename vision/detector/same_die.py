"""One die, one answer: boxes that lie on the same die are read as one.

The detector's slices, a low taught threshold and a taught detector score each add boxes, and
now and then two of them frame one die: the whole die and a part of it (one pip of a four read
as a 1), or the die and the die with its shadow. Read apart they give two answers for one die, at
least one of them wrong. Two boxes are on the same die when one holds the other's centre; the
merge of the detector's slices (`slicing.merge`) already drops a box whose centre a better box
holds, but not a better box's centre inside a larger, weaker one, nor boxes met only after the
taught boxes were added. A die's boxes become one reading: the best scored box, with the value
every sure reading of the die agrees on, and unsure when two sure readings differ (which of them
is the whole die is not known here: the part box often scores higher).
"""
from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from vision.detector.geometry import centre_in_either, holds_centre

Box = tuple[float, float, float, float]


def same_die_groups(boxes: Sequence[Box], scores: Sequence[float]) -> list[list[int]]:
    """The boxes grouped by die, each group led by its best scored box, which every other box of
    the group holds the centre of or has its centre in; groups in the order of their leaders. A
    box holding the centres of two boxes that are not on one die spans several dice and stays
    alone (it is read as before: grouping through it would merge two dice)."""
    n = len(boxes)

    def related(a: int, b: int) -> bool:
        return centre_in_either(boxes[a], boxes[b])

    def spans_dice(i: int) -> bool:
        held = [j for j in range(n) if j != i and holds_centre(boxes[i], boxes[j])]
        return any(not related(a, b) for a, b in combinations(held, 2))

    alone = [spans_dice(i) for i in range(n)]
    groups: list[list[int]] = []
    for i in sorted(range(n), key=lambda k: -scores[k]):
        home = None if alone[i] else next((g for g in groups if not alone[g[0]] and related(i, g[0])), None)
        if home is None:
            groups.append([i])
        else:
            home.append(i)
    return groups


def agreed_value(values: Sequence[int | None]) -> int | None:
    """The value of one die read from several boxes: the one value its sure readings give, None
    when none is sure or two differ."""
    sure = {v for v in values if v is not None}
    return sure.pop() if len(sure) == 1 else None
