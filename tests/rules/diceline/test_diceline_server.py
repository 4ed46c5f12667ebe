"""The engine through the server's API: create a Diceline table and play it by its legal moves."""
from __future__ import annotations

import random

import pytest
from fastapi.testclient import TestClient

from server.app import create_app


def _client(tmp_path) -> TestClient:
    return TestClient(base_url="http://127.0.0.1", app=create_app(tmp_path / "events.sqlite", source=None, detector=False))


def _play(client: TestClient, max_moves: int) -> dict:
    snap = client.post("/api/tables", json={"game": "diceline", "players": ["Ann", "Bo", "Cy", "Di"], "seed": 3}).json()
    rng = random.Random(3)
    for _ in range(max_moves):
        if snap["over"]:
            break
        move = "random" if snap["chance"] else rng.choice(snap["legal_moves"])
        res = client.post(f"/api/tables/{snap['id']}/moves", json={"move": move})
        assert res.status_code == 200, res.text
        snap = res.json()
        for p in snap["view"]["players"]:
            assert p["score"]["so_far"] == snap["scores"][p["name"]] or snap["over"]
    return snap


def test_a_table_is_created_and_played_by_clicking_legal_moves(tmp_path):
    """Round 1 through the API: moves by their texts, live scores with a breakdown in the view."""
    with _client(tmp_path) as client:
        games = {g["name"]: g for g in client.get("/api/games").json()}
        assert games["diceline"]["min_players"] == 3 and games["diceline"]["max_players"] == 4
        snap = _play(client, 80)
        assert snap["view"]["players"][0]["score"]["during_game"].keys() >= {"layout tiles", "grey 5~6", "vp tiles"}
        bad = client.post(f"/api/tables/{snap['id']}/moves", json={"move": "green 9 -> nowhere"})
        assert bad.status_code in (400, 409, 422) and "Diceline move" in bad.text


@pytest.mark.slow
def test_a_whole_game_through_the_api(tmp_path):
    """A full 4-player game, to the winners."""
    with _client(tmp_path) as client:
        snap = _play(client, 2000)
        assert snap["over"] and snap["winners"]
