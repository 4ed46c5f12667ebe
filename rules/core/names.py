"""Player names: the one check every game and the API rely on.

A name is shown on every screen, written to the event log and sent as JSON, so it must be text
that any of them can carry and that reads the same everywhere: printable Unicode, no control or
format characters (a right-to-left override would make "Ann" look like someone else), no lone
surrogates (not text at all: they cannot be encoded as UTF-8), 1-32 characters, no outer spaces.
"""
from __future__ import annotations

import unicodedata

from rules.core.errors import IllegalMove

MAX_NAME = 32
RULE = "player names"
# Cc control, Cf format (bidi overrides and isolates, zero-width joiners), Cs surrogates,
# Co private use, Cn unassigned, Zl/Zp line and paragraph separators.
REFUSED_CATEGORIES = {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"}


def name_problem(name: object) -> str | None:
    """Why `name` cannot be a player's name, or None when it can."""
    if not isinstance(name, str):
        return "a name is text"
    if not name or not name.strip():
        return "a name cannot be empty"
    if len(name) > MAX_NAME:
        return f"a name has at most {MAX_NAME} characters"
    if name != name.strip():
        return "a name has no spaces before or after it"
    for ch in name:
        cat = unicodedata.category(ch)
        if cat in REFUSED_CATEGORIES or (cat.startswith("Z") and ch != " "):
            return f"a name has no control, format or invisible characters (U+{ord(ch):04X})"
    return None


def check_name(name: object) -> None:
    """Refuse a player name that is not printable text of 1-32 characters (IllegalMove, rule 'player names')."""
    problem = name_problem(name)
    if problem:
        # ascii() so that the refusal itself can always be encoded, whatever the name holds
        raise IllegalMove(f"bad player name {ascii(name)}: {problem}", rule=RULE)
