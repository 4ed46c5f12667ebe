"""Dreams' private player links: each player's own page shows their marker and takes their guess.

A link is /dreams/{table_id}#{token}; the token is a MAC under the server's "dreams link" key
(server.dreams_links: its own key, so no link can reproduce a deal's seed). The token travels in
the URL fragment (never sent to the server with the page, never in a Referer) and then in the
X-Player-Token header, or as the first message of the live WebSocket, so it stays out of access
logs. The URL holds no player name: the token alone says whose link it is.

Who may see a link: the shared screen hands each player's link out once, and only during set-up
(round 1, before any Gods marker is dealt or entered). At the table the players take turns at the
shared screen to open their own link, as they close their eyes while the stacks are mixed. Someone
who takes another's link is found out at once (that player cannot get theirs).

Re-issue: the page that created the table holds its creator token (the answer to POST
/api/tables). With it, a player's link can be issued again at any time (a link never taken, a
phone lost, a tab closed), and issuing it revokes the one before: the old link's page is closed
and its token refused from then on. So whoever re-issues someone else's link to peek is found out
the same way (that player's own link stops working). Generations live in the event log, so a
restart revives no revoked link.
"""
from __future__ import annotations

import asyncio
import hmac
import json
from pathlib import Path

from fastapi import APIRouter, Header, Request, WebSocket
from fastapi.responses import FileResponse
from pydantic import BaseModel, Field
from starlette.concurrency import run_in_threadpool
from starlette.websockets import WebSocketDisconnect

from rules.core.errors import RulesError
from rules.dreams.moves import PlaceStar
from server.dreams_links import LinkBook
from server.live import push_snapshots
from server.service import AccessDenied, TableNotFound, TableService

router = APIRouter()
PAGE = Path(__file__).resolve().parent.parent / "static" / "dreams" / "player.html"
DENIED = "this private link is not valid for this table"
AUTH_WAIT_S = 10.0  # a live socket that sends no token in this time is closed


class PlayerMove(BaseModel):
    move: str = Field(min_length=1, max_length=200)


def _service(request: Request) -> TableService:
    return request.app.state.tables


def link_book(svc: TableService) -> LinkBook:
    """The service's LinkBook (made on first use: this router is only mounted when Dreams is installed)."""
    book = getattr(svc, "dreams_links", None)
    if book is None:
        book = svc.dreams_links = LinkBook(svc.store, svc.keys)
    return book


def _players(svc: TableService, table_id: str) -> list[str]:
    """The players of a Dreams table; TableNotFound for any other id, so no other game answers here."""
    record = svc.table(table_id).record
    if record.game != "dreams":
        raise TableNotFound(f"no Dreams table {table_id!r}")
    return list(record.players)


def player_for(svc: TableService, table_id: str, token: str | None) -> str:
    """The player whose token this is; AccessDenied (always the same words) otherwise."""
    players = _players(svc, table_id)
    found = link_book(svc).owner(table_id, players, token, svc.table(table_id).record.created)
    if found is None:
        raise AccessDenied(DENIED)
    return found


class _SharedShown:
    """The players whose link was shown, kept in the shared database: with several server processes
    (PostgreSQL), a link shown through one must not be shown again through another."""

    def __init__(self, svc: TableService, table_id: str):
        self.store, self.table_id = svc.store, table_id

    def _key(self, player: str) -> str:
        return "dreams link shown:" + json.dumps([self.table_id, player])

    def __contains__(self, player: str) -> bool:
        return self.store.get_meta(self._key(player)) is not None

    def add(self, player: str) -> None:
        self.store.set_meta(self._key(player), "1")

    def claim(self, player: str) -> bool:
        return self.store.claim_meta(self._key(player), "1")


def _shown(request: Request, table_id: str):
    """Players whose link was shown (a set; for a shared database, the database's record of it)."""
    svc = _service(request)
    if svc.store.shared:
        return _SharedShown(svc, table_id)
    shown = getattr(request.app.state, "dreams_links_shown", None)
    if shown is None:
        shown = request.app.state.dreams_links_shown = {}
    return shown.setdefault(table_id, set())


def _setting_up(svc: TableService, table_id: str) -> bool:
    """True until the first Gods marker of the game is dealt or entered."""
    state = svc.match(table_id).state
    return state.round == 1 and state.phase in ("layout", "deal") and not state.markers and not state.void_deals


@router.get("/dreams/{table_id}", include_in_schema=False)
def player_page(table_id: str) -> FileResponse:
    """The player's phone page; it reads its token from the URL fragment."""
    return FileResponse(PAGE)


@router.get("/api/tables/{table_id}/dreams/links")
async def list_links(table_id: str, request: Request) -> dict:
    """Who has had their link already, and whether links can still be handed out (no tokens here)."""
    svc = _service(request)
    players = _players(svc, table_id)
    shown = _shown(request, table_id)
    return {"open": _setting_up(svc, table_id), "players": [{"player": p, "shown": p in shown} for p in players]}


@router.post("/api/tables/{table_id}/dreams/links/{player}")
async def show_link(
    table_id: str, player: str, request: Request, x_creator_token: str | None = Header(default=None)
) -> dict:
    """A player's private link: once during set-up, or again at any time with the creator token
    (which revokes the link before; the answer says "reissued": true)."""
    svc = _service(request)
    players = _players(svc, table_id)
    if player not in players:
        raise TableNotFound(f"no player {player!r} at this table")
    book = link_book(svc)
    shown = _shown(request, table_id)
    if x_creator_token is not None:
        if not hmac.compare_digest(svc.creator_token(table_id).encode(), x_creator_token.encode("utf-8", "replace")):
            raise AccessDenied("only the page that created this table can issue a link again")
        token = await run_in_threadpool(book.reissue, table_id, player)
        shown.add(player)
        svc.notify(table_id)  # the revoked link's live page closes now
        path = f"/dreams/{table_id}#{token}"
        return {"player": player, "path": path, "url": str(request.base_url).rstrip("/") + path, "reissued": True}
    if not _setting_up(svc, table_id):
        raise AccessDenied("links are handed out only before the first Gods markers are dealt; "
                           "the page that created the table can issue one again")
    first = shown.claim(player) if isinstance(shown, _SharedShown) else player not in shown
    if not first:
        raise AccessDenied(f"{player}'s link has been shown already; the page that created the table can issue it again")
    shown.add(player)
    path = f"/dreams/{table_id}#{book.token(table_id, player)}"
    return {"player": player, "path": path, "url": str(request.base_url).rstrip("/") + path, "reissued": False}


@router.get("/api/tables/{table_id}/dreams/me")
async def my_view(table_id: str, request: Request, x_player_token: str | None = Header(default=None)) -> dict:
    """The table as the link's player may see it: their marker, their guess, their moves."""
    svc = _service(request)
    player = player_for(svc, table_id, x_player_token)
    return await run_in_threadpool(svc.snapshot, table_id, player)


@router.post("/api/tables/{table_id}/dreams/me/moves")
async def my_move(
    table_id: str, body: PlayerMove, request: Request, x_player_token: str | None = Header(default=None)
) -> dict:
    """The link's player makes their own move: a secret one (a guess, the marker they were dealt), or their star."""
    svc = _service(request)
    player = player_for(svc, table_id, x_player_token)
    if _own_star(svc, table_id, body.move, player):
        # A star is public: it is played as the shared screen would, then shown as this player sees it.
        await run_in_threadpool(svc.play, table_id, body.move, "player", None)
        return await run_in_threadpool(svc.snapshot, table_id, player)  # a later version at worst: never a secret
    return await run_in_threadpool(svc.play, table_id, body.move, "player", player)


def _own_star(svc: TableService, table_id: str, text: str, player: str) -> bool:
    """True when `text` places a star of `player` (a public move a player may make from their phone)."""
    try:
        move = svc.match(table_id).engine.parse_move(svc.match(table_id).state, text)
    except RulesError:
        return False  # the service will refuse it in words
    return isinstance(move, PlaceStar) and move.player == player


@router.websocket("/api/tables/{table_id}/dreams/me/live")
async def my_live(ws: WebSocket, table_id: str) -> None:
    """After a first message {"token": ...}, the player's own snapshot now and after every change."""
    svc: TableService = ws.app.state.tables
    await ws.accept()
    try:
        first = await asyncio.wait_for(ws.receive_json(), AUTH_WAIT_S)
        player = player_for(svc, table_id, first.get("token") if isinstance(first, dict) else None)
    except TableNotFound:
        await ws.close(code=4404, reason="no such table")
        return
    except (AccessDenied, asyncio.TimeoutError, ValueError, KeyError, WebSocketDisconnect, RuntimeError):
        await _close(ws, 4403, DENIED)
        return
    token = first["token"]

    def still_valid() -> bool:  # a link issued again revokes this one, open pages included
        return link_book(svc).owner(table_id, [player], token, svc.table(table_id).record.created) == player

    await push_snapshots(ws, svc, table_id, svc.subscribe(table_id), player, still_valid)


async def _close(ws: WebSocket, code: int, reason: str) -> None:
    try:
        await ws.close(code=code, reason=reason)
    except RuntimeError:  # the client has gone already
        pass
