"""Map a board seen at an angle to a top-down grid: a homography from four corners.

The corners come from four clicks on the live picture, or from four printed ArUco markers
(ids 0-3 at the board's top-left, top-right, bottom-right and bottom-left; OpenCV >= 4.7 API,
`cv2.aruco.ArucoDetector`: OpenCV 5 removed the old free functions).
"""
from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

MARKER_DICT = cv2.aruco.DICT_4X4_50
CORNER_IDS = (0, 1, 2, 3)  # top-left, top-right, bottom-right, bottom-left


@dataclass(frozen=True)
class Calibration:
    """Image corners of a board (TL, TR, BR, BL) and the top-down size they map to."""

    corners: tuple[tuple[float, float], ...]
    width: int = 600
    height: int = 600

    def __post_init__(self) -> None:
        check_quad(self.corners)

    @property
    def homography(self) -> np.ndarray:
        dst = np.float32([[0, 0], [self.width, 0], [self.width, self.height], [0, self.height]])
        return cv2.getPerspectiveTransform(np.float32(self.corners), dst)

    def warp(self, frame: np.ndarray) -> np.ndarray:
        """The board seen from straight above."""
        return cv2.warpPerspective(frame, self.homography, (self.width, self.height), flags=cv2.INTER_LINEAR)

    def to_board(self, points: np.ndarray) -> np.ndarray:
        """Image points (N, 2) to top-down board points."""
        pts = np.asarray(points, np.float64).reshape(-1, 1, 2)
        return cv2.perspectiveTransform(pts, self.homography).reshape(-1, 2)

    def cell_of(self, point: tuple[float, float], rows: int, cols: int) -> tuple[int, int] | None:
        """(row, col) of the grid cell under an image point; None when it is off the board."""
        x, y = self.to_board(np.array([point]))[0]
        if not (0 <= x < self.width and 0 <= y < self.height):
            return None
        return int(y * rows // self.height), int(x * cols // self.width)

    def moved(self, other: "Calibration", tolerance: float = 6.0) -> bool:
        """True when any corner moved more than `tolerance` pixels (the camera or board moved)."""
        return float(np.abs(np.subtract(self.corners, other.corners)).max()) > tolerance

    def to_json(self) -> dict:
        return {"corners": [list(map(float, c)) for c in self.corners], "width": self.width, "height": self.height}

    @classmethod
    def from_json(cls, data: dict) -> "Calibration":
        return cls(tuple(tuple(map(float, c)) for c in data["corners"]), int(data.get("width", 600)), int(data.get("height", 600)))


def order_corners(points) -> tuple[tuple[float, float], ...]:
    """Four clicked points in any order -> (TL, TR, BR, BL), by angle around their centre."""
    pts = np.asarray(points, np.float64).reshape(-1, 2)
    if pts.shape != (4, 2) or not np.all(np.isfinite(pts)):
        raise ValueError("a board needs exactly four corner points (x, y)")
    centre = pts.mean(0)
    angles = np.arctan2(pts[:, 1] - centre[1], pts[:, 0] - centre[0])
    ring = pts[np.argsort(angles)]  # clockwise on screen (y down), starting top-left-ish
    start = int(np.argmin(ring.sum(1)))  # the top-left corner has the smallest x + y
    ring = np.roll(ring, -start, axis=0)
    return tuple((float(x), float(y)) for x, y in ring)


def check_quad(corners) -> None:
    """Refuse corners that cannot be a board seen by a camera: degenerate or not convex."""
    pts = np.asarray(corners, np.float64)
    if pts.shape != (4, 2):
        raise ValueError("a board needs exactly four corner points (x, y)")
    area = 0.5 * abs(sum(pts[i, 0] * pts[(i + 1) % 4, 1] - pts[(i + 1) % 4, 0] * pts[i, 1] for i in range(4)))
    if area < 400:
        raise ValueError("the four corners enclose almost no area: click the board's corners")
    def turn(i: int) -> float:
        a, b = pts[(i + 1) % 4] - pts[i], pts[(i + 2) % 4] - pts[(i + 1) % 4]
        return float(np.sign(a[0] * b[1] - a[1] * b[0]))

    signs = {turn(i) for i in range(4)}
    if len(signs) != 1:
        raise ValueError("the four corners do not form a convex board outline: click them around the board")


def from_clicks(points, width: int = 600, height: int = 600) -> Calibration:
    """A calibration from four clicks in any order."""
    return Calibration(order_corners(points), width, height)


def find_markers(frame: np.ndarray) -> dict[int, np.ndarray]:
    """Marker id -> its four image corners (the marker's own TL, TR, BR, BL)."""
    gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY) if frame.ndim == 3 else frame
    detector = cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(MARKER_DICT), cv2.aruco.DetectorParameters())
    corners, ids, _ = detector.detectMarkers(gray)
    if ids is None:
        return {}
    return {int(i): c.reshape(4, 2) for i, c in zip(ids.ravel(), corners)}


def from_markers(frame: np.ndarray, width: int = 600, height: int = 600) -> Calibration:
    """A calibration from the four printed corner markers; ValueError naming any missing."""
    found = find_markers(frame)
    missing = [i for i in CORNER_IDS if i not in found]
    if missing:
        raise ValueError(f"corner marker(s) {missing} not seen: the whole sheet must be in view")
    # Each marker's own outer corner is the board's corner (TL marker -> its TL corner, ...).
    corners = tuple(tuple(map(float, found[i][k])) for k, i in enumerate(CORNER_IDS))
    return Calibration(corners, width, height)


def marker_sheet(width: int = 1240, height: int = 1754, marker: int = 220, grid: tuple[int, int] = (3, 3)) -> np.ndarray:
    """A printable page (A4 at 150 dpi): corner markers 0-3 around a board area with a grid."""
    page = np.full((height, width), 255, np.uint8)
    margin = 60
    dictionary = cv2.aruco.getPredefinedDictionary(MARKER_DICT)
    spots = [(margin, margin), (width - margin - marker, margin), (width - margin - marker, height - margin - marker),
             (margin, height - margin - marker)]
    for mid, (x, y) in zip(CORNER_IDS, spots):
        page[y:y + marker, x:x + marker] = cv2.aruco.generateImageMarker(dictionary, mid, marker)
    x0, y0, x1, y1 = margin, margin, width - margin, height - margin
    rows, cols = grid
    for r in range(rows + 1):
        y = int(y0 + (y1 - y0) * r / rows)
        cv2.line(page, (x0 + marker + 10, y) if r in (0, rows) else (x0, y), (x1 - marker - 10, y) if r in (0, rows) else (x1, y), 0, 2)
    for c in range(cols + 1):
        x = int(x0 + (x1 - x0) * c / cols)
        cv2.line(page, (x, y0 + marker + 10) if c in (0, cols) else (x, y0), (x, y1 - marker - 10) if c in (0, cols) else (x, y1), 0, 2)
    return page
