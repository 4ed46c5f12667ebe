"""Setup, phase 1 (roll and choose sets), the end of phase 2, phase 3 and the end of the game."""
from __future__ import annotations

import random

from rules.core.errors import IllegalMove
from rules.diceline import effects as E
from rules.diceline import state as S
from rules.diceline.board import cell_name, diagonal_lines, hv_lines, line_cells, tile
from rules.diceline.components import (
    BONUS_DECK_PER_KIND, BONUS_DISPLAY_SIZE, BONUS_KINDS, COLOURS, DICE_BY_PLAYERS, DIE_SPACES,
    LAYOUT_DISPLAY_SIZE, LAYOUT_PATTERNS, MARKERS_AT_HAND, MARKERS_IN_STOCK, ORDER_TRACK_LAST,
    RED_MARKER_SPACES, ROUNDS, START_TILE_CELL,
)
from rules.diceline.dice import dice_left, free_slot, put
from rules.diceline.moves import OrderRolls, ReturnRow, RevealBonus, RevealLayout, Roll, StartTile, TakeRow
from rules.diceline.selection import choosers, rows_from_roll
from rules.diceline.state import DicelineState, Player
from rules.diceline.track import order_from_track


def new_game(names: list[str]) -> DicelineState:
    """The table before the order roll."""
    n = len(names)
    players = [Player(name, [0] * len(DIE_SPACES), [""] * len(DIE_SPACES), [""] * 9,
                      hand=MARKERS_AT_HAND, stock=MARKERS_IN_STOCK) for name in names]
    return DicelineState(
        players=players,
        phase=S.ORDER_ROLLS,
        ranking=[list(range(n))],
        track=[[] for _ in range(ORDER_TRACK_LAST + 1)],
        start_tiles=list(BONUS_KINDS),
        pool=dict(DICE_BY_PLAYERS[n]),
        red_vp={s: [] for s in RED_MARKER_SPACES},
        bonus_deck={k: BONUS_DECK_PER_KIND[n] for k in BONUS_KINDS},
        layout_deck=sorted(LAYOUT_PATTERNS),
    )


# -- setup ------------------------------------------------------------------------------------
def tied_group(state: DicelineState) -> list[int]:
    """The players who (still) roll for player order."""
    return next(g for g in state.ranking if len(g) > 1)


def apply_order_rolls(state: DicelineState, move: OrderRolls) -> None:
    """Rank by total, highest first; tied players roll again among themselves."""
    group = tied_group(state)
    names = ", ".join(state.players[i].name for i in group)
    if len(move.totals) != len(group):
        raise IllegalMove(f"give one two-dice total for each of {names}, in that order", rule="order roll")
    if any(not 2 <= t <= 12 for t in move.totals):
        raise IllegalMove("a two-dice total is between 2 and 12", rule="order roll")
    split = [[p for p, t in zip(group, move.totals) if t == total]
             for total in sorted(set(move.totals), reverse=True)]
    at = state.ranking.index(group)
    state.ranking[at:at + 1] = split
    if all(len(g) == 1 for g in state.ranking):
        state.order = [g[0] for g in state.ranking]
        state.ranking = []
        # stacked in player order with the start player's marker on top
        state.track[0] = list(reversed(state.order))
        state.queue = list(reversed(state.order))
        state.phase = S.START_TILES


def apply_start_tile(state: DicelineState, move: StartTile) -> None:
    """The chooser puts a starting tile on the centre space; then the decks are dealt."""
    if move.kind not in state.start_tiles:
        raise IllegalMove(f"no {move.kind} starting tile is left (left: {', '.join(state.start_tiles)})",
                          rule="starting tile")
    who = state.queue.pop(0)
    state.start_tiles.remove(move.kind)
    state.players[who].board[START_TILE_CELL] = tile(move.kind)
    if not state.queue:
        state.start_tiles = []  # with 3 players the fourth tile goes back to the box
        state.reveals = ["bonus"] * BONUS_DISPLAY_SIZE + [f"layout:{i}" for i in state.order] + \
            ["layout"] * LAYOUT_DISPLAY_SIZE
        state.phase = S.DEAL


def apply_reveal_bonus(state: DicelineState, move: RevealBonus) -> None:
    """The drawn tile goes face up to the green & grey board."""
    if not state.reveals or state.reveals[0] != "bonus":
        raise IllegalMove("no bonus tile is being drawn now", rule="chance")
    if not state.bonus_deck.get(move.kind):
        raise IllegalMove(f"no {move.kind} tile is left in the bonus deck", rule="bonus deck")
    state.reveals.pop(0)
    state.bonus_deck[move.kind] -= 1
    state.bonus_display.append(move.kind)
    _after_reveal(state)


def apply_reveal_layout(state: DicelineState, move: RevealLayout) -> None:
    """The drawn layout tile goes to a player (setup) or to the red board."""
    if not state.reveals or not state.reveals[0].startswith("layout"):
        raise IllegalMove("no layout tile is being drawn now", rule="chance")
    if move.tile not in state.layout_deck:
        raise IllegalMove(f"layout tile {move.tile} is not in the layout deck", rule="layout deck")
    target = state.reveals.pop(0)
    state.layout_deck.remove(move.tile)
    if ":" in target:
        state.players[int(target.split(":")[1])].layouts.append(move.tile)
    else:
        state.layout_display.append(move.tile)
    _after_reveal(state)


def _after_reveal(state: DicelineState) -> None:
    if not state.reveals and state.phase == S.DEAL:
        state.phase = S.ROLL


def sample_reveal(state: DicelineState, rng: random.Random):
    """Draw the awaited tile from the deck."""
    if state.reveals[0] == "bonus":
        pile = [k for k in BONUS_KINDS for _ in range(state.bonus_deck[k])]
        return RevealBonus(rng.choice(pile))
    return RevealLayout(rng.choice(state.layout_deck))


# -- phase 1 ----------------------------------------------------------------------------------
def apply_roll(state: DicelineState, move: Roll) -> None:
    """Lay the roll out on the selection board."""
    for colour in COLOURS:
        got, want = getattr(move, colour), state.pool[colour]
        if len(got) != want:
            raise IllegalMove(f"the pool has {want} {colour} dice; the roll gave {len(got)} {colour} values",
                              rule="roll")
        if any(not 1 <= v <= 6 for v in got):
            raise IllegalMove("a die shows 1 to 6", rule="roll")
    state.rows = rows_from_roll(list(move.red), list(move.green), list(move.grey))
    state.pool = {c: 0 for c in COLOURS}
    state.queue = choosers(state.order)
    state.phase = S.SELECT


def sample_roll(state: DicelineState, rng: random.Random) -> Roll:
    """Roll every die of the pool."""
    return Roll(*(tuple(sorted(rng.randint(1, 6) for _ in range(state.pool[c]))) for c in COLOURS))


def returning(state: DicelineState) -> bool:
    """True while the start player is still to return a set."""
    return len(state.queue) == len(state.players)


def _row(state: DicelineState, row: int) -> list[int]:
    if not 0 <= row < len(state.rows) or state.rows[row] is None:
        left = [str(i + 1) for i, r in enumerate(state.rows) if r is not None]
        raise IllegalMove(f"row {row + 1} is not on the selection board (rows left: {', '.join(left)})",
                          rule="selection")
    return state.rows[row]


def apply_return_row(state: DicelineState, move: ReturnRow) -> None:
    """The start player returns a set to the pool."""
    if not returning(state):
        raise IllegalMove("the start player has already returned a set: now take one with 'take row N'",
                          rule="selection")
    _row(state, move.row)
    state.rows[move.row] = None
    for colour in ("red", "green", "grey", "grey"):
        state.pool[colour] += 1
    state.queue.pop(0)


def apply_take_row(state: DicelineState, move: TakeRow) -> None:
    """Take a set to your die spaces; the start player gets the last one."""
    if returning(state):
        raise IllegalMove("first the start player returns a set with 'return row N'", rule="selection")
    _give(state, state.queue.pop(0), move.row)
    if not state.queue:
        last = next(i for i, r in enumerate(state.rows) if r is not None)
        _give(state, state.order[0], last)
        start_phase_2(state)


def _give(state: DicelineState, who: int, row: int) -> None:
    values = _row(state, row)
    player = state.players[who]
    for colour, value in zip(("red", "green", "grey", "grey"), values):
        put(player, free_slot(player, colour), colour, value)
    state.rows[row] = None


# -- phase 2 and 3 ------------------------------------------------------------------------------
def start_phase_2(state: DicelineState) -> None:
    """Turns in player order."""
    state.rows = []
    state.phase = S.ACTIONS
    state.turn = 0
    _fresh_turn(state)


def _fresh_turn(state: DicelineState) -> None:
    state.main_done = False
    state.credits = {}
    state.steps_left, state.steps_kind = 0, ""


def end_turn(state: DicelineState) -> None:
    """Pass to the next player who has dice; when none has, phase 3."""
    n = len(state.order)
    for k in range(1, n + 1):
        nxt = (state.turn + k) % n
        if dice_left(state.players[state.order[nxt]]):
            state.turn = nxt
            _fresh_turn(state)
            return
    _fresh_turn(state)
    start_phase_3(state)


def line_choices(player: Player) -> tuple[int, list[int]]:
    """(lines on the board, face-down tiles that are part of a line)."""
    lines = hv_lines(player.board) + diagonal_lines(player.board)
    cells = sorted(line_cells(player.board))
    return lines, [i for i in cells if player.board[i].islower()]


def start_phase_3(state: DicelineState) -> None:
    """Line flips (a choice only when more tiles could turn up than lines allow), then next round."""
    for space, (who, made, _) in state.spaces.items():
        state.pool[made] += 1
    state.spaces = {}
    if state.round >= ROUNDS:
        state.phase = S.OVER  # the line bonus of round 5 could change no score
        return
    state.phase = S.LINES
    state.queue = []
    for who in state.order:
        lines, down = line_choices(state.players[who])
        if len(down) <= lines:
            for cell in down:
                E.turn_up(state.players[who], cell)
        else:
            state.queue.append(who)
    _next_line_chooser(state, first=True)


def _next_line_chooser(state: DicelineState, first: bool = False) -> None:
    if not first:
        state.queue.pop(0)
    if state.queue:
        state.allowance = line_choices(state.players[state.queue[0]])[0]
    else:
        state.allowance = 0
        _next_round(state)


def apply_line_turn_up(state: DicelineState, cell: int) -> None:
    """Turn one face-down line tile up."""
    player = state.players[state.queue[0]]
    _, down = line_choices(player)
    if cell not in down:
        raise IllegalMove("only a face-down tile that is part of a line of three may turn face up "
                          f"(yours: {', '.join(_names(down))})", rule="line bonus")
    E.turn_up(player, cell)
    state.allowance -= 1
    rest = [c for c in down if c != cell]
    if not state.allowance or len(rest) <= state.allowance:
        # no choice is left: what the lines still allow turns up by itself
        for c in rest[:state.allowance]:
            E.turn_up(player, c)
        _next_line_chooser(state)


def _names(cells: list[int]) -> list[str]:
    return [cell_name(c) for c in cells]


def _next_round(state: DicelineState) -> None:
    state.order = order_from_track(state)
    state.round += 1
    state.phase = S.ROLL
