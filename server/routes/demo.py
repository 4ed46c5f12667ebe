"""The demo: bundled clips played as tables, with the demo typing what no camera can see."""
from __future__ import annotations

from fastapi import APIRouter, HTTPException, Request
from pydantic import BaseModel, Field, field_validator
from starlette.concurrency import run_in_threadpool

from server.demo import DemoDriver, DemoUnavailable
from vision.sources import demo_clips

router = APIRouter(prefix="/api/demo")


class DemoIn(BaseModel):
    players: list[str] | None = Field(default=None, min_length=1, max_length=12)

    @field_validator("players")
    @classmethod
    def _names(cls, players: list[str] | None) -> list[str] | None:
        return None if players is None else [p.strip() for p in players]


def _driver(request: Request) -> DemoDriver:
    driver = request.app.state.demo
    if driver is None:
        raise HTTPException(409, detail={"reason": "the demo needs the bundled demo footage as the camera: "
                                                   "this server runs without a camera source", "rule": "demo"})
    return driver


@router.get("")
def list_demo(request: Request) -> dict:
    """The bundled clips (game, players, length), whether this server can play them, and the run in progress."""
    driver = request.app.state.demo
    reason = ""
    try:
        clips = _driver(request).capture().clips
    except (HTTPException, DemoUnavailable) as exc:
        reason = exc.detail["reason"] if isinstance(exc, HTTPException) else str(exc)
        clips = demo_clips()
    out = {"available": not reason, "reason": reason, "clips": [c.info() for c in clips]}
    out.update(driver.status() if driver is not None and not reason else {"run": None, "playing": False, "position": None})
    return out


@router.post("/{game}", status_code=201)
async def start_demo(game: str, request: Request, body: DemoIn | None = None) -> dict:
    """A new table playing `game`'s clip from its start, watched by the camera."""
    driver = _driver(request)
    try:
        tid = await run_in_threadpool(driver.start, game, body.players if body else None)
    except DemoUnavailable as exc:
        raise HTTPException(409, detail={"reason": str(exc), "rule": "demo"}) from None
    except LookupError as exc:
        raise HTTPException(404, detail={"reason": str(exc), "rule": "demo"}) from None
    snap = await run_in_threadpool(request.app.state.tables.snapshot, tid)
    return {"table": tid, "game": game, "snapshot": snap}
