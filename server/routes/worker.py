"""Edge camera workers: a camera at each table reads it next to the webcam, the servers play the moves.

A worker (`tablesight camera`, server.edge_worker) runs the frame path up to the stabiliser
on its own machine and sends the server what it reads: its state (for the page's camera panel),
each stable view (the server reconciles it with the table's log and plays, asks or says why
not), and now and then its annotated picture. The central servers do no vision work.

Every worker call carries the table's camera token (header X-Camera-Token): a MAC of the table id
under the server's "camera token" key, so any server process on the same database checks it.
The token plays camera moves at that table only; the page that created the table (its creator
token, as for Dreams links) is the only one that is shown it, by POST (so the origin guard
applies: another site's page cannot ask for it).
"""
from __future__ import annotations

import asyncio
import hmac
import time

from fastapi import APIRouter, Header, HTTPException, Request
from fastapi.responses import Response, StreamingResponse
from pydantic import BaseModel, Field
from starlette.concurrency import run_in_threadpool

from server.camera_play import act_on_view
from server.routes.camera import BOUNDARY, RESEND_EVERY
from server.service import AccessDenied, TableService
from vision.waiting import hides_counts, waiting_for

router = APIRouter(prefix="/api/tables/{table_id}")
PICTURE_LIMIT = 1024 * 1024  # one annotated JPEG; server.security refuses a larger body before reading it
JPEG_MAGIC = b"\xff\xd8\xff"
ID_PATTERN = r"^[A-Za-z0-9_.:-]+$"



def _service(request: Request) -> TableService:
    return request.app.state.tables


def _screen(svc: TableService, table_id: str) -> dict:
    """What the worker's picture may say now, from the public view: what the camera waits for, and
    whether the rules hide the counts on the shared screen (the worker holds no game state)."""
    match = svc.match(table_id)
    view = match.engine.view(match.state, None)
    return {"waiting": waiting_for(match.engine.name, view, match.engine.is_over(match.state)),
            "hide_counts": hides_counts(view)}


def camera_token(svc: TableService, table_id: str) -> str:
    """The table's camera token (derived, never stored)."""
    return svc.keys.mac("camera token", table_id)


def _check(svc: TableService, table_id: str, token: str | None) -> None:
    svc.table(table_id)  # 404 for a table that is not there, before the token is looked at
    if token is None or not hmac.compare_digest(camera_token(svc, table_id).encode(),
                                                token.encode("utf-8", "replace")):
        raise AccessDenied("a camera worker needs this table's camera token (shown on the table's page to whoever created it)")


@router.post("/camera/token")
async def show_camera_token(table_id: str, request: Request, x_creator_token: str | None = Header(default=None)) -> dict:
    """The table's camera token and the command that starts a worker with it; only with the creator token."""
    svc = _service(request)
    await run_in_threadpool(svc.table, table_id)
    if x_creator_token is None or not hmac.compare_digest(svc.creator_token(table_id).encode(),
                                                          x_creator_token.encode("utf-8", "replace")):
        raise AccessDenied("only the page that created this table is shown its camera token")
    token = camera_token(svc, table_id)
    server = str(request.base_url).rstrip("/")
    return {"token": token,
            "command": f"TABLESIGHT_CAMERA_TOKEN={token} tablesight camera --server {server} --table {table_id} --source 0"}


class WorkerStatus(BaseModel):
    state: str = Field(min_length=1, max_length=16, pattern=r"^[a-z]+$")
    detail: str = Field(default="", max_length=300)
    last_view: dict | None = None
    applied: int = Field(default=0, ge=0, le=10**9)
    fps: float = Field(default=0.0, ge=0, le=1000)
    cpu_ms: float = Field(default=0.0, ge=0, le=10**6, description="CPU milliseconds per frame on the worker")
    source: str = Field(default="", max_length=200)


@router.post("/worker/status")
async def worker_status(table_id: str, body: WorkerStatus, request: Request,
                        x_camera_token: str | None = Header(default=None)) -> dict:
    """The worker's state, for the table's camera panel; answers what the worker needs to read the table."""
    svc = _service(request)
    await run_in_threadpool(_check, svc, table_id, x_camera_token)
    note = {"watching": True, "worker": True, **body.model_dump(), "heard": time.time()}
    await run_in_threadpool(svc.set_camera_note, table_id, note)
    rec = svc.table(table_id).record
    return {"game": rec.game, "players": list(rec.players), **await run_in_threadpool(_screen, svc, table_id)}


class ViewIn(BaseModel):
    view_id: str = Field(min_length=1, max_length=48, pattern=ID_PATTERN)
    view: dict


@router.post("/worker/views")
async def worker_view(table_id: str, body: ViewIn, request: Request,
                      x_camera_token: str | None = Header(default=None)) -> dict:
    """A stable view: reconciled with the table's log, then played, asked (one click on the page) or
    refused in words. Sending the same `view_id` again plays nothing ("repeated")."""
    svc = _service(request)
    await run_in_threadpool(_check, svc, table_id, x_camera_token)
    try:
        acted = await run_in_threadpool(act_on_view, svc, table_id, body.view, body.view_id)
    except ValueError as exc:
        raise HTTPException(422, detail={"reason": str(exc), "rule": "table view"}) from None
    return {"status": acted.status, "state": acted.state, "detail": acted.detail, "moves": acted.moves,
            "candidates": acted.candidates, **await run_in_threadpool(_screen, svc, table_id)}


@router.put("/worker/picture", status_code=204)
async def worker_picture(table_id: str, request: Request, x_camera_token: str | None = Header(default=None)) -> Response:
    """The worker's annotated picture (one JPEG, at most 1 MiB), shown on the table's page."""
    svc = _service(request)
    await run_in_threadpool(_check, svc, table_id, x_camera_token)
    jpeg = await request.body()  # bounded by the guard (server.security) before it is read
    if len(jpeg) > PICTURE_LIMIT or not jpeg.startswith(JPEG_MAGIC):
        raise HTTPException(400, detail={"reason": "the picture must be one JPEG of at most 1 MiB", "rule": "picture"})
    await run_in_threadpool(svc.board.put_picture, table_id, jpeg)
    return Response(status_code=204)


@router.get("/camera/frame.jpg")
async def table_picture(table_id: str, request: Request) -> Response:
    """The newest picture of the table's camera worker."""
    svc = _service(request)
    await run_in_threadpool(svc.table, table_id)
    found = await run_in_threadpool(svc.board.picture, table_id)
    if found is None:
        raise HTTPException(404, detail={"reason": "no camera worker has sent a picture of this table", "rule": None})
    return Response(found[1], media_type="image/jpeg", headers={"Cache-Control": "no-store"})


@router.get("/camera/stream.mjpg")
async def table_stream(table_id: str, request: Request) -> StreamingResponse:
    """The worker's pictures as MJPEG, like the local camera's stream (polled from the board); 404
    until a worker has sent one."""
    svc = _service(request)
    await run_in_threadpool(svc.table, table_id)
    if await run_in_threadpool(svc.board.picture, table_id) is None:
        raise HTTPException(404, detail={"reason": "no camera worker has sent a picture of this table", "rule": None})

    async def parts():
        sent, idle, period = -1, 0.0, 0.2
        while not await request.is_disconnected():
            found = await run_in_threadpool(svc.board.picture, table_id)
            if found is not None and (found[0] != sent or idle >= RESEND_EVERY):
                sent, idle = found[0], 0.0
                jpeg = found[1]
                yield (f"--{BOUNDARY}\r\nContent-Type: image/jpeg\r\nContent-Length: {len(jpeg)}\r\n\r\n").encode() + jpeg + b"\r\n"
            await asyncio.sleep(period)
            idle += period

    return StreamingResponse(parts(), media_type=f"multipart/x-mixed-replace; boundary={BOUNDARY}")
