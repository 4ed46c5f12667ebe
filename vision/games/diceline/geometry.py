"""Where the Diceline mat is: the table plane from the markers, and the plane of the dice tops.

A die's top face lies DIE mm above the mat, so at 45 degrees it is seen a whole die away from
the cell it stands in. From the mat's homography and a pinhole model (principal point at the
image centre, focal length solved from the homography as in Zhang's calibration) we get the
camera pose, and from it a second homography for the plane of the dice tops: warped through it,
every top face is a DIE x DIE square right over its cell, and side faces fall outside it.
"""
from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.calibration import CORNER_IDS, Calibration, find_markers
from vision.games.diceline.spec import DIE, MARKER, MAT_H, MAT_W

# Marker corners in mat mm, each marker's own TL, TR, BR, BL (the mat prints them upright).
_MARKER_AT = {0: (0.0, 0.0), 1: (MAT_W - MARKER, 0.0), 2: (MAT_W - MARKER, MAT_H - MARKER), 3: (0.0, MAT_H - MARKER)}
_MAT_CORNERS = np.float64([[0, 0], [MAT_W, 0], [MAT_W, MAT_H], [0, MAT_H]])


@dataclass(frozen=True)
class MatPose:
    """Homographies mat mm -> image pixels for the mat and for the plane of the dice tops."""

    table: np.ndarray
    tops: np.ndarray
    camera_foot: np.ndarray  # the point of the mat (mm) under the camera: side faces lean toward it

    def warp(self, frame: np.ndarray, plane: np.ndarray, x: float, y: float, size: float, ppm: float) -> np.ndarray:
        """A size x size mm window centred on (x, y) of `plane`, seen from straight above at `ppm` px/mm."""
        n = int(round(size * ppm))
        to_mm = np.array([[1 / ppm, 0, x - size / 2], [0, 1 / ppm, y - size / 2], [0, 0, 1.0]])
        return cv2.warpPerspective(frame, plane @ to_mm, (n, n), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                                   borderMode=cv2.BORDER_REPLICATE)


def table_homography(frame: np.ndarray, calibration: Calibration | None = None) -> np.ndarray:
    """Mat mm -> image, from the four markers (all 16 of their corners), else from a calibration's corners."""
    found = find_markers(frame)
    seen = [i for i in CORNER_IDS if i in found]
    if len(seen) >= 3:  # 12 corners fix the plane well; one marker under a hand or glare is no loss
        mm, px = [], []
        for i in seen:
            x0, y0 = _MARKER_AT[i]
            mm += [(x0, y0), (x0 + MARKER, y0), (x0 + MARKER, y0 + MARKER), (x0, y0 + MARKER)]
            px += [tuple(p) for p in found[i]]
        hom, _ = cv2.findHomography(np.float64(mm), np.float64(px))
        if hom is not None:
            return hom
    if calibration is None:
        missing = [i for i in CORNER_IDS if i not in found]
        raise ValueError(f"corner marker(s) {missing} not seen and no calibration: the whole mat must be in view")
    return cv2.getPerspectiveTransform(np.float32(_MAT_CORNERS), np.float32(calibration.corners))


def focal_length(hom: np.ndarray, w: int, h: int) -> float:
    """f in pixels from the plane's homography (square pixels, principal point at the centre); a guess when unsure."""
    shift = np.array([[1, 0, -w / 2], [0, 1, -h / 2], [0, 0, 1.0]])
    m = shift @ hom
    m = m / np.linalg.norm(m[:, 0])
    h1, h2 = m[:, 0], m[:, 1]
    # h1' w h2 = 0 and h1' w h1 = h2' w h2 with w = diag(1/f^2, 1/f^2, 1): linear in 1/f^2.
    a = np.array([h1[0] * h2[0] + h1[1] * h2[1], h1[0] ** 2 + h1[1] ** 2 - h2[0] ** 2 - h2[1] ** 2])
    b = -np.array([h1[2] * h2[2], h1[2] ** 2 - h2[2] ** 2])
    denom = float(a @ a)
    guess = 0.85 * w  # a common webcam (about 60 degrees across)
    if denom < 1e-12:
        return guess
    u = float(a @ b) / denom
    if u <= 0:
        return guess
    f = 1.0 / np.sqrt(u)
    # Near straight-down views leave f ill-determined; there it hardly matters, so keep it sane.
    return float(f) if 0.4 * w <= f <= 3.0 * w else guess


def mat_pose(frame: np.ndarray, calibration: Calibration | None = None) -> MatPose:
    """The mat's homographies in this frame (see the module doc)."""
    h, w = frame.shape[:2]
    table = table_homography(frame, calibration)
    f = focal_length(table, w, h)
    K = np.array([[f, 0, w / 2], [0, f, h / 2], [0, 0, 1.0]])
    a = np.linalg.inv(K) @ table
    scale = 2.0 / (np.linalg.norm(a[:, 0]) + np.linalg.norm(a[:, 1]))
    if a[2, 2] * scale < 0:  # the mat lies in front of the camera
        scale = -scale
    r1, r2, t = a[:, 0] * scale, a[:, 1] * scale, a[:, 2] * scale
    u, _, vt = np.linalg.svd(np.column_stack([r1, r2, np.cross(r1, r2)]))
    rot = u @ vt
    r1, r2, r3 = rot[:, 0], rot[:, 1], rot[:, 2]
    tops = K @ np.column_stack([r1, r2, t - DIE * r3])  # r3 points into the table: up is -r3
    centre = -rot.T @ t
    return MatPose(table, tops, centre[:2])


def paper_model(frame: np.ndarray, pose: MatPose, spots, size: float = 6.0, ppm: float = 2.0):
    """The white paper's colour over the mat as a per-channel plane a + b x + c y (mm), from blank spots.

    Dividing by it white-balances warm or cold light and evens out light falling off across the
    table; a window's own lightest pixels will not do where dice crowd it."""
    rows, cols = [], []
    for x, y in spots:
        patch = pose.warp(frame, pose.table, x, y, size, ppm).reshape(-1, 3).astype(np.float32)
        rows.append((1.0, x, y))
        cols.append(patch.mean(0))  # a stray object on a spot is dropped by the refit below
    a, b = np.array(rows), np.array(cols)
    keep = np.ones(len(a), bool)
    for _ in range(2):  # drop spots under a stray object or a shadow, then fit again
        coef, *_ = np.linalg.lstsq(a[keep], b[keep], rcond=None)
        err = np.abs(a @ coef - b).max(1) / np.maximum(b.mean(1), 1.0)
        keep = err < max(0.08, float(np.percentile(err, 70)))
    coef, *_ = np.linalg.lstsq(a[keep], b[keep], rcond=None)
    return lambda x, y: np.maximum(np.array([1.0, x, y]) @ coef, 8.0).astype(np.float32)
