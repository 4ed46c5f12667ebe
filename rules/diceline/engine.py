"""DicelineEngine: the rules of Dazzling Diceline on the rules.core contract."""
from __future__ import annotations

import random
from typing import Any

from rules.core.camera import one_move, view_matches
from rules.core.engine import Engine
from rules.core.errors import IllegalMove
from rules.core.views import OpenViews
from rules.diceline import actions as A
from rules.diceline import bonus as B
from rules.diceline import rounds as R
from rules.diceline import state as S
from rules.diceline.moves import (
    CompleteLayout, DieBonus, Done, LineTurnUp, Move, OrderRolls, Place, ReturnDie, ReturnRow, RevealBonus,
    RevealLayout, Roll, StartTile, Step, StepBonus, Stop, TakeRow, UseTile, parse,
)
from rules.diceline.scoring import final_total, ranking_key
from rules.diceline.state import DicelineState
from rules.diceline.table_view import chance_from_view, expected_view
from rules.diceline.view import public_view

CHANCE_MOVES = (OrderRolls, RevealBonus, RevealLayout, Roll)


class DicelineEngine(Engine[DicelineState], OpenViews):
    """Dazzling Diceline for 3 and 4 players."""

    name = "diceline"
    title = "Dazzling Diceline"
    min_players = 3
    max_players = 4
    options_help: dict[str, str] = {}

    # -- setup --------------------------------------------------------------------------
    def initial_state(self, players: list[str], options: dict[str, Any]) -> DicelineState:
        """The table before the players roll for player order."""
        self.check_players(players)
        if options:
            raise IllegalMove(f"Dazzling Diceline takes no options (got {', '.join(options)})", rule="options")
        return R.new_game(players)

    # -- moves --------------------------------------------------------------------------
    def parse_move(self, state: DicelineState, text: str) -> Move:
        """Read a move from its text."""
        return parse(text)

    def legal_moves(self, state: DicelineState) -> list[Move]:
        """Every legal non-chance move now."""
        if self.chance(state) is not None or state.phase == S.OVER:
            return []
        if state.phase == S.START_TILES:
            return [StartTile(k) for k in dict.fromkeys(state.start_tiles)]
        if state.phase == S.SELECT:
            kind = ReturnRow if R.returning(state) else TakeRow
            return [kind(i) for i, r in enumerate(state.rows) if r is not None]
        if state.phase == S.LINES:
            return [LineTurnUp(c) for c in R.line_choices(state.players[state.queue[0]])[1]]
        who = state.order[state.turn]
        if state.steps_left:
            return B.step_options(state, who) + B.complete_options(state, who) + [Stop()]
        out: list[Move] = []
        if not state.main_done:
            out += A.place_options(state, who) + A.return_options(state, who)
        out += B.bonus_options(state, who) + B.complete_options(state, who)
        if state.main_done:
            out.append(Done())
        return out

    def _apply(self, state: DicelineState, move: Move) -> None:
        """Check the move against the rules and apply it in place."""
        awaited = self.chance(state)
        if isinstance(move, CHANCE_MOVES):
            if awaited is None:
                raise IllegalMove(f"'{move}' answers a roll or a draw, and none is awaited now", rule="chance")
            self._apply_chance(state, move, awaited)
            return
        if awaited is not None:
            raise IllegalMove(f"first the table needs {awaited}", rule="chance")
        phase = state.phase
        if isinstance(move, StartTile) and phase == S.START_TILES:
            R.apply_start_tile(state, move)
        elif isinstance(move, ReturnRow) and phase == S.SELECT:
            R.apply_return_row(state, move)
        elif isinstance(move, TakeRow) and phase == S.SELECT:
            R.apply_take_row(state, move)
        elif isinstance(move, LineTurnUp) and phase == S.LINES:
            R.apply_line_turn_up(state, move.cell)
        elif phase == S.ACTIONS and not isinstance(move, (StartTile, ReturnRow, TakeRow, LineTurnUp)):
            self._apply_turn(state, move)
            self._end_turn_if_nothing_left(state)
        else:
            raise IllegalMove(f"'{move}' is not possible now: {self._awaiting(state)}", rule="phase")

    def _apply_chance(self, state: DicelineState, move: Move, awaited: str) -> None:
        if isinstance(move, OrderRolls) and state.phase == S.ORDER_ROLLS:
            R.apply_order_rolls(state, move)
        elif isinstance(move, Roll) and state.phase == S.ROLL:
            R.apply_roll(state, move)
        elif isinstance(move, RevealBonus) and state.reveals:
            R.apply_reveal_bonus(state, move)
            self._end_turn_if_nothing_left(state)
        elif isinstance(move, RevealLayout) and state.reveals:
            R.apply_reveal_layout(state, move)
            self._end_turn_if_nothing_left(state)
        else:
            raise IllegalMove(f"'{move}' does not answer what the table awaits: {awaited}", rule="chance")

    def _apply_turn(self, state: DicelineState, move: Move) -> None:
        who = state.order[state.turn]
        name = state.players[who].name
        if state.steps_left and not isinstance(move, (Step, Stop, CompleteLayout)):
            raise IllegalMove(f"{name} is moving tiles or adjusting player order ({state.steps_left} step"
                              f"{'s' if state.steps_left > 1 else ''} left): take a step, complete a layout "
                              f"tile or 'stop' first", rule="steps")
        if isinstance(move, Place):
            self._main_free(state, name)
            sp, slot = A.check_place(state, who, move)
            A.apply_place(state, who, move, sp, slot)
        elif isinstance(move, ReturnDie):
            self._main_free(state, name)
            slot = A.check_return(state, who, move)
            A.apply_return(state, who, move, slot)
        elif isinstance(move, UseTile):
            B.check_use(state, who, move)
            B.apply_use(state, who, move)
        elif isinstance(move, DieBonus):
            B.check_die_bonus(state, who, move)
            B.apply_die_bonus(state, who, move)
        elif isinstance(move, StepBonus):
            B.check_step_bonus(state, move)
            B.apply_step_bonus(state, move)
        elif isinstance(move, Step):
            if not state.steps_left:
                raise IllegalMove("no tile moves or order steps are open: they come with grey 4~6, grey 2~6 "
                                  "and movement / order bonus tiles", rule="steps")
            B.check_step(state, who, move)
            B.apply_step(state, who, move)
        elif isinstance(move, Stop):
            if not state.steps_left:
                raise IllegalMove("there are no steps to stop", rule="steps")
            state.steps_left, state.steps_kind = 0, ""
        elif isinstance(move, CompleteLayout):
            B.check_complete(state, who, move)
            B.apply_complete(state, who, move)
        elif isinstance(move, Done):
            if not state.main_done:
                raise IllegalMove(f"{name} must first place a die in an action space or return one to the pool; "
                                  f"you may not pass", rule="no passing")
            R.end_turn(state)
        else:
            raise IllegalMove(f"'{move}' is not possible now: {self._awaiting(state)}", rule="phase")

    @staticmethod
    def _end_turn_if_nothing_left(state: DicelineState) -> None:
        # 'done' is asked for only when it is a choice: when the die is used and no bonus action or
        # layout tile is left, the turn passes by itself (the camera cannot see 'done').
        if state.phase != S.ACTIONS or not state.main_done or state.steps_left or state.reveals:
            return
        who = state.order[state.turn]
        if not B.bonus_options(state, who) and not B.complete_options(state, who):
            R.end_turn(state)

    @staticmethod
    def _main_free(state: DicelineState, name: str) -> None:
        if state.main_done:
            raise IllegalMove(f"{name} has already used a die this turn: one die per turn; say 'done' to end it",
                              rule="one die per turn")

    def _awaiting(self, state: DicelineState) -> str:
        to = ", ".join(self.to_move(state))
        return {
            S.START_TILES: f"{to} chooses a starting bonus tile ('start tile vp')",
            S.SELECT: f"{to} " + ("returns a set ('return row N')" if R.returning(state) else "takes a set ('take row N')"),
            S.ACTIONS: f"it is {to}'s turn (place or return a die, bonus actions, 'done')",
            S.LINES: f"{to} turns line tiles face up ('turn up r1c1')",
            S.OVER: "the game is over",
        }.get(state.phase, self.chance(state) or "")

    # -- chance -------------------------------------------------------------------------
    def chance(self, state: DicelineState) -> str | None:
        """The roll or draw the table awaits, in words."""
        if state.phase == S.ORDER_ROLLS:
            names = ", ".join(state.players[i].name for i in R.tied_group(state))
            again = "" if len(state.ranking) == 1 and len(state.ranking[0]) == len(state.players) else " again (tie)"
            return f"two-dice totals for player order{again}: {names} ('order rolls 7 9 3')"
        if state.reveals:
            target = state.reveals[0]
            if target == "bonus":
                return "the next bonus tile from the deck ('reveal bonus vp')"
            whom = f" for {state.players[int(target.split(':')[1])].name}" if ":" in target else ""
            return f"the next layout tile from the deck{whom} ('reveal layout 7')"
        if state.phase == S.ROLL:
            dice = ", ".join(f"{state.pool[c]} {c}" for c in ("red", "green", "grey"))
            return f"round {state.round}: {state.players[state.order[0]].name} rolls {dice} ('roll red ... green ... grey ...')"
        return None

    def sample_chance(self, state: DicelineState, rng: random.Random) -> Move:
        """Draw the awaited outcome."""
        if state.phase == S.ORDER_ROLLS:
            return OrderRolls(tuple(rng.randint(1, 6) + rng.randint(1, 6) for _ in R.tied_group(state)))
        if state.reveals:
            return R.sample_reveal(state, rng)
        if state.phase == S.ROLL:
            return R.sample_roll(state, rng)
        raise IllegalMove("no chance outcome is awaited now", rule="chance")

    # -- results ------------------------------------------------------------------------
    def to_move(self, state: DicelineState) -> list[str]:
        """Who acts now (nobody at a roll or a draw)."""
        if self.chance(state) is not None or state.phase == S.OVER:
            return []
        if state.phase in (S.START_TILES, S.SELECT, S.LINES):
            return [state.players[state.queue[0]].name]
        return [state.players[state.order[state.turn]].name]

    def scores(self, state: DicelineState) -> dict[str, int]:
        """Points so far; at the end, the final totals."""
        if state.phase == S.OVER:
            return {p.name: final_total(state, i) for i, p in enumerate(state.players)}
        return {p.name: sum(p.points.values()) for p in state.players}

    def is_over(self, state: DicelineState) -> bool:
        """True after round 5."""
        return state.phase == S.OVER

    def winners(self, state: DicelineState) -> list[str]:
        """Most points; ties: most markers at hand, then most layout tiles completed."""
        if state.phase != S.OVER:
            return []
        keys = [ranking_key(state, i) for i in range(len(state.players))]
        best = max(keys)
        return [p.name for p, k in zip(state.players, keys) if k == best]

    # -- serialisation and views ----------------------------------------------------------
    def to_json(self, state: DicelineState) -> dict:
        """A JSON-ready dict."""
        return S.to_json(state)

    def from_json(self, data: dict) -> DicelineState:
        """The state stored by to_json."""
        return S.from_json(data)

    # -- the camera's side -----------------------------------------------------------------
    def expected_view(self, state: DicelineState) -> dict:
        """The TableView of the physical table (see rules.diceline.table_view)."""
        return expected_view(state)

    def chance_from_view(self, state: DicelineState, observed: dict) -> list[Move]:
        """A roll or a drawn tile that the camera sees, when one is awaited."""
        return chance_from_view(state, observed)

    def explain(self, state: DicelineState, observed: dict) -> list[list[Move]]:
        """One move, else two (a move and the tile drawn after it; 'done' and the next player's move)."""
        found = one_move(self, self, state, observed)
        if found:
            return found
        out: list[list[Move]] = []
        for first in self._moves_and_chance(state, observed):
            try:
                mid = self.apply(state, first)
            except IllegalMove:
                continue
            if self.is_over(mid):
                continue
            for second in self._moves_and_chance(mid, observed):
                try:
                    after = self.apply(mid, second)
                except IllegalMove:
                    continue
                if view_matches(expected_view(after), observed):
                    out.append([first, second])
        return out

    def _moves_and_chance(self, state: DicelineState, observed: dict) -> list[Move]:
        return list(self.legal_moves(state)) + chance_from_view(state, observed)

    def view(self, state: DicelineState, player: str | None = None) -> dict:
        """Everything on the table (Diceline has no hidden information) with score breakdowns."""
        return public_view(state, self.to_move(state), self.chance(state))
