"""Component facts of Dreams (Zoch 2016, Olivier Grégoire) that the rulebook leaves out or only implies.

Each constant says whether it is read from the book or assumed, and why, so that a person
holding the real game can correct it here in one place.
"""
from __future__ import annotations

# From the book: "The game is played by 3 to 6 players" is implied by the 6 crescents, 18 stars
# (3 per player) and the Gods markers "one marker less than there are players" in 4 stacks of 20.
MIN_PLAYERS = 3
MAX_PLAYERS = 6

# From the book: "the well-shuffled 72 Dream cards". Assumption: the cards carry no printed
# number, so this program numbers them 1-72 only to record which four were laid out.
DREAM_CARDS = 72

# From the book: "Place one image number on a corner of each card": 4 image numbers, 1 to 4.
IMAGE_NUMBERS = (1, 2, 3, 4)

# Assumption: where each image number lies in the square of four dream cards (the book only says
# the square matches the firmament's orientation). Reading order, as (column, row).
IMAGE_PLACES = {1: (0, 0), 2: (1, 0), 3: (0, 1), 4: (1, 1)}

# Assumption: when the draw pile cannot fill a layout (72 cards = 18 rounds), the cards put aside
# are shuffled into a new pile. The book never says, and a long 3-player game can outlast the pile.
RESHUFFLE_WHEN_EMPTY = True

# From the book: "one each in transparent, gray, and black". Text names used in moves.
STAR_KINDS = ("clear", "grey", "black")
STAR_ALIASES = {"transparent": "clear", "gray": "grey"}

# Assumption: the six crescent colours of the published game are not named in the book except
# BLUE, YELLOW and GREEN (its example); the other three are a guess. Players take them in seat
# order unless the table chooses with the "colors" option.
PLAYER_COLOURS = ("blue", "yellow", "green", "red", "purple", "orange")

# From the book: "The game ends with the completion of the game round in which (at least) one
# player reaches 16 Gods points."
GOAL = 16

# From the book's set-up: the Gods track runs 0-20 ("both parts of the Gods track"). Nobody can
# pass 20: a round gives at most 5 points and starts below 16.
TRACK_MAX = 20

# From the book: the Gods points, exactly as written.
MORTAL_UNDETECTED = 3  # "3 Gods points if nobody has guessed his color correctly"
MORTAL_DECIPHERED = 2  # "2 Gods points if he has guessed the image number of the true vision correctly"
GOD_UNCOVERED = 2  # "2 Gods points if he has guessed the color of the mortal correctly"
GOD_UNSUSPECTED = 1  # "1 Gods point if nobody has guessed his color"

# Assumption: the players list is given in seating order clockwise, so a player's left neighbour
# is the next name in the list (the book passes turns and the deal "to the left").
# Assumption: the first dealer ("determined beforehand") is the first player unless the table names
# another with the "dealer" option.

# Assumption: a God may not name his own colour. He knows he is no mortal, so it is no guess at the
# mortal; the book's guess is "the player color of the mortal".

# Assumption: firmament positions are recorded to a thousandth of its width and height
# (x from the left edge, y from the top edge, both 0 to 1): finer than a star is wide.
POSITION_STEPS = 1000

# From the book: "Divide the 20 Gods markers into four face-down stacks. Each stack may contain only
# markers of the same number (one marker less than there are players). Mix one Mortal marker into
# each stack." 4 stacks x 5 = 20 Gods markers at 6 players, and 4 Mortal markers.
GODS_MARKERS_PER_NUMBER = 5
MORTAL_MARKERS = 4
