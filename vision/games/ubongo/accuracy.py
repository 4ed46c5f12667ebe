"""How well the Ubongo reader reads rendered tables: dice found, colour, shape and zone right.

python -m vision.games.ubongo.accuracy [images per tilt]
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

import numpy as np

from vision.games.ubongo.reader import Zones, find_dice
from vision.synth.footage_ubongo import render_table
from vision.tally import add_counts


@dataclass
class Accuracy:
    """Counts over rendered dice (a die is right when colour, shape and zone all are)."""

    dice: int = 0
    found: int = 0
    colour_right: int = 0
    right: int = 0
    misses: list[str] = field(default_factory=list)

    def add(self, other: Accuracy) -> None:
        add_counts(self, other)

    @property
    def rate(self) -> float:
        return self.right / max(1, self.dice)


def measure(seeds: range, tilt_deg: float, players: int = 4) -> Accuracy:
    """Read a rolled table (some dice already grabbed) per seed, seen at `tilt_deg`."""
    acc = Accuracy()
    zones = Zones()
    for seed in seeds:
        img, dice, cal = render_table(seed, float(np.radians(tilt_deg)), players, grabs=seed % (players + 1))
        seen = find_dice(img, cal, players=players)
        truth = Counter((d.colour, d.face, zones.zone_of(d.u, d.v, players)) for d in dice)
        got = Counter((d.colour, d.face, d.zone) for d in seen)
        acc.dice += len(dice)
        acc.found += min(len(seen), len(dice))
        acc.colour_right += sum((Counter(d.colour for d in dice) & Counter(d.colour for d in seen)).values())
        acc.right += sum((truth & got).values())
        if truth != got:
            acc.misses.append(f"seed {seed} tilt {tilt_deg}: missed {dict(truth - got)}, read {dict(got - truth)}")
    return acc


def main(per_tilt: int = 50) -> None:
    total = Accuracy()
    for tilt in (0, 15, 30, 45):
        acc = measure(range(per_tilt), tilt)
        total.add(acc)
        print(f"tilt {tilt:2d}: {acc.right}/{acc.dice} dice right ({acc.rate:.1%}), found {acc.found}, colour right {acc.colour_right}")
    for m in total.misses:
        print(" ", m)
    print(f"all: {total.right}/{total.dice} ({total.rate:.2%})")


if __name__ == "__main__":
    import sys

    main(int(sys.argv[1]) if len(sys.argv) > 1 else 50)
