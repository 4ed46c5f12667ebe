"""The games this build knows, by short name (apart from rules.core, which knows no game)."""
from __future__ import annotations

from types import MappingProxyType

from rules.core.engine import Engine
from rules.core.errors import IllegalMove


def _engines() -> dict[str, Engine]:
    from rules.quarx.engine import QuarxEngine

    found: dict[str, Engine] = {"quarx": QuarxEngine()}
    for name, module, cls in (
        ("diceline", "rules.diceline.engine", "DicelineEngine"),
        ("ubongo", "rules.ubongo.engine", "UbongoEngine"),
        ("dreams", "rules.dreams.engine", "DreamsEngine"),
    ):
        try:
            mod = __import__(module, fromlist=[cls])
        except ModuleNotFoundError as exc:  # a game not built yet is simply not offered
            if exc.name and exc.name.startswith(module.rsplit(".", 1)[0]):
                continue
            raise
        found[name] = getattr(mod, cls)()
    return found


ENGINES = MappingProxyType(_engines())


def engine_for(name: str) -> Engine:
    """The engine called `name`; IllegalMove naming the known games otherwise."""
    try:
        return ENGINES[name]
    except KeyError:
        raise IllegalMove(f"unknown game {name!r}; known: {', '.join(sorted(ENGINES))}", rule="game") from None
