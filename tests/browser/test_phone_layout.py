"""On a 375 px wide phone: the Dreams player page and the table page fit the width (no sideways
scrolling), stay usable, and pass axe-core."""
from __future__ import annotations

from playwright.sync_api import expect

from tests.browser.game_night import axe_violations, call, play_table, screenshot

PHONE = {"width": 375, "height": 812}


def phone_page(browser):
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda exc: errors.append(str(exc)))
    return context, pg, errors


def fits(pg) -> None:
    width = pg.evaluate("() => document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the page is {width} px wide on a {PHONE['width']} px phone"


def test_table_page_on_a_phone(browser, server_url):
    context, pg, errors = phone_page(browser)
    try:
        for game, players, until in (("diceline", ["Ann", "Ben", "Cid"], lambda m: m.state.round == 1 and m.state.phase == "actions"),
                                     ("quarx", ["Ann", "Ben"], lambda m: len(m.state.rounds) == 1 and m.state.phase == "reveal"),
                                     ("ubongo", ["Ann", "Ben"], lambda m: len(m.moves) == 3)):
            tid, match = play_table(server_url, game, players, seed=3, until=until)
            pg.goto(f"{server_url}/table/{tid}")
            expect(pg.locator("#conn")).to_have_text("live")
            expect(pg.locator("#game-view")).not_to_be_empty()
            expect(pg.locator("#last-move-text")).to_contain_text(match.moves[-1])
            fits(pg)
            assert axe_violations(pg) == [], game
            screenshot(pg, f"phone_table_{game}")
        # Playing from the phone: the move box and the legal move buttons are there and work.
        pg.locator("#legal-moves button").first.click()
        expect(pg.locator("#history li")).to_have_count(len(match.moves) + 1)
        assert not errors, errors
    finally:
        context.close()


def test_dreams_player_page_on_a_phone(browser, server_url):
    table = call(f"{server_url}/api/tables", {"game": "dreams", "players": ["Ann", "Ben", "Cat"], "seed": 5})
    link = call(f"{server_url}/api/tables/{table['id']}/dreams/links/Ann", {})
    context, pg, errors = phone_page(browser)
    try:
        pg.goto(link["url"])
        expect(pg.locator("#conn")).to_have_text("live")
        expect(pg.locator("#who")).to_contain_text("Ann")
        fits(pg)
        assert axe_violations(pg) == []
        # On to the guesses (chance draws and stars from the shared screen's API), where the phone
        # shows the choices to tap.
        tid = table["id"]
        for _ in range(40):
            snap = call(f"{server_url}/api/tables/{tid}")
            if snap["view"]["phase"] == "guess":
                break
            move = "random" if snap["chance"] else snap["legal_moves"][0]
            call(f"{server_url}/api/tables/{tid}/moves", {"move": move})
        assert snap["view"]["phase"] == "guess"
        expect(pg.locator("#guess-choices button").first).to_be_visible()
        fits(pg)
        assert axe_violations(pg) == []
        screenshot(pg, "phone_dreams_player")
        assert not errors, errors
    finally:
        context.close()
