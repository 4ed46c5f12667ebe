"""3-D-looking dice (pip dice and Ubongo dice) seen obliquely, drawn with OpenCV."""
from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

PIP_LAYOUT: dict[int, list[tuple[float, float]]] = {
    1: [(0.5, 0.5)],
    2: [(0.25, 0.25), (0.75, 0.75)],
    3: [(0.25, 0.25), (0.5, 0.5), (0.75, 0.75)],
    4: [(0.25, 0.25), (0.75, 0.25), (0.25, 0.75), (0.75, 0.75)],
    5: [(0.25, 0.25), (0.75, 0.25), (0.5, 0.5), (0.25, 0.75), (0.75, 0.75)],
    6: [(0.25, 0.22), (0.25, 0.5), (0.25, 0.78), (0.75, 0.22), (0.75, 0.5), (0.75, 0.78)],
}


@dataclass
class CubePose:
    """Where and how a cube is seen: top-face centre (px), side (px), yaw and tilt (rad)."""

    cx: float
    cy: float
    side: float
    yaw: float
    tilt: float


@dataclass
class Face:
    """One visible face: origin and two edge vectors in screen px, and its lighting."""

    origin: np.ndarray
    ea: np.ndarray
    eb: np.ndarray
    light: float
    is_top: bool

    def to_screen(self, ab: np.ndarray) -> np.ndarray:
        return self.origin + ab[..., :1] * self.ea + ab[..., 1:2] * self.eb

    def polygon(self) -> np.ndarray:
        return self.to_screen(np.array([[0, 0], [1, 0], [1, 1], [0, 1]], np.float32))


def _project(p: np.ndarray, pose: CubePose) -> np.ndarray:
    c, s = np.cos(pose.yaw), np.sin(pose.yaw)
    x = p[:, 0] * c - p[:, 1] * s
    y = p[:, 0] * s + p[:, 1] * c
    z = p[:, 2]
    ct, st = np.cos(pose.tilt), np.sin(pose.tilt)
    # Orthographic camera tilted forward by `tilt` from straight down; far is up on screen.
    u = x
    v = -(y * ct + z * st)
    top_v = -(1.0 * st)
    return np.stack([u * pose.side + pose.cx, (v - top_v) * pose.side + pose.cy], 1)


def visible_faces(pose: CubePose, light_dir: np.ndarray) -> list[Face]:
    """Visible faces, top last, with Lambert lighting factors."""
    faces: list[Face] = []
    # (origin, a-edge end, b-edge end, normal) in unit cube coords centred on x,y.
    specs = [
        ((-0.5, -0.5, 0), (0.5, -0.5, 0), (-0.5, -0.5, 1), (0, -1, 0)),
        ((0.5, -0.5, 0), (0.5, 0.5, 0), (0.5, -0.5, 1), (1, 0, 0)),
        ((0.5, 0.5, 0), (-0.5, 0.5, 0), (0.5, 0.5, 1), (0, 1, 0)),
        ((-0.5, 0.5, 0), (-0.5, -0.5, 0), (-0.5, 0.5, 1), (-1, 0, 0)),
    ]
    c, s = np.cos(pose.yaw), np.sin(pose.yaw)
    for o, a, b, n in specs:
        ny = n[0] * s + n[1] * c
        nx = n[0] * c - n[1] * s
        if ny * np.sin(pose.tilt) >= -1e-3:  # facing away from the camera
            continue
        pts = _project(np.array([o, a, b], np.float32), pose)
        lam = max(0.0, float(np.dot([nx, ny, 0.0], light_dir)))
        faces.append(Face(pts[0], pts[1] - pts[0], pts[2] - pts[0], lam, False))
    top = _project(np.array([(-0.5, -0.5, 1), (0.5, -0.5, 1), (-0.5, 0.5, 1)], np.float32), pose)
    faces.append(Face(top[0], top[1] - top[0], top[2] - top[0],
                      max(0.0, float(light_dir[2])), True))
    return faces


def outline(pose: CubePose) -> np.ndarray:
    """Convex hull of the whole projected cube (its silhouette)."""
    pts = np.array([(x, y, z) for x in (-0.5, 0.5) for y in (-0.5, 0.5) for z in (0, 1)],
                   np.float32)
    return cv2.convexHull(_project(pts, pose).astype(np.float32)).reshape(-1, 2)


def _fill_rounded(img: np.ndarray, poly: np.ndarray, colour, radius: float, sh: int = 2) -> None:
    centre = poly.mean(0)
    inner = centre + (poly - centre) * max(0.0, 1.0 - 2.0 * radius / max(
        np.linalg.norm(poly[0] - poly[2]), 1.0))
    pts = np.round(inner * (1 << sh)).astype(np.int32)
    cv2.fillPoly(img, [pts], colour, cv2.LINE_AA, sh)
    th = max(1, int(round(radius * 2)))
    cv2.polylines(img, [np.round(inner).astype(np.int32)], True, colour, th, cv2.LINE_AA)


def _shade(colour: np.ndarray, light: float, ambient: float) -> tuple[float, ...]:
    return tuple(float(v) for v in np.clip(colour * (ambient + (1 - ambient) * light), 0, 255))


def draw_ellipse_on_face(img: np.ndarray, face: Face, centre: tuple[float, float],
                         radius: float, colour) -> None:
    """A circle of the face plane, drawn as the ellipse it projects to."""
    t = np.linspace(0, 2 * np.pi, 20, endpoint=False)
    ab = np.stack([centre[0] + radius * np.cos(t), centre[1] + radius * np.sin(t)], 1)
    pts = face.to_screen(ab.astype(np.float32))
    cv2.fillPoly(img, [np.round(pts * 4).astype(np.int32)], colour, cv2.LINE_AA, 2)


def side_values(rng: np.random.Generator, top: int) -> list[int]:
    """Plausible values for side faces: never the top value nor its opposite."""
    opts = [v for v in range(1, 7) if v not in (top, 7 - top)]
    return [int(rng.choice(opts)) for _ in range(4)]


def draw_pips(img: np.ndarray, face: Face, value: int, pip_colour, pip_r: float,
              swap: bool) -> None:
    for a, b in PIP_LAYOUT[value]:
        if swap:
            a, b = b, a
        draw_ellipse_on_face(img, face, (a, b), pip_r, pip_colour)


def draw_cube(img: np.ndarray, pose: CubePose, body: np.ndarray, light_dir: np.ndarray,
              ambient: float, decorate, alpha: float = 1.0, marble: np.ndarray | None = None,
              rng: np.random.Generator | None = None) -> np.ndarray:
    """Draw a cube; decorate(img, face, index) paints each face. Returns the top polygon."""
    faces = visible_faces(pose, light_dir)
    hull = outline(pose)
    x0, y0 = np.floor(hull.min(0)).astype(int) - 3
    x1, y1 = np.ceil(hull.max(0)).astype(int) + 3
    h, w = img.shape[:2]
    x0, y0, x1, y1 = max(0, x0), max(0, y0), min(w, x1), min(h, y1)
    if x1 <= x0 or y1 <= y0:
        return faces[-1].polygon()
    roi = img[y0:y1, x0:x1]
    layer = roi.copy()
    off = np.array([x0, y0], np.float32)
    rr = pose.side * 0.08
    for f in faces:
        f.origin = f.origin - off
    for i, f in enumerate(faces):
        col = _shade(body, f.light, ambient)
        _fill_rounded(layer, f.polygon(), col, rr)
    if marble is not None and rng is not None:
        mask = np.zeros(layer.shape[:2], np.uint8)
        cv2.fillPoly(mask, [np.round(hull - off).astype(np.int32)], 255)
        tex = cv2.resize(rng.uniform(-1, 1, (4, 4)).astype(np.float32), (x1 - x0, y1 - y0),
                         interpolation=cv2.INTER_CUBIC)
        tex = np.clip((np.sin(tex * 6) + 1) / 2, 0, 1)[..., None] * 0.6
        m = (mask > 0)[..., None]
        layer[:] = np.where(m, np.clip(layer * (1 - tex) + marble * tex, 0, 255), layer)
    if alpha < 1.0:
        roi[:] = np.clip(roi * (1 - alpha) + layer.astype(np.float32) * alpha, 0, 255)
    else:
        roi[:] = layer
    for i, f in enumerate(faces):
        decorate(roi, f, i)
    for f in faces:
        f.origin = f.origin + off
    return faces[-1].polygon()
