"""The shared HTTP API: shapes, refusals in words (never a 500), live updates."""
from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from server.app import create_app


@pytest.fixture
def client(tmp_path):
    with TestClient(base_url="http://127.0.0.1", app=create_app(tmp_path / "t.sqlite")) as c:
        yield c


def new_table(client, players=("Ann", "Ben"), seed=7, **extra):
    r = client.post("/api/tables", json={"game": "quarx", "players": list(players), "seed": seed, **extra})
    assert r.status_code == 201, r.text
    return r.json()["id"]


def test_games_list(client):
    games = {g["name"]: g for g in client.get("/api/games").json()}
    assert games["quarx"]["min_players"] == 2 and games["quarx"]["max_players"] == 6


def test_table_state_has_the_shared_shape(client):
    tid = new_table(client)
    snap = client.get(f"/api/tables/{tid}").json()
    for key in ("game", "players", "scores", "legal_moves", "chance", "over", "winners", "history"):
        assert key in snap
    assert snap["game"] == "quarx" and snap["players"] == ["Ann", "Ben"]
    assert snap["scores"] == {"Ann": 0, "Ben": 0} and snap["chance"].startswith("reveal")
    assert snap["legal_moves"] == [] and snap["over"] is False and snap["winners"] == [] and snap["history"] == []


def test_play_random_then_answer_then_undo(client):
    tid = new_table(client)
    snap = client.post(f"/api/tables/{tid}/moves", json={"move": "random"}).json()
    assert snap["history"][0].startswith("reveal") and "Ann 16+4+2+1" in snap["legal_moves"]
    client.post(f"/api/tables/{tid}/moves", json={"move": "Ann 4"})
    undone = client.post(f"/api/tables/{tid}/undo").json()
    assert undone["undone"] == "Ann laid cards (place 1)" and len(undone["history"]) == 1  # cards stay face down


@pytest.mark.parametrize(
    "body,status,reason",
    [
        ({"move": "Ann 4"}, 409, "turn the cards over first"),
        ({"move": "Zed 4"}, 422, "not a Quarx move"),
        ({"move": "reveal 1 2"}, 409, "turns over 4 cards"),
        ({"move": ""}, 422, "move"),
        ({"mov": "x"}, 422, "move: Field required"),
        ({"move": 5}, 422, "move"),
    ],
)
def test_bad_moves_are_refused_with_a_reason(client, body, status, reason):
    tid = new_table(client)
    r = client.post(f"/api/tables/{tid}/moves", json=body)
    assert r.status_code == status
    assert reason in r.json()["detail"]["reason"]


def test_malformed_json_body_is_a_422(client):
    tid = new_table(client)
    r = client.post(f"/api/tables/{tid}/moves", content=b"{not json", headers={"Content-Type": "application/json"})
    assert r.status_code == 422 and r.json()["detail"]["reason"]


@pytest.mark.parametrize(
    "body,status,reason",
    [
        ({"game": "chess", "players": ["A", "B"]}, 409, "unknown game 'chess'"),
        ({"game": "quarx", "players": ["A"]}, 409, "2 to 6 players"),
        ({"game": "quarx", "players": ["A", "A"]}, 409, "different name"),
        ({"game": "quarx", "players": "AB"}, 422, "players"),
        ({"game": "quarx", "players": ["A", "B"], "seed": -1}, 422, "seed"),
        ({"game": "quarx", "players": ["A", "B"], "options": {"x": 1}}, 409, "unknown Quarx option"),
    ],
)
def test_bad_tables_are_refused(client, body, status, reason):
    r = client.post("/api/tables", json=body)
    assert r.status_code == status and reason in r.json()["detail"]["reason"]


def test_unknown_table_is_404(client):
    assert client.get("/api/tables/nope").status_code == 404
    assert client.post("/api/tables/nope/moves", json={"move": "random"}).status_code == 404
    assert client.post("/api/tables/nope/undo").status_code == 404


def test_nothing_to_undo_is_409(client):
    tid = new_table(client)
    r = client.post(f"/api/tables/{tid}/undo")
    assert r.status_code == 409 and "no move to undo" in r.json()["detail"]["reason"]


def test_websocket_pushes_every_change(client):
    tid = new_table(client)
    with client.websocket_connect(f"ws://127.0.0.1/api/tables/{tid}/live") as ws:
        assert ws.receive_json()["history"] == []
        client.post(f"/api/tables/{tid}/moves", json={"move": "reveal 1 2 3 4"})
        pushed = ws.receive_json()
        assert pushed["history"] == ["reveal (counts hidden until everyone has laid)"] and pushed["to_move"] == ["Ann", "Ben"]
        client.post(f"/api/tables/{tid}/undo")
        assert ws.receive_json()["history"] == []


def test_camera_status_without_a_source(client):
    assert client.get("/api/camera/status").json()["state"] == "off"
    assert client.get("/api/camera/stream.mjpg").status_code == 404


def test_page_is_served(client):
    assert "TableSight" in client.get("/").text
    assert "TableSight" in client.get("/table/abc").text
    assert client.get("/static/app.js").status_code == 200
