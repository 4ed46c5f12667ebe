"""Dreams in headless Chromium: the shared screen and two players' phone pages, live.

The shared screen hands out the links, deals, and places the stars by clicking the firmament; Ann
and Ben guess on their own pages (Cat guesses through her link's API); the shared screen shows
nothing secret until the last guess, then reveals and scores, live.
"""
from __future__ import annotations

import json
import re
import urllib.request

from playwright.sync_api import expect

from rules.dreams.scoring import awards

PLAYERS = ["Ann", "Ben", "Cat"]
COLOURS = {"Ann": "blue", "Ben": "yellow", "Cat": "green"}
SPOTS = [(0.2, 0.2), (0.5, 0.3), (0.8, 0.2), (0.3, 0.6), (0.5, 0.5), (0.7, 0.6), (0.2, 0.9), (0.5, 0.8), (0.8, 0.9)]



def box_of(locator) -> dict:
    """The element's box; a live update may re-render it just as we ask, so ask again then."""
    for _ in range(50):
        expect(locator).to_be_visible()
        box = locator.bounding_box()
        if box is not None:
            return box
    raise AssertionError("the element never held still")

def call(url: str, body: dict | None = None, token: str | None = None) -> dict:
    headers = {"Content-Type": "application/json"}
    if token:
        headers["X-Player-Token"] = token
    data = None if body is None else json.dumps(body).encode()
    return json.loads(urllib.request.urlopen(urllib.request.Request(url, data, headers)).read())


def show_link(shared, player: str) -> str:
    shared.get_by_role("button", name=f"Show {player}'s link").click()
    url = shared.locator(".dreams-link-url").inner_text()
    assert url and "#" in url
    shared.locator(".dreams-link-hide").click()
    expect(shared.locator(".dreams-link-url")).to_have_count(0)
    return url


def open_phone(shared, url: str):
    phone = shared.context.browser.new_context(viewport={"width": 390, "height": 800}).new_page()
    errors: list[str] = []
    phone.on("pageerror", lambda exc: errors.append(str(exc)))
    phone.goto(url)
    expect(phone.locator("#conn")).to_have_text("live")
    return phone, errors


def marker_of(phone) -> str:
    phone.locator("#marker-toggle").click()
    text = phone.locator("#marker").inner_text()
    phone.locator("#marker-toggle").click()
    expect(phone.locator("#marker")).to_be_hidden()
    if "mortal" in text:
        return "mortal"
    return re.search(r"image (\d)", text).group(1)


def test_players_guess_on_their_own_pages_and_the_shared_screen_reveals_live(page, server_url):
    table = call(f"{server_url}/api/tables", {"game": "dreams", "players": PLAYERS, "seed": 21})
    tid = table["id"]
    shared = page
    shared.goto(f"{server_url}/table/{tid}")
    expect(shared.locator("#conn")).to_have_text("live")
    expect(shared.locator(".dreams-turn")).to_contain_text("lay out four dream cards")

    links = {p: show_link(shared, p) for p in PLAYERS}
    expect(shared.locator(".dreams-link-list")).to_contain_text("Cat has their link")
    ann, ann_errors = open_phone(shared, links["Ann"])
    ben, ben_errors = open_phone(shared, links["Ben"])
    expect(ann.locator("#who")).to_have_text("Ann (blue)")
    cat_token = links["Cat"].split("#", 1)[1]

    # Lay out and deal from the shared screen; the phones learn their marker, the screen nothing.
    shared.locator("#chance-random").click()
    expect(shared.locator(".dreams-card")).to_have_count(4)
    shared.locator("#chance-random").click()
    expect(shared.locator(".dreams-turn")).to_contain_text("Ann places a star")
    expect(shared.locator(".dreams-links")).not_to_contain_text("Show")
    expect(ann.locator("#phase")).to_contain_text("your turn to place a star")
    markers = {"Ann": marker_of(ann), "Ben": marker_of(ben)}
    markers["Cat"] = call(f"{server_url}/api/tables/{tid}/dreams/me", token=cat_token)["view"]["me"]["marker"]
    mortal = next(p for p, m in markers.items() if m == "mortal")
    vision = int(next(m for m in markers.values() if m != "mortal"))

    # Stars: the dealer (Ann) first, from her phone; then to the left, by clicking the shared firmament.
    ann.locator('#star-kinds button[data-kind="black"]').click()
    phone_sky = ann.locator("#phone-sky")
    phone_box = box_of(phone_sky)
    phone_sky.click(position={"x": SPOTS[0][0] * phone_box["width"], "y": SPOTS[0][1] * phone_box["height"]})
    expect(shared.locator('.dreams-firmament .dreams-star[data-player="Ann"][data-kind="black"]')).to_have_count(1)
    expect(ann.locator("#my-star")).to_be_hidden()
    sky = shared.locator(".dreams-firmament")
    box = box_of(sky)
    for i, (x, y) in enumerate(SPOTS[1:], start=1):
        sky.click(position={"x": x * box["width"], "y": y * box["height"]})
        expect(shared.locator(".dreams-firmament .dreams-star")).to_have_count(i + 1)
    expect(shared.locator(".dreams-turn")).to_contain_text("Waiting for Ann, Ben, Cat")

    # Everybody guesses: the mortal the true vision, each God the next player's colour.
    guesses = {}
    for p in PLAYERS:
        if p == mortal:
            guesses[p] = str(vision)
        else:
            guesses[p] = COLOURS[PLAYERS[(PLAYERS.index(p) + 1) % 3]]
    for p, phone in (("Ann", ann), ("Ben", ben)):
        phone.locator(f'#guess-choices button[data-guess="{guesses[p]}"]').click()
        expect(phone.locator("#my-guess")).to_contain_text("Your guess is locked")
        expect(shared.locator(f'.dreams-guessed li[data-player="{p}"]')).to_have_text(f"{p}: guess locked")
    shared_text = shared.locator("#table").inner_text()
    assert "mortal was" not in shared_text and "deal vision" not in shared_text
    assert not [p for p in PLAYERS if f"{p} guesses" in shared_text or f"{p} marker" in shared_text]

    call(f"{server_url}/api/tables/{tid}/dreams/me/moves", {"move": f"Cat guesses {guesses['Cat']}"}, token=cat_token)

    expected = awards([*PLAYERS[PLAYERS.index(mortal):], *PLAYERS[:PLAYERS.index(mortal)]], COLOURS, mortal, vision, guesses)
    expect(shared.locator(".dreams-reveal")).to_contain_text(f"the true vision was image {vision}; the mortal was {mortal}")
    for a in expected:
        expect(shared.locator(f'#scores tr[data-player="{a.player}"] td.points')).to_have_text(str(a.points))
        expect(shared.locator(f'.dreams-awards li[data-player="{a.player}"]')).to_contain_text(f"+{a.points}")
    assert [shared.locator(".dreams-awards li").nth(i).get_attribute("data-player") for i in range(3)] == [a.player for a in expected]
    expect(shared.locator(".dreams-card.vision")).to_have_attribute("data-image", str(vision))
    for p, phone in (("Ann", ann), ("Ben", ben)):
        points = next(a.points for a in expected if a.player == p)
        expect(phone.locator(".dreams-reveal")).to_contain_text(f"the mortal was {mortal}")
        expect(phone.locator(".dreams-my-points")).to_contain_text(f"+{points}")
    assert not ann_errors and not ben_errors


def test_a_wrong_link_shows_nothing(page, server_url):
    tid = call(f"{server_url}/api/tables", {"game": "dreams", "players": PLAYERS, "seed": 3})["id"]
    page.goto(f"{server_url}/dreams/{tid}#{'0' * 64}")
    expect(page.locator("#denied")).to_be_visible()
    expect(page.locator("#me")).to_be_hidden()


def test_the_creating_page_reissues_a_lost_link_and_the_old_one_stops(page, server_url):
    """Issue 12, item 13: dealt before Ben took his link, and Ann lost hers: the page that created
    the table issues both again; Ann's old phone page is closed at once."""
    page.goto(server_url + "/")
    expect(page.locator("#exposure-warning")).to_be_hidden()  # loopback: nothing to warn about
    page.locator("#game").select_option("dreams")
    page.locator("#players").fill(", ".join(PLAYERS))
    page.locator("#seed").fill("21")
    page.locator("#create").click()
    expect(page.locator("#conn")).to_have_text("live")
    old_ann = show_link(page, "Ann")
    ann, ann_errors = open_phone(page, old_ann)
    page.locator("#chance-random").click()
    expect(page.locator(".dreams-card")).to_have_count(4)
    page.locator("#chance-random").click()
    expect(page.locator(".dreams-links")).not_to_contain_text("Show")

    page.get_by_role("button", name="New link for Ben").click()
    ben_url = page.locator(".dreams-link-url").inner_text()
    page.locator(".dreams-link-hide").click()
    ben, ben_errors = open_phone(page, ben_url)
    expect(ben.locator("#who")).to_have_text("Ben (yellow)")

    page.get_by_role("button", name="New link for Ann").click()
    new_ann = page.locator(".dreams-link-url").inner_text()
    page.locator(".dreams-link-hide").click()
    assert new_ann != old_ann
    expect(ann.locator("#denied")).to_be_visible()  # the old link's page, closed live
    ann2, ann2_errors = open_phone(page, new_ann)
    expect(ann2.locator("#who")).to_have_text("Ann (blue)")
    assert not ann_errors + ben_errors + ann2_errors
