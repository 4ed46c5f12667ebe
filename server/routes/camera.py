"""The camera picture over MJPEG, and the camera's status."""
from __future__ import annotations

import asyncio

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import Response, StreamingResponse
from pydantic import BaseModel, Field

router = APIRouter(prefix="/api/camera")
BOUNDARY = "frame"
RESEND_EVERY = 1.0  # Chrome holds the last part of a multipart stream back until the next one


def _feed(request: Request):
    feed = request.app.state.camera
    if feed is None:
        raise HTTPException(404, detail={"reason": "this server runs without a camera source", "rule": None})
    return feed


@router.get("/status")
def camera_status(request: Request) -> dict:
    feed, watcher = request.app.state.camera, request.app.state.watcher
    status = {"source": None, "state": "off"} if feed is None else feed.status()
    status["watcher"] = None if watcher is None else watcher.status()
    return status


class WatchIn(BaseModel):
    table: str | None = Field(default=None, max_length=64)


@router.post("/watch")
def camera_watch(body: WatchIn, request: Request) -> dict:
    """Let the camera play the moves it sees on `table` (null: stop)."""
    watcher = request.app.state.watcher
    if watcher is None:
        raise HTTPException(409, detail={"reason": "hands-free play needs a camera: this server runs without a source", "rule": None})
    watcher.watch(body.table)
    return watcher.status()


class CalibrationIn(BaseModel):
    corners: list[tuple[float, float]] | None = Field(default=None, description="four clicked corners, any order")
    markers: bool = Field(default=False, description="find the printed corner markers instead")


def _calibration_key(request: Request) -> str:
    return f"calibration:{_feed(request).source.spec.kind}:{_feed(request).source.spec.target}"


@router.get("/calibration")
def get_calibration(request: Request) -> dict:
    """The board calibration saved for this camera, if any."""
    import json

    raw = request.app.state.tables.store.get_meta(_calibration_key(request))
    return {"calibration": None if raw is None else json.loads(raw)}


@router.post("/calibration")
def set_calibration(body: CalibrationIn, request: Request) -> dict:
    """Calibrate from four clicked corners or from the printed markers; saved per camera."""
    import json

    from vision.calibration import from_clicks, from_markers

    feed = _feed(request)
    try:
        if body.markers:
            _, frame = feed.source.latest()
            if frame is None:
                raise ValueError("no camera picture yet")
            cal = from_markers(frame)
        elif body.corners is not None:
            cal = from_clicks(body.corners)
        else:
            raise ValueError("send four 'corners' or 'markers': true")
    except ValueError as exc:
        raise HTTPException(400, detail={"reason": str(exc), "rule": "calibration"}) from None
    data = cal.to_json()
    request.app.state.tables.store.set_meta(_calibration_key(request), json.dumps(data))
    if request.app.state.watcher is not None:
        request.app.state.watcher.calibration = cal
    return {"calibration": data}


@router.get("/stream.mjpg")
async def camera_stream(request: Request) -> StreamingResponse:
    feed = _feed(request)

    async def parts():
        sent, idle = -1, 0.0
        while not await request.is_disconnected():
            version, jpeg = feed.jpeg()
            if jpeg is not None and (version != sent or idle >= RESEND_EVERY):
                sent, idle = version, 0.0
                yield (f"--{BOUNDARY}\r\nContent-Type: image/jpeg\r\nContent-Length: {len(jpeg)}\r\n\r\n").encode() + jpeg + b"\r\n"
            await asyncio.sleep(1 / 15)
            idle += 1 / 15

    return StreamingResponse(parts(), media_type=f"multipart/x-mixed-replace; boundary={BOUNDARY}")


@router.get("/frame.jpg")
def camera_frame(request: Request):
    """The newest picture as one JPEG (for tests and for a page that polls)."""
    _, jpeg = _feed(request).jpeg()
    if jpeg is None:
        raise HTTPException(503, detail={"reason": "no picture yet", "rule": None})
    return Response(jpeg, media_type="image/jpeg")
