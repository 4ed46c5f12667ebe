"""Counting readings against the truth: the one tally every accuracy report uses.

A reading is right, wrong, or unsure (the reader said None: "unsure is None, never a guess").
Reports made of several counts add up with `add_counts`.
"""
from __future__ import annotations

from dataclasses import dataclass, fields, is_dataclass
from typing import Any


@dataclass
class Tally:
    """Right, wrong and unsure readings of one thing."""

    right: int = 0
    wrong: int = 0
    unsure: int = 0

    def add(self, ok: bool | None) -> None:
        """Count one reading: True right, False wrong, None unsure."""
        if ok is None:
            self.unsure += 1
        elif ok:
            self.right += 1
        else:
            self.wrong += 1

    @property
    def total(self) -> int:
        return self.right + self.wrong + self.unsure

    def __add__(self, other: Tally) -> Tally:
        return Tally(self.right + other.right, self.wrong + other.wrong, self.unsure + other.unsure)

    def __str__(self) -> str:
        return f"{self.right}/{self.total} right, {self.wrong} wrong, {self.unsure} unsure"


def add_counts(into: Any, other: Any) -> None:
    """Add report `other` into `into` (dataclasses of one type), field by field, in place.

    Numbers add, lists extend, Tallies and dicts of Tallies add per key."""
    assert is_dataclass(into) and type(into) is type(other)
    for f in fields(into):
        mine, theirs = getattr(into, f.name), getattr(other, f.name)
        if isinstance(mine, dict):
            for k, v in theirs.items():
                mine[k] = mine[k] + v if k in mine else v
        elif isinstance(mine, list):
            mine.extend(theirs)
        elif isinstance(mine, (int, float, Tally)) and not isinstance(mine, bool):
            setattr(into, f.name, mine + theirs)
