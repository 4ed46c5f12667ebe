"""Issue 12: names, keys, broken logs, cross-site requests, rebinding, exposure, request shapes,
safe retries and re-issuable Dreams links. Each test reproduces one reported defect."""
from __future__ import annotations

import hashlib
import hmac
import json
import sqlite3
import subprocess
import sys
import time
import urllib.request

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from rules.core.match import Match
from rules.dreams.engine import DreamsEngine
from server.app import create_app
from server.dreams_links import token_for
from server.security import AccessPolicy
from tests.conftest import ROOT, free_port

LOCAL = "http://127.0.0.1"
EVIL = {"Origin": "http://evil.example"}
QUARX = {"game": "quarx", "players": ["Ann", "Ben"], "seed": 3}


@pytest.fixture
def db(tmp_path):
    return tmp_path / "events.sqlite"


@pytest.fixture
def client(db):
    with TestClient(base_url=LOCAL, app=create_app(db)) as c:
        yield c


def restart(client, db, **kw) -> TestClient:
    """Stop the client's server (one server per event log) and a new one over the same file."""
    client.app.state.tables.store.close()
    return TestClient(base_url=LOCAL, app=create_app(db, **kw))


def assert_shape(r, status, rule=None):
    assert r.status_code == status, r.text
    detail = r.json()["detail"]
    assert isinstance(detail["reason"], str) and detail["reason"]
    if rule is not None:
        assert detail["rule"] == rule, detail


# -- 1. names ---------------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["\ud800x", "Ann\x00", "An\x1bn", "\u202eAnn"])
def test_a_bad_player_name_is_refused_and_the_table_list_survives(client, db, name):
    body = json.dumps({"game": "quarx", "players": [name, "Ben"]}).encode()  # json escapes the surrogate
    r = client.post("/api/tables", content=body, headers={"Content-Type": "application/json"})
    assert_shape(r, 409, "player names")
    assert client.get("/api/tables").status_code == 200
    assert client.get("/api/tables").json() == []
    with restart(client, db) as again:
        assert again.get("/api/tables").status_code == 200


def test_a_stored_bad_name_is_skipped_not_fatal(client, db):
    good = client.post("/api/tables", json=QUARX).json()["id"]
    bad = client.app.state.tables.store.create_table("quarx", ["\ud800x", "Ben"], {}, 1).id  # as older servers stored it
    with restart(client, db) as again:
        listing = again.get("/api/tables")
        assert listing.status_code == 200 and [t["id"] for t in listing.json()] == [good]
        assert_shape(again.get(f"/api/tables/{bad}"), 409, "replay")


# -- 2. domain-separated keys -------------------------------------------------------------------
def test_no_player_name_turns_a_link_into_the_deal(client):
    foretold = 0
    for seed in range(1, 6):
        players = [str(seed), "Ben", "Cat"]  # the attack: a player named like the table's seed
        tid = client.post("/api/tables", json={"game": "dreams", "players": players, "seed": seed}).json()["id"]
        token = client.post(f"/api/tables/{tid}/dreams/links/{seed}").json()["path"].split("#")[1]
        svc = client.app.state.tables
        assert token != svc.match(tid).seed
        for _ in range(2):
            client.post(f"/api/tables/{tid}/moves", json={"move": "random"})
        shadow = Match(DreamsEngine(), players, {}, token)
        shadow.play("random")
        shadow.play("random")
        real = svc.match(tid).state
        foretold += (shadow.state.mortal, shadow.state.vision) == (real.mortal, real.vision)
    assert foretold < 5


def test_keys_differ_per_purpose(client):
    keys = client.app.state.tables.keys
    assert len({keys.mac("dreams link", "t", "x"), keys.mac("secret deal", "t", "x"), keys.mac("table creator", "t", "x")}) == 3
    assert keys.mac("dreams link", "t:x", "y") != keys.mac("dreams link", "t", "x:y")


# -- 4. a log that no longer replays -----------------------------------------------------------
def test_one_broken_log_does_not_stop_the_server(client, db):
    good = client.post("/api/tables", json=QUARX).json()["id"]
    broken = client.post("/api/tables", json=QUARX).json()["id"]
    client.app.state.tables.store.append(broken, 0, "move", "Zed plays a card from the future", "api")
    other = client.app.state.tables.store.create_table("chess", ["Ann", "Ben"], {}, 1).id  # a game since removed
    with restart(client, db) as again:
        assert [t["id"] for t in again.get("/api/tables").json()] == [good]
        assert again.get(f"/api/tables/{good}").status_code == 200
        for tid in (broken, other):
            assert_shape(again.get(f"/api/tables/{tid}"), 409, "replay")
            assert_shape(again.post(f"/api/tables/{tid}/moves", json={"move": "random"}), 409, "replay")
        assert set(again.app.state.tables.broken) == {broken, other}


# -- 6. cross-site requests ----------------------------------------------------------------------
def test_cross_site_requests_change_nothing(client):
    tid = client.post("/api/tables", json=QUARX).json()["id"]
    client.post(f"/api/tables/{tid}/moves", json={"move": "random"})
    dreams = client.post("/api/tables", json={"game": "dreams", "players": ["Ann", "Ben", "Cat"]}).json()["id"]
    attempts = [
        ("/api/tables", {"content": b'{"game": "quarx", "players": ["A", "B"]}', "headers": {"Content-Type": "text/plain", **EVIL}}),
        (f"/api/tables/{tid}/undo", {"headers": EVIL}),
        (f"/api/tables/{tid}/moves", {"content": b'{"move": "random"}', "headers": {"Content-Type": "text/plain", **EVIL}}),
        ("/api/demo/quarx", {"headers": EVIL}),
        (f"/api/tables/{dreams}/dreams/links/Ann", {"headers": EVIL}),
        (f"/api/tables/{tid}/undo", {"headers": {"Origin": "null"}}),
        (f"/api/tables/{tid}/undo", {"headers": {"Sec-Fetch-Site": "cross-site"}}),
        (f"/api/tables/{tid}/undo", {"headers": {"Origin": "http://127.0.0.1:9999"}}),  # another port: another origin
    ]
    for path, kw in attempts:
        assert_shape(client.post(path, **kw), 403, "same origin")
    assert len(client.get("/api/tables").json()) == 2
    assert client.get(f"/api/tables/{tid}").json()["version"] == 1
    assert client.get(f"/api/tables/{dreams}/dreams/links").json()["players"][0]["shown"] is False
    # The server's own page (same origin) and plain clients (no Origin) still work.
    assert client.post(f"/api/tables/{tid}/undo", headers={"Origin": LOCAL, "Sec-Fetch-Site": "same-origin"}).status_code == 200
    assert client.post(f"/api/tables/{tid}/moves", json={"move": "random"}).status_code == 200


def test_allow_origin_extends_the_list(db):
    policy = AccessPolicy.for_bind("127.0.0.1", ["http://tablesight.lan:8000"])
    with TestClient(base_url=LOCAL, app=create_app(db, policy=policy)) as c:
        ok = c.post("/api/tables", json=QUARX, headers={"Origin": "http://tablesight.lan:8000", "Sec-Fetch-Site": "cross-site"})
        assert ok.status_code == 201
        assert c.get("/api/tables", headers={"Host": "tablesight.lan:8000"}).status_code == 200
        assert_shape(c.post("/api/tables", json=QUARX, headers=EVIL), 403, "same origin")


# -- 7. DNS rebinding and cross-site WebSockets -------------------------------------------------------
def test_a_foreign_host_is_not_served(client):
    tid = client.post("/api/tables", json=QUARX).json()["id"]
    for path in ("/api/tables", f"/api/tables/{tid}", "/"):
        assert_shape(client.get(path, headers={"Host": "evil.example:8000"}), 400, "host allow-list")
    assert client.get("/api/tables", headers={"Host": "localhost:8000"}).status_code == 200
    assert client.get("/api/tables", headers={"Host": "192.168.1.20:8000"}).status_code == 200  # phones use the IP


@pytest.mark.parametrize("headers", [EVIL, {"Host": "evil.example"}, {"Origin": "http://evil.example", "Host": "evil.example"}])
def test_live_sockets_refuse_other_origins(client, headers):
    tid = client.post("/api/tables", json=QUARX).json()["id"]
    dreams = client.post("/api/tables", json={"game": "dreams", "players": ["Ann", "Ben", "Cat"]}).json()["id"]
    for path in (f"/api/tables/{tid}/live", f"/api/tables/{dreams}/dreams/me/live"):
        with pytest.raises(WebSocketDisconnect) as info:
            with client.websocket_connect(f"ws://127.0.0.1{path}", headers=headers) as ws:
                ws.receive_json()
        assert info.value.code == 4403
    with client.websocket_connect(f"ws://127.0.0.1/api/tables/{tid}/live", headers={"Origin": LOCAL}) as ws:
        assert ws.receive_json()["id"] == tid


# -- 8. exposure ---------------------------------------------------------------------------------------
def test_the_page_learns_when_the_server_is_exposed(db, tmp_path):
    with TestClient(base_url=LOCAL, app=create_app(db)) as c:
        assert c.get("/api/server").json()["warning"] is None
    with TestClient(base_url=LOCAL, app=create_app(tmp_path / "b.sqlite", policy=AccessPolicy.for_bind("0.0.0.0"))) as c:
        info = c.get("/api/server").json()
        assert info["exposed"] and "anyone on your network" in info["warning"]
    assert 'id="exposure-warning"' in c.get("/").text


# -- 12. request shapes, limits, versions, retries ----------------------------------------------------
def test_body_limit_applies_before_parsing(client):
    big = b'{"game": "quarx", "players": ["Ann", "Ben"], "options": {"x": "' + b"a" * 200_000 + b'"}}'
    assert_shape(client.post("/api/tables", content=big, headers={"Content-Type": "application/json"}), 413, "body limit")

    def chunks():  # no Content-Length: counted while it arrives
        for _ in range(100):
            yield b"a" * 10_000

    assert_shape(client.post("/api/tables", content=chunks(), headers={"Content-Type": "application/json"}), 413, "body limit")


@pytest.mark.parametrize("body", [b'{"game": "quarx", "players": ["\xff\xfe"]}', b"[" * 100_00 + b"]" * 100_00, b"{", b"\x00"])
def test_unparseable_bodies_answer_in_the_documented_shape(client, body):
    r = client.post("/api/tables", content=body, headers={"Content-Type": "application/json"})
    assert r.status_code in (400, 422)
    assert_shape(r, r.status_code)


def test_seed_true_is_not_one(client):
    assert_shape(client.post("/api/tables", json={**QUARX, "seed": True}), 422)


def test_clients_cannot_claim_the_camera(client):
    tid = client.post("/api/tables", json=QUARX).json()["id"]
    for source in ("camera", "player", "demo"):
        assert_shape(client.post(f"/api/tables/{tid}/moves", json={"move": "random", "source": source}), 422)
    assert client.post(f"/api/tables/{tid}/moves", json={"move": "random", "source": "page"}).json()["sources"] == ["page"]


def test_the_move_answer_carries_its_own_version(client):
    tid = client.post("/api/tables", json=QUARX).json()["id"]
    svc = client.app.state.tables
    notify = svc._notify
    cut_in = []

    def another_client_moves(table_id):
        notify(table_id)
        if not cut_in:  # right after the first move is announced, before its answer is sent
            cut_in.append("playing")
            m = svc.match(table_id)
            legal = m.engine.legal_moves(m.state)
            cut_in[0] = svc.play(table_id, str(legal[0]) if legal else "random")

    svc._notify = another_client_moves
    answer = client.post(f"/api/tables/{tid}/moves", json={"move": "random"}).json()
    assert answer["version"] == 1 and len(answer["history"]) == 1
    assert cut_in[0]["version"] == 2


def test_a_retried_move_is_played_once(client, db):
    tid = client.post("/api/tables", json=QUARX).json()["id"]
    first = client.post(f"/api/tables/{tid}/moves", json={"move": "random", "move_id": "tab1-7"})
    again = client.post(f"/api/tables/{tid}/moves", json={"move": "random", "move_id": "tab1-7"})
    assert first.status_code == again.status_code == 200
    assert again.json()["repeated"] is True and again.json()["version"] == first.json()["version"] == 1
    assert_shape(client.post(f"/api/tables/{tid}/moves", json={"move": "Ann 8", "move_id": "tab1-7"}), 409, "move id")
    with restart(client, db) as after:  # the reply was lost and the server restarted: still once
        r = after.post(f"/api/tables/{tid}/moves", json={"move": "random", "move_id": "tab1-7"})
        assert r.json()["repeated"] is True and r.json()["version"] == 1
        assert len(after.app.state.tables.store.events(tid)) == 1


# -- 13. re-issuable Dreams links -------------------------------------------------------------------------
def test_the_creator_can_reissue_a_link_which_revokes_the_old_one(client, db):
    created = client.post("/api/tables", json={"game": "dreams", "players": ["Ann", "Ben", "Cat"], "seed": 4}).json()
    tid, creator = created["id"], created["creator_token"]
    assert "creator_token" not in client.get(f"/api/tables/{tid}").json()
    old = client.post(f"/api/tables/{tid}/dreams/links/Ann").json()["path"].split("#")[1]
    for _ in range(2):  # dealt before Ben and Cat took their links: stuck, before
        client.post(f"/api/tables/{tid}/moves", json={"move": "random"})
    assert_shape(client.post(f"/api/tables/{tid}/dreams/links/Ben"), 403)
    assert_shape(client.post(f"/api/tables/{tid}/dreams/links/Ben", headers={"X-Creator-Token": old}), 403)
    ben = client.post(f"/api/tables/{tid}/dreams/links/Ben", headers={"X-Creator-Token": creator})
    assert ben.status_code == 200 and ben.json()["reissued"] is True
    ben_token = ben.json()["path"].split("#")[1]
    assert client.get(f"/api/tables/{tid}/dreams/me", headers={"X-Player-Token": ben_token}).json()["view"]["me"]
    # Ann lost her phone: her old link stops working, live page included, the new one works.
    with client.websocket_connect(f"ws://127.0.0.1/api/tables/{tid}/dreams/me/live") as ws:
        ws.send_json({"token": old})
        ws.receive_json()
        new = client.post(f"/api/tables/{tid}/dreams/links/Ann", headers={"X-Creator-Token": creator}).json()["path"].split("#")[1]
        with pytest.raises(WebSocketDisconnect) as info:
            ws.receive_json()
        assert info.value.code == 4403
    assert_shape(client.get(f"/api/tables/{tid}/dreams/me", headers={"X-Player-Token": old}), 403)
    assert client.get(f"/api/tables/{tid}/dreams/me", headers={"X-Player-Token": new}).status_code == 200
    assert new == token_for(client.app.state.tables.keys, tid, "Ann", 1)
    listing = client.get(f"/api/tables/{tid}/dreams/links").text
    assert new not in listing and creator not in listing
    with restart(client, db) as again:  # a restart revives no revoked link
        assert again.get(f"/api/tables/{tid}/dreams/me", headers={"X-Player-Token": old}).status_code == 403
        assert again.get(f"/api/tables/{tid}/dreams/me", headers={"X-Player-Token": new}).status_code == 200


def test_binding_beyond_loopback_warns_in_the_terminal(tmp_path):
    port = free_port()
    cmd = [sys.executable, "-m", "server.cli", "serve", "--host", "0.0.0.0", "--port", str(port),
           "--db", str(tmp_path / "e.sqlite"), "--source", "none", "--no-detector", "--log-level", "warning"]
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        for _ in range(300):  # readiness by polling
            try:
                info = json.loads(urllib.request.urlopen(f"http://127.0.0.1:{port}/api/server", timeout=1).read())
                break
            except OSError:
                assert proc.poll() is None, proc.stderr.read()
                time.sleep(0.1)
        assert info["exposed"] and info["warning"]
    finally:
        proc.terminate()
        _, err = proc.communicate(timeout=30)
    assert "WARNING: This server listens on 0.0.0.0: anyone on your network" in err


def test_an_event_log_from_before_the_upgrade_replays_and_keeps_its_links(db):
    """The deal seed and the link tokens changed derivation: logs hold every drawn outcome, so they
    replay as before, and links handed out before the upgrade keep working for those tables."""
    con = sqlite3.connect(db)
    con.executescript(OLD_SCHEMA)
    secret = bytes(range(32))
    con.execute("INSERT INTO meta VALUES ('secret', ?)", (secret.hex(),))
    con.execute("INSERT INTO tables VALUES ('old1', 'dreams', ?, '{}', 7, 1.0)", (json.dumps(["Ann", "Ben", "Cat"]),))
    for seq, text in enumerate(["dreams 1 2 3 4", "deal vision 2 mortal Ben"]):
        con.execute("INSERT INTO events VALUES ('old1', ?, 'move', ?, 'api', 2.0)", (seq, text))
    con.commit()
    con.close()
    old_token = hmac.new(secret, b"old1:Ann", hashlib.sha256).hexdigest()
    with TestClient(base_url=LOCAL, app=create_app(db)) as c:
        assert c.get("/api/tables/old1").json()["version"] == 2
        me = c.get("/api/tables/old1/dreams/me", headers={"X-Player-Token": old_token})
        assert me.status_code == 200 and me.json()["view"]["me"]["marker"] == "2"
        new = c.post("/api/tables", json={"game": "dreams", "players": ["Ann", "Ben", "Cat"]}).json()
        legacy_new = hmac.new(secret, f"{new['id']}:Ann".encode(), hashlib.sha256).hexdigest()
        assert c.get(f"/api/tables/{new['id']}/dreams/me", headers={"X-Player-Token": legacy_new}).status_code == 403
        creator = c.app.state.tables.creator_token("old1")
        assert c.post("/api/tables/old1/dreams/links/Ann", headers={"X-Creator-Token": creator}).status_code == 200
        assert c.get("/api/tables/old1/dreams/me", headers={"X-Player-Token": old_token}).status_code == 403


OLD_SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE tables (id TEXT PRIMARY KEY, game TEXT NOT NULL, players TEXT NOT NULL,
    options TEXT NOT NULL, seed INTEGER NOT NULL, created REAL NOT NULL);
CREATE TABLE events (table_id TEXT NOT NULL REFERENCES tables(id), seq INTEGER NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('move', 'undo')), text TEXT NOT NULL,
    source TEXT NOT NULL, at REAL NOT NULL, PRIMARY KEY (table_id, seq));
"""


@pytest.mark.parametrize("headers", [{"Host": "[not-v6"}, {"Host": ""}, {"Origin": "http://[bad", "Host": "127.0.0.1"},
                                     {"Origin": "garbage", "Host": "127.0.0.1"}])
def test_malformed_host_and_origin_headers_are_refused_in_words(client, headers):
    r = client.post("/api/tables", json=QUARX, headers=headers)
    assert r.status_code in (400, 403)
    assert_shape(r, r.status_code)
