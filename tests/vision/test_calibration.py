"""Calibration: four clicks or four printed markers map a board seen at an angle to a top-down grid."""
from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.calibration import Calibration, from_clicks, from_markers, marker_sheet, order_corners


def seen_at_angle(page: np.ndarray, tilt_deg: float, yaw_deg: float = 8) -> tuple[np.ndarray, np.ndarray]:
    """The page photographed obliquely: the frame and the homography page -> frame."""
    h, w = page.shape[:2]
    squash = np.cos(np.radians(tilt_deg))
    s = 380 / h
    src = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    top = 0.75  # the far edge looks narrower
    dst = np.float32([[-w * s * top / 2, -h * s * squash / 2], [w * s * top / 2, -h * s * squash / 2],
                      [w * s / 2, h * s * squash / 2], [-w * s / 2, h * s * squash / 2]])
    rot = cv2.getRotationMatrix2D((0, 0), yaw_deg, 1.0)[:, :2]
    dst = dst @ rot.T + np.float32([320, 240])
    hom = cv2.getPerspectiveTransform(src, np.float32(dst))
    frame = np.full((480, 640, 3), (60, 110, 160), np.uint8)
    warped = cv2.warpPerspective(cv2.cvtColor(page, cv2.COLOR_GRAY2BGR), hom, (640, 480), borderValue=(60, 110, 160))
    mask = cv2.warpPerspective(np.full((h, w), 255, np.uint8), hom, (640, 480))
    frame[mask > 0] = warped[mask > 0]
    return frame, hom


@pytest.mark.parametrize("tilt", [0, 30, 45])
def test_markers_give_the_board_at_angles_up_to_45_degrees(tilt):
    page = marker_sheet()
    frame, hom = seen_at_angle(page, tilt)
    cal = from_markers(frame)
    # The centre of each of the 3x3 cells on the page lands in that cell of the calibrated grid.
    margin = 60
    h, w = page.shape
    for r in range(3):
        for c in range(3):
            px = margin + (w - 2 * margin) * (c + 0.5) / 3
            py = margin + (h - 2 * margin) * (r + 0.5) / 3
            img_pt = cv2.perspectiveTransform(np.float64([[[px, py]]]), hom)[0, 0]
            assert cal.cell_of(tuple(img_pt), 3, 3) == (r, c)


def test_clicks_in_any_order_are_ordered_tl_tr_br_bl():
    corners = [(100, 80), (500, 90), (540, 400), (60, 380)]
    for perm in ([2, 0, 3, 1], [3, 2, 1, 0], [1, 3, 0, 2]):
        assert order_corners([corners[i] for i in perm]) == tuple(map(tuple, np.float64(corners)))
    cal = from_clicks([corners[i] for i in (2, 0, 3, 1)])
    assert cal.cell_of((300, 240), 3, 3) == (1, 1)
    assert cal.cell_of((10, 10), 3, 3) is None


@pytest.mark.parametrize("points,reason", [
    ([(0, 0), (1, 0), (1, 1)], "exactly four"),
    ([(0, 0), (5, 0), (5, 5), (0, 5)], "almost no area"),
    ([(0, 0), (300, 300), (300, 0), (0, 300)], None),  # crossed clicks are re-ordered into a board
])
def test_bad_clicks_are_refused_with_a_reason(points, reason):
    if reason is None:
        assert from_clicks(points).corners[0] == (0.0, 0.0)
        return
    with pytest.raises(ValueError, match=reason):
        from_clicks(points)


def test_missing_markers_are_named():
    page = marker_sheet()
    page[: page.shape[0] // 2, : page.shape[1] // 2] = 255  # cover marker 0
    frame, _ = seen_at_angle(page, 20)
    with pytest.raises(ValueError, match=r"\[0\] not seen"):
        from_markers(frame)


def test_calibration_json_round_trip_and_movement():
    cal = from_clicks([(100, 80), (500, 90), (540, 400), (60, 380)])
    assert Calibration.from_json(cal.to_json()) == cal
    moved = from_clicks([(110, 80), (500, 90), (540, 400), (60, 380)])
    assert cal.moved(moved) and not cal.moved(cal)
