"""The demo on the page: one click on the home page and a Diceline round plays itself.

The camera reads the bundled clip and plays what it sees; the demo types for the players what
no camera can see ('done', 'stop'); the board and the scores change with nobody touching the page.
"""
from __future__ import annotations

import json

from playwright.sync_api import expect

from vision.sources import DEMO_DIR

WAIT = 90_000  # generous: a loaded machine reads the footage slowly (the demo waits for the camera)


def _scoring_move() -> tuple[str, str, int]:
    """(move, player, score after it) of the bundled Diceline clip's first move that changes a score."""
    from rules.core.match import Match
    from rules.registry import ENGINES

    car = json.loads((DEMO_DIR / "diceline_round.json").read_text())
    eng = ENGINES["diceline"]
    match = Match(eng, car["players"], seed=car["seed"], moves=list(car["setup"]))
    for move in car["moves"]:
        before = eng.scores(match.state)
        match.play(move)
        after = eng.scores(match.state)
        changed = [p for p in after if after[p] != before[p]]
        if changed:
            return move, changed[0], after[changed[0]]
    raise AssertionError("the bundled Diceline clip has no scoring move")


def test_watch_the_diceline_demo(page, server_factory, tmp_path):
    move, player, points = _scoring_move()
    srv = server_factory(tmp_path / "events.sqlite", source="demo").start()
    try:
        page.goto(srv.url + "/")
        page.get_by_role("button", name="Watch the demo: Diceline").click()
        page.wait_for_url("**/table/*")
        expect(page.locator("#watch")).to_be_checked()
        expect(page.locator("#scores tbody tr")).to_have_count(3)
        board = page.locator("#game-view")
        expect(board).not_to_be_empty()
        before = board.inner_html()
        # Nobody touches the page from here on.
        expect(page.locator("#history li.camera").first).to_be_visible(timeout=WAIT)
        page.wait_for_function("(before) => document.querySelector('#game-view').innerHTML !== before",
                               arg=before, timeout=WAIT)
        expect(page.locator("#history li.demo").first).to_be_visible(timeout=WAIT)
        # The clip's scoring move is made by the camera and the score on the page follows.
        expect(page.locator("#history li.camera", has_text=move).first).to_be_visible(timeout=WAIT)
        expect(page.locator(f'#scores tr[data-player="{player}"] .points')).to_have_text(str(points), timeout=WAIT)
        assert page.locator("#history li.camera").count() >= 10
    finally:
        srv.stop()
