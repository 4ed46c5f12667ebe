"""Dreams (Zoch 2016): hidden roles, stars on a firmament, secret guesses. Engine: rules.dreams.engine.DreamsEngine."""
# rules.core's registry imports every game engine; loading it first keeps `import rules.dreams.engine`
# from meeting a half-initialised rules.core when this package is imported before rules.core.
import rules.core  # noqa: F401
