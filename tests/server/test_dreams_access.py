"""Dreams' private links: only a player's own token reads their marker or makes their guess.

Every endpoint that returns or changes per-player data is tried with another player's token, no
token, a guessed token and malformed ones: each gets 403/404 with the same words, and the body
holds nothing of the game. The public API and the stored event log never show a secret.
"""
from __future__ import annotations

import json
import secrets

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from server.app import create_app
from server.dreams_links import token_for
from server.routes.dreams import DENIED

PLAYERS = ["Ann", "Ben", "Cat"]
COLOURS = {"Ann": "blue", "Ben": "yellow", "Cat": "green"}


@pytest.fixture
def db(tmp_path):
    return tmp_path / "dreams.sqlite"


@pytest.fixture
def client(db):
    with TestClient(base_url="http://127.0.0.1", app=create_app(db)) as c:
        yield c


def new_table(client, seed=5) -> str:
    r = client.post("/api/tables", json={"game": "dreams", "players": PLAYERS, "seed": seed})
    assert r.status_code == 201, r.text
    return r.json()["id"]


def link_token(client, tid, player) -> str:
    r = client.post(f"/api/tables/{tid}/dreams/links/{player}")
    assert r.status_code == 200, r.text
    return r.json()["path"].split("#", 1)[1]


def me(token):
    return {"X-Player-Token": token}


def state(client, tid):
    return client.app.state.tables.match(tid).state


def to_guessing(client, tid):
    """Lay out, deal at random from the shared screen, place every star in public."""
    for _ in range(2):
        assert client.post(f"/api/tables/{tid}/moves", json={"move": "random"}).status_code == 200
    while state(client, tid).phase == "stars":
        move = client.get(f"/api/tables/{tid}").json()["legal_moves"][0]
        assert client.post(f"/api/tables/{tid}/moves", json={"move": move}).status_code == 200


def guess_for(st, player) -> str:
    """A legal guess text for `player` (the mortal names image 1, a God names the next player's colour)."""
    if player == st.mortal:
        return f"{player} guesses 1"
    other = next(p for p in PLAYERS if p != player)
    return f"{player} guesses {COLOURS[other]}"


def secrets_of(st) -> list[str]:
    """Texts that would give a role or a guess away."""
    out = [f"deal vision {st.vision}", f"mortal {st.mortal}", "guesses", '"marker": "', '"role"', "vision"]
    return out + [f"{p} marker" for p in PLAYERS]


def assert_denied(r, status=403):
    assert r.status_code == status, r.text
    body = r.json()
    assert set(body) == {"detail"}
    if status == 403:
        assert body["detail"]["reason"] == DENIED


@pytest.fixture
def table(client):
    tid = new_table(client)
    tokens = {p: link_token(client, tid, p) for p in ("Ann", "Ben")}
    to_guessing(client, tid)
    return tid, tokens


BAD_TOKENS = {
    "none": None,
    "empty": "",
    "guessed": secrets.token_hex(32),
    "short": "abc123",
    "not hex": "z" * 64,
    "too long": "a" * 65,
    "unicode": "é" * 64,
    "quoted": '"' + "0" * 62 + '"',
}


@pytest.mark.parametrize("kind", sorted(BAD_TOKENS))
def test_bad_tokens_read_nothing(client, table, kind):
    tid, tokens = table
    token = BAD_TOKENS[kind]
    headers = {} if token is None else me(token)
    if kind == "unicode":  # HTTP headers are latin-1; httpx sends bytes
        headers = {"X-Player-Token": token.encode("utf-8")}
    assert_denied(client.get(f"/api/tables/{tid}/dreams/me", headers=headers))
    assert_denied(client.post(f"/api/tables/{tid}/dreams/me/moves", headers=headers, json={"move": "Ann guesses yellow"}))
    assert state(client, tid).guesses == {}


def test_the_real_token_in_capitals_is_malformed(client, table):
    tid, tokens = table
    assert_denied(client.get(f"/api/tables/{tid}/dreams/me", headers=me(tokens["Ann"].upper())))


def test_a_token_only_opens_its_own_table(client, table):
    tid, tokens = table
    other = new_table(client, seed=6)
    assert_denied(client.get(f"/api/tables/{other}/dreams/me", headers=me(tokens["Ann"])))
    r = client.get("/api/tables/nope/dreams/me", headers=me(tokens["Ann"]))
    assert r.status_code == 404 and "Ann" not in r.text


def test_a_player_sees_only_their_own_marker(client, table):
    tid, tokens = table
    st = state(client, tid)
    for p in ("Ann", "Ben"):
        snap = client.get(f"/api/tables/{tid}/dreams/me", headers=me(tokens[p])).json()
        assert snap["view"]["me"]["player"] == p
        assert snap["view"]["me"]["marker"] == ("mortal" if p == st.mortal else str(st.vision))
        others = json.dumps({k: v for k, v in snap.items() if k != "view"})
        assert "mortal" not in others or p == st.mortal


def test_another_players_token_cannot_act_for_them(client, table):
    tid, tokens = table
    st = state(client, tid)
    r = client.post(f"/api/tables/{tid}/dreams/me/moves", headers=me(tokens["Ben"]), json={"move": guess_for(st, "Ann")})
    assert r.status_code == 403
    assert r.json()["detail"]["reason"] == "a player can only make their own moves"
    assert state(client, tid).guesses == {}
    # Nor a public move through a private link (a star, a deal).
    r = client.post(f"/api/tables/{tid}/dreams/me/moves", headers=me(tokens["Ben"]), json={"move": "random"})
    assert r.status_code in (403, 409)


def test_own_guess_locks_and_the_reveal_waits_for_all(client, table):
    tid, tokens = table
    st = state(client, tid)
    r = client.post(f"/api/tables/{tid}/dreams/me/moves", headers=me(tokens["Ann"]), json={"move": guess_for(st, "Ann")})
    assert r.status_code == 200, r.text
    assert r.json()["view"]["me"]["guess"] is not None
    again = client.post(f"/api/tables/{tid}/dreams/me/moves", headers=me(tokens["Ann"]), json={"move": guess_for(st, "Ann")})
    assert again.status_code == 409 and "locked" in again.json()["detail"]["reason"]
    client.post(f"/api/tables/{tid}/dreams/me/moves", headers=me(tokens["Ben"]), json={"move": guess_for(st, "Ben")})
    public = client.get(f"/api/tables/{tid}").json()
    assert public["view"]["results"] == [] and public["view"]["guessed"] == ["Ann", "Ben"]


def test_public_api_never_shows_a_secret_before_the_reveal(client, table):
    tid, tokens = table
    st = state(client, tid)
    client.post(f"/api/tables/{tid}/dreams/me/moves", headers=me(tokens["Ann"]), json={"move": guess_for(st, "Ann")})
    public = client.get(f"/api/tables/{tid}")
    text = public.text
    for secret in secrets_of(st):
        assert secret not in text, secret
    assert "Ann has locked a guess" in public.json()["history"]
    assert public.json()["legal_moves"] == []
    with client.websocket_connect(f"ws://127.0.0.1/api/tables/{tid}/live") as ws:
        pushed = json.dumps(ws.receive_json())
    assert not [s for s in secrets_of(st) if s in pushed]


def test_shared_screen_cannot_make_a_secret_move(client, table):
    tid, _ = table
    st = state(client, tid)
    for p in PLAYERS:
        r = client.post(f"/api/tables/{tid}/moves", json={"move": guess_for(st, p)})
        assert r.status_code == 403 and r.json()["detail"]["reason"] == f"this move is made on {p}'s own link"


def test_stored_event_log_stays_hidden_after_a_restart(db, client, table):
    tid, tokens = table
    st = state(client, tid)
    client.post(f"/api/tables/{tid}/dreams/me/moves", headers=me(tokens["Ann"]), json={"move": guess_for(st, "Ann")})
    raw = [ev.text for ev in client.app.state.tables.store.events(tid)]
    assert any(t.startswith("deal vision") for t in raw)  # the truth is on disk ...
    client.app.state.tables.store.close()  # one server per event log: the first one stops
    with TestClient(base_url="http://127.0.0.1", app=create_app(db)) as again:  # ... and a server that replays it keeps it hidden
        text = again.get(f"/api/tables/{tid}").text
        assert not [s for s in secrets_of(st) if s in text]
        assert again.get(f"/api/tables/{tid}/dreams/me", headers=me(tokens["Ann"])).json()["view"]["me"]["guess"]
        assert again.post(f"/api/tables/{tid}/dreams/links/Cat").status_code == 403  # set-up is over


def test_links_are_shown_once_and_only_during_set_up(client):
    tid = new_table(client)
    listing = client.get(f"/api/tables/{tid}/dreams/links").json()
    assert listing == {"open": True, "players": [{"player": p, "shown": False} for p in PLAYERS]}
    first = client.post(f"/api/tables/{tid}/dreams/links/Ann")
    assert first.status_code == 200 and first.json()["url"].endswith(first.json()["path"])
    token = first.json()["path"].split("#")[1]
    assert token == token_for(client.app.state.tables.keys, tid, "Ann")
    assert token not in client.get(f"/api/tables/{tid}/dreams/links").text
    second = client.post(f"/api/tables/{tid}/dreams/links/Ann")
    assert second.status_code == 403 and token not in second.text
    assert client.post(f"/api/tables/{tid}/dreams/links/Zed").status_code == 404
    client.post(f"/api/tables/{tid}/moves", json={"move": "random"})
    client.post(f"/api/tables/{tid}/moves", json={"move": "random"})
    late = client.post(f"/api/tables/{tid}/dreams/links/Ben")
    assert late.status_code == 403 and "dreams/" not in late.text
    assert client.get(f"/api/tables/{tid}/dreams/links").json()["open"] is False


def test_other_games_have_no_dreams_links(client):
    r = client.post("/api/tables", json={"game": "quarx", "players": ["Ann", "Ben"], "seed": 1})
    tid = r.json()["id"]
    assert client.post(f"/api/tables/{tid}/dreams/links/Ann").status_code == 404
    assert client.get(f"/api/tables/{tid}/dreams/me", headers=me(token_for(client.app.state.tables.keys, tid, "Ann"))).status_code == 404


@pytest.mark.parametrize("first", [{"token": None}, {"token": secrets.token_hex(32)}, {"token": "x"}, {"nothing": 1}, ["x"]])
def test_live_socket_refuses_bad_tokens_and_sends_nothing(client, table, first):
    tid, _ = table
    with client.websocket_connect(f"ws://127.0.0.1/api/tables/{tid}/dreams/me/live") as ws:
        ws.send_json(first)
        with pytest.raises(WebSocketDisconnect) as exc:
            ws.receive_json()
    assert exc.value.code == 4403


def test_live_socket_pushes_the_players_own_view(client, table):
    tid, tokens = table
    st = state(client, tid)
    with client.websocket_connect(f"ws://127.0.0.1/api/tables/{tid}/dreams/me/live") as ws:
        ws.send_json({"token": tokens["Ben"]})
        snap = ws.receive_json()
        assert snap["view"]["me"]["player"] == "Ben" and snap["view"]["me"]["guess"] is None
        client.post(f"/api/tables/{tid}/dreams/me/moves", headers=me(tokens["Ann"]), json={"move": guess_for(st, "Ann")})
        snap = ws.receive_json()
        assert snap["view"]["guessed"] == ["Ann"] and snap["view"]["me"]["player"] == "Ben"
        assert "Ann has locked a guess" in snap["history"]


def test_player_page_is_served_without_secrets(client, table):
    tid, _ = table
    r = client.get(f"/dreams/{tid}")
    assert r.status_code == 200 and "text/html" in r.headers["content-type"]
    assert "Ann" not in r.text


def test_public_undo_does_not_take_back_a_locked_guess(client, table):
    tid, tokens = table
    st = state(client, tid)
    client.post(f"/api/tables/{tid}/dreams/me/moves", headers=me(tokens["Ann"]), json={"move": guess_for(st, "Ann")})
    r = client.post(f"/api/tables/{tid}/undo")
    assert r.status_code == 409 and "guesses" not in r.text


def test_public_undo_does_not_echo_the_deal(client):
    tid = new_table(client)
    client.post(f"/api/tables/{tid}/moves", json={"move": "random"})
    client.post(f"/api/tables/{tid}/moves", json={"move": "random"})
    r = client.post(f"/api/tables/{tid}/undo")
    assert "deal vision" not in r.text


def test_real_markers_are_entered_on_own_links_only(client):
    tid = new_table(client)
    tokens = {p: link_token(client, tid, p) for p in PLAYERS}
    client.post(f"/api/tables/{tid}/moves", json={"move": "dreams 1 2 3 4"})
    assert client.post(f"/api/tables/{tid}/moves", json={"move": "Ann marker 2"}).status_code == 403
    assert client.post(f"/api/tables/{tid}/dreams/me/moves", headers=me(tokens["Ben"]), json={"move": "Ann marker 2"}).status_code == 403
    r = client.post(f"/api/tables/{tid}/dreams/me/moves", headers=me(tokens["Ann"]), json={"move": "Ann marker 2"})
    assert r.status_code == 200 and r.json()["view"]["me"]["marker"] == "2"
    ben = client.get(f"/api/tables/{tid}/dreams/me", headers=me(tokens["Ben"])).json()
    assert ben["view"]["me"]["marker"] is None and "Ann marker" not in json.dumps(ben)
    assert "Ann marker 2" not in client.get(f"/api/tables/{tid}").text
    assert client.post(f"/api/tables/{tid}/moves", json={"move": "random"}).status_code == 409  # the rest is in hands
    for p, m in (("Ben", "mortal"), ("Cat", "2")):
        client.post(f"/api/tables/{tid}/dreams/me/moves", headers=me(tokens[p]), json={"move": f"{p} marker {m}"})
    assert (state(client, tid).phase, state(client, tid).mortal) == ("stars", "Ben")


def test_a_player_may_place_their_own_star_from_their_link_only(client):
    tid = new_table(client)
    tokens = {p: link_token(client, tid, p) for p in ("Ann", "Ben")}
    for _ in range(2):
        client.post(f"/api/tables/{tid}/moves", json={"move": "random"})
    r = client.post(f"/api/tables/{tid}/dreams/me/moves", headers=me(tokens["Ben"]), json={"move": "Ann places grey at 0.5 0.5"})
    assert r.status_code == 403 and state(client, tid).stars == []
    r = client.post(f"/api/tables/{tid}/dreams/me/moves", headers=me(tokens["Ann"]), json={"move": "Ann places grey at 0.5 0.5"})
    assert r.status_code == 200 and r.json()["view"]["me"]["player"] == "Ann" and len(r.json()["view"]["stars"]) == 1
    r = client.post(f"/api/tables/{tid}/dreams/me/moves", headers=me(tokens["Ann"]), json={"move": "Ann places clear at 0.5 0.5"})
    assert r.status_code == 409 and "Ben's turn" in r.json()["detail"]["reason"]
    assert client.post(f"/api/tables/{tid}/dreams/me/moves", json={"move": "Ann places clear at 0.5 0.5"}).status_code == 403


def test_the_public_seed_does_not_foretell_the_deal(client):
    from rules.core.match import Match
    from rules.dreams.engine import DreamsEngine

    foretold = 0
    for _ in range(5):
        snap = client.post("/api/tables", json={"game": "dreams", "players": PLAYERS}).json()
        tid = snap["id"]
        for _ in range(2):
            client.post(f"/api/tables/{tid}/moves", json={"move": "random"})
        shadow = Match(DreamsEngine(), PLAYERS, snap["options"], snap["seed"])
        shadow.play("random")
        shadow.play("random")
        real = state(client, tid)
        foretold += (shadow.state.mortal, shadow.state.vision) == (real.mortal, real.vision)
    assert foretold < 5  # by luck at most now and then, never every time


def test_fuzzed_tokens_and_moves_learn_nothing(tmp_path):
    from hypothesis import given, settings
    from hypothesis import strategies as st

    with TestClient(base_url="http://127.0.0.1", app=create_app(tmp_path / "fuzz.sqlite")) as c:
        tid = new_table(c)
        real = {p: link_token(c, tid, p) for p in PLAYERS}
        to_guessing(c, tid)
        secret_words = secrets_of(state(c, tid))
        latin1 = st.text(st.characters(min_codepoint=32, max_codepoint=255), max_size=80)

        @settings(derandomize=True, max_examples=60, deadline=None)
        @given(token=latin1 | st.sampled_from(list(real.values())).map(lambda t: t[:-1] + "0"), move=latin1)
        def probe(token, move):
            if token in real.values():
                return
            headers = {"X-Player-Token": token.encode("latin-1")}
            for r in (c.get(f"/api/tables/{tid}/dreams/me", headers=headers),
                      c.post(f"/api/tables/{tid}/dreams/me/moves", headers=headers, json={"move": move or "x"})):
                assert r.status_code in (403, 422), r.text
                assert not [s for s in secret_words if s in r.text]
            assert state(c, tid).guesses == {}

        probe()
