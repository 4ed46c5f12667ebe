"""Bonus actions (turn face-up tiles down, then spend them), step sequences and layout tiles.

Turning a tile face down banks it for this turn ("credits"); spending 1, 2 or 3 banked tiles of a
type performs that type's x1/x2/x3 action. This gives every split the book allows (four die
tiles: 3+1, 2+2 or 1+1+1+1) with one small move per step.
"""
from __future__ import annotations

from rules.core.errors import IllegalMove
from rules.diceline import effects as E
from rules.diceline.board import cell_name, face_up, kind_of, layout_fits
from rules.diceline.components import LAYOUT_POINTS_BY_ROUND, STEPS_FOR_TILES
from rules.diceline.moves import (
    CompleteLayout, DieBonus, DieMove, DieSet, Step, StepBonus, TileStep, UseTile,
)
from rules.diceline.scoring import LAYOUTS, VP_TILES, add_points
from rules.diceline.state import DicelineState

STEP_KIND = {"movement": "tile", "order": "order"}


def check_use(state: DicelineState, who: int, move: UseTile) -> None:
    """The tile must be face up on your board and of the kind named."""
    cell = state.players[who].board[move.cell]
    if not cell:
        raise IllegalMove(f"there is no bonus tile on {cell_name(move.cell)}", rule="bonus tile")
    if not face_up(cell):
        raise IllegalMove(f"the tile on {cell_name(move.cell)} is already face down", rule="bonus tile")
    if kind_of(cell) != move.kind:
        raise IllegalMove(f"the tile on {cell_name(move.cell)} is a {kind_of(cell)} tile, not {move.kind}",
                          rule="bonus tile")


def apply_use(state: DicelineState, who: int, move: UseTile) -> None:
    """Turn it face down; a VP tile scores at once, the others wait to be spent."""
    player = state.players[who]
    player.board[move.cell] = player.board[move.cell].lower()
    if move.kind == "vp":
        add_points(player, VP_TILES, 1)
    else:
        state.credits[move.kind] = state.credits.get(move.kind, 0) + 1


def _banked(state: DicelineState, kind: str, tiles: int) -> None:
    have = state.credits.get(kind, 0)
    if have < tiles:
        raise IllegalMove(f"{kind} x{tiles} needs {tiles} {kind} tile{'s' if tiles > 1 else ''} turned face down "
                          f"this turn; you have {have} unspent (turn more face down with 'use {kind} <space>')",
                          rule="bonus action")


def check_die_bonus(state: DicelineState, who: int, move: DieBonus) -> None:
    """x1: a die +-1; x2: a die to any value; x3: a die to another die space."""
    _banked(state, "die", move.tiles)
    player = state.players[who]
    what = f"die x{move.tiles}"
    if move.tiles == 3:
        if not isinstance(move.effect, DieMove):
            raise IllegalMove("die x3 moves a die to another die space, e.g. 'die x3: green 3 -> red'",
                              rule="bonus action")
        E.check_die_move(player, move.effect, what)
    else:
        if not isinstance(move.effect, DieSet):
            raise IllegalMove(f"{what} changes a die's value, e.g. '{what}: red 2 -> 3'", rule="bonus action")
        E.check_die_set(player, move.effect, by_one=move.tiles == 1, what=what)


def apply_die_bonus(state: DicelineState, who: int, move: DieBonus) -> None:
    """Spend the tiles and change or move the die."""
    state.credits["die"] -= move.tiles
    if isinstance(move.effect, DieMove):
        E.apply_die_move(state.players[who], move.effect)
    else:
        E.apply_die_set(state.players[who], move.effect)


def check_step_bonus(state: DicelineState, move: StepBonus) -> None:
    """Enough tiles of the kind must be banked."""
    _banked(state, move.kind, move.tiles)


def apply_step_bonus(state: DicelineState, move: StepBonus) -> None:
    """Open a sequence of 1, 3 or 5 steps."""
    state.credits[move.kind] -= move.tiles
    state.steps_left, state.steps_kind = STEPS_FOR_TILES[move.tiles], STEP_KIND[move.kind]


def check_step(state: DicelineState, who: int, move: Step) -> None:
    """A step of the open sequence."""
    st = move.step
    if isinstance(st, TileStep):
        if state.steps_kind == "order":
            raise IllegalMove("this sequence adjusts player order; it moves no bonus tiles", rule="steps")
        E.check_tile_step(state.players[who], st)
    else:
        if state.steps_kind == "tile":
            raise IllegalMove("this sequence moves bonus tiles; it does not adjust player order", rule="steps")
        E.check_order_step(state, who, st)


def apply_step(state: DicelineState, who: int, move: Step) -> None:
    """Perform the step; the sequence ends after its last one."""
    if isinstance(move.step, TileStep):
        E.apply_tile_step(state.players[who], move.step)
    else:
        E.apply_order_step(state, who, move.step)
    state.steps_left -= 1
    if not state.steps_left:
        state.steps_kind = ""


def step_options(state: DicelineState, who: int) -> list[Step]:
    """The steps the open sequence allows now."""
    out: list[Step] = []
    if state.steps_kind in ("tile", "any"):
        out += [Step(s) for s in E.tile_step_options(state.players[who])]
    if state.steps_kind in ("order", "any"):
        out += [Step(s) for s in E.order_step_options(state, who)]
    return out


def check_complete(state: DicelineState, who: int, move: CompleteLayout) -> None:
    """The tile is yours, not completed, and its five marked spaces (in some rotation) hold tiles."""
    player = state.players[who]
    if move.tile not in player.layouts:
        whose = "already completed" if move.tile in player.completed else "not one of your layout tiles"
        raise IllegalMove(f"layout tile {move.tile} is {whose}", rule="layout tile")
    if not layout_fits(player.board, move.tile):
        raise IllegalMove(f"your bonus tiles do not cover the five marked spaces of layout tile {move.tile} "
                          f"in any rotation", rule="layout tile")


def apply_complete(state: DicelineState, who: int, move: CompleteLayout) -> None:
    """Turn it face down and score by round (6/6/6/4/2)."""
    player = state.players[who]
    player.layouts.remove(move.tile)
    player.completed.append(move.tile)
    add_points(player, LAYOUTS, LAYOUT_POINTS_BY_ROUND[state.round])


def bonus_options(state: DicelineState, who: int) -> list:
    """Tiles to turn face down and banked tiles to spend."""
    player = state.players[who]
    out: list = [UseTile(kind_of(c), i) for i, c in enumerate(player.board) if c and face_up(c)]
    die = state.credits.get("die", 0)
    if die >= 1:
        out += [DieBonus(1, e) for e in E.die_set_options(player, by_one=True)]
    if die >= 2:
        out += [DieBonus(2, e) for e in E.die_set_options(player, by_one=False)]
    if die >= 3:
        out += [DieBonus(3, e) for e in E.die_move_options(player)]
    for kind in ("movement", "order"):
        out += [StepBonus(kind, n) for n in (1, 2, 3) if state.credits.get(kind, 0) >= n]
    return out


def complete_options(state: DicelineState, who: int) -> list[CompleteLayout]:
    """Layout tiles the player could announce now."""
    player = state.players[who]
    return [CompleteLayout(t) for t in player.layouts if layout_fits(player.board, t)]
