"""Issue 17: a table with an edge camera worker. The page that created the table shows the worker's
command (with the camera token); the worker's state and picture appear in the camera panel as a
local camera's would; another page of the same table is never shown the token."""
from __future__ import annotations

import json
import urllib.request

import cv2
import numpy as np
from playwright.sync_api import expect

from server.edge_worker import CameraWorker, ServerLink
from vision.games.readers import READERS

WAIT = 60_000


def test_the_worker_command_is_for_the_creator_and_its_state_shows(page, browser, server_process):
    url = server_process.url
    page.goto(url + "/")
    page.fill("#players", "Ann, Ben")
    page.select_option("#game", "quarx")
    page.click("#new-table button[type=submit]")
    page.wait_for_url("**/table/*")
    tid = page.url.rsplit("/", 1)[1]
    page.get_by_role("button", name="A camera at this table: show the command").click()
    command = page.locator("#worker-link code")
    expect(command).to_contain_text(f"--table {tid}", timeout=WAIT)
    token = command.inner_text().split("=", 1)[1].split()[0]

    other = browser.new_context().new_page()  # a player's phone: no creator token, no button, no token
    other.goto(f"{url}/table/{tid}")
    expect(other.locator("#camera-note")).to_have_text("", timeout=WAIT)
    assert other.locator("#show-worker").count() == 0

    worker = CameraWorker(ServerLink(url, tid, token), READERS, picture_every=0.0, source="webcam:0")
    worker.process(np.zeros((480, 640, 3), np.uint8))  # before the server answered: nothing read yet
    assert worker.flush()
    worker.process(np.full((480, 640, 3), 120, np.uint8))
    assert worker.flush()
    for pg in (page, other):
        expect(pg.locator("#camera-note")).to_contain_text("camera worker (webcam:0): watching", timeout=WAIT)
        expect(pg.locator("#camera")).to_have_attribute("src", f"/api/tables/{tid}/camera/stream.mjpg", timeout=WAIT)
    assert token not in other.content()
    with urllib.request.urlopen(f"{url}/api/tables/{tid}/camera/frame.jpg") as r:
        assert cv2.imdecode(np.frombuffer(r.read(), np.uint8), cv2.IMREAD_COLOR).shape == (480, 640, 3)
    assert token not in json.dumps(json.loads(urllib.request.urlopen(f"{url}/api/tables/{tid}").read()))
    other.context.close()
