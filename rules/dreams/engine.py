"""Dreams: Gods place stars to show the true vision; one hidden mortal tries to blend in."""
from __future__ import annotations

import random
from typing import Any

from rules.core.engine import Engine
from rules.core.errors import IllegalMove
from rules.core.views import OpenViews
from rules.dreams import components as C
from rules.dreams import views
from rules.dreams.markers import deal
from rules.dreams.moves import MORTAL, Deal, Guess, LayOut, MarkerEntry, Move, PlaceStar, parse
from rules.dreams.scoring import awards
from rules.dreams.state import (
    DEAL,
    GUESS,
    LAYOUT,
    OVER,
    STARS,
    DreamsState,
    RoundResult,
    Star,
    from_json,
    to_json,
)

# Star positions are continuous; legal_moves lists each star a player still has on this grid of
# cell centres (thirds of the firmament), a finite sample. Any position from 0 to 1 is legal.
SAMPLE_POSITIONS = (167, 500, 833)


class DreamsEngine(Engine[DreamsState], OpenViews):
    """The rules of Dreams for 3 to 6 players, with hidden roles and secret guesses."""

    name = "dreams"
    title = "Dreams"
    # The random deal must not be foreseeable from the table's seed, which players can read or even
    # choose: the server should seed this game's chance draws with its own secret too (see report).
    secret_chance = True
    min_players = C.MIN_PLAYERS
    max_players = C.MAX_PLAYERS
    options_help = {
        "dealer": "who mixes and deals the Gods markers in the first round (default: the first player)",
        "colors": "crescent colours in seat order (default: " + ", ".join(C.PLAYER_COLOURS) + ")",
    }

    # -- setup -------------------------------------------------------------------------
    def initial_state(self, players: list[str], options: dict[str, Any]) -> DreamsState:
        """Everybody on space 0; the first round waits for its four dream cards."""
        self.check_players(players)
        unknown = set(options) - set(self.options_help)
        if unknown:
            raise IllegalMove(f"unknown option(s) {', '.join(sorted(unknown))}; known: dealer, colors", rule="options")
        given = options.get("colors", C.PLAYER_COLOURS[: len(players)])
        colours = [str(c).lower() for c in given] if isinstance(given, (list, tuple)) else []
        if len(colours) != len(players) or len(set(colours)) != len(colours) or not set(colours) <= set(C.PLAYER_COLOURS):
            raise IllegalMove(
                f"colors: one different crescent colour per player from {', '.join(C.PLAYER_COLOURS)}", rule="options"
            )
        dealer = options.get("dealer", players[0])
        if dealer not in players:
            raise IllegalMove(f"dealer {dealer!r} is not a player of this table", rule="options")
        return DreamsState(
            players=list(players),
            colours=colours,
            scores={p: 0 for p in players},
            dealer=players.index(dealer),
        )

    # -- moves -------------------------------------------------------------------------
    def parse_move(self, state: DreamsState, text: str) -> Move:
        """Read a move; see rules.dreams.moves.FORMS for the text forms."""
        return parse(text, state.players, state.colours)

    def legal_moves(self, state: DreamsState) -> list[Move]:
        """Stars of the player to move (on a sample grid) or every open guess; none at chance points."""
        if state.phase == STARS:
            player = state.star_turn()
            assert player is not None
            return [
                PlaceStar(player, kind, x, y)
                for kind in state.stars_left(player)
                for y in SAMPLE_POSITIONS
                for x in SAMPLE_POSITIONS
            ]
        if state.phase == GUESS:
            return [m for p in state.players if p not in state.guesses for m in self._guesses_of(state, p)]
        return []

    def _guesses_of(self, state: DreamsState, player: str) -> list[Guess]:
        if player == state.mortal:
            return [Guess(player, str(n)) for n in C.IMAGE_NUMBERS]
        own = state.colour_of(player)
        return [Guess(player, c) for c in state.colours if c != own]

    def _apply(self, state: DreamsState, move: Move) -> None:
        if isinstance(move, LayOut):
            self._lay_out(state, move)
        elif isinstance(move, Deal):
            self._deal(state, move)
        elif isinstance(move, MarkerEntry):
            self._enter_marker(state, move)
        elif isinstance(move, PlaceStar):
            self._place_star(state, move)
        elif isinstance(move, Guess):
            self._guess(state, move)
        else:  # pragma: no cover - parse_move only makes the moves above
            raise IllegalMove(f"{move!r} is not a Dreams move", rule="move")

    def _lay_out(self, state: DreamsState, move: LayOut) -> None:
        if state.phase != LAYOUT:
            raise IllegalMove("the four dream cards are already laid out for this round", rule="lay out dreams")
        if C.RESHUFFLE_WHEN_EMPTY and len(_unused_cards(state)) < len(C.IMAGE_NUMBERS):
            state.used_cards = []
        used = sorted(set(move.cards) & set(state.used_cards))
        if used:
            raise IllegalMove(
                f"dream card(s) {', '.join(map(str, used))} were put aside in an earlier round", rule="lay out dreams"
            )
        state.cards = list(move.cards)
        state.phase = DEAL

    def _deal(self, state: DreamsState, move: Deal) -> None:
        self._check_deal_phase(state)
        if state.markers:
            raise IllegalMove(
                "the players are entering their own markers; the others must enter theirs", rule="deal out Gods markers"
            )
        state.vision, state.mortal = move.vision, move.mortal
        state.phase = STARS

    def _enter_marker(self, state: DreamsState, move: MarkerEntry) -> None:
        self._check_deal_phase(state)
        if move.player in state.markers:
            raise IllegalMove(f"{move.player} has entered a marker already", rule="deal out Gods markers")
        state.markers[move.player] = move.marker
        if len(state.markers) < len(state.players):
            return
        mortals = [p for p, m in state.markers.items() if m == MORTAL]
        numbers = {m for m in state.markers.values() if m != MORTAL}
        # A refusal of the last entry would tell its player what the others hold; instead the
        # whole deal is void, which everybody learns alike.
        if len(mortals) != 1 or len(numbers) != 1:
            state.markers = {}
            state.void_deals += 1
            return
        state.mortal, state.vision = mortals[0], int(numbers.pop())
        state.markers = {}
        state.phase = STARS

    def _check_deal_phase(self, state: DreamsState) -> None:
        if state.phase == LAYOUT:
            raise IllegalMove("lay out the four dream cards first", rule="lay out dreams")
        if state.phase != DEAL:
            raise IllegalMove("the Gods markers are already dealt this round", rule="deal out Gods markers")

    def _place_star(self, state: DreamsState, move: PlaceStar) -> None:
        if state.phase in (LAYOUT, DEAL):
            raise IllegalMove("stars are placed after the Gods markers are dealt", rule="place stars")
        if state.phase != STARS:
            raise IllegalMove("all stars are placed; now everybody guesses", rule="place stars")
        turn = state.star_turn()
        if move.player != turn:
            raise IllegalMove(f"it is {turn}'s turn to place a star", rule="place stars")
        if move.kind not in state.stars_left(move.player):
            raise IllegalMove(
                f"{move.player} has placed the {move.kind} star already; what has been placed remains there "
                f"(left: {', '.join(state.stars_left(move.player))})",
                rule="place stars",
            )
        state.stars.append(Star(move.player, move.kind, move.x, move.y))
        if len(state.stars) == len(C.STAR_KINDS) * len(state.players):
            state.phase = GUESS

    def _guess(self, state: DreamsState, move: Guess) -> None:
        if state.phase != GUESS:
            raise IllegalMove("guesses come after every player has placed all three stars", rule="guess")
        if move.player in state.guesses:
            raise IllegalMove(f"{move.player}'s guess is locked and cannot be changed", rule="guess")
        # These refusals name the player's role: the server lets only the player's own link send them.
        if move.player == state.mortal:
            if not move.target.isdigit():
                raise IllegalMove("you are the mortal: guess the image number of the true vision (1-4)", rule="guess")
        else:
            if move.target.isdigit():
                raise IllegalMove("you are a God: guess the colour of the mortal", rule="guess")
            if move.target == state.colour_of(move.player):
                raise IllegalMove("you are a God, not the mortal: name another player's colour", rule="guess")
        state.guesses[move.player] = move.target
        if len(state.guesses) == len(state.players):
            self._resolve(state)

    def _resolve(self, state: DreamsState) -> None:
        """Reveal all guesses and markers at once, record the points, end the round."""
        assert state.mortal is not None and state.vision is not None
        mortal_seat = state.players.index(state.mortal)
        colours = dict(zip(state.players, state.colours))
        round_awards = awards(state.seat_order(mortal_seat), colours, state.mortal, state.vision, state.guesses)
        for a in round_awards:
            state.scores[a.player] = min(C.TRACK_MAX, state.scores[a.player] + a.points)
        state.results.append(
            RoundResult(
                number=state.round,
                dealer=state.players[state.dealer],
                cards=list(state.cards),
                stars=list(state.stars),
                vision=state.vision,
                mortal=state.mortal,
                guesses=dict(state.guesses),
                awards=round_awards,
                scores=dict(state.scores),
            )
        )
        if max(state.scores.values()) >= C.GOAL:
            state.phase = OVER
            return
        # The next round: stars back, cards aside, markers back, the deal passes to the left.
        state.used_cards.extend(state.cards)
        state.cards, state.stars, state.guesses = [], [], {}
        state.vision = state.mortal = None
        state.void_deals = 0
        state.dealer = (state.dealer + 1) % len(state.players)
        state.round += 1
        state.phase = LAYOUT

    # -- chance ------------------------------------------------------------------------
    def chance(self, state: DreamsState) -> str | None:
        """The dream cards to lay out, or the Gods markers to deal."""
        if state.phase == LAYOUT:
            return f"lay out 4 dream cards: 'dreams A B C D' (cards 1-{C.DREAM_CARDS} for images 1-4)"
        if state.phase == DEAL:
            dealer = state.players[state.dealer]
            if state.markers:
                return f"{len(state.markers)} of {len(state.players)} players have entered their marker on their own link"
            return (
                f"{dealer} deals the Gods markers: 'random' deals them secretly, "
                "or each player enters their own marker on their own link"
            )
        return None

    def sample_chance(self, state: DreamsState, rng: random.Random) -> Move:
        """Draw four unused dream cards, or deal a whole stack of markers (one mortal, one vision)."""
        if state.phase == LAYOUT:
            pool = _unused_cards(state)
            if len(pool) < len(C.IMAGE_NUMBERS):
                pool = list(range(1, C.DREAM_CARDS + 1))
            return LayOut(tuple(rng.sample(pool, len(C.IMAGE_NUMBERS))))  # type: ignore[arg-type]
        if state.phase == DEAL:
            if state.markers:
                raise IllegalMove(
                    "the players are entering their own markers; the others must enter theirs", rule="deal out Gods markers"
                )
            dealt = deal(state.players, state.dealer, rng)
            mortal = next(p for p, m in dealt.items() if m == MORTAL)
            return Deal(int(next(m for m in dealt.values() if m != MORTAL)), mortal)
        return super().sample_chance(state, rng)

    # -- results -----------------------------------------------------------------------
    def scores(self, state: DreamsState) -> dict[str, int]:
        """Each player's space on the Gods track."""
        return dict(state.scores)

    def is_over(self, state: DreamsState) -> bool:
        """True after the round in which somebody reached 16."""
        return state.phase == OVER

    def winners(self, state: DreamsState) -> list[str]:
        """Everybody in the lead on the Gods track once the game is over."""
        if state.phase != OVER:
            return []
        best = max(state.scores.values())
        return [p for p in state.players if state.scores[p] == best]

    def to_move(self, state: DreamsState) -> list[str]:
        """The star placer, the players yet to guess, or the players yet to enter their marker."""
        if state.phase == STARS:
            return [state.star_turn()]  # type: ignore[list-item]
        if state.phase == GUESS:
            return [p for p in state.players if p not in state.guesses]
        if state.phase == DEAL and state.markers:
            return [p for p in state.players if p not in state.markers]
        return []

    # -- serialisation and views ---------------------------------------------------------
    def to_json(self, state: DreamsState) -> dict:
        """The whole state, secrets included: for storage, never for a viewer."""
        return to_json(state)

    def from_json(self, data: dict) -> DreamsState:
        """The state stored by `to_json`."""
        return from_json(data)

    def view(self, state: DreamsState, player: str | None = None) -> dict:
        """What `player` may know (None: the shared screen, which knows no role and no guess)."""
        return views.view(state, player)

    def history_view(self, state: DreamsState, moves: list[str], player: str | None = None) -> list[str]:
        """The log with this round's secret moves redacted for everybody but their own player."""
        return views.history(state, moves, player, lambda text: self.parse_move(state, text))

    def private_player(self, state: DreamsState, move: Any) -> str | None:
        """A guess or a marker entry is made on its player's own link; everything else in public."""
        if isinstance(move, str):
            move = self.parse_move(state, move)
        if isinstance(move, (Guess, MarkerEntry)):
            return move.player
        return None

    def legal_moves_view(self, state: DreamsState, player: str | None = None) -> list[str]:
        """Public: the star moves only. A player also sees their own guesses or marker entries."""
        if state.phase == OVER:
            return []
        if state.phase == STARS:
            return [str(m) for m in self.legal_moves(state)]
        if player is None or player not in state.players:
            return []
        if state.phase == GUESS and player not in state.guesses:
            return [str(m) for m in self._guesses_of(state, player)]
        if state.phase == DEAL and player not in state.markers:
            return [str(MarkerEntry(player, m)) for m in [*map(str, C.IMAGE_NUMBERS), MORTAL]]
        return []

    def undo_refusal(self, state: DreamsState, last_move: str) -> str | None:
        """Why the generic undo must not take back `last_move` (a locked guess, a reveal), or None.

        Not part of rules.core yet: the server may call it before undoing (see the Dreams report).
        """
        move = self.parse_move(state, last_move)
        if isinstance(move, Guess):
            return "a locked guess cannot be taken back"
        if isinstance(move, (Deal, MarkerEntry)) and state.phase != DEAL:
            return "the Gods markers are dealt; taking them back would let the deal be tried again"
        return None


def _unused_cards(state: DreamsState) -> list[int]:
    used = set(state.used_cards)
    return [c for c in range(1, C.DREAM_CARDS + 1) if c not in used]
