"""Frame sources: newest frame only, lost and frozen cameras reopened with back-off and reported."""
from __future__ import annotations

import time

import cv2
import numpy as np
import pytest

from vision.sources import FolderCapture, FrameSource, PlaceholderDemo, SourceSpec, parse_source


def wait_until(cond, what: str):
    # Readiness polling: generous, because a loaded CI machine is slow; not a speed check.
    for _ in range(2000):
        if cond():
            return
        time.sleep(0.01)
    raise AssertionError(f"never happened: {what}")


class FlakyCamera:
    """Gives `good` frames, then fails; counts how often it was opened."""

    opened = 0

    def __init__(self, good: int = 5):
        FlakyCamera.opened += 1
        self.left = good
        self.i = 0

    def read(self):
        if self.left <= 0:
            return False, None
        self.left -= 1
        self.i += 1
        return True, np.full((4, 4, 3), self.i, np.uint8)

    def release(self):
        pass


def test_lost_camera_is_reopened_and_reported():
    FlakyCamera.opened = 0
    src = FrameSource(SourceSpec("webcam", "0", True), opener=lambda: FlakyCamera(5), max_backoff=0.05).start()
    try:
        wait_until(lambda: FlakyCamera.opened >= 3, "three opens")
        assert src.status()["losses"] >= 2 and "no frame" in src.status()["last_problem"]
        assert src.status()["frames"] >= 10
        seq, frame = src.latest()
        assert seq >= 10 and frame is not None
    finally:
        src.stop()
    assert src.status()["state"] == "stopped"


def test_open_failure_backs_off_and_says_why():
    def broken():
        raise OSError("camera 0 cannot be opened")

    src = FrameSource(SourceSpec("webcam", "0", True), opener=broken, max_backoff=0.05).start()
    try:
        wait_until(lambda: src.status()["reopens"] >= 2, "retries")
        st = src.status()
        assert st["state"] == "reopening" and "cannot be opened" in st["detail"]
    finally:
        src.stop()


class FrozenCamera:
    def read(self):
        return True, np.zeros((32, 32, 3), np.uint8)

    def release(self):
        pass


def test_frozen_camera_counts_as_lost():
    src = FrameSource(SourceSpec("webcam", "0", True), opener=FrozenCamera, frozen_after=0.05, max_backoff=0.05)
    src.start()
    try:
        wait_until(lambda: src.status()["losses"] >= 1, "frozen")
        assert "has not changed" in src.status()["last_problem"]
    finally:
        src.stop()


def test_latest_keeps_only_the_newest_frame():
    src = FrameSource(SourceSpec("demo", "demo", False), opener=PlaceholderDemo, fps=200).start()
    try:
        wait_until(lambda: src.latest()[0] >= 5, "frames")
        seq, _ = src.latest()
        seq2, frame = src.wait_newer(seq)
        assert seq2 > seq and frame.shape == (480, 640, 3)
    finally:
        src.stop()


def test_parse_source(tmp_path):
    assert parse_source("demo").kind == "demo"
    assert parse_source("2") == SourceSpec("webcam", "2", True)
    assert parse_source("auto", probe_webcam=lambda i: False).kind == "demo"
    assert parse_source("auto", probe_webcam=lambda i: True).kind == "webcam"
    cv2.imwrite(str(tmp_path / "a.png"), np.zeros((8, 8, 3), np.uint8))
    assert parse_source(str(tmp_path)).kind == "folder"
    assert parse_source(str(tmp_path / "a.png")).kind == "video"
    with pytest.raises(ValueError, match="not a webcam index"):
        parse_source(str(tmp_path / "missing.mp4"))


def test_folder_source_loops(tmp_path):
    for i in range(3):
        cv2.imwrite(str(tmp_path / f"{i}.png"), np.full((8, 8, 3), i * 50, np.uint8))
    spec = parse_source(str(tmp_path))
    src = FrameSource(spec, fps=500).start()
    try:
        wait_until(lambda: src.status()["frames"] >= 7, "looping")
    finally:
        src.stop()


def test_a_corrupt_image_in_a_folder_is_skipped_and_reported(tmp_path):
    """Issue 12, item 5: the folder went back to image 0 at a bad file, hiding every image after it."""
    for i, name in enumerate(["a.png", "c.png"]):
        cv2.imwrite(str(tmp_path / name), np.full((8, 8, 3), 60 + 100 * i, np.uint8))
    (tmp_path / "b.png").write_bytes(b"\x89PNG\r\n\x1a\n this is not the rest of a PNG")
    cap = FolderCapture(tmp_path)
    seen = [int(cap.read()[1][0, 0, 0]) for _ in range(4)]
    assert seen == [60, 160, 60, 160]
    assert "b.png" in cap.problem

    src = FrameSource(parse_source(str(tmp_path)), fps=500).start()
    try:
        wait_until(lambda: src.status()["frames"] >= 4, "frames past the bad image")
        status = src.status()
        assert status["state"] == "live" and "b.png" in status["last_problem"] and status["losses"] == 0
    finally:
        src.stop()
