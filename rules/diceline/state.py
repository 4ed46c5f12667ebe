"""The plain data of a Diceline game: players, boards, dice, decks and whose turn it is."""
from __future__ import annotations

import copy
from dataclasses import asdict, dataclass, field, fields
from typing import Final, Literal

# Phases, in the order a game passes through them.
ORDER_ROLLS: Final = "order rolls"  # setup: roll two dice each for player order (chance)
START_TILES: Final = "start tiles"  # setup: choose starting bonus tiles in reverse player order
DEAL: Final = "deal"  # setup: reveal the bonus display and the layout tiles (chance)
ROLL: Final = "roll"  # phase 1: the start player rolls the pool (chance)
SELECT: Final = "select"  # phase 1: return one set, the others choose in reverse order
ACTIONS: Final = "actions"  # phase 2: turns in player order until every die is used
LINES: Final = "lines"  # phase 3: line bonus flips
OVER: Final = "over"
Phase = Literal["order rolls", "start tiles", "deal", "roll", "select", "actions", "lines", "over"]


@dataclass
class Player:
    """One player's board and supply."""

    name: str
    dice: list[int]  # value per die space (components.DIE_SPACES order); 0 = empty
    dice_made: list[str]  # the physical colour of each die ("" = empty); its space decides its colour
    board: list[str]  # 9 bonus spaces, see rules.diceline.board
    layouts: list[int] = field(default_factory=list)  # face-up layout tiles not yet completed
    completed: list[int] = field(default_factory=list)  # completed layout tiles, in order
    hand: int = 0  # player markers next to the player board
    stock: int = 0  # player markers in the stock
    points: dict[str, int] = field(default_factory=dict)  # points scored during the game, by source


@dataclass
class DicelineState:
    """Everything on the table, plus whose move it is."""

    players: list[Player]
    phase: Phase = ORDER_ROLLS
    round: int = 1
    order: list[int] = field(default_factory=list)  # player indices in player order
    ranking: list[list[int]] = field(default_factory=list)  # setup: groups still tied in the order roll
    track: list[list[int]] = field(default_factory=list)  # order track: stack per space, bottom -> top
    start_tiles: list[str] = field(default_factory=list)  # starting tiles still on the table
    pool: dict[str, int] = field(default_factory=dict)  # dice in the pool, by physical colour
    rows: list[list[int] | None] = field(default_factory=list)  # selection board: [red, green, grey, grey]
    queue: list[int] = field(default_factory=list)  # players still to choose (setup, phase 1, phase 3)
    spaces: dict[str, list] = field(default_factory=dict)  # action space -> [player, made colour, value]
    red_vp: dict[str, list[int]] = field(default_factory=dict)  # red action -> players with a marker there
    bonus_deck: dict[str, int] = field(default_factory=dict)  # face-down bonus tiles by kind
    bonus_display: list[str] = field(default_factory=list)  # face-up bonus tiles on the action board
    layout_deck: list[int] = field(default_factory=list)  # layout tiles still in the deck
    layout_display: list[int] = field(default_factory=list)  # layout tiles on the red board
    reveals: list[str] = field(default_factory=list)  # awaited draws: "bonus", "layout" or "layout:<player>"
    turn: int = 0  # phase 2: index into `order` of the player whose turn it is
    main_done: bool = False  # the player has placed or returned a die this turn
    credits: dict[str, int] = field(default_factory=dict)  # bonus tiles used this turn, not yet spent
    steps_left: int = 0  # steps left in a Move Bonus Tiles / Adjust Player Order sequence
    steps_kind: str = ""  # "tile", "order" or "any"
    allowance: int = 0  # phase 3: tiles the first player in `queue` may still turn up

    def __deepcopy__(self, memo) -> "DicelineState":
        # Engine.apply deep-copies before every move; a hand-made copy of this flat data is
        # several times faster than the generic one and keeps random playouts quick.
        new = DicelineState.__new__(DicelineState)
        d = self.__dict__
        nd = new.__dict__
        nd.update(d)
        nd["players"] = [
            Player(p.name, p.dice[:], p.dice_made[:], p.board[:], p.layouts[:], p.completed[:],
                   p.hand, p.stock, dict(p.points))
            for p in self.players
        ]
        for key in ("order", "start_tiles", "queue", "bonus_display", "layout_deck", "layout_display", "reveals"):
            nd[key] = d[key][:]
        nd["ranking"] = [g[:] for g in self.ranking]
        nd["track"] = [s[:] for s in self.track]
        nd["rows"] = [None if r is None else r[:] for r in self.rows]
        nd["pool"] = dict(self.pool)
        nd["spaces"] = {k: v[:] for k, v in self.spaces.items()}
        nd["red_vp"] = {k: v[:] for k, v in self.red_vp.items()}
        nd["bonus_deck"] = dict(self.bonus_deck)
        nd["credits"] = dict(self.credits)
        return new

    def player_at_turn(self) -> Player:
        """The player whose turn it is in phase 2."""
        return self.players[self.order[self.turn]]


def to_json(state: DicelineState) -> dict:
    """A JSON-ready dict of the state."""
    return asdict(state)


def from_json(data: dict) -> DicelineState:
    """The state stored by to_json."""
    data = copy.deepcopy(data)
    names = {f.name for f in fields(DicelineState)}
    kwargs = {k: v for k, v in data.items() if k in names}
    kwargs["players"] = [Player(**p) for p in data["players"]]
    return DicelineState(**kwargs)
