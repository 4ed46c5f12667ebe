"""Each game's table view is drawn, not written: the Diceline board and dice in SVG, Quarx's cards
with their spheres, Ubongo's areas as grids, Dreams' firmament; scores large; the last move
highlighted; no serious or critical axe-core violation on any page; screenshots for docs/."""
from __future__ import annotations

from playwright.sync_api import expect

from tests.browser.game_night import axe_violations, call, play_table, quarx_policy, screenshot


def open_table(page, server_url: str, tid: str) -> None:
    page.goto(f"{server_url}/table/{tid}")
    expect(page.locator("#conn")).to_have_text("live")
    expect(page.locator("#game-view")).not_to_be_empty()


def test_home_page_passes_axe(page, server_url):
    page.goto(server_url + "/")
    expect(page.locator("#game option")).not_to_have_count(0)
    assert axe_violations(page) == []
    screenshot(page, "home")


def test_diceline_board_is_a_picture_with_dice_drawn(page, server_url):
    tid, match = play_table(server_url, "diceline", ["Ann", "Ben", "Cid"], seed=3,
                            until=lambda m: m.state.round == 2 and m.state.phase == "select")
    open_table(page, server_url, tid)
    board = page.locator("svg.dl-board")
    expect(board).to_be_visible()
    # Dice are drawn as dice, named with their colour and value (colour is never the only cue).
    dice = board.locator("g.die")
    assert dice.count() >= 4
    assert all(name.split()[0] in ("red", "green", "grey") for name in dice.evaluate_all("els => els.map(e => e.getAttribute('aria-label'))"))
    # The order track is a picture of stacks of named tokens, not a line of text.
    expect(board.locator("g.dl-track")).to_have_count(6)
    assert "order track (bottom < top)" not in page.locator("#game-view").inner_text()
    # The scores read from across the room, and the move just made is highlighted.
    size = page.locator("#scores td.points").first.evaluate("e => parseFloat(getComputedStyle(e).fontSize)")
    assert size >= 40
    expect(page.locator("#last-move-text")).to_contain_text(match.moves[-1])
    expect(page.locator("#history li.latest")).to_have_text(match.moves[-1])
    assert axe_violations(page) == []
    screenshot(page, "table_diceline")


def test_a_diceline_row_is_taken_with_the_keyboard(page, server_url):
    tid, match = play_table(server_url, "diceline", ["Ann", "Ben", "Cid"], seed=5, until=lambda m: m.state.phase == "select")
    open_table(page, server_url, tid)
    row = page.locator("svg.dl-board g.dl-sel-row.playable").first
    expect(row).to_be_visible()
    name = row.get_attribute("aria-label")
    row.focus()
    page.keyboard.press("Enter")
    expect(page.locator("#history li.latest")).to_contain_text(name)


def test_quarx_cards_drawn_and_the_end_of_game_chart(page, server_url):
    tid, match = play_table(server_url, "quarx", ["Ann", "Ben"], seed=2,
                            until=lambda m: m.state.phase == "reveal" and len(m.state.rounds) == 2, policy=quarx_policy)
    open_table(page, server_url, tid)
    cards = page.locator("svg.quarx-table g.quarx-card")
    expect(cards).to_have_count(len(match.state.rounds[-1]["revealed"]))
    spheres = page.locator("svg.quarx-table circle.sphere").count()
    assert spheres == min(sum(match.state.rounds[-1]["revealed"]), spheres) and spheres > 0
    assert axe_violations(page) == []
    screenshot(page, "table_quarx")
    # Played to the end: the score-over-time chart and each player's points by round.
    from tests.browser.game_night import Match  # noqa: F401  (the same engines as the server)
    tid2, done = play_table(server_url, "quarx", ["Ann", "Ben"], seed=2, policy=quarx_policy)
    open_table(page, server_url, tid2)
    expect(page.locator("#game-end")).to_be_visible()
    expect(page.locator("#game-end svg.score-chart polyline")).to_have_count(2)
    scores = done.engine.scores(done.state)
    for p, pts in scores.items():
        expect(page.locator(f'#game-end-breakdown tr[data-player="{p}"] td.total')).to_have_text(str(pts))
    assert axe_violations(page) == []
    screenshot(page, "end_of_game")


def test_ubongo_areas_are_grids_and_dice_work_from_the_keyboard(page, server_url):
    tid, match = play_table(server_url, "ubongo", ["Ann", "Ben"], seed=4, moves=1)  # the roll
    open_table(page, server_url, tid)
    expect(page.locator(".ubongo-board .ubongo-grid")).to_have_count(2)
    black = page.locator(".ubongo-die.black[role=button]").first
    white = page.locator(".ubongo-die.white[role=button]").first
    black.focus()
    page.keyboard.press("Enter")
    page.locator(".ubongo-die.white[role=button]").first.focus()
    page.keyboard.press(" ")
    take = page.locator(".ubongo-take")
    expect(take).to_be_enabled()
    take.focus()
    page.keyboard.press("Enter")
    expect(page.locator("#history li.latest")).to_contain_text("takes black")
    assert axe_violations(page) == []
    screenshot(page, "table_ubongo")


def test_dreams_firmament_and_a_star_placed_with_the_keyboard(page, server_url):
    table = call(f"{server_url}/api/tables", {"game": "dreams", "players": ["Ann", "Ben", "Cat"], "seed": 1})
    tid = table["id"]
    page.goto(f"{server_url}/")
    page.evaluate("([t, k]) => localStorage.setItem(`tablesight-creator:${t}`, k)", [tid, table["creator_token"]])
    for _ in range(10):
        snap = call(f"{server_url}/api/tables/{tid}")
        if snap["view"]["phase"] == "stars":
            break
        call(f"{server_url}/api/tables/{tid}/moves", {"move": "random"})
    assert snap["view"]["phase"] == "stars", snap["view"]["phase"]
    open_table(page, server_url, tid)
    sky = page.locator(".dreams-firmament")
    expect(sky).to_be_visible()
    sky.focus()
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowUp")
    page.keyboard.press("Enter")
    expect(page.locator("#history li.latest")).to_contain_text("places")
    expect(page.locator(".dreams-firmament .dreams-star")).to_have_count(1)
    assert axe_violations(page) == []
    screenshot(page, "table_dreams")


def test_everything_on_a_table_page_is_reachable_with_tab(page, server_url):
    tid, _ = play_table(server_url, "quarx", ["Ann", "Ben"], seed=11, moves=0)
    open_table(page, server_url, tid)
    for _ in range(80):  # Tab through the page to the chance button and press it
        page.keyboard.press("Tab")
        if page.evaluate("() => document.activeElement && document.activeElement.id") == "chance-random":
            break
    else:
        raise AssertionError("Tab never reached 'Draw at random'")
    page.keyboard.press("Enter")
    expect(page.locator("#history li")).to_have_count(1)
