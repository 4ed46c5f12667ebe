"""\"Teach it your dice\" in the page, in real headless Chromium: take a photo from the camera,
upload another, correct a die, add one it missed by dragging, remove one, learn, and see the
held-out figures before and after.

The camera is an image folder holding a photo of real dice; the value model is the shipped one
when installed, else the stand-in of tests/value_model_standin.py (the flow, not the accuracy).
"""
from __future__ import annotations

import json
import urllib.request
from pathlib import Path

import cv2
from playwright.sync_api import expect

from tests.value_model_standin import value_model_path

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "datasets" / "samples"
WAIT = 120_000  # generous: a loaded machine runs the detector slowly


def test_take_correct_add_learn_and_see_before_and_after(page, server_factory, tmp_path, monkeypatch):
    monkeypatch.setenv("TABLESIGHT_VALUE_MODEL", str(value_model_path(tmp_path)))
    folder = tmp_path / "camera"
    folder.mkdir()
    cv2.imwrite(str(folder / "f.png"), cv2.imread(str(SAMPLES / "real_valid_45.jpg")))
    srv = server_factory(tmp_path / "events.sqlite", source=str(folder)).start()
    try:
        req = urllib.request.Request(srv.url + "/api/tables", json.dumps({"game": "quarx", "players": ["Ann", "Ben"]}).encode(),
                                     {"Content-Type": "application/json"})
        table = json.loads(urllib.request.urlopen(req).read())["id"]
        page.goto(f"{srv.url}/table/{table}")
        page.get_by_text("Teach it your dice").click()
        expect(page.locator("#teach-count")).to_contain_text("0 photos")

        # A photo from the camera: each die the reader found gets a box and a label.
        page.get_by_role("button", name="Take a photo").click()
        first = page.locator('.teach-photo[data-photo="1"] .teach-die')
        expect(first.first).to_be_visible(timeout=WAIT)
        found = first.count()
        # One photo of a few dice cannot show every value twice: the page says which are short.
        expect(page.locator("#teach-count")).to_contain_text("still short of")
        # And one uploaded.
        page.set_input_files("#teach-file", str(SAMPLES / "real_valid_48.jpg"))
        second = page.locator('.teach-photo[data-photo="2"] .teach-die')
        expect(second.first).to_be_visible(timeout=WAIT)

        # Correct a die: click it, say its value and colour.
        first.first.click()
        page.get_by_label("Value").select_option("5")
        page.get_by_label("Colour").fill("mustard")
        page.get_by_role("button", name="Save").click()
        expect(first.first).to_have_text("mustard 5")
        expect(page.locator("#teach-editor")).to_be_hidden()

        # Add a die the camera missed: drag a box on the photo's empty top-left corner.
        img = page.locator('.teach-frame[data-photo="2"] img').bounding_box()
        page.mouse.move(img["x"] + img["width"] * 0.03, img["y"] + img["height"] * 0.03)
        page.mouse.down()
        page.mouse.move(img["x"] + img["width"] * 0.10, img["y"] + img["height"] * 0.12, steps=4)
        page.mouse.up()
        expect(page.locator("#teach-editor")).to_be_visible()
        page.get_by_label("Value").select_option("2")
        page.get_by_role("button", name="Save").click()
        expect(page.locator('.teach-photo[data-photo="2"] .teach-die.added')).to_have_text("2")

        # Or with the keyboard: "Add a die", arrow keys move the box, Enter places it.
        page.locator('.teach-photo[data-photo="1"] .teach-add').click()
        page.keyboard.press("ArrowUp")
        page.keyboard.press("Shift+ArrowRight")
        page.keyboard.press("Enter")
        page.get_by_label("Value").select_option("6")
        page.get_by_role("button", name="Save").click()
        expect(page.locator('.teach-photo[data-photo="1"] .teach-die.added')).to_have_text("6")
        found += 1

        # Remove a false die, then say the value of every die the camera was unsure of.
        on_second = second.count()
        second.first.click()
        page.get_by_role("button", name="Remove this die").click()
        expect(second).to_have_count(on_second - 1)
        unsure = page.locator(".teach-die.unsure")
        for left in range(unsure.count(), 0, -1):
            unsure.first.click()
            page.get_by_label("Value").select_option("3")
            page.get_by_role("button", name="Save").click()
            expect(unsure).to_have_count(left - 1)
        assert first.count() == found

        # Learn: progress, then the held-out figures before and after, in words.
        page.get_by_role("button", name="Learn").click()
        result = page.locator("#teach-result")
        expect(result).to_contain_text("held out photo by photo:", timeout=WAIT)
        expect(result).to_contain_text(" right before, ")
        expect(result).to_contain_text(" after; ")
        expect(result).to_contain_text("wrong before")
        expect(page.locator("#teach-status")).to_contain_text("learned in")
        expect(page.locator("#teach-progress")).to_have_attribute("value", "1")
        page.screenshot(path=str(tmp_path / "teach.png"), full_page=True)
        text = result.text_content()
        assert "Learned: your profile" in text or "Kept the shipped reader" in text, text
    finally:
        srv.stop()
