"""Every component fact of Dazzling Diceline, in one place.

Facts the rulebook states are marked BOOK. Facts it leaves out (they are printed on the real
boards) are marked ASSUMPTION with the reason for the guess: a person holding the real game
corrects them here and nowhere else.
"""
from __future__ import annotations

# -- dice ------------------------------------------------------------------------------
COLOURS = ("red", "green", "grey")
# BOOK: "For 3 Players: Red x4, Green x4, Grey x8. For 4 Players: Red x5, Green x5, Grey x10."
DICE_BY_PLAYERS = {3: {"red": 4, "green": 4, "grey": 8}, 4: {"red": 5, "green": 5, "grey": 10}}

# ASSUMPTION: a player board has one red, one green and two grey die spaces, because a set
# (one row of the selection board) is one red, one green and two grey dice and "Place your dice
# on your Player Board in the die spaces of their color" needs exactly that many.
DIE_SPACES = ("red", "green", "grey", "grey")

# -- bonus tiles -----------------------------------------------------------------------
# BOOK: four types; names used in move texts: die, movement, order (flag), vp (starburst).
BONUS_KINDS = ("die", "movement", "order", "vp")
# BOOK: "For 3 Players: 4 types x 5 each = 20 total. For 4 Players: 4 types x 7 each = 28 total."
BONUS_DECK_PER_KIND = {3: 5, 4: 7}
# BOOK: "draw four bonus tiles ... and place them face up in the bonus tile spaces".
BONUS_DISPLAY_SIZE = 4

# -- the player board's 3x3 bonus spaces -----------------------------------------------
# ASSUMPTION: which die value each bonus space shows. The book says a green die's tile goes
# "in a bonus space that depicts the value of the die" and that the centre holds the starting
# tile, so the centre shows no value and the eight others must cover 1-6 (green 1..6 are all
# actions); the two spare spaces repeat 3 and 4 (a guess: middle values). Rows top to bottom.
# A space may show several values: write a tuple with more numbers.
BONUS_SPACE_VALUES: tuple[tuple[tuple[int, ...], ...], ...] = (
    ((1,), (2,), (3,)),
    ((4,), (), (5,)),
    ((6,), (3,), (4,)),
)
START_TILE_CELL = 4  # BOOK: "the bonus space in the center of their Player Board" (r2c2)

# -- layout tiles ----------------------------------------------------------------------
# BOOK: 13 tiles, "Each tile contains a unique arrangement of five marked spaces", rotatable.
# ASSUMPTION: the 13 patterns themselves (the book only pictures them). Chosen to be pairwise
# different under rotation; '#' is a marked space, rows top to bottom.
LAYOUT_PATTERNS: dict[int, str] = {
    1: ".#./###/.#.",   # plus
    2: "#.#/.#./#.#",   # X
    3: "###/.#./.#.",   # T
    4: "#../#../###",   # big L
    5: "#.#/###/...",   # U
    6: "###/.../#.#",   # bar over two corners
    7: "##./.#./.##",   # Z
    8: "##./##./..#",   # square and corner
    9: "##./##./#..",   # P
    10: "###/..#/.#.",  # hook
    11: "#../##./.##",  # stairs
    12: ".#./###/#..",  # F
    13: "#../.#./###",  # diagonal on a bar
}
# BOOK: "Round 1-3: 6 points. Round 4: 4 points. Round 5: 2 points."
LAYOUT_POINTS_BY_ROUND = {1: 6, 2: 6, 3: 6, 4: 4, 5: 2}
LAYOUT_DISPLAY_SIZE = 2  # BOOK: "draw two tiles ... in the layout tile spaces"

# -- player markers --------------------------------------------------------------------
# BOOK: eight per colour: one on the order track, one on the VP track, two at hand, four stock.
MARKERS_AT_HAND = 2
MARKERS_IN_STOCK = 4

# -- player order track ----------------------------------------------------------------
# ASSUMPTION: the track is START (space 0) then spaces 1-5 with the loop symbol on space 5.
# The book names only START, "Space 3" (its bonus) and "the space marked with the loop symbol";
# the loop must come after space 3, and five steps is what one x3 order bonus can move.
ORDER_TRACK_LAST = 5
ORDER_LOOP_SPACE = 5
ORDER_BONUS_SPACE = 3  # BOOK: "Space 3 Bonus: Turn one of your face down bonus tiles face up."

# -- action spaces ---------------------------------------------------------------------
# BOOK: red spaces "red 1 / red 12 / red 13 / red 14 / red 15" and the sixth "red 1~6";
# a red range 1~k holds values 1..k.
RED_MARKER_SPACES = ("red 1", "red 1~2", "red 1~3", "red 1~4", "red 1~5")
RED_LAYOUT_SPACE = "red 1~6"
# ASSUMPTION: how many additional VP spaces each of the five marker actions has: three for
# every game plus one "for Four Player Games Only" (the board pictures a 4-player-only part;
# three lets each action be taken in most but not all of the five rounds).
RED_VP_SPACES = {3: 3, 4: 4}

# BOOK: grey spaces "grey 6 / grey 56 / grey 46 / grey 36 / grey 26 / grey 1~6".
# ASSUMPTION: the "Grey Action Spaces for Four Player Games Only" are a second grey 2~6 and a
# second grey 1~6 (named with "#2"): a 4-player round brings two more grey dice than the six
# spaces hold, and the cheapest actions are the likeliest to be doubled.
# Each entry: (space name, lowest value, action, four players only). Actions: "move die" (grey 6),
# "score 2" (grey 5~6), "steps 3" (grey 4~6), "set die" (grey 3~6), "one step" (grey 2~6),
# "nudge die" (grey 1~6).
GREY_SPACES: tuple[tuple[str, int, str, bool], ...] = (
    ("grey 6", 6, "move die", False),
    ("grey 5~6", 5, "score 2", False),
    ("grey 4~6", 4, "steps 3", False),
    ("grey 3~6", 3, "set die", False),
    ("grey 2~6", 2, "one step", False),
    ("grey 1~6", 1, "nudge die", False),
    ("grey 2~6 #2", 2, "one step", True),
    ("grey 1~6 #2", 1, "nudge die", True),
)
GREY_56_POINTS = 2  # BOOK: "Grey 5~6: Score 2 victory points."
GREY_46_STEPS = 3  # BOOK: "up to three times"

# -- bonus actions (BOOK) ----------------------------------------------------------------
# movement / order tiles turned face down together -> steps allowed
STEPS_FOR_TILES = {1: 1, 2: 3, 3: 5}

# -- rounds and scoring (BOOK) ------------------------------------------------------------
ROUNDS = 5
RED_SCORE_PER = {"red 1": 1, "red 1~2": 2, "red 1~3": 3, "red 1~4": 2, "red 1~5": 1}
