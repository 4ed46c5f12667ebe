"""Helpers for the game-night browser tests: the axe-core check, screenshots for docs/, tables
played to a chosen point through the HTTP API (moves chosen by the engines in this process)."""
from __future__ import annotations

import json
import os
import random
import urllib.request
from importlib import resources
from pathlib import Path
from typing import Callable

from rules.core.match import Match
from rules.registry import ENGINES

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "docs" / "screenshots"
# axe-core as the `axe-playwright-python` wheel ships it (axe_playwright_python/axe.min.js, MPL-2.0):
# read from the installed package, injected into the page; nothing is downloaded at test time.
AXE_JS = resources.files("axe_playwright_python").joinpath("axe.min.js").read_text(encoding="utf-8")


def axe_violations(page, impacts=("serious", "critical")) -> list[str]:
    """axe-core's violations on the page now, at the given impacts, one line each."""
    if not page.evaluate("() => typeof window.axe !== 'undefined'"):
        page.add_script_tag(content=AXE_JS)
    result = page.evaluate("async () => await window.axe.run(document, {resultTypes: ['violations']})")
    return [f"{v['id']} ({v['impact']}): {v['help']} -> " + "; ".join(n["target"][0] if isinstance(n["target"][0], str) else str(n["target"]) for n in v["nodes"][:4])
            for v in result["violations"] if v["impact"] in impacts]


def screenshot(page, name: str, full_page: bool = True) -> None:
    """docs/screenshots/NAME.png from the real server, when TABLESIGHT_SCREENSHOTS=1 (so an
    ordinary test run leaves the working tree clean)."""
    if os.environ.get("TABLESIGHT_SCREENSHOTS") == "1":
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=full_page)


def call(url: str, body: dict | None = None, headers: dict | None = None) -> dict:
    head = {"Content-Type": "application/json", **(headers or {})}
    data = None if body is None else json.dumps(body).encode()
    return json.loads(urllib.request.urlopen(urllib.request.Request(url, data, head)).read())


Policy = Callable[[Match, random.Random], str]


def random_policy(match: Match, rng: random.Random) -> str:
    moves = match.engine.legal_moves(match.state)
    return str(rng.choice(moves))


def quarx_policy(match: Match, rng: random.Random) -> str:
    """Someone answers right in most rounds, so the scores move."""
    from rules.quarx.scoring import cards_for

    st = match.state
    moves = [str(m) for m in match.engine.legal_moves(st)]
    if st.phase == "answer" and st.total is not None:
        for p in match.engine.to_move(st):
            right = f"{p} " + "+".join(map(str, cards_for(st.total)))
            if right in moves and rng.random() < 0.6:
                return right
    return rng.choice(moves)


def play_table(server: str, game: str, players: list[str], seed: int, moves: int | None = None,
               until: Callable[[Match], bool] | None = None, policy: Policy = random_policy) -> tuple[str, Match]:
    """A table on the server, played `moves` moves (or until `until`), every chance outcome drawn
    here and sent as its text; returns the table id and the same match in this process."""
    table = call(f"{server}/api/tables", {"game": game, "players": players, "seed": seed})
    match = Match(ENGINES[game], players, seed=seed)
    rng = random.Random(seed)
    played = 0
    while not match.engine.is_over(match.state) and (moves is None or played < moves) and not (until and until(match)):
        if match.engine.chance(match.state) is not None:
            text = str(match.canonical("random"))
        else:
            text = policy(match, rng)
        match.play(text)
        call(f"{server}/api/tables/{table['id']}/moves", {"move": text})
        played += 1
    return table["id"], match
