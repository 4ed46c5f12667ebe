"""Named colours for dice bodies, pips, cards and spheres (BGR)."""
from __future__ import annotations

# Body colour names are also the colour names the detector reports, so a renderer label
# can be checked against vision.detector.color.die_color.
DIE_BODIES: dict[str, list[tuple[int, int, int]]] = {
    "white": [(235, 240, 242), (215, 232, 238), (200, 220, 230), (245, 245, 245)],
    "black": [(25, 25, 25), (40, 38, 35), (15, 15, 20)],
    "grey": [(130, 130, 130), (150, 150, 145), (105, 108, 110)],
    "red": [(30, 30, 200), (40, 40, 170), (20, 20, 150), (50, 40, 225)],
    "green": [(40, 150, 40), (60, 120, 30), (90, 170, 60), (50, 110, 20)],
    "blue": [(190, 90, 30), (160, 60, 20), (230, 140, 60)],
    "yellow": [(40, 210, 235), (60, 220, 240), (20, 190, 220)],
    "orange": [(30, 120, 240), (20, 100, 220)],
    "purple": [(140, 40, 110), (160, 60, 140)],
    "pink": [(170, 120, 240), (190, 150, 250)],
}
# Relative frequency of body colours: the games use white/black/red/green/grey most.
DIE_BODY_WEIGHTS: dict[str, float] = {
    "white": 3.0, "black": 1.2, "grey": 1.0, "red": 1.3, "green": 1.3,
    "blue": 0.7, "yellow": 0.6, "orange": 0.5, "purple": 0.5, "pink": 0.4,
}
PIP_BLACK = (20, 20, 20)
PIP_WHITE = (240, 240, 240)
PIP_RED = (30, 30, 200)
PIP_GOLD = (40, 170, 210)

# Player colours of the number cards (six colours).
CARD_COLOURS: dict[str, tuple[int, int, int]] = {
    "red": (40, 40, 200), "blue": (180, 90, 30), "green": (60, 150, 40),
    "yellow": (40, 200, 230), "purple": (140, 50, 120), "orange": (30, 130, 240),
}
# Saturated sphere/shape colours on Quarx cards.
SHAPE_COLOURS: list[tuple[int, int, int]] = [
    (40, 40, 220), (200, 80, 30), (50, 170, 50), (30, 200, 230), (160, 50, 150),
    (30, 130, 240), (200, 160, 40), (120, 60, 200), (90, 200, 140), (60, 90, 160),
]
