"""The camera on a real game night, with the demo footage as the camera: the page says what the
camera waits for, Quarx's count per card appears large (unsure cards outlined with a reason), the
last camera move can be taken back with one click, and speech is off until switched on."""
from __future__ import annotations

from playwright.sync_api import expect

from tests.browser.game_night import axe_violations, screenshot

WAIT = 180_000  # generous: a loaded machine reads the footage slowly; this limits nothing


def test_quarx_glance_waiting_words_and_undo_of_a_camera_move(page, server_factory, tmp_path):
    srv = server_factory(tmp_path / "events.sqlite", source="demo").start()
    try:
        page.goto(srv.url + "/")
        # The demo's own table: its clip plays in lockstep with the camera, so a loaded machine
        # reads every frame late rather than skipping the few seconds a reveal lies still.
        page.get_by_role("button", name="Watch the demo: Quarx").click()
        page.wait_for_url("**/table/*")
        expect(page.locator("#speak")).not_to_be_checked()  # the browser's speech is off by default
        expect(page.locator("#camera-waiting")).to_contain_text("The camera waits for: turn over 4 Quarx cards")
        # Speech: the browser's own, once switched on; here its voice is replaced by a list to read back.
        page.evaluate("() => { window.__spoken = []; speechSynthesis.speak = (u) => window.__spoken.push(u.text); }")
        page.check("#speak")
        page.check("#watch")
        # The looping Quarx clip: cards settle, the count shows per card, large, before the camera plays.
        glance = page.locator(".quarx-glance-card")
        expect(glance.first).to_be_visible(timeout=WAIT)
        # (each live update redraws the view: ask the document, not an element that may just have gone)
        seen = page.wait_for_function("""() => {
            const cards = [...document.querySelectorAll('.quarx-glance-card:not(.hidden-count)')];
            return cards.length && {size: parseFloat(getComputedStyle(cards[0].querySelector('.n')).fontSize),
                                    labels: cards.map(e => e.getAttribute('aria-label'))};
        }""", timeout=WAIT).json_value()
        assert seen["size"] >= 40
        screenshot(page, "table_quarx_glance", full_page=False)
        for label in seen["labels"]:
            assert label.endswith("spheres") or label.startswith("unsure: ") or label.startswith("count hidden"), label
        # The camera reveals the round: the last move says so, with one click to take it back.
        expect(page.locator("#history li.camera").first).to_be_visible(timeout=WAIT)
        expect(page.locator("#last-move")).to_contain_text("(by the camera)")
        camera_moves = page.locator("#history li.camera").all_inner_texts()
        said = page.wait_for_function("() => { const c = window.__spoken.filter(t => t.startsWith('camera: ')); return c.length && c; }",
                                      timeout=WAIT).json_value()
        assert said[0][len("camera: "):] in camera_moves, said
        spoken = page.evaluate("() => window.__spoken")
        # A count is said once, not again on every frame (a hand passing over the cards included).
        assert all(a != b for a, b in zip(spoken, spoken[1:])), spoken
        expect(page.locator("#camera-waiting")).not_to_contain_text("turn over 4 Quarx cards", timeout=WAIT)
        assert axe_violations(page) == []
        screenshot(page, "table_quarx_camera")
        # So the camera does not play on meanwhile: once the switch has answered, no frame read
        # before it plays a move (the clip moves on to the players laying their dots).
        with page.expect_response(lambda r: r.url.endswith("/api/camera/watch") and r.ok):
            page.uncheck("#watch")
        count = page.locator("#history li").count()
        expect(page.locator("#history li.latest.camera")).to_have_count(1)  # nobody else plays at this table
        page.get_by_role("button", name="That's wrong: undo").click()
        expect(page.locator("#history li")).to_have_count(count - 1)
    finally:
        srv.stop()
