"""Quarx component facts. The rulebook gives the card counts; the card art is not published.

Each value marked ASSUMPTION is a guess a person holding the real game can correct here.
"""

# From the rulebook: "30 Quarx cards 30 number cards (1, 2, 4, 8, 16 in six colors)".
QUARX_CARDS = 30
NUMBER_CARDS = (16, 8, 4, 2, 1)
NUMBER_CARD_COLOURS = ("red", "orange", "yellow", "green", "blue", "purple")  # ASSUMPTION: names of the six colours
# ASSUMPTION: player i in seating order plays the set NUMBER_CARD_COLOURS[i] (the page shows
# who has which), and a number card's BACK is printed in its set's colour, so a face-down
# pile shows whose it is. The book says only "30 number cards (1, 2, 4, 8, 16 in six colors)";
# with plain backs the camera would have to tell piles apart by where they lie instead.

# ASSUMPTION: spheres printed on each of the 30 Quarx cards. The art is unpublished; these
# spread from 1 to 9 so that 2-player rounds (4 cards) stay under 31 and 6-player rounds
# (6 cards) sometimes pass it. Only the seeded random reveal uses them: a person or the
# camera can enter any count.
SPHERES_ON_CARDS = (
    1, 2, 2, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 5,
    6, 6, 6, 6, 7, 7, 7, 8, 8, 8, 9, 9, 9, 2, 6,
)
assert len(SPHERES_ON_CARDS) == QUARX_CARDS

# ASSUMPTION: the most spheres one card can show; larger entries are taken for typing errors.
MAX_SPHERES_PER_CARD = 40

# The points of the fastest correct players by player count (rulebook, "Scoring").
AWARDS_BY_PLAYERS = {2: (2,), 3: (2, 1), 4: (2, 1), 5: (2, 1), 6: (3, 2, 1)}

# "In a 2 or 3 player game, each player turns over the top 2 cards."
def cards_per_player(players: int) -> int:
    """Quarx cards each player turns over per round."""
    return 2 if players <= 3 else 1
