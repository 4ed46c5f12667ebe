"""The camera set-up wizard with the demo footage as the camera: pick a camera from the list (each
with its preview), check the picture in words, calibrate from the printed markers, test a
reading drawn on the picture, save it for that camera; all from the keyboard, and axe-clean."""
from __future__ import annotations

import json
import urllib.request

from playwright.sync_api import expect

from tests.browser.game_night import axe_violations, screenshot

WAIT = 60_000  # a loaded machine reads footage slowly; this waits for the page, it limits nothing


def settings(url: str) -> dict:
    return json.loads(urllib.request.urlopen(url + "/api/camera/settings").read())


def press(page, selector: str, key: str = "Enter") -> None:
    page.locator(selector).focus()
    page.keyboard.press(key)


def test_the_wizard_on_the_demo_footage(page, server_factory, tmp_path):
    srv = server_factory(tmp_path / "events.sqlite", source="demo").start()
    try:
        # First run: the home page offers the wizard.
        page.goto(srv.url + "/")
        expect(page.locator("#first-run")).to_be_visible()
        page.locator("#first-run-link").click()
        page.wait_for_url("**/setup")
        # 1. The cameras that answer: the demo (in use) and each bundled clip, each with a preview.
        sources = page.locator(".source")
        expect(sources.filter(has_text="in use now")).to_have_count(1)
        expect(page.locator('.source[data-source="clip:diceline_round.mp4"]')).to_be_visible()
        preview = page.locator('.source[data-source="clip:diceline_round.mp4"] img')
        preview.scroll_into_view_if_needed()
        page.wait_for_function("img => img.complete && img.naturalWidth > 0", arg=preview.element_handle(), timeout=WAIT)
        # Pick the Diceline clip with the keyboard: focus its radio button, Space, then the button.
        press(page, 'input[value="clip:diceline_round.mp4"]', " ")
        press(page, "#use-source")
        expect(page.locator("#use-status")).to_contain_text("now using clip:diceline_round.mp4", timeout=WAIT)
        expect(page.locator('.source[data-source="clip:diceline_round.mp4"]')).to_contain_text("in use now", timeout=WAIT)
        # 2. The check says each aspect in words, with a mark that is not only a colour.
        press(page, "#check")
        findings = page.locator("#findings li")
        expect(findings).to_have_count(4, timeout=WAIT)
        for text in findings.all_inner_texts():  # a mark and a word, not a colour alone
            assert text.split()[0] in ("✓", "✗", "?") and text.split()[1] in ("good", "fix", "unsure"), text
        expect(page.locator('#findings li[data-aspect="exposure"]')).to_contain_text("Light:")
        # 3. Calibrate from the mat's printed corner markers (a hand may hide one: try a few frames).
        for _ in range(30):
            press(page, "#cal-markers")
            page.wait_for_function("() => document.querySelector('#cal-status').textContent !== ''", timeout=WAIT)
            if page.locator("#cal-status").inner_text().startswith("calibrated:"):
                break
            page.evaluate("() => { document.querySelector('#cal-status').textContent = ''; }")
            page.wait_for_timeout(300)
        expect(page.locator("#cal-status")).to_contain_text("calibrated: corners")
        # 4. A test reading of the table now, drawn on the picture, said in words.
        page.select_option("#test-game", "diceline")
        for _ in range(40):  # the clip starts on a bare mat: read again until the dice are rolled
            press(page, "#test")
            expect(page.locator("#test-picture")).to_be_visible(timeout=WAIT)
            expect(page.locator("#test-said li").first).to_contain_text("selection board", timeout=WAIT)
            if "labelled on the picture" in page.locator("#test-said").inner_text() and not page.locator("#test-said").inner_text().startswith("selection board: 0 rows"):
                break
            page.wait_for_timeout(500)
        assert axe_violations(page) == []
        screenshot(page, "setup_wizard")
        # Saved for this camera.
        press(page, "#save")
        expect(page.locator("#save-status")).to_contain_text("Saved for video:")
        saved = settings(srv.url)
        assert saved["set_up"] and saved["game"] == "diceline" and saved["camera"].endswith("diceline_round.mp4")
        assert [f["aspect"] for f in saved["check"]["findings"]] == ["resolution", "focus", "exposure", "framing"]
        # Back to the demo: set up separately (per camera), so the home page offers the wizard again.
        page.goto(srv.url + "/setup")
        press(page, 'input[value="demo"]', " ")
        press(page, "#use-source")
        expect(page.locator("#use-status")).to_contain_text("now using demo", timeout=WAIT)
        assert settings(srv.url)["set_up"] is False
    finally:
        srv.stop()
