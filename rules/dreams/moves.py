"""The moves of Dreams as small values, their text forms and the parser that reads them back."""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Union

from rules.core.errors import MoveSyntaxError
from rules.dreams.components import DREAM_CARDS, IMAGE_NUMBERS, POSITION_STEPS, STAR_ALIASES, STAR_KINDS

MORTAL = "mortal"
VERBS = ("marker", "places", "guesses")

FORMS = (
    "'dreams 17 40 5 66' (dream cards for images 1-4)",
    "'deal vision 3 mortal Nina'",
    "'Nina marker 3' or 'Nina marker mortal'",
    "'Andrea places clear at 0.250 0.400' (clear/grey/black, x and y from 0 to 1)",
    "'Nina guesses yellow' (a God names a colour or a player) or 'George guesses 2' (the mortal names an image)",
)


@dataclass(frozen=True)
class LayOut:
    """Chance: the four dream cards laid out for images 1 to 4."""

    cards: tuple[int, int, int, int]

    def __str__(self) -> str:
        return "dreams " + " ".join(str(c) for c in self.cards)


@dataclass(frozen=True)
class Deal:
    """Chance: the whole deal of Gods markers at once (a seeded draw); secret until the reveal."""

    vision: int
    mortal: str

    def __str__(self) -> str:
        return f"deal vision {self.vision} mortal {self.mortal}"


@dataclass(frozen=True)
class MarkerEntry:
    """Chance, entered piecewise: one player's own marker, typed on that player's link."""

    player: str
    marker: str  # "1".."4" or "mortal"

    def __str__(self) -> str:
        return f"{self.player} marker {self.marker}"


@dataclass(frozen=True)
class PlaceStar:
    """A star put on the firmament at (x, y) in thousandths of its width and height."""

    player: str
    kind: str
    x: int
    y: int

    def __str__(self) -> str:
        return f"{self.player} places {self.kind} at {_coord(self.x)} {_coord(self.y)}"


@dataclass(frozen=True)
class Guess:
    """A secret guess: a God's colour or the mortal's image number ("1".."4")."""

    player: str
    target: str

    def __str__(self) -> str:
        return f"{self.player} guesses {self.target}"


Move = Union[LayOut, Deal, MarkerEntry, PlaceStar, Guess]


def _coord(v: int) -> str:
    return f"{v / POSITION_STEPS:.3f}"


def _syntax(text: str, hint: str | None = None) -> MoveSyntaxError:
    expected = hint or "one of " + "; ".join(FORMS)
    return MoveSyntaxError(f"{text!r} is not a Dreams move: expected {expected}", rule="move text")


def _player_prefix(text: str, players: list[str]) -> tuple[str, str] | None:
    """The player whose name starts `text` (longest name first) and the rest of the text."""
    for name in sorted(players, key=len, reverse=True):
        if text.startswith(name + " "):
            return name, text[len(name) + 1:].strip()
    low = text.lower()
    for name in sorted(players, key=len, reverse=True):
        if low.startswith(name.lower() + " "):
            return name, text[len(name) + 1:].strip()
    return None


def _position(word: str, text: str) -> int:
    try:
        value = float(word)
    except ValueError:
        raise _syntax(text, "a position from 0 to 1, as in 'Andrea places clear at 0.250 0.400'") from None
    if not 0.0 <= value <= 1.0:
        raise _syntax(text, "x and y between 0 (left/top edge) and 1 (right/bottom edge)")
    return round(value * POSITION_STEPS)


def _image(word: str, text: str, hint: str) -> int:
    if not word.isdigit() or int(word) not in IMAGE_NUMBERS:
        raise _syntax(text, hint)
    return int(word)


def parse(text: str, players: list[str], colours: list[str]) -> Move:
    """Read a move of a table with these players and colours (case-insensitive words)."""
    words = text.split()
    if not words:
        raise _syntax(text)
    found = _player_prefix(" ".join(words), players)
    if found is not None and found[1].split()[:1] and found[1].split()[0].lower() in VERBS:
        return _player_move(text, found[0], found[1], players, colours)
    head = words[0].lower()
    if head == "dreams":
        hint = f"'dreams A B C D': four different dream cards 1-{DREAM_CARDS} for images 1, 2, 3, 4"
        if len(words) != 5 or not all(w.isdigit() for w in words[1:]):
            raise _syntax(text, hint)
        cards = tuple(int(w) for w in words[1:])
        if not all(1 <= c <= DREAM_CARDS for c in cards) or len(set(cards)) != 4:
            raise _syntax(text, hint)
        return LayOut(cards)  # type: ignore[arg-type]
    if head == "deal":
        hint = "'deal vision 3 mortal Nina'"
        m = re.fullmatch(r"deal\s+vision\s+(\S+)\s+mortal\s+(.+)", " ".join(words), flags=re.IGNORECASE)
        if not m:
            raise _syntax(text, hint)
        vision = _image(m.group(1), text, hint)
        who = _name(m.group(2), players)
        if who is None:
            raise _syntax(text, f"{hint} with a player of this table: {', '.join(players)}")
        return Deal(vision, who)
    if found is None:
        raise _syntax(text, "a move that starts with a player's name (" + ", ".join(players) + ") or 'dreams'/'deal'")
    return _player_move(text, found[0], found[1], players, colours)


def _player_move(text: str, player: str, rest: str, players: list[str], colours: list[str]) -> Move:
    rwords = rest.split()
    verb = rwords[0].lower() if rwords else ""
    if verb == "marker":
        hint = f"'{player} marker 3' or '{player} marker mortal'"
        if len(rwords) != 2:
            raise _syntax(text, hint)
        mark = rwords[1].lower()
        if mark != MORTAL:
            mark = str(_image(mark, text, hint))
        return MarkerEntry(player, mark)
    if verb == "places":
        hint = f"'{player} places clear at 0.250 0.400' (clear, grey or black)"
        if len(rwords) != 5 or rwords[2].lower() != "at":
            raise _syntax(text, hint)
        kind = STAR_ALIASES.get(rwords[1].lower(), rwords[1].lower())
        if kind not in STAR_KINDS:
            raise _syntax(text, hint)
        return PlaceStar(player, kind, _position(rwords[3], text), _position(rwords[4], text))
    if verb == "guesses":
        hint = f"'{player} guesses <colour>' ({', '.join(colours)}) or '{player} guesses <image 1-4>'"
        if len(rwords) < 2:
            raise _syntax(text, hint)
        target = " ".join(rwords[1:]).lower()
        if target.isdigit():
            return Guess(player, str(_image(target, text, hint)))
        if target in colours:
            return Guess(player, target)
        # A God may name the suspect instead of the colour; the colour is what is logged.
        suspect = _name(" ".join(rwords[1:]), players)
        if suspect is None:
            raise _syntax(text, hint)
        return Guess(player, colours[players.index(suspect)])
    raise _syntax(text, f"'{player} places ...', '{player} guesses ...' or '{player} marker ...'")


def _name(word: str, players: list[str]) -> str | None:
    if word.strip() in players:
        return word.strip()
    for p in players:
        if p.lower() == word.strip().lower():
            return p
    return None
