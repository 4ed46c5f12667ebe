"""Hands-free in the page: the bundled demo footage plays, the camera reveals a Quarx round by itself."""
from __future__ import annotations

import re

from playwright.sync_api import expect

DEMO_TOTALS = {21, 7, 14, 18}  # the four rounds rendered into datasets/demo/quarx_rounds.mp4


def test_camera_reveals_a_round_on_the_page_by_itself(page, server_factory, tmp_path):
    srv = server_factory(tmp_path / "events.sqlite", source="demo").start()
    try:
        page.goto(srv.url + "/")
        page.select_option("#game", "quarx")
        page.fill("#players", "Ann, Ben")
        page.click("#create")
        page.wait_for_url("**/table/*")
        expect(page.locator("#camera-status")).to_contain_text("demo:demo: live")
        page.check("#watch")
        expect(page.locator("#camera-note")).to_contain_text("camera:")
        # Nobody types the reveal: the camera sees the cards and plays it.
        camera_move = page.locator("#history li.camera")
        expect(camera_move).to_have_count(1, timeout=60_000)
        expect(page.locator("#status")).to_contain_text("To move: Ann, Ben")
        page.fill("#move-filter", "passes")
        page.get_by_role("button", name="Ann passes", exact=True).click()
        page.get_by_role("button", name="Ben passes", exact=True).click()
        verdict = page.locator(".quarx-last")
        expect(verdict).to_contain_text("spheres")
        total = int(re.search(r"(\d+) spheres", verdict.inner_text()).group(1))
        assert total in DEMO_TOTALS
    finally:
        srv.stop()
