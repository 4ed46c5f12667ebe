"""The page in headless Chromium: "Suggest a move" on a Diceline table (off until clicked)."""
from __future__ import annotations

import json
import random
import urllib.request

from playwright.sync_api import expect


def call(url: str, body: dict | None = None) -> dict:
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(url, data, {"Content-Type": "application/json"})
    return json.loads(urllib.request.urlopen(req).read())


def test_suggest_a_move_ranks_the_legal_moves_and_plays_one(page, server_url):
    snap = call(f"{server_url}/api/tables", {"game": "diceline", "players": ["Ann", "Bo", "Cy", "Di"], "seed": 3})
    tid = snap["id"]
    rng = random.Random(3)
    # Round 5, phase 2: short rollouts, so the advisor answers quickly even on a busy machine.
    while not (snap["view"]["phase"] == "actions" and snap["view"]["round"] == 5 and not snap["chance"]
               and len(snap["legal_moves"]) >= 3):
        move = "random" if snap["chance"] else rng.choice(snap["legal_moves"])
        snap = call(f"{server_url}/api/tables/{tid}/moves", {"move": move})
    moves_played = len(snap["history"])

    page.goto(f"{server_url}/table/{tid}")
    button = page.locator(".dl-suggest")
    expect(button).to_have_text(f"Suggest a move for {snap['to_move'][0]}")
    expect(page.locator(".dl-ranking")).to_have_count(0)  # never shown by itself

    button.click()
    expect(page.locator(".dl-why")).to_contain_text("Suggested: ", timeout=60_000)
    items = page.locator(".dl-ranking li")
    expect(items).to_have_count(len(snap["legal_moves"]))
    shown = sorted(items.nth(i).locator("button").inner_text() for i in range(items.count()))
    assert shown == sorted(snap["legal_moves"])

    top = items.nth(0).locator("button")
    top_text = top.inner_text()
    top.click()
    expect(page.locator("#history li")).to_have_count(moves_played + 1)
    expect(page.locator("#history li").last).to_have_text(top_text)
    expect(page.locator(".dl-ranking")).to_have_count(0)  # the advice was for the position before
