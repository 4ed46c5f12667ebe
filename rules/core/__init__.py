"""The engine contract every game follows, and the match that records a game's moves."""
from rules.core.engine import Engine
from rules.core.errors import IllegalMove, MoveSyntaxError, RulesError
from rules.core.match import Match

__all__ = ["Engine", "IllegalMove", "MoveSyntaxError", "RulesError", "Match"]
