"""A crash loses nothing: SIGKILL the server mid-game, start it again, the table is exactly as it was."""
from __future__ import annotations

import json
import urllib.request


def call(url: str, body: dict | None = None) -> dict:
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(url, data, {"Content-Type": "application/json"})
    return json.loads(urllib.request.urlopen(req).read())


def test_sigkill_and_restart_keeps_every_table(tmp_path, server_factory):
    srv = server_factory(tmp_path / "events.sqlite").start()
    try:
        tid = call(f"{srv.url}/api/tables", {"game": "quarx", "players": ["Ann", "Ben", "Cid"], "seed": 5})["id"]
        for move in ["random", "Ann 8", "Ben ties 8", "Cid passes", "reveal 3 3 3 3 3 3", "Ann 16+2"]:
            call(f"{srv.url}/api/tables/{tid}/moves", {"move": move})
        call(f"{srv.url}/api/tables/{tid}/undo", {})
        call(f"{srv.url}/api/tables/{tid}/moves", {"move": "Ann 16+1"})
        before = call(f"{srv.url}/api/tables/{tid}")
        srv.kill()

        srv.start()
        after = call(f"{srv.url}/api/tables/{tid}")
        assert after == before
        # ...and the game carries on from there.
        call(f"{srv.url}/api/tables/{tid}/moves", {"move": "Ben 16+2"})
        call(f"{srv.url}/api/tables/{tid}/moves", {"move": "Cid 16+2"})
        assert call(f"{srv.url}/api/tables/{tid}")["scores"]["Ben"] == 2
    finally:
        srv.stop()
