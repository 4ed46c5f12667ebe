"""The camera reader of each game the camera reads, by game name (see vision.pipeline.Reader)."""
from __future__ import annotations

from types import MappingProxyType

from vision.games.diceline.reader import DicelineReader
from vision.games.quarx.reader import QuarxReader
from vision.games.ubongo.reader import UbongoReader
from vision.pipeline import Reader

READERS: MappingProxyType[str, Reader] = MappingProxyType({
    "quarx": QuarxReader(),
    "ubongo": UbongoReader(),
    "diceline": DicelineReader(),
})
