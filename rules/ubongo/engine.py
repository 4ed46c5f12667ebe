"""The Ubongo: Das Würfelspiel rules engine (rulebook: the one in the KOSMOS box).

A round is three phases: the roll (a chance move naming the faces on top), the grab (each player
still working on the area takes one black and one white die) and the entering (each of them
enters zero, one or both shapes, then is done). When every one of them is done, the round is
scored by itself: points by the round in which a player fills the area, the consolation point,
the next area, the next die-roller.

A player is done by saying so, or by itself once both shapes are entered, the area is full, or
neither remaining shape fits anywhere (nothing is left to decide).
"""
from __future__ import annotations

import random
from itertools import combinations, permutations
from typing import Any

from rules.core.camera import one_move, view_matches
from rules.core.engine import Engine
from rules.core.errors import IllegalMove, MoveSyntaxError
from rules.core.views import OpenViews
from rules.ubongo import components, hint as hints, scoring, table_view
from rules.ubongo.moves import Done, Enter, Move, Roll, Take, parse
from rules.ubongo.shapes import Cells, cell_name, same_shape
from rules.ubongo.solver import FillSearch, board, placements
from rules.ubongo.state import ENTER, OVER, ROLL, TAKE, UbongoState, from_json, to_json


class UbongoEngine(Engine[UbongoState], OpenViews):
    """Ubongo: Das Würfelspiel for 2 to 4 players."""

    name = "ubongo"
    title = "Ubongo: Das Würfelspiel"
    min_players = 2
    max_players = 4
    options_help = {
        "areas": "puzzle areas to play: 6, or 5 (the two-player option against ties)",
        "sheet": "your own puzzle areas: drawings with '#' cells, rows split by '/'",
        "black_dice": "your own black dice: 4 lists of 6 shape names",
        "white_dice": "your own white dice: 4 lists of 6 shape names",
        "shapes": "extra or changed shapes: {name: drawing}",
    }

    # -- setup -------------------------------------------------------------------------
    def initial_state(self, players: list[str], options: dict[str, Any]) -> UbongoState:
        self.check_players(players)
        unknown = set(options) - set(self.options_help)
        if unknown:
            raise IllegalMove(f"unknown option(s) {sorted(unknown)}; known: {sorted(self.options_help)}", rule="options")
        areas = options.get("areas", components.AREAS_PER_GAME)
        if areas not in (components.AREAS_PER_GAME, components.AREAS_SHORT_GAME):
            raise IllegalMove(f"a game has 6 puzzle areas (or 5 in the two-player option), not {areas!r}", rule="5-area option")
        if areas == components.AREAS_SHORT_GAME and len(players) != 2:
            raise IllegalMove("only a two-player game may be played with 5 puzzle areas", rule="5-area option")
        try:
            comps = components.from_options(options)
        except (ValueError, KeyError, TypeError) as exc:
            raise IllegalMove(f"the dice or sheet given cannot be used: {exc}", rule="components") from None
        return UbongoState(
            players=list(players),
            comps=comps,
            areas=areas,
            dice=components.DICE_BY_PLAYERS[len(players)],
            filled={p: [] for p in players},
            points={p: [] for p in players},
        )

    # -- helpers over the state --------------------------------------------------------
    def area_cells(self, state: UbongoState) -> Cells:
        """The cells of the current puzzle area."""
        return state.comps.area(min(state.area, state.areas - 1))

    def dice_in_play(self, state: UbongoState) -> tuple[list[tuple[str, ...]], list[tuple[str, ...]]]:
        """The black and the white dice rolled at this table."""
        return list(state.comps.black_dice[: state.dice]), list(state.comps.white_dice[: state.dice])

    def empty_mask(self, state: UbongoState, player: str) -> int:
        """The empty cells of `player`'s current puzzle area as bits."""
        b = board(self.area_cells(state))
        used = b.mask(tuple(c) for e in state.filled[player] for c in e["cells"])
        return b.full & ~used

    def free_dice(self, state: UbongoState) -> tuple[list[str], list[str]]:
        """The black and white faces still lying on the table (not grabbed)."""
        black, white = list(state.black), list(state.white)
        for b, w in state.taken.values():
            black.remove(b)
            white.remove(w)
        return black, white

    # -- moves -------------------------------------------------------------------------
    def parse_move(self, state: UbongoState, text: str) -> Move:
        move = parse(text, state.players)
        # Shape names are matched without regard to case, then written as the sheet names them.
        names = {n.lower(): n for n, _ in state.comps.shapes}

        def canon(name: str) -> str:
            return names.get(name.lower(), name)

        if isinstance(move, Roll):
            return Roll(tuple(sorted(map(canon, move.black))), tuple(sorted(map(canon, move.white))))
        if isinstance(move, Take):
            return Take(move.player, canon(move.black), canon(move.white))
        if isinstance(move, Enter):
            return Enter(move.player, canon(move.shape), move.cells)
        return move

    def to_move(self, state: UbongoState) -> list[str]:
        if state.phase == ROLL:
            return [state.players[state.roller]]
        if state.phase == TAKE:
            return [p for p in scoring.unfinished(state) if p not in state.taken]
        if state.phase == ENTER:
            return [p for p in scoring.unfinished(state) if p not in state.done]
        return []

    def legal_moves(self, state: UbongoState) -> list[Move]:
        moves: list[Move] = []
        if state.phase == TAKE:
            black, white = self.free_dice(state)
            for p in self.to_move(state):
                moves += [Take(p, b, w) for b in sorted(set(black)) for w in sorted(set(white))]
        elif state.phase == ENTER:
            area = self.area_cells(state)
            b = board(area)
            for p in self.to_move(state):
                empty = self.empty_mask(state, p)
                for shape in sorted(set(state.unused[p])):
                    for m in placements(area, state.comps.shape(shape), empty):
                        moves.append(Enter(p, shape, tuple(sorted(b.cells_of(m)))))
                moves.append(Done(p))
        return moves

    def _apply(self, state: UbongoState, move: Move) -> None:
        if isinstance(move, Roll):
            self._roll(state, move)
        elif isinstance(move, Take):
            self._take(state, move)
        elif isinstance(move, Enter):
            self._enter(state, move)
        elif isinstance(move, Done):
            self._check_entering(state, move.player)
            state.done.append(move.player)
        else:
            raise MoveSyntaxError(f"{move!r} is not an Ubongo move", rule="move text")
        self._settle(state)

    def _roll(self, state: UbongoState, move: Roll) -> None:
        if state.phase != ROLL:
            raise IllegalMove(f"the dice are already rolled for round {state.round}; players grab and enter now", rule="roll")
        black, white = self.dice_in_play(state)
        for colour, faces, dice in (("black", move.black, black), ("white", move.white, white)):
            if len(faces) != len(dice):
                raise IllegalMove(f"all {len(dice)} {colour} dice are rolled, so the roll names {len(dice)} {colour} faces, not {len(faces)}", rule="roll all dice")
            if not any(all(f in die for f, die in zip(faces, order)) for order in permutations(dice)):
                raise IllegalMove(f"the {colour} dice in play cannot show {' '.join(faces)} together (their faces: "
                                  f"{'; '.join(' '.join(d) for d in dice)})", rule="die faces")
        state.black, state.white = list(move.black), list(move.white)
        state.phase = TAKE

    def _take(self, state: UbongoState, move: Take) -> None:
        p = self._check_player(state, move.player)
        if state.phase == ROLL:
            raise IllegalMove("the dice are not rolled yet", rule="roll first")
        if state.phase != TAKE:
            raise IllegalMove("every player has grabbed already; now shapes are entered", rule="grab two dice")
        if p in state.taken:
            b, w = state.taken[p]
            raise IllegalMove(f"{p} already grabbed black {b} and white {w}: exactly one die of each colour", rule="grab two dice")
        black, white = self.free_dice(state)
        if move.black not in black:
            raise IllegalMove(f"no free black die shows {move.black} (free black: {' '.join(black) or 'none'})", rule="grab two dice")
        if move.white not in white:
            raise IllegalMove(f"no free white die shows {move.white} (free white: {' '.join(white) or 'none'})", rule="grab two dice")
        state.taken[p] = [move.black, move.white]
        if all(q in state.taken for q in scoring.unfinished(state)):
            state.phase = ENTER
            state.unused = {q: list(state.taken[q]) for q in state.taken}

    def _enter(self, state: UbongoState, move: Enter) -> None:
        p = self._check_entering(state, move.player)
        if move.shape not in state.unused[p]:
            has = " and ".join(state.unused[p]) or "nothing"
            raise IllegalMove(f"{p} has no grabbed die showing {move.shape} left to enter (left: {has})", rule="enter your own shapes")
        area = self.area_cells(state)
        outside = [c for c in move.cells if c not in area]
        if outside:
            raise IllegalMove(f"{cell_name(outside[0])} is not a cell of puzzle area {state.area + 1}", rule="inside the area")
        if not same_shape(state.comps.shape(move.shape), frozenset(move.cells)):
            raise IllegalMove(f"the cells {' '.join(map(cell_name, move.cells))} do not form {move.shape} "
                              "(it may be turned and mirrored)", rule="shape")
        taken = {tuple(c) for e in state.filled[p] for c in e["cells"]}
        overlap = [c for c in move.cells if c in taken]
        if overlap:
            raise IllegalMove(f"{cell_name(overlap[0])} of {p}'s area is already filled", rule="empty cells")
        state.unused[p].remove(move.shape)
        state.filled[p].append({"shape": move.shape, "cells": [list(c) for c in move.cells]})

    def _check_player(self, state: UbongoState, player: str) -> str:
        if player not in state.players:
            raise IllegalMove(f"{player!r} does not play at this table", rule="players")
        if player in state.finished:
            raise IllegalMove(f"{player} has filled puzzle area {state.area + 1} and waits until everyone has "
                              "scored it", rule="finished players wait")
        return player

    def _check_entering(self, state: UbongoState, player: str) -> str:
        p = self._check_player(state, player)
        if state.phase == ROLL:
            raise IllegalMove("the dice are not rolled yet", rule="roll first")
        if state.phase == TAKE:
            raise IllegalMove("shapes are entered once every player has grabbed 2 dice", rule="grab two dice")
        if p in state.done:
            raise IllegalMove(f"{p} has finished entering for this round", rule="enter zero to two shapes")
        return p

    def _settle(self, state: UbongoState) -> None:
        """Mark players with nothing left to decide as done; score the round when all are."""
        if state.phase != ENTER:
            return
        area = self.area_cells(state)
        for p in scoring.unfinished(state):
            if p in state.done:
                continue
            empty = self.empty_mask(state, p)
            if not empty or not any(placements(area, state.comps.shape(s), empty) for s in state.unused[p]):
                state.done.append(p)
        if all(p in state.done for p in scoring.unfinished(state)):
            filled = [p for p in scoring.unfinished(state) if not self.empty_mask(state, p)]
            scoring.score_round(state, filled)

    # -- chance ------------------------------------------------------------------------
    def chance(self, state: UbongoState) -> str | None:
        if state.phase != ROLL:
            return None
        return (f"{state.players[state.roller]} rolls all {2 * state.dice} dice: "
                f"'roll black <{state.dice} faces> white <{state.dice} faces>'")

    def sample_chance(self, state: UbongoState, rng: random.Random) -> Roll:
        if state.phase != ROLL:
            raise IllegalMove("no roll is awaited now", rule="chance")
        black, white = self.dice_in_play(state)
        return Roll(tuple(sorted(rng.choice(d) for d in black)), tuple(sorted(rng.choice(d) for d in white)))

    # -- camera ----------------------------------------------------------------------------
    def expected_view(self, state: UbongoState) -> dict:
        return table_view.expected_view(state, self.free_dice(state))

    def chance_from_view(self, state: UbongoState, observed: dict) -> list[Roll]:
        return table_view.roll_from_view(state, observed)

    def explain(self, state: UbongoState, observed: dict) -> list[list[Move]]:
        """Grabs explain dice leaving the middle; several players may grab between two frames."""
        if state.phase != TAKE:
            return one_move(self, self, state, observed)
        black, white = self.free_dice(state)
        middle = observed.get("middle") or {}
        gone_b = table_view.grabbed_faces(black, middle.get("black"))
        gone_w = table_view.grabbed_faces(white, middle.get("white"))
        if gone_b is None or gone_w is None:
            return one_move(self, self, state, observed)
        n = sum(gone_b.values())
        if n == 0 or n != sum(gone_w.values()):
            return []  # every grab takes exactly one die of each colour
        found: list[list[Move]] = []
        for players in combinations(self.to_move(state), n):
            for bs in sorted(set(permutations(gone_b.elements()))):
                for ws in sorted(set(permutations(gone_w.elements()))):
                    seq = [Take(p, b, w) for p, b, w in zip(players, bs, ws)]
                    taken = {**state.taken, **{t.player: [t.black, t.white] for t in seq}}
                    after = table_view.view(middle["black"], middle["white"], taken)
                    if view_matches(after, observed):
                        found.append(seq)
        return found

    # -- results -----------------------------------------------------------------------
    def scores(self, state: UbongoState) -> dict[str, int]:
        return scoring.totals(state)

    def is_over(self, state: UbongoState) -> bool:
        return state.phase == OVER

    def winners(self, state: UbongoState) -> list[str]:
        return scoring.winners(state)

    # -- serialisation and views ---------------------------------------------------------
    def to_json(self, state: UbongoState) -> dict:
        return to_json(state)

    def from_json(self, data: dict) -> UbongoState:
        return from_json(data)

    def view(self, state: UbongoState, player: str | None = None) -> dict:
        """Everything is open in Ubongo: the state plus the facts the page draws from (area cells, shapes, free dice)."""
        area = self.area_cells(state)
        black, white = self.free_dice(state)
        dice_b, dice_w = self.dice_in_play(state)
        faces = sorted({f for d in dice_b + dice_w for f in d})
        data = self.to_json(state)
        data.pop("comps")
        data.update(
            area_number=min(state.area, state.areas - 1) + 1,
            area_cells=[list(c) for c in sorted(area)],
            roller_name=state.players[state.roller],
            to_move=self.to_move(state),
            free={"black": black, "white": white},
            shapes={f: [list(c) for c in sorted(state.comps.shape(f))] for f in faces},
            dice_faces={"black": [list(d) for d in dice_b], "white": [list(d) for d in dice_w]},
            ranks=scoring.ranks(state) if state.phase == OVER else {},
        )
        return data

    # -- help for players ----------------------------------------------------------------
    def fill_search(self, state: UbongoState, budget: int | None = None) -> FillSearch:
        """The solver for the current area with every face of the dice in play."""
        black, white = self.dice_in_play(state)
        shape = state.comps.shape
        return FillSearch(self.area_cells(state), tuple(shape(f) for d in black for f in d),
                          tuple(shape(f) for d in white for f in d), budget=budget)

    def hint(self, state: UbongoState, player: str, budget: int = hints.DEFAULT_BUDGET) -> list[dict]:
        """The black+white pairs `player` could grab now, best first (see rules.ubongo.hint)."""
        if player not in state.players:
            raise IllegalMove(f"{player!r} does not play at this table", rule="players")
        if player in state.finished or state.phase == OVER:
            return []
        dice_b, dice_w = self.dice_in_play(state)
        if state.phase == TAKE and player not in state.taken:
            black, white = self.free_dice(state)
        elif state.phase in (TAKE, ENTER):
            if player in state.done:
                return []
            b, w = state.taken[player]
            left = list(state.unused.get(player, [b, w]))  # the grab is not over: nothing entered yet
            black = [left.pop(left.index(b))] if b in left else []
            white = [w] if w in left else []
        else:
            # Before the roll: any face the dice in play can show.
            black, white = sorted({f for d in dice_b for f in d}), sorted({f for d in dice_w for f in d})
        names = {f for d in dice_b + dice_w for f in d} | set(black) | set(white)
        ranked = hints.rank_pairs(self.fill_search(state), self.empty_mask(state, player), black, white,
                                  {n: state.comps.shape(n) for n in names}, budget=budget,
                                  odds=hints.dice_odds(dice_b, dice_w))
        return [h.to_json(board(self.area_cells(state)), player) for h in ranked]
