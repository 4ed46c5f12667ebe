"""Helpers for the Dreams tests: a table of the book's four players and whole rounds played by text."""
from __future__ import annotations

import rules.core  # noqa: F401  (loads the registry before any game engine)
from rules.core.match import Match
from rules.dreams.engine import DreamsEngine

ENGINE = DreamsEngine()
# Seated as in the book's star example (Andrea begins, so she dealt); BLUE George, YELLOW Peter and
# GREEN Andrea are the book's colours, Nina's red is our pick.
BOOK_PLAYERS = ["Andrea", "Peter", "George", "Nina"]
BOOK_OPTIONS = {"colors": ["green", "yellow", "blue", "red"]}
SPOTS = ["0.100 0.200", "0.500 0.500", "0.900 0.800"]


def book_match(**kw) -> Match:
    """A new match of the book's four players, Andrea dealing first."""
    return Match(ENGINE, list(BOOK_PLAYERS), dict(BOOK_OPTIONS), **kw)


def place_all_stars(m: Match) -> None:
    """Every player places clear, grey, black in turn order (each at its own spot)."""
    while m.state.phase == "stars":
        p = m.state.star_turn()
        kind = m.state.stars_left(p)[0]
        m.play(f"{p} places {kind} at {SPOTS[len(m.state.stars) % 3]}")


def play_round(m: Match, vision: int, mortal: str, guesses: dict[str, str], cards: str | None = None) -> None:
    """Lay out, deal the given vision and mortal, place all stars, then every guess in order."""
    m.play(cards or "random")
    m.play(f"deal vision {vision} mortal {mortal}")
    place_all_stars(m)
    for player, target in guesses.items():
        m.play(f"{player} guesses {target}")
