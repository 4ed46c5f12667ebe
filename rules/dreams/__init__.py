"""Dreams (Zoch 2016): hidden roles, stars on a firmament, secret guesses. Engine: rules.dreams.engine.DreamsEngine."""
