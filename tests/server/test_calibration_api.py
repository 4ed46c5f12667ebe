"""Calibration through the API: four clicks saved per camera, markers found in the picture, bad input refused."""
from __future__ import annotations

import cv2
import numpy as np
from fastapi.testclient import TestClient

from vision.calibration import marker_sheet
from tests.server.camera_app import make_app, wait_for_picture


def test_clicked_corners_are_saved_and_survive_a_restart(tmp_path):
    frame = np.full((480, 640, 3), 120, np.uint8)
    with TestClient(base_url="http://127.0.0.1", app=make_app(tmp_path, frame)) as client:
        assert client.get("/api/camera/calibration").json() == {"calibration": None}
        r = client.post("/api/camera/calibration", json={"corners": [[540, 400], [100, 80], [60, 380], [500, 90]]})
        assert r.status_code == 200 and r.json()["calibration"]["corners"][0] == [100.0, 80.0]
    with TestClient(base_url="http://127.0.0.1", app=make_app(tmp_path, frame)) as client:
        assert client.get("/api/camera/calibration").json()["calibration"]["corners"][0] == [100.0, 80.0]


def test_bad_calibrations_get_a_400_with_a_reason(tmp_path):
    with TestClient(base_url="http://127.0.0.1", app=make_app(tmp_path, np.full((480, 640, 3), 120, np.uint8))) as client:
        r = client.post("/api/camera/calibration", json={"corners": [[0, 0], [1, 1], [2, 2], [3, 3]]})
        assert r.status_code == 400 and "area" in r.json()["detail"]["reason"]
        wait_for_picture(client)
        r = client.post("/api/camera/calibration", json={"markers": True})
        assert r.status_code == 400 and "not seen" in r.json()["detail"]["reason"]
        assert client.post("/api/camera/calibration", json={}).status_code == 400


def test_markers_in_the_picture_calibrate(tmp_path):
    page = cv2.resize(marker_sheet(), (300, 424))
    frame = np.full((480, 640, 3), 200, np.uint8)
    frame[28:452, 170:470] = cv2.cvtColor(page, cv2.COLOR_GRAY2BGR)
    with TestClient(base_url="http://127.0.0.1", app=make_app(tmp_path, frame)) as client:
        wait_for_picture(client)
        r = client.post("/api/camera/calibration", json={"markers": True})
        assert r.status_code == 200, r.text
        tl = r.json()["calibration"]["corners"][0]
        assert abs(tl[0] - (170 + 60 * 300 / 1240)) < 3 and abs(tl[1] - (28 + 60 * 424 / 1754)) < 3
