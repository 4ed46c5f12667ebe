"""Errors a player can read: every refusal says which rule it breaks."""


class RulesError(Exception):
    """Base of every refusal raised by an engine."""

    def __init__(self, reason: str, rule: str | None = None):
        super().__init__(reason)
        self.reason = reason
        self.rule = rule

    def to_json(self) -> dict:
        return {"error": type(self).__name__, "reason": self.reason, "rule": self.rule}


class MoveSyntaxError(RulesError):
    """The text is not a move of this game at all."""


class IllegalMove(RulesError):
    """A well-formed move that the rules forbid here."""
