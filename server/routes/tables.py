"""The API every game shares: games, tables, moves, undo, live updates."""
from __future__ import annotations

from typing import Literal

from fastapi import APIRouter, Request, WebSocket
from pydantic import BaseModel, Field, field_validator
from starlette.concurrency import run_in_threadpool

from rules.registry import ENGINES
from server.live import push_snapshots
from server.service import TableBroken, TableNotFound, TableService

router = APIRouter(prefix="/api")


class NewTable(BaseModel):
    game: str = Field(min_length=1, max_length=32)
    players: list[str] = Field(min_length=1, max_length=12)
    seed: int | None = Field(default=None, ge=0, le=2**63 - 1, strict=True)  # strict: `true` is not 1
    options: dict = Field(default_factory=dict)

    @field_validator("players")
    @classmethod
    def _names(cls, players: list[str]) -> list[str]:
        return [p.strip() for p in players]


class MoveIn(BaseModel):
    move: str = Field(min_length=1, max_length=500)
    # Who typed it; "camera", "player" and "demo" are the server's own and cannot be claimed.
    source: Literal["api", "page"] = "api"
    # Optional: a client that may retry sends an id; a repeat gets the first answer (with "repeated": true).
    move_id: str | None = Field(default=None, min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_.:-]+$")


def tables(request: Request) -> TableService:
    return request.app.state.tables


@router.get("/games")
def list_games() -> list[dict]:
    """The games this server plays."""
    return [
        {"name": e.name, "title": e.title, "min_players": e.min_players, "max_players": e.max_players, "options": e.options_help}
        for e in ENGINES.values()
    ]


@router.get("/tables")
def list_tables(request: Request) -> list[dict]:
    # From the records alone: listing a café's thousand tables loads none of them.
    return [{"id": rec.id, "game": rec.game, "players": rec.players, "created": rec.created}
            for rec in tables(request).records()]


@router.post("/tables", status_code=201)
async def create_table(body: NewTable, request: Request) -> dict:
    svc = tables(request)
    tid = await run_in_threadpool(svc.create, body.game, body.players, body.options, body.seed)
    snap = await run_in_threadpool(svc.snapshot, tid)
    # Only this answer carries it: the page that created the table keeps it to re-issue private links.
    snap["creator_token"] = svc.creator_token(tid)
    return snap


@router.get("/tables/{table_id}")
async def get_table(table_id: str, request: Request) -> dict:
    return await run_in_threadpool(tables(request).snapshot, table_id)


@router.post("/tables/{table_id}/moves")
async def post_move(table_id: str, body: MoveIn, request: Request) -> dict:
    return await run_in_threadpool(tables(request).play, table_id, body.move, body.source, None, body.move_id)


@router.post("/tables/{table_id}/undo")
async def post_undo(table_id: str, request: Request) -> dict:
    return await run_in_threadpool(tables(request).undo, table_id)


class ChoiceIn(BaseModel):
    candidate: int = Field(ge=0, le=100)


@router.post("/tables/{table_id}/camera/choose")
async def choose_candidate(table_id: str, body: ChoiceIn, request: Request) -> dict:
    """Play the camera candidate a person picked with one click."""
    return await run_in_threadpool(tables(request).choose, table_id, body.candidate)


@router.websocket("/tables/{table_id}/live")
async def live(ws: WebSocket, table_id: str) -> None:
    """The public snapshot now and after every change."""
    svc: TableService = ws.app.state.tables
    try:
        queue = svc.subscribe(table_id)
    except (TableNotFound, TableBroken):
        await ws.close(code=4404, reason="no such table")
        return
    await ws.accept()
    await push_snapshots(ws, svc, table_id, queue)
