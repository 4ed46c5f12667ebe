"""The page in real headless Chromium: create a Quarx table, play a round by clicking, see API moves live."""
from __future__ import annotations

import json
import urllib.request

from playwright.sync_api import expect

from rules.core import Match
from rules.registry import engine_for
from rules.quarx.scoring import cards_for


def post(url: str, body: dict) -> dict:
    req = urllib.request.Request(url, json.dumps(body).encode(), {"Content-Type": "application/json"})
    return json.loads(urllib.request.urlopen(req).read())


def answer_text(player: str, total: int) -> str:
    return f"{player} " + "+".join(map(str, cards_for(total)))


def test_play_a_quarx_round_by_clicking_and_see_api_moves_live(page, server_url):
    page.goto(server_url + "/")
    page.select_option("#game", "quarx")
    page.fill("#players", "Ann, Ben")
    page.fill("#seed", "11")
    page.click("#create")
    page.wait_for_url("**/table/*")
    table_id = page.url.rsplit("/", 1)[1]
    expect(page.locator("#conn")).to_have_text("live")
    expect(page.locator("#status")).to_contain_text("Waiting for reveal")

    # The same seed draws the same reveal here as in the server.
    shadow = Match(engine_for("quarx"), ["Ann", "Ben"], seed=11)
    shadow.play("random")
    total = shadow.state.total

    page.click("#chance-random")
    expect(page.locator("#status")).to_contain_text("To move: Ann, Ben")
    page.fill("#move-filter", "Ann")
    page.get_by_role("button", name=answer_text("Ann", total), exact=True).click()
    expect(page.locator("#history li")).to_have_count(2)
    page.fill("#move-filter", "Ben passes")
    page.get_by_role("button", name="Ben passes", exact=True).click()
    ann = page.locator('#scores tr[data-player="Ann"] td.points')
    expect(ann).to_have_text("2")
    expect(page.locator(".quarx-last")).to_contain_text(f"{total} spheres")

    # A move from elsewhere (the API, another tab, the camera) shows up without a reload.
    post(f"{server_url}/api/tables/{table_id}/moves", {"move": "reveal 1 1 1 1"})
    expect(page.locator("#history li")).to_have_count(4)
    post(f"{server_url}/api/tables/{table_id}/moves", {"move": "Ben 4"})
    post(f"{server_url}/api/tables/{table_id}/moves", {"move": "Ann 2"})
    expect(page.locator('#scores tr[data-player="Ben"] td.points')).to_have_text("2")

    # Undo from the page takes the last answer back, and an illegal move is refused in words.
    page.click("#undo")
    expect(page.locator('#scores tr[data-player="Ben"] td.points')).to_have_text("0")
    page.fill("#move-text", "Ben 3")
    page.click("#move-form button[type=submit]")
    expect(page.locator("#error")).to_contain_text("no number card 3")
