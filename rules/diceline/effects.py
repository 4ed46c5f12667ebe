"""The small effects that actions and bonus actions share: change or move a die, move a tile,
step on the order track. Each has a check that refuses in words and an apply that trusts it."""
from __future__ import annotations

from rules.core.errors import IllegalMove
from rules.diceline import dice as D
from rules.diceline import track
from rules.diceline.board import cell_name, face_up, neighbours, tile_steps
from rules.diceline.components import COLOURS, DIE_SPACES
from rules.diceline.moves import DieMove, DieSet, OrderStep, TileStep
from rules.diceline.state import DicelineState, Player


def face_down_cells(player: Player) -> list[int]:
    """Spaces holding a face-down bonus tile."""
    return [i for i, c in enumerate(player.board) if c and not face_up(c)]


def turn_up(player: Player, cell: int) -> None:
    """Turn a face-down tile face up."""
    player.board[cell] = player.board[cell].upper()


def check_turn_up(player: Player, cell: int | None, why: str) -> None:
    """A 'turn up' choice must name a face-down tile when there is one, and nothing otherwise."""
    down = face_down_cells(player)
    if cell is None:
        if down:
            names = ", ".join(cell_name(i) for i in down)
            raise IllegalMove(f"{why} turns a face-down bonus tile face up: add ', turn up <space>' "
                              f"with one of {names}", rule="turn a tile face up")
        return
    if not down:
        raise IllegalMove(f"you have no face-down bonus tile, so {why} turns nothing up: leave out "
                          f"', turn up {cell_name(cell)}'", rule="turn a tile face up")
    if cell not in down:
        raise IllegalMove(f"{cell_name(cell)} holds no face-down bonus tile", rule="turn a tile face up")


def _die(player: Player, colour: str, value: int) -> int:
    slot = D.slot_of(player, colour, value)
    if slot is None:
        raise IllegalMove(f"you have no {colour} {value} on your player board (you have {D.describe(player)})",
                          rule="your dice")
    return slot


def check_die_set(player: Player, eff: DieSet, by_one: bool, what: str) -> None:
    """Change a die's value: by one without wrapping, or to any other value."""
    _die(player, eff.colour, eff.value)
    if not 1 <= eff.to <= 6 or eff.to == eff.value:
        raise IllegalMove(f"{what} changes the die to another value from 1 to 6", rule="die value")
    if by_one and abs(eff.to - eff.value) != 1:
        if {eff.value, eff.to} == {1, 6}:
            raise IllegalMove(f"{what} may not turn a {eff.value} into a {eff.to}: a 1 only goes up to 2 "
                              f"and a 6 only down to 5", rule="no 1-6 wrap")
        raise IllegalMove(f"{what} changes a die by exactly 1: {eff.colour} {eff.value} can become "
                          f"{' or '.join(str(v) for v in (eff.value - 1, eff.value + 1) if 1 <= v <= 6)}",
                          rule="change by one")


def apply_die_set(player: Player, eff: DieSet) -> None:
    """Change the die's value."""
    player.dice[D.slot_of(player, eff.colour, eff.value)] = eff.to


def check_die_move(player: Player, eff: DieMove, what: str) -> None:
    """Move a die to a different, empty die space; it takes that space's colour."""
    if eff.to not in COLOURS:
        raise IllegalMove(f"{what} moves a die to a red, green or grey die space", rule="die space")
    slot = _die(player, eff.colour, eff.value)
    if D.free_slot(player, eff.to, other_than=slot) is None:
        other = " other" if eff.to == eff.colour else ""
        raise IllegalMove(f"you have no{other} empty {eff.to} die space to move the {eff.colour} {eff.value} to",
                          rule="die space taken")


def apply_die_move(player: Player, eff: DieMove) -> None:
    """Move the die; its new space decides its colour."""
    slot = D.slot_of(player, eff.colour, eff.value)
    dest = D.free_slot(player, eff.to, other_than=slot)
    made, value = D.take(player, slot)
    D.put(player, dest, made, value)


def die_set_options(player: Player, by_one: bool) -> list[DieSet]:
    """Every legal die change."""
    out = []
    for colour, value, _ in D.dice_named(player):
        targets = (value - 1, value + 1) if by_one else range(1, 7)
        out.extend(DieSet(colour, value, t) for t in targets if 1 <= t <= 6 and t != value)
    return out


def die_move_options(player: Player) -> list[DieMove]:
    """Every legal die move."""
    return [
        DieMove(colour, value, to)
        for colour, value, slot in D.dice_named(player)
        for to in dict.fromkeys(DIE_SPACES)
        if D.free_slot(player, to, other_than=slot) is not None
    ]


def check_tile_step(player: Player, st: TileStep) -> None:
    """Move a bonus tile to an orthogonally adjacent open space (no swaps)."""
    if not player.board[st.src]:
        raise IllegalMove(f"there is no bonus tile on {cell_name(st.src)} to move", rule="move bonus tiles")
    if st.dst not in neighbours(st.src):
        raise IllegalMove(f"{cell_name(st.dst)} is not orthogonally next to {cell_name(st.src)}",
                          rule="move bonus tiles")
    if player.board[st.dst]:
        raise IllegalMove(f"{cell_name(st.dst)} already holds a bonus tile: tiles move only to open spaces "
                          f"and never swap", rule="move bonus tiles")


def apply_tile_step(player: Player, st: TileStep) -> None:
    """Move the tile, face as it was."""
    player.board[st.dst], player.board[st.src] = player.board[st.src], ""


def check_order_step(state: DicelineState, who: int, st: OrderStep) -> None:
    """One step on the order track; landing on space 3 turns a face-down tile up."""
    player = state.players[who]
    if track.step_lands_on_bonus(state, who):
        check_turn_up(player, st.turn_up, "the space-3 bonus")
    elif st.turn_up is not None:
        raise IllegalMove("only the space-3 bonus turns a tile up, and this step does not land there",
                          rule="adjust player order")


def apply_order_step(state: DicelineState, who: int, st: OrderStep) -> None:
    """Step; the loop bonus takes a marker from the stock while it lasts."""
    player = state.players[who]
    what = track.step(state, who)
    if what == "loop" and player.stock:
        player.stock -= 1
        player.hand += 1
    elif what == "bonus" and st.turn_up is not None:
        turn_up(player, st.turn_up)


def order_step_options(state: DicelineState, who: int) -> list[OrderStep]:
    """The Adjust Player Order step, with each choice of the space-3 bonus tile."""
    if track.step_lands_on_bonus(state, who):
        down = face_down_cells(state.players[who])
        if down:
            return [OrderStep(c) for c in down]
    return [OrderStep(None)]


def tile_step_options(player: Player) -> list[TileStep]:
    """Every Move Bonus Tiles step."""
    return [TileStep(a, b) for a, b in tile_steps(player.board)]
