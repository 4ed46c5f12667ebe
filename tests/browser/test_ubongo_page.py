"""The Ubongo page in headless Chromium: grab dice by clicking, place shapes (with rotate), ask the hint.

Also the Ubongo helper endpoints over HTTP (this folder has the real server fixture)."""
from __future__ import annotations

import json
import urllib.error
import urllib.parse
import urllib.request

from playwright.sync_api import expect


def post(url: str, body: dict) -> dict:
    req = urllib.request.Request(url, json.dumps(body).encode(), {"Content-Type": "application/json"})
    return json.loads(urllib.request.urlopen(req).read())


def get(url: str, **params) -> dict:
    return json.loads(urllib.request.urlopen(f"{url}?{urllib.parse.urlencode(params)}").read())


def new_table(server_url: str) -> str:
    table = post(f"{server_url}/api/tables", {"game": "ubongo", "players": ["Ann", "Bob"], "seed": 4})
    post(f"{server_url}/api/tables/{table['id']}/moves", {"move": "roll black I4 P5 white I1 L3"})
    return table["id"]


def test_ubongo_endpoints(server_url):
    tid = new_table(server_url)
    base = f"{server_url}/api/tables/{tid}/ubongo"
    hint = get(f"{base}/hint", player="Ann")
    assert {(h["black"], h["white"]) for h in hint["hints"]} == {("I4", "I1"), ("I4", "L3"), ("P5", "I1"), ("P5", "L3")}
    assert hint["fill"] == {"can_fill": True, "min_rounds": 2, "cells_left": 14}
    fits = get(f"{base}/placements", player="Ann", shape="i4")
    assert fits["shape"] == "I4" and ["r2c1", "r2c2", "r2c3", "r2c4"] in fits["placements"]
    try:
        get(f"{base}/hint", player="Zed")
        raise AssertionError("a stranger got a hint")
    except urllib.error.HTTPError as exc:
        assert exc.code == 409 and "does not play" in json.loads(exc.read())["detail"]["reason"]


def test_play_an_ubongo_round_by_clicking(page, server_url):
    tid = new_table(server_url)
    page.goto(f"{server_url}/table/{tid}")
    expect(page.locator("#conn")).to_have_text("live")
    expect(page.locator(".ubongo-status")).to_contain_text("Puzzle area 1 of 6 · round 1")
    expect(page.locator('.ubongo-board[data-player="Ann"] .cell')).to_have_count(14)

    # Ann grabs by clicking one black and one white die.
    page.click('.ubongo-die.black[data-face="P5"]')
    page.click('.ubongo-die.white[data-face="L3"]')
    expect(page.locator(".ubongo-take")).to_have_text("Ann takes black P5 white L3")
    page.click(".ubongo-take")
    expect(page.locator("#history li")).to_have_count(2)
    post(f"{server_url}/api/tables/{tid}/moves", {"move": "Bob takes black I4 white I1"})
    expect(page.locator("#history li")).to_have_count(3)

    # Ann places P5 as drawn, then L3 turned a quarter, by clicking cells of her area.
    page.click('.ubongo-players button[data-player="Ann"]')
    page.click('.ubongo-shapes button[data-shape="P5"]')
    page.click('.ubongo-board[data-player="Ann"] [data-cell="r1c2"]')
    expect(page.locator("#history li").last).to_have_text("Ann enters P5 at r1c2 r1c3 r2c2 r2c3 r3c2")
    page.click('.ubongo-shapes button[data-shape="L3"]')
    page.click(".ubongo-rotate")
    page.click('.ubongo-board[data-player="Ann"] [data-cell="r3c3"]')
    expect(page.locator("#history li").last).to_have_text("Ann enters L3 at r3c3 r3c4 r4c3")
    expect(page.locator('.ubongo-board[data-player="Ann"] .cell.filled')).to_have_count(8)

    # Bob asks for the hint on his own dice, then stops; the round is scored and round 2 begins.
    page.click('.ubongo-players button[data-player="Bob"]')
    page.click(".ubongo-hint-button")
    expect(page.locator(".ubongo-hint li")).to_have_count(1)
    expect(page.locator(".ubongo-hint li")).to_contain_text("I4 + I1")
    page.click(".ubongo-done")
    expect(page.locator(".ubongo-status")).to_contain_text("round 2")
    expect(page.locator(".ubongo-board .cell.filled")).to_have_count(8)

    # Round 2: the roll is entered die by die; the mirror button flips the shape before placing.
    page.select_option('.ubongo-roll select[data-colour="black"][data-die="1"]', "L4")
    page.select_option('.ubongo-roll select[data-colour="black"][data-die="2"]', "L4")
    page.select_option('.ubongo-roll select[data-colour="white"][data-die="1"]', "I1")
    page.select_option('.ubongo-roll select[data-colour="white"][data-die="2"]', "I1")
    page.click(".ubongo-roll-enter")
    expect(page.locator("#history li").last).to_have_text("roll black L4 L4 white I1 I1")
    post(f"{server_url}/api/tables/{tid}/moves", {"move": "Ann takes black L4 white I1"})
    post(f"{server_url}/api/tables/{tid}/moves", {"move": "Bob takes black L4 white I1"})
    page.click('.ubongo-players button[data-player="Bob"]')
    page.click('.ubongo-shapes button[data-shape="L4"]')
    page.click(".ubongo-mirror")
    page.click('.ubongo-board[data-player="Bob"] [data-cell="r1c4"]')
    expect(page.locator("#history li").last).to_have_text("Bob enters L4 at r1c4 r2c2 r2c3 r2c4")


def test_game_over_shows_final_ranks(page, server_url):
    one_cell = {"sheet": ["#"] * 6, "black_dice": [["I2"] * 6] * 4, "white_dice": [["I1"] * 6] * 4}
    table = post(f"{server_url}/api/tables", {"game": "ubongo", "players": ["Ann", "Bob"], "seed": 1, "options": one_cell})
    moves = f"{server_url}/api/tables/{table['id']}/moves"
    page.goto(f"{server_url}/table/{table['id']}")
    expect(page.locator("#conn")).to_have_text("live")
    for area in range(6):
        for text in ("roll black I2 I2 white I1 I1", "Ann takes black I2 white I1", "Bob takes black I2 white I1"):
            post(moves, {"move": text})
        post(moves, {"move": "Ann enters I1 at r1c1" if area % 2 == 0 or area == 5 else "Bob enters I1 at r1c1"})
        post(moves, {"move": "Bob done" if area % 2 == 0 or area == 5 else "Ann done"})
    expect(page.locator(".ubongo-final")).to_have_text("Final: 1. Ann (10), 2. Bob (8)")
