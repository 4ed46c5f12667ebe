"""A server whose camera is a folder holding one picture, for the camera API tests."""
from __future__ import annotations

import time

import cv2
import numpy as np

from server.app import create_app
from vision.sources import FrameSource, parse_source


def make_app(tmp_path, image: np.ndarray):
    """An app (no detector) whose camera shows `image` over and over."""
    folder = tmp_path / "frames"
    folder.mkdir(exist_ok=True)
    cv2.imwrite(str(folder / "f.png"), image)
    return create_app(tmp_path / "t.sqlite", source=FrameSource(parse_source(str(folder))), detector=False)


def wait_for_picture(client) -> None:
    """Until the camera has taken its first frame (the camera thread starts with the app)."""
    for _ in range(500):
        if client.get("/api/camera/status").json()["frames"] > 0:
            return
        time.sleep(0.01)
