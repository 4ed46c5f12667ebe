"""Per-game readers: a frame in, that game's TableView out (see rules.core.reconcile).

A reader is `read(frame, detector) -> Reading`; READERS maps a game name to its reader.
"""
from __future__ import annotations

from vision.pipeline import Reading
from vision.games.diceline.reader import read_diceline
from vision.games.quarx.reader import read_quarx
from vision.games.ubongo.reader import read_ubongo

READERS = {"quarx": read_quarx, "ubongo": read_ubongo, "diceline": read_diceline}
# Games whose TableView fields are read independently, so each may settle on its own
# (vision.stability.Stabilizer.per_field): Quarx's sphere counts are often unsure while
# the players' piles are read on every frame.
FIELDS_APART = frozenset({"quarx"})

__all__ = ["FIELDS_APART", "READERS", "Reading"]
