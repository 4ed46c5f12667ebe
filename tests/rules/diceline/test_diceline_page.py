"""The Diceline board view in real headless Chromium: boards, breakdowns, and clicks that play moves."""
from __future__ import annotations

import json
import urllib.request

import pytest

pytestmark = pytest.mark.browser


def post(url: str, body: dict) -> dict:
    req = urllib.request.Request(url, json.dumps(body).encode(), {"Content-Type": "application/json"})
    return json.loads(urllib.request.urlopen(req).read())


@pytest.fixture
def dl_page(page):
    page.set_viewport_size({"width": 1400, "height": 1000})
    return page


def test_board_view_shows_boards_scores_and_plays_clicks(dl_page, server_url):
    from playwright.sync_api import expect

    snap = post(f"{server_url}/api/tables", {"game": "diceline", "players": ["Ann", "Bo", "Cy"], "seed": 5})
    tid = snap["id"]
    while snap["view"]["phase"] != "actions":
        move = "random" if snap["chance"] else snap["legal_moves"][0]
        snap = post(f"{server_url}/api/tables/{tid}/moves", {"move": move})
    page = dl_page
    page.goto(f"{server_url}/table/{tid}")
    expect(page.locator(".dl-player")).to_have_count(3)
    expect(page.locator(".dl-player.to-move")).to_have_count(1)
    expect(page.locator(".dl-player").first).to_contain_text("if the game ended now")
    history = len(snap["history"])
    # the starting tile in the centre of the player to move is face up: clicking it uses it
    centre = page.locator(".dl-player.to-move .dl-cell.clickable").first
    expect(centre).to_have_attribute("title", snap_use := next(m for m in snap["legal_moves"] if m.startswith("use ")))
    centre.click()
    expect(page.locator("#history li")).to_have_count(history + 1)
    expect(page.locator("#history li").last).to_have_text(snap_use)
    expect(page.locator(".dl-player.to-move .dl-cell.down")).to_have_count(1)


@pytest.mark.slow
def test_a_whole_game_by_clicking(dl_page, server_url):
    """Create a table on the page, then click legal moves (and 'Draw at random') until the winners show."""
    import random

    from playwright.sync_api import expect

    page = dl_page
    page.goto(server_url + "/")
    page.select_option("#game", "diceline")
    page.fill("#players", "Ann, Bo, Cy")
    page.fill("#seed", "4")
    page.click("#create")
    page.wait_for_url("**/table/*")
    expect(page.locator("#conn")).to_have_text("live")
    rng = random.Random(4)
    for n in range(1, 2000):
        if page.locator("#status").text_content().startswith("Game over"):
            break
        if page.locator("#chance-box").is_visible():
            page.click("#chance-random")
        else:
            buttons = page.locator("#legal-moves button")
            buttons.nth(rng.randrange(buttons.count())).click()
        expect(page.locator("#history li")).to_have_count(n)
    expect(page.locator("#status")).to_contain_text("Game over")
    expect(page.locator(".dl-player").first).to_contain_text("if the game ended now")
