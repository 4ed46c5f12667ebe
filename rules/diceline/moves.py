"""Diceline moves: small frozen values whose str() is the text that parse_move reads back."""
from __future__ import annotations

import re
from dataclasses import dataclass

from rules.core.errors import MoveSyntaxError
from rules.diceline.board import cell_name, parse_cell
from rules.diceline.components import BONUS_KINDS, COLOURS, GREY_SPACES, RED_LAYOUT_SPACE, RED_MARKER_SPACES

GREEN_SPACES = tuple(f"green {v}" for v in range(1, 7))
SPACE_NAMES = RED_MARKER_SPACES + (RED_LAYOUT_SPACE,) + GREEN_SPACES + tuple(s[0] for s in GREY_SPACES)

FORMS = (
    "order rolls 7 9 3 | start tile vp | reveal bonus vp | reveal layout 7 | "
    "roll red 1 3 5 6 green 2 2 4 5 grey 1 1 2 3 3 4 5 6 | return row 3 | take row 2 | "
    "red 2 -> red 1~3 | red 5 -> red 1~6: layout 7 | green 4 -> green 4: vp -> r2c3 | "
    "grey 6 -> grey 6: green 3 -> red | grey 3 -> grey 3~6: red 2 -> 6 | "
    "grey 2 -> grey 2~6: tile r1c1 -> r1c2 | grey 2 -> grey 2~6: order +1, turn up r2c2 | "
    "return grey 3, turn up r2c2 | use die r1c1 | die x1: red 2 -> 3 | die x3: green 3 -> red | "
    "movement x2 | order x3 | tile r1c1 -> r1c2 | order +1 | stop | complete layout 7 | done | "
    "turn up r2c2"
)


def _cell(i: int | None) -> str:
    return "" if i is None else f", turn up {cell_name(i)}"


# -- effects that follow a die placement ---------------------------------------------------
@dataclass(frozen=True)
class DieMove:
    """Move one of your dice to a die space of another (or the other grey) space."""

    colour: str
    value: int
    to: str

    def __str__(self) -> str:
        return f"{self.colour} {self.value} -> {self.to}"


@dataclass(frozen=True)
class DieSet:
    """Change one of your dice to a new value."""

    colour: str
    value: int
    to: int

    def __str__(self) -> str:
        return f"{self.colour} {self.value} -> {self.to}"


@dataclass(frozen=True)
class TileStep:
    """Move Bonus Tiles: one tile to an orthogonally adjacent open space."""

    src: int
    dst: int

    def __str__(self) -> str:
        return f"tile {cell_name(self.src)} -> {cell_name(self.dst)}"


@dataclass(frozen=True)
class OrderStep:
    """Adjust Player Order: one space on; `turn_up` is the space-3 bonus tile."""

    turn_up: int | None = None

    def __str__(self) -> str:
        return f"order +1{_cell(self.turn_up)}"


@dataclass(frozen=True)
class TakeLayout:
    """Red 1~6: take a layout tile from the red board."""

    tile: int

    def __str__(self) -> str:
        return f"layout {self.tile}"


@dataclass(frozen=True)
class TakeBonus:
    """Green: take a bonus tile of `kind` from the board to bonus space `cell`."""

    kind: str
    cell: int

    def __str__(self) -> str:
        return f"{self.kind} -> {cell_name(self.cell)}"


Effect = DieMove | DieSet | TileStep | OrderStep | TakeLayout | TakeBonus


# -- setup and phase 1 ----------------------------------------------------------------------
@dataclass(frozen=True)
class OrderRolls:
    """Chance: two-dice totals, in seat order, of the players who roll for player order."""

    totals: tuple[int, ...]

    def __str__(self) -> str:
        return "order rolls " + " ".join(map(str, self.totals))


@dataclass(frozen=True)
class StartTile:
    """Setup: take a starting bonus tile to your centre space."""

    kind: str

    def __str__(self) -> str:
        return f"start tile {self.kind}"


@dataclass(frozen=True)
class RevealBonus:
    """Chance: the bonus tile drawn from the deck."""

    kind: str

    def __str__(self) -> str:
        return f"reveal bonus {self.kind}"


@dataclass(frozen=True)
class RevealLayout:
    """Chance: the layout tile drawn from the deck."""

    tile: int

    def __str__(self) -> str:
        return f"reveal layout {self.tile}"


@dataclass(frozen=True)
class Roll:
    """Chance: every die of the pool, by colour, values ascending."""

    red: tuple[int, ...]
    green: tuple[int, ...]
    grey: tuple[int, ...]

    def __str__(self) -> str:
        return " ".join(["roll"] + [f"{c} " + " ".join(map(str, getattr(self, c))) for c in COLOURS])


@dataclass(frozen=True)
class ReturnRow:
    """Phase 1: the start player returns a set (a row) to the pool."""

    row: int

    def __str__(self) -> str:
        return f"return row {self.row + 1}"


@dataclass(frozen=True)
class TakeRow:
    """Phase 1: take a set (a row) of dice."""

    row: int

    def __str__(self) -> str:
        return f"take row {self.row + 1}"


# -- phase 2 ----------------------------------------------------------------------------------
@dataclass(frozen=True)
class Place:
    """Place a die in an action space and perform its action (`effect` where it has a choice)."""

    colour: str
    value: int
    space: str
    effect: Effect | None = None

    def __str__(self) -> str:
        tail = f": {self.effect}" if self.effect is not None else ""
        return f"{self.colour} {self.value} -> {self.space}{tail}"


@dataclass(frozen=True)
class ReturnDie:
    """Return a die to the pool and turn a face-down bonus tile face up."""

    colour: str
    value: int
    turn_up: int | None = None

    def __str__(self) -> str:
        return f"return {self.colour} {self.value}{_cell(self.turn_up)}"


@dataclass(frozen=True)
class UseTile:
    """Turn a face-up bonus tile face down for its bonus action."""

    kind: str
    cell: int

    def __str__(self) -> str:
        return f"use {self.kind} {cell_name(self.cell)}"


@dataclass(frozen=True)
class DieBonus:
    """Spend 1, 2 or 3 used die tiles: +-1, any value, or move the die to another space."""

    tiles: int
    effect: DieMove | DieSet

    def __str__(self) -> str:
        return f"die x{self.tiles}: {self.effect}"


@dataclass(frozen=True)
class StepBonus:
    """Spend 1, 2 or 3 used movement or order tiles for 1, 3 or 5 steps."""

    kind: str
    tiles: int

    def __str__(self) -> str:
        return f"{self.kind} x{self.tiles}"


@dataclass(frozen=True)
class Step:
    """One step of a Move Bonus Tiles / Adjust Player Order sequence."""

    step: TileStep | OrderStep

    def __str__(self) -> str:
        return str(self.step)


@dataclass(frozen=True)
class Stop:
    """End a sequence of steps early ("up to three times")."""

    def __str__(self) -> str:
        return "stop"


@dataclass(frozen=True)
class CompleteLayout:
    """Announce a completed layout tile."""

    tile: int

    def __str__(self) -> str:
        return f"complete layout {self.tile}"


@dataclass(frozen=True)
class Done:
    """Finish your turn."""

    def __str__(self) -> str:
        return "done"


# -- phase 3 ----------------------------------------------------------------------------------
@dataclass(frozen=True)
class LineTurnUp:
    """Phase 3: turn a face-down tile that is part of a line face up."""

    cell: int

    def __str__(self) -> str:
        return f"turn up {cell_name(self.cell)}"


Move = (
    OrderRolls | StartTile | RevealBonus | RevealLayout | Roll | ReturnRow | TakeRow | Place | ReturnDie
    | UseTile | DieBonus | StepBonus | Step | Stop | CompleteLayout | Done | LineTurnUp
)

# -- parsing ------------------------------------------------------------------------------------
_KIND = "(" + "|".join(BONUS_KINDS) + ")"
_COL = "(" + "|".join(COLOURS) + ")"
_CELL = r"(r[1-3]c[1-3])"
_TURN_UP = r"(?:, turn up " + _CELL + ")?"
_RE = {
    "order_rolls": re.compile(r"order rolls((?: \d+)+)$"),
    "start": re.compile(r"start tile " + _KIND + "$"),
    "reveal_bonus": re.compile(r"reveal bonus " + _KIND + "$"),
    "reveal_layout": re.compile(r"reveal layout (\d+)$"),
    "roll": re.compile(r"roll red((?: \d)*) green((?: \d)*) grey((?: \d)*)$"),
    "row": re.compile(r"(return|take) row (\d+)$"),
    "place": re.compile(_COL + r" ([1-6]) -> (.+?)(?:: (.+))?$"),
    "return": re.compile(r"return " + _COL + r" ([1-6])" + _TURN_UP + "$"),
    "use": re.compile(r"use " + _KIND + " " + _CELL + "$"),
    "die_bonus": re.compile(r"die x([1-3]): (.+)$"),
    "step_bonus": re.compile(r"(movement|order) x([1-3])$"),
    "complete": re.compile(r"complete layout (\d+)$"),
    "turn_up": re.compile(r"turn up " + _CELL + "$"),
}
_TILE_STEP = re.compile(r"tile " + _CELL + " -> " + _CELL + "$")
_ORDER_STEP = re.compile(r"order \+1" + _TURN_UP + "$")
_DIE_EFFECT = re.compile(_COL + r" ([1-6]) -> (red|green|grey|[1-6])$")
_TAKE_BONUS = re.compile(_KIND + " -> " + _CELL + "$")
_TAKE_LAYOUT = re.compile(r"layout (\d+)$")


def normalise_space(text: str) -> str:
    """'red 12', 'red 1-2' and 'red 1~2' all name the space 'red 1~2'."""
    text = text.strip()
    m = re.fullmatch(r"(red|grey) ([1-6])(?:[~-]?([1-6]))?( #2)?", text)
    if not m:
        return text
    colour, lo, hi, extra = m.groups()
    if hi is None:
        return text
    return f"{colour} {lo}~{hi}{extra or ''}"


def _syntax(text: str, hint: str = "") -> MoveSyntaxError:
    return MoveSyntaxError(
        f"'{text}' is not a Diceline move{': ' + hint if hint else ''}; moves look like: {FORMS}",
        rule="move text",
    )


def _cell_of(text: str | None) -> int | None:
    return None if text is None else parse_cell(text)


def _step(text: str) -> TileStep | OrderStep | None:
    m = _TILE_STEP.match(text)
    if m:
        return TileStep(parse_cell(m.group(1)), parse_cell(m.group(2)))
    m = _ORDER_STEP.match(text)
    if m:
        return OrderStep(_cell_of(m.group(1)))
    return None


def _die_effect(text: str) -> DieMove | DieSet | None:
    m = _DIE_EFFECT.match(text)
    if not m:
        return None
    colour, value, to = m.group(1), int(m.group(2)), m.group(3)
    return DieSet(colour, value, int(to)) if to.isdigit() else DieMove(colour, value, to)


def _effect(text: str) -> Effect | None:
    for reader in (_step, _die_effect):
        found = reader(text)
        if found is not None:
            return found
    m = _TAKE_BONUS.match(text)
    if m:
        return TakeBonus(m.group(1), parse_cell(m.group(2)))
    m = _TAKE_LAYOUT.match(text)
    if m:
        return TakeLayout(int(m.group(1)))
    return None


def parse(text: str) -> Move:
    """Read one move from its text (spaces and case do not matter)."""
    t = " ".join(text.lower().split())
    t = t.replace("→", "->")
    if t == "done":
        return Done()
    if t == "stop":
        return Stop()
    step = _step(t)
    if step is not None:
        return Step(step)
    for key, rx in _RE.items():
        m = rx.match(t)
        if not m:
            continue
        g = m.groups()
        if key == "order_rolls":
            return OrderRolls(tuple(int(x) for x in g[0].split()))
        if key == "start":
            return StartTile(g[0])
        if key == "reveal_bonus":
            return RevealBonus(g[0])
        if key == "reveal_layout":
            return RevealLayout(int(g[0]))
        if key == "roll":
            return Roll(*(tuple(sorted(int(x) for x in part.split())) for part in g))
        if key == "row":
            if int(g[1]) < 1:
                raise _syntax(text, "rows are numbered from 1")
            return (ReturnRow if g[0] == "return" else TakeRow)(int(g[1]) - 1)
        if key == "place":
            space = normalise_space(g[2])
            if space not in SPACE_NAMES:
                raise _syntax(text, f"'{g[2]}' is not an action space (spaces: {', '.join(SPACE_NAMES)})")
            effect = None
            if g[3] is not None:
                effect = _effect(g[3])
                if effect is None:
                    raise _syntax(text, f"'{g[3]}' is not an action effect")
            return Place(g[0], int(g[1]), space, effect)
        if key == "return":
            return ReturnDie(g[0], int(g[1]), _cell_of(g[2]))
        if key == "use":
            return UseTile(g[0], parse_cell(g[1]))
        if key == "die_bonus":
            effect = _die_effect(g[1])
            if effect is None:
                raise _syntax(text, "a die bonus reads 'die x1: red 2 -> 3' or 'die x3: green 3 -> red'")
            return DieBonus(int(g[0]), effect)
        if key == "step_bonus":
            return StepBonus(g[0], int(g[1]))
        if key == "complete":
            return CompleteLayout(int(g[0]))
        if key == "turn_up":
            return LineTurnUp(parse_cell(g[0]))
    raise _syntax(text)
