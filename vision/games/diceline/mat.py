"""The printable Diceline play mat (vision/games/diceline/spec.py drawn on paper)."""
from __future__ import annotations

import cv2
import numpy as np

from vision.calibration import CORNER_IDS, MARKER_DICT
from vision.games.diceline.spec import BOARD_COLOURS, MARKER, MAT_H, MAT_W, PAPER, mat_layout

MARGIN = 12.0  # mm of white paper around the markers: ArUco needs a light quiet zone
INK = {"red": (60, 60, 190), "green": (60, 150, 60), "grey": (120, 120, 120), "": (150, 130, 110)}


def mat_size(ppm: float) -> tuple[int, int]:
    """(width, height) in pixels of the whole sheet at `ppm` pixels per mm."""
    return round((MAT_W + 2 * MARGIN) * ppm), round((MAT_H + 2 * MARGIN) * ppm)


def to_px(x: float, y: float, ppm: float) -> tuple[int, int]:
    """Mat mm (origin at marker 0's outer corner) to sheet pixels."""
    return round((x + MARGIN) * ppm), round((y + MARGIN) * ppm)


def render_mat(ppm: float = 4.0) -> np.ndarray:
    """The sheet as a BGR image: markers, cell outlines in the space colours, a few labels."""
    w, h = mat_size(ppm)
    img = np.empty((h, w, 3), np.uint8)
    img[:] = PAPER
    dictionary = cv2.aruco.getPredefinedDictionary(MARKER_DICT)
    side = round(MARKER * ppm)
    for mid, (mx, my) in zip(CORNER_IDS, ((0, 0), (MAT_W - MARKER, 0), (MAT_W - MARKER, MAT_H - MARKER), (0, MAT_H - MARKER))):
        x, y = to_px(mx, my, ppm)
        img[y:y + side, x:x + side] = cv2.aruco.generateImageMarker(dictionary, mid, side)[..., None]
    layout = mat_layout()
    line = max(1, round(0.6 * ppm))
    for cell in layout.die_cells() + layout.tile_cells() + layout.layout_cells():
        half = (cell.size - 4.0) / 2  # the outline stays clear of the die or tile lying in it
        # Corner ticks, not closed squares: an outline around a die would join it into one shape.
        tick = half * 0.45
        for sx in (-1, 1):
            for sy in (-1, 1):
                corner = (cell.x + sx * half, cell.y + sy * half)
                for dx, dy in ((-sx * tick, 0), (0, -sy * tick)):
                    cv2.line(img, to_px(*corner, ppm), to_px(corner[0] + dx, corner[1] + dy, ppm), INK[cell.colour],
                             line, cv2.LINE_AA)
    font, scale = cv2.FONT_HERSHEY_SIMPLEX, 0.09 * ppm
    labels = [("SELECTION", layout.selection[0][0], -20), ("ACTIONS", layout.spaces["red 1"], -20),
              ("BONUS DISPLAY", layout.bonus_display[0], -18)]
    labels += [(BOARD_COLOURS[b.seat].upper(), b.dice[2], 24) for b in layout.boards]
    for text, cell, dy in labels:
        cv2.putText(img, text, to_px(cell.x - cell.size / 2, cell.y + dy, ppm), font, scale, (90, 90, 90),
                    max(1, round(0.3 * ppm)), cv2.LINE_AA)
    return img
