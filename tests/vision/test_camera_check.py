"""The camera check says plainly what to fix, and says 'unsure' where a picture cannot tell."""
from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.camera_check import check_picture, focus_score
from vision.sources import DEMO_DIR


@pytest.fixture(scope="module")
def board() -> np.ndarray:
    """A frame of the bundled Diceline clip: the printed mat with its four corner markers, sharp and lit."""
    cap = cv2.VideoCapture(str(DEMO_DIR / "diceline_round.mp4"))
    cap.set(cv2.CAP_PROP_POS_FRAMES, 74)
    ok, frame = cap.read()
    cap.release()
    assert ok
    return frame


def finding(check, aspect):
    return next(f for f in check.findings if f.aspect == aspect)


def test_a_good_picture_passes_every_aspect(board):
    check = check_picture(board)
    assert check.ok
    assert [f.verdict for f in check.findings] == ["good"] * 4
    assert check.to_json()["ok"] is True


def test_dark_bright_and_glare_say_what_to_do(board):
    dark = check_picture((board * 0.25).astype(np.uint8))
    assert finding(dark, "exposure").say.startswith("too dark: switch on a lamp")
    glare = check_picture(np.clip(board.astype(int) + 90, 0, 255).astype(np.uint8))
    assert finding(glare, "exposure").say.startswith("glare")
    assert not dark.ok and not glare.ok


def test_blur_is_named_and_focus_ignores_an_empty_table(board):
    blurred = check_picture(cv2.GaussianBlur(board, (0, 0), 3))
    assert finding(blurred, "focus").verdict == "fix"
    assert focus_score(board) > focus_score(cv2.GaussianBlur(board, (0, 0), 1.5))
    # A bare table has no edges: focus cannot be judged, and the check says so instead of "blurred".
    bare = np.full((480, 640, 3), 120, np.uint8)
    assert finding(check_picture(bare), "focus").verdict == "unsure"


def test_a_small_picture_asks_for_more_pixels(board):
    small = check_picture(cv2.resize(board, (320, 180)))
    assert finding(small, "resolution").verdict == "fix"
    assert "640x480" in finding(small, "resolution").say


def test_the_side_the_board_is_cut_off_at(board):
    assert finding(check_picture(board[:, 600:]), "framing").say.startswith("the board is cut off at the left")
    assert finding(check_picture(board[:-150]), "framing").say.startswith("the board is cut off at the bottom")
    assert finding(check_picture(board[150:]), "framing").say.startswith("the board is cut off at the top")
    # Blur hides markers too: that is unsure, not a side named at random.
    assert finding(check_picture(cv2.GaussianBlur(board, (0, 0), 3)), "framing").verdict == "unsure"


def test_framing_from_clicked_corners_without_markers():
    frame = np.full((480, 640, 3), 120, np.uint8)
    assert finding(check_picture(frame), "framing").verdict == "unsure"
    inside = [(50, 40), (590, 40), (590, 440), (50, 440)]
    assert finding(check_picture(frame, inside), "framing").verdict == "good"
    right = [(50, 40), (640, 40), (640, 440), (50, 440)]
    assert "cut off at the right" in finding(check_picture(frame, right), "framing").say


def test_not_a_picture_is_refused():
    with pytest.raises(ValueError):
        check_picture(np.zeros((0, 0, 3), np.uint8))
    with pytest.raises(ValueError):
        check_picture(np.zeros((4, 4, 4), np.uint8))
