"""GET /api/tables/{id}/advice: the advisor's ranking for the player to move, through the server."""
from __future__ import annotations

import random

from fastapi.testclient import TestClient

from server.app import create_app


def _client(tmp_path) -> TestClient:
    return TestClient(create_app(tmp_path / "events.sqlite", source=None, detector=False), base_url="http://127.0.0.1")


def _table_at_a_turn(client: TestClient) -> dict:
    """A Diceline table played (chance 'random', choices at random) up to round 5, phase 2."""
    snap = client.post("/api/tables", json={"game": "diceline", "players": ["Ann", "Bo", "Cy", "Di"], "seed": 3}).json()
    rng = random.Random(3)
    while not (snap["view"]["phase"] == "actions" and snap["view"]["round"] == 5 and not snap["chance"]
               and len(snap["legal_moves"]) >= 3):
        move = "random" if snap["chance"] else rng.choice(snap["legal_moves"])
        snap = client.post(f"/api/tables/{snap['id']}/moves", json={"move": move}).json()
    return snap


def test_advice_ranks_the_legal_moves_with_points_and_a_reason(tmp_path):
    with _client(tmp_path) as client:
        snap = _table_at_a_turn(client)
        res = client.get(f"/api/tables/{snap['id']}/advice", params={"iterations": 6, "seed": 2})
        assert res.status_code == 200, res.text
        advice = res.json()
        assert [advice["player"]] == snap["to_move"]
        assert sorted(m["move"] for m in advice["moves"]) == sorted(snap["legal_moves"])
        top = advice["moves"][0]
        assert {"expected_points", "expected_margin", "rollouts", "reason"} <= top.keys()
        assert advice["explanation"] == f"{top['move']}: {top['reason']}"
        # the same seed and budget: the same answer
        assert client.get(f"/api/tables/{snap['id']}/advice", params={"iterations": 6, "seed": 2}).json() == advice


def test_advice_refuses_chance_points_bad_budgets_and_other_games(tmp_path):
    with _client(tmp_path) as client:
        dl = client.post("/api/tables", json={"game": "diceline", "players": ["Ann", "Bo", "Cy"]}).json()
        res = client.get(f"/api/tables/{dl['id']}/advice")
        assert res.status_code == 409 and "awaits" in res.text  # the order roll: nobody is to move
        assert client.get(f"/api/tables/{dl['id']}/advice", params={"iterations": 0}).status_code == 422
        other = client.post("/api/tables", json={"game": "quarx", "players": ["Ann", "Bo"]}).json()
        assert client.get(f"/api/tables/{other['id']}/advice").status_code == 404
