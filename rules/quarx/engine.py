"""The Quarx / Dots engine (rulebook: the "Dots" rules in the game's box)."""
from __future__ import annotations

import random
from dataclasses import asdict
from itertools import combinations
from typing import Any

from rules.core.engine import Engine
from rules.core.errors import IllegalMove
from rules.core.views import OpenViews
from rules.quarx.components import (
    MAX_SPHERES_PER_CARD,
    NUMBER_CARDS,
    QUARX_CARDS,
    SPHERES_ON_CARDS,
    cards_per_player,
)
from rules.quarx.moves import Answer, Lay, Move, Pass, Reveal, TurnOver, parse
from rules.quarx.scoring import award, cards_for, judge
from rules.quarx.state import ANSWER, OVER, REVEAL, TURN, QuarxState
from rules.quarx.table_view import (
    colour_of,
    expected_view,
    explain_view,
    reveal_from_view,
    turn_over_from_view,
)

_ALL_CARD_SETS = [tuple(c) for n in range(1, 6) for c in combinations(NUMBER_CARDS, n)]


def _deal(players: list[str]) -> tuple[dict[str, int], int]:
    # "deal them equally to each player (place any extra cards out of play)"
    each = QUARX_CARDS // len(players)
    return {p: each for p in players}, QUARX_CARDS - each * len(players)


class QuarxEngine(Engine[QuarxState], OpenViews):
    """Quarx for 2 to 6 players; option `target` (e.g. 30) plays the longer variant."""

    name = "quarx"
    title = "Quarx / Dots"
    min_players = 2
    max_players = 6
    options_help = {"target": "play on (re-dealing the cards) until someone has this many points, e.g. 30"}

    def initial_state(self, players: list[str], options: dict[str, Any]) -> QuarxState:
        self.check_players(players)
        unknown = set(options) - {"target"}
        if unknown:
            raise IllegalMove(f"unknown Quarx option(s): {', '.join(sorted(unknown))}; known: target", rule="options")
        target = options.get("target")
        if target is not None and (not isinstance(target, int) or isinstance(target, bool) or target < 1):
            raise IllegalMove("target must be a whole number of points, e.g. 30", rule="options")
        piles, out = _deal(players)
        return QuarxState(list(players), target, piles, list(SPHERES_ON_CARDS), out, scores={p: 0 for p in players})

    # -- moves ---------------------------------------------------------------------------
    def parse_move(self, state: QuarxState, text: str) -> Move:
        return parse(text, state.players)

    def cards_to_turn(self, state: QuarxState) -> int:
        """How many cards the next reveal shows (fewer when the piles run short)."""
        per = cards_per_player(len(state.players))
        return sum(min(per, n) for n in state.piles.values())

    def legal_moves(self, state: QuarxState) -> list[Move]:
        if state.phase != ANSWER:
            return []
        moves: list[Move] = []
        tie_ok = bool(state.answers)
        for p in self.to_move(state):
            moves.append(Pass(p))
            moves.append(Lay(p))
            moves.extend(Answer(p, cards) for cards in _ALL_CARD_SETS)
            if tie_ok:
                moves.append(Lay(p, tie=True))
                moves.extend(Answer(p, cards, tie=True) for cards in _ALL_CARD_SETS)
        return moves

    def _apply(self, state: QuarxState, move: Move) -> None:
        if isinstance(move, Reveal):
            self._reveal(state, move)
        elif isinstance(move, TurnOver):
            self._turn_over(state, move)
        else:
            self._answer(state, move)

    def _reveal(self, state: QuarxState, move: Reveal) -> None:
        if state.phase != REVEAL:
            raise IllegalMove("the cards of this round are already turned over; the players are answering", rule="reveal")
        n = self.cards_to_turn(state)
        if move.total_only is None and len(move.counts) != n:
            raise IllegalMove(
                f"this round turns over {n} cards ({cards_per_player(len(state.players))} per player), "
                f"so a reveal lists {n} counts, not {len(move.counts)}",
                rule="cards per round",
            )
        if any(c > MAX_SPHERES_PER_CARD for c in move.counts) or (move.total_only or 0) > MAX_SPHERES_PER_CARD * n:
            raise IllegalMove(f"no card shows more than {MAX_SPHERES_PER_CARD} spheres", rule="reveal")
        per = cards_per_player(len(state.players))
        for p in state.players:
            state.piles[p] -= min(per, state.piles[p])
        for c in move.counts:
            if c in state.deck:
                state.deck.remove(c)
        state.revealed = list(move.counts) if move.total_only is None else []
        state.turned = n
        state.total = move.total
        state.phase = ANSWER

    def _answer(self, state: QuarxState, move: Answer | Pass | Lay) -> None:
        if state.phase == TURN:
            raise IllegalMove("everyone has laid: the cards are turned over next ('turn over: ...')", rule="no changes")
        if state.phase != ANSWER:
            raise IllegalMove("turn the cards over first: answers come after the reveal", rule="reveal first")
        if move.player not in self.to_move(state):
            raise IllegalMove(f"{move.player} has already laid cards this round and may not change them", rule="no changes")
        tie = isinstance(move, (Answer, Lay)) and move.tie
        if tie and not state.answers:
            raise IllegalMove(f"{move.player} cannot tie: nobody has finished yet", rule="ties")
        last_group = state.answers[-1]["group"] if state.answers else 0
        state.answers.append({
            "player": move.player,
            "cards": list(move.cards) if isinstance(move, Answer) else None,
            "announced": move.announced if isinstance(move, Answer) else None,
            "group": last_group if tie else last_group + 1,
            "unseen": isinstance(move, Lay),
        })
        if not self.to_move(state):
            if any(a["unseen"] for a in state.answers):
                # "When all players have placed number cards face down, everyone reveals them"
                state.phase = TURN
            else:
                self._score_round(state)

    def unseen_players(self, state: QuarxState) -> list[str]:
        """Players whose face-down cards nobody has seen yet, in seating order."""
        unseen = {a["player"] for a in state.answers if a["unseen"]}
        return [p for p in state.players if p in unseen]

    def _turn_over(self, state: QuarxState, move: TurnOver) -> None:
        if state.phase != TURN:
            raise IllegalMove("cards are turned over when everyone has laid theirs face down", rule="turn over")
        named = [p for p, _ in move.cards]
        unseen = self.unseen_players(state)
        if sorted(named) != sorted(unseen):
            raise IllegalMove(f"the turn over lists the cards of {', '.join(unseen)}: those laid unseen"
                              f" ({', '.join(named) or 'nobody'} listed)", rule="turn over")
        cards = dict(move.cards)
        for a in state.answers:
            if a["unseen"]:
                a["cards"], a["unseen"] = list(cards[a["player"]]), False
        self._score_round(state)

    def _score_round(self, state: QuarxState) -> None:
        assert state.total is not None
        verdicts = [
            judge(a["player"], a["group"], tuple(a["cards"]) if a["cards"] is not None else None, a["announced"], state.total)
            for a in state.answers
        ]
        points = award(verdicts, len(state.players), state.turned)
        for p, n in points.items():
            state.scores[p] += n
        state.rounds.append({
            "round": state.round,
            "deal": state.deal,
            "revealed": list(state.revealed),
            "total": state.total,
            "turned": state.turned,
            "verdicts": [asdict(v) for v in verdicts],
            "points": points,
            # The number cards as they lie turned up until picked up (rules.quarx.table_view).
            "laid": {a["player"]: a["cards"] for a in state.answers if a["cards"] is not None},
        })
        state.answers, state.revealed, state.total, state.turned = [], [], None, 0
        state.round += 1
        state.phase = REVEAL
        leader = max(state.scores.values())
        if state.target is not None and leader >= state.target:
            state.phase = OVER
        elif not any(state.piles.values()):
            if state.target is None:
                state.phase = OVER
            else:
                # "re-shuffle the Quarx cards and play until one player scores 30 points"
                state.piles, state.out_of_play = _deal(state.players)
                state.deck = list(SPHERES_ON_CARDS)
                state.deal += 1

    # -- chance --------------------------------------------------------------------------
    def chance(self, state: QuarxState) -> str | None:
        if state.phase == TURN:
            return f"turn over: the number cards {', '.join(self.unseen_players(state))} laid face down"
        if state.phase != REVEAL:
            return None
        return f"reveal: the spheres on each of the {self.cards_to_turn(state)} cards turned over"

    def sample_chance(self, state: QuarxState, rng: random.Random) -> Reveal | TurnOver:
        if state.phase == TURN:
            # Mostly right answers, sometimes any other set: a playout reaches every verdict.
            right = cards_for(state.total or 0)
            return TurnOver(tuple((p, right if rng.random() < 0.7 else rng.choice(_ALL_CARD_SETS))
                                  for p in self.unseen_players(state)))
        n = self.cards_to_turn(state)
        pool = state.deck if len(state.deck) >= n else list(SPHERES_ON_CARDS)
        return Reveal(tuple(rng.sample(pool, n)))

    # -- camera ----------------------------------------------------------------------------
    def expected_view(self, state: QuarxState) -> dict:
        return expected_view(state)

    def chance_from_view(self, state: QuarxState, observed: dict) -> list[Reveal | TurnOver]:
        if state.phase == TURN:
            return turn_over_from_view(state, observed, self.unseen_players(state))
        return reveal_from_view(state, observed, self.cards_to_turn(state)) if state.phase == REVEAL else []

    def explain(self, state: QuarxState, observed: dict) -> list[list[Move]]:
        """Face-down piles appearing, in the order seen; a reveal or a turn over read from the table."""
        return explain_view(self, state, observed)

    # -- results -------------------------------------------------------------------------
    def to_move(self, state: QuarxState) -> list[str]:
        if state.phase != ANSWER:
            return []
        done = {a["player"] for a in state.answers}
        return [p for p in state.players if p not in done]

    def scores(self, state: QuarxState) -> dict[str, int]:
        return dict(state.scores)

    def is_over(self, state: QuarxState) -> bool:
        return state.phase == OVER

    def winners(self, state: QuarxState) -> list[str]:
        # "Whoever has the most wins"; the book names no tie-breaker, so ties share the win.
        if state.phase != OVER:
            return []
        best = max(state.scores.values())
        return [p for p in state.players if state.scores[p] == best]

    def to_json(self, state: QuarxState) -> dict:
        return asdict(state)

    def from_json(self, data: dict) -> QuarxState:
        return QuarxState(**data)

    def view(self, state: QuarxState, player: str | None = None) -> dict:
        """Counts and laid cards stay hidden while players are still counting."""
        data = self.to_json(state)
        data["cards_to_turn"] = self.cards_to_turn(state) if state.phase == REVEAL else None
        data["colours"] = {p: colour_of(state, p) for p in state.players}
        if state.phase in (ANSWER, TURN):
            # Laid cards lie face down until everyone has laid and turns them over.
            data["answers"] = [{"player": a["player"], "group": a["group"]} for a in state.answers]
        if state.phase == ANSWER:
            data["total"] = None
            data["revealed"] = ["?"] * len(state.revealed)
        data.pop("deck")
        return data

    def history_view(self, state: QuarxState, moves: list[str], player: str | None = None) -> list[str]:
        """While the round is open, answers read only as "Ann laid cards (place 1)"."""
        if state.phase not in (ANSWER, TURN):
            return list(moves)
        last_reveal = max(i for i, m in enumerate(moves) if m.startswith("reveal "))
        shown = [m if i <= last_reveal else None for i, m in enumerate(moves)]
        if state.phase == ANSWER:
            shown[last_reveal] = "reveal (counts hidden until everyone has laid)"
        for i, a in zip(range(last_reveal + 1, len(moves)), state.answers):
            shown[i] = f"{a['player']} laid cards (place {a['group']})"
        return shown  # type: ignore[return-value]
