"""The games this build knows, by short name (apart from rules.core, which knows no game)."""
from __future__ import annotations

from types import MappingProxyType

from rules.core.engine import Engine
from rules.core.errors import IllegalMove
from rules.diceline.engine import DicelineEngine
from rules.dreams.engine import DreamsEngine
from rules.quarx.engine import QuarxEngine
from rules.ubongo.engine import UbongoEngine

# Each engine is also its game's Observer (rules.core.views) and, for games the camera reads,
# its CameraRules (rules.core.camera).
ENGINES = MappingProxyType({
    "quarx": QuarxEngine(),
    "diceline": DicelineEngine(),
    "ubongo": UbongoEngine(),
    "dreams": DreamsEngine(),
})


def engine_for(name: str) -> Engine:
    """The engine called `name`; IllegalMove naming the known games otherwise."""
    try:
        return ENGINES[name]
    except KeyError:
        raise IllegalMove(f"unknown game {name!r}; known: {', '.join(sorted(ENGINES))}", rule="game") from None
