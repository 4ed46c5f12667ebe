"""The action spaces of the red, green and grey boards: who may place a die where, and what
each action does."""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from rules.core.errors import IllegalMove
from rules.diceline import dice as D
from rules.diceline import effects as E
from rules.diceline.board import BONUS_SPACE_VALUES_FLAT, cell_name, tile
from rules.diceline.components import (
    GREY_46_STEPS, GREY_56_POINTS, GREY_SPACES, RED_LAYOUT_SPACE, RED_MARKER_SPACES, RED_VP_SPACES,
)
from rules.diceline.moves import (
    DieMove, DieSet, Effect, OrderStep, Place, ReturnDie, TakeBonus, TakeLayout, TileStep,
)
from rules.diceline.scoring import GREY_56, add_points
from rules.diceline.state import DicelineState, Player

MARKER, LAYOUT, BONUS = "marker", "layout", "bonus tile"


@dataclass(frozen=True)
class ActionSpace:
    """One action space: the die colour and value range it takes and the action it gives."""

    name: str
    colour: str
    low: int
    high: int
    action: str

    def range_text(self) -> str:
        return str(self.low) if self.low == self.high else f"{self.low} to {self.high}"


@lru_cache(maxsize=None)
def spaces_for(n_players: int) -> tuple[ActionSpace, ...]:
    """The action spaces in play with this many players."""
    out = [ActionSpace(s, "red", 1, i + 1, MARKER) for i, s in enumerate(RED_MARKER_SPACES)]
    out.append(ActionSpace(RED_LAYOUT_SPACE, "red", 1, 6, LAYOUT))
    out += [ActionSpace(f"green {v}", "green", v, v, BONUS) for v in range(1, 7)]
    out += [ActionSpace(name, "grey", low, 6, action) for name, low, action, four in GREY_SPACES
            if not four or n_players >= 4]
    return tuple(out)


@lru_cache(maxsize=None)
def space_named(n_players: int) -> dict[str, ActionSpace]:
    """The spaces in play by name."""
    return {s.name: s for s in spaces_for(n_players)}


def open_bonus_spaces(player: Player, value: int) -> list[int]:
    """Open bonus spaces on the player board that show `value`."""
    return [i for i, vals in enumerate(BONUS_SPACE_VALUES_FLAT) if value in vals and not player.board[i]]


def _space_check(state: DicelineState, who: int, sp: ActionSpace, value: int) -> None:
    """Refuse a space that is taken, full or needs what the player lacks (effects aside)."""
    player = state.players[who]
    held = state.spaces.get(sp.name)
    if held is not None:
        raise IllegalMove(f"{sp.name} already holds a die ({state.players[held[0]].name}'s): one die per "
                          f"action space", rule="space taken")
    if sp.action == MARKER:
        cap = RED_VP_SPACES[len(state.players)]
        if len(state.red_vp[sp.name]) >= cap:
            raise IllegalMove(f"all {cap} additional VP spaces of {sp.name} are filled", rule="red spaces full")
        if player.hand == 0:
            raise IllegalMove(f"you have no player marker at hand to place beside {sp.name}",
                              rule="no marker at hand")
    elif sp.action == LAYOUT and not state.layout_display:
        raise IllegalMove("no layout tile is left on the red board", rule="no layout tile")
    elif sp.action == BONUS:
        if not open_bonus_spaces(player, value):
            raise IllegalMove(f"green {value} needs an open bonus space showing {value} on your player board",
                              rule="no open bonus space")
        if not state.bonus_display:
            raise IllegalMove("no bonus tile is left on the green & grey board", rule="no bonus tile")


def _needs(example: str) -> IllegalMove:
    return IllegalMove(f"say what the action does, e.g. '{example}'", rule="action choice")


def _check_effect(state: DicelineState, who: int, sp: ActionSpace, move: Place, after: Player) -> None:
    """The choice that comes with the action; `after` is the board without the placed die."""
    eff = move.effect
    head = f"{move.colour} {move.value} -> {sp.name}"
    if sp.action in (MARKER, "score 2", "steps 3"):
        if eff is not None:
            raise IllegalMove(f"{sp.name} takes no further choice: write just '{head}'", rule="action choice")
    elif sp.action == LAYOUT:
        if not isinstance(eff, TakeLayout):
            raise _needs(f"{head}: layout {state.layout_display[0]}")
        if eff.tile not in state.layout_display:
            raise IllegalMove(f"layout tile {eff.tile} is not on the red board (there: "
                              f"{', '.join(map(str, state.layout_display))})", rule="no layout tile")
    elif sp.action == BONUS:
        if not isinstance(eff, TakeBonus):
            raise _needs(f"{head}: {state.bonus_display[0]} -> {cell_name(open_bonus_spaces(after, move.value)[0])}")
        if eff.kind not in state.bonus_display:
            raise IllegalMove(f"there is no {eff.kind} tile on the green & grey board (there: "
                              f"{', '.join(state.bonus_display)})", rule="no bonus tile")
        if after.board[eff.cell]:
            raise IllegalMove(f"{cell_name(eff.cell)} already holds a bonus tile", rule="open bonus space")
        if move.value not in BONUS_SPACE_VALUES_FLAT[eff.cell]:
            shows = "/".join(map(str, BONUS_SPACE_VALUES_FLAT[eff.cell])) or "no value"
            raise IllegalMove(f"green {move.value} needs an open bonus space showing {move.value}; "
                              f"{cell_name(eff.cell)} shows {shows}", rule="bonus space value")
    elif sp.action == "move die":
        options = E.die_move_options(after)
        if eff is None and not options:
            return
        if not isinstance(eff, DieMove):
            raise _needs(f"{head}: {options[0]}") if options else IllegalMove(
                f"you have no die left to move: write just '{head}'", rule="action choice")
        E.check_die_move(after, eff, sp.name)
    elif sp.action in ("set die", "nudge die"):
        options = E.die_set_options(after, by_one=sp.action == "nudge die")
        if eff is None and not options:
            return
        if not isinstance(eff, DieSet):
            raise _needs(f"{head}: {options[0]}") if options else IllegalMove(
                f"you have no die left to change: write just '{head}'", rule="action choice")
        E.check_die_set(after, eff, by_one=sp.action == "nudge die", what=sp.name)
    elif sp.action == "one step":
        if isinstance(eff, TileStep):
            E.check_tile_step(after, eff)
        elif isinstance(eff, OrderStep):
            E.check_order_step(state, who, eff)
        else:
            raise _needs(f"{head}: order +1' or '{head}: tile r1c1 -> r1c2")


def check_place(state: DicelineState, who: int, move: Place) -> tuple[ActionSpace, int]:
    """Refuse the placement in words, or return the space and the die's slot."""
    player = state.players[who]
    slot = D.slot_of(player, move.colour, move.value)
    if slot is None:
        owners = [p.name for i, p in enumerate(state.players) if i != who and D.slot_of(p, move.colour, move.value) is not None]
        also = f"; it is {player.name}'s turn, not {owners[0]}'s" if owners else ""
        raise IllegalMove(f"{player.name} has no {move.colour} {move.value} on the player board "
                          f"(dice: {D.describe(player)}){also}", rule="your dice")
    sp = space_named(len(state.players)).get(move.space)
    if sp is None:
        raise IllegalMove(f"{move.space} is used only in four-player games", rule="four-player spaces")
    if sp.colour != move.colour:
        raise IllegalMove(f"a {move.colour} die goes only in a {move.colour} action space, and {sp.name} is "
                          f"{sp.colour}", rule="die colour")
    if not sp.low <= move.value <= sp.high:
        raise IllegalMove(f"{sp.name} takes a {sp.colour} die showing {sp.range_text()}, not {move.value}",
                          rule="die range")
    _space_check(state, who, sp, move.value)
    after = _without(player, slot)
    _check_effect(state, who, sp, move, after)
    return sp, slot


def _without(player: Player, slot: int) -> Player:
    copy = Player(player.name, player.dice[:], player.dice_made[:], player.board, player.layouts,
                  player.completed, player.hand, player.stock, player.points)
    copy.dice[slot], copy.dice_made[slot] = 0, ""
    return copy


def apply_place(state: DicelineState, who: int, move: Place, sp: ActionSpace, slot: int) -> None:
    """Place the die and perform the action."""
    player = state.players[who]
    made, value = D.take(player, slot)
    state.spaces[sp.name] = [who, made, value]
    eff: Effect | None = move.effect
    if sp.action == MARKER:
        player.hand -= 1
        state.red_vp[sp.name].append(who)
    elif sp.action == LAYOUT:
        state.layout_display.remove(eff.tile)
        player.layouts.append(eff.tile)
        if state.layout_deck:
            state.reveals.append("layout")
    elif sp.action == BONUS:
        state.bonus_display.remove(eff.kind)
        player.board[eff.cell] = tile(eff.kind)
        if sum(state.bonus_deck.values()):
            state.reveals.append("bonus")
    elif sp.action == "score 2":
        add_points(player, GREY_56, GREY_56_POINTS)
    elif sp.action == "steps 3":
        state.steps_left, state.steps_kind = GREY_46_STEPS, "any"
    elif isinstance(eff, DieMove):
        E.apply_die_move(player, eff)
    elif isinstance(eff, DieSet):
        E.apply_die_set(player, eff)
    elif isinstance(eff, TileStep):
        E.apply_tile_step(player, eff)
    elif isinstance(eff, OrderStep):
        E.apply_order_step(state, who, eff)
    state.main_done = True


def place_options(state: DicelineState, who: int) -> list[Place]:
    """Every legal placement for the player."""
    player = state.players[who]
    out: list[Place] = []
    named = D.dice_named(player)  # once, not per space: legal move listing is the rollouts' hot loop
    for sp in spaces_for(len(state.players)):
        if sp.name in state.spaces:
            continue
        for colour, value, slot in named:
            if colour != sp.colour or not sp.low <= value <= sp.high:
                continue
            try:
                _space_check(state, who, sp, value)
            except IllegalMove:
                continue
            head = (colour, value, sp.name)
            if sp.action in (MARKER, "score 2", "steps 3"):
                out.append(Place(*head))
                continue
            if sp.action == LAYOUT:
                out += [Place(*head, TakeLayout(t)) for t in dict.fromkeys(state.layout_display)]
                continue
            after = _without(player, slot)
            if sp.action == BONUS:
                out += [Place(*head, TakeBonus(k, c)) for k in dict.fromkeys(state.bonus_display)
                        for c in open_bonus_spaces(after, value)]
            else:
                if sp.action == "move die":
                    effs = E.die_move_options(after)
                elif sp.action in ("set die", "nudge die"):
                    effs = E.die_set_options(after, by_one=sp.action == "nudge die")
                else:
                    effs = E.tile_step_options(after) + E.order_step_options(state, who)
                out += [Place(*head, e) for e in effs] if effs else [Place(*head)]
    return out


def check_return(state: DicelineState, who: int, move: ReturnDie) -> int:
    """Refuse the return in words, or give the die's slot."""
    player = state.players[who]
    slot = D.slot_of(player, move.colour, move.value)
    if slot is None:
        raise IllegalMove(f"{player.name} has no {move.colour} {move.value} on the player board "
                          f"(dice: {D.describe(player)})", rule="your dice")
    E.check_turn_up(player, move.turn_up, "returning a die")
    return slot


def apply_return(state: DicelineState, who: int, move: ReturnDie, slot: int) -> None:
    """The die goes back to the pool; a face-down tile turns up."""
    player = state.players[who]
    made, _ = D.take(player, slot)
    state.pool[made] += 1
    if move.turn_up is not None:
        E.turn_up(player, move.turn_up)
    state.main_done = True


def return_options(state: DicelineState, who: int) -> list[ReturnDie]:
    """Every legal die return."""
    player = state.players[who]
    cells: list[int | None] = E.face_down_cells(player) or [None]
    return [ReturnDie(c, v, cell) for c, v, _ in D.dice_named(player) for cell in cells]
