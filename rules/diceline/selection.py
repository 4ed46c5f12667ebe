"""The selection board: a roll laid out as rows (sets) of one red, one green and two grey dice."""
from __future__ import annotations


def rows_from_roll(red: list[int], green: list[int], grey: list[int]) -> list[list[int]]:
    """Columns ascending top to bottom; grey fills the left column, then the right one."""
    red, green, grey = sorted(red), sorted(green), sorted(grey)
    n = len(red)
    left, right = grey[:n], grey[n:]
    return [[red[i], green[i], left[i], right[i]] for i in range(n)]


def choosers(order: list[int]) -> list[int]:
    """Who chooses, in turn: the start player returns a set, then reverse player order takes."""
    return [order[0]] + order[:0:-1]
