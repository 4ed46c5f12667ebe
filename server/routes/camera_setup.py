"""The camera set-up wizard's API: list the cameras, preview one, pick it, check its picture,
test a reading, save the set-up per camera; and which game the live picture is for.

Every id a client sends is one `server.camera_sources` listed; nothing else reaches OpenCV.
"""
from __future__ import annotations

import base64
import json

import cv2
import numpy as np
from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import Response
from pydantic import BaseModel, Field
from starlette.concurrency import run_in_threadpool

from rules.core.names import check_name
from rules.core import RulesError
from server import camera_settings
from server.camera_sources import list_sources, preview, resolve
from server.service import TableNotFound
from vision.calibration import Calibration
from vision.camera_check import check_picture
from vision.games.readers import READERS
from vision.pipeline import ReadContext
from vision.reading_words import describe
from vision.scene_words import draw_scene, labels_for
from vision.sources import FrameSource, SourceSpec

router = APIRouter(prefix="/api/camera")
DEFAULT_PLAYERS = {"quarx": ["Ann", "Ben"], "ubongo": ["Ann", "Ben"], "diceline": ["Ann", "Ben", "Cid"]}
MAX_PREVIEW_SIDE = 4096  # a camera that hands over a bigger frame is scaled down before encoding


def _need_feed(request: Request):
    feed = request.app.state.camera
    if feed is None:
        raise HTTPException(409, detail={"reason": "this server runs without a camera: start it with --source auto, "
                                                   "a webcam index or a video file", "rule": "camera"})
    return feed


def _camera_key(spec: SourceSpec) -> str:
    return f"{spec.kind}:{spec.target}"


def _frame(request: Request) -> np.ndarray:
    _, frame = _need_feed(request).source.latest()
    if frame is None:
        raise HTTPException(503, detail={"reason": "no camera picture yet: wait a moment", "rule": "camera"})
    return frame


def _jpeg(frame: np.ndarray, quality: int = 80) -> bytes:
    h, w = frame.shape[:2]
    if max(h, w) > MAX_PREVIEW_SIDE:
        s = MAX_PREVIEW_SIDE / max(h, w)
        frame = cv2.resize(frame, (int(w * s), int(h * s)), interpolation=cv2.INTER_AREA)
    ok, buf = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, quality])
    if not ok:
        raise HTTPException(500, detail={"reason": "the picture could not be encoded", "rule": None})
    return buf.tobytes()


def _current(request: Request) -> SourceSpec | None:
    feed = request.app.state.camera
    return None if feed is None else feed.source.spec


@router.get("/sources")
async def camera_sources(request: Request) -> dict:
    """The cameras to choose from: webcams that answer (index and name), the demo, its clips."""
    current = _current(request)
    choices = await run_in_threadpool(list_sources, current)
    in_use = next((c.id for c in choices if c.in_use), None)
    return {"sources": [c.to_json() for c in choices], "current": in_use}


@router.get("/preview.jpg")
async def camera_preview(request: Request, source: str) -> Response:
    """One picture from a listed camera (the live one's newest frame when it is the one in use)."""
    current = _current(request)
    try:
        spec = resolve(source, current)
    except ValueError as exc:
        raise HTTPException(400, detail={"reason": str(exc), "rule": "camera"}) from None
    live = None
    if current is not None and (spec.kind, spec.target) == (current.kind, current.target):
        live = request.app.state.camera.source.latest()[1]
    frame = await run_in_threadpool(preview, spec, live)
    if frame is None:
        raise HTTPException(404, detail={"reason": f"{source} gives no picture (unplugged, or in use by another program?)", "rule": "camera"})
    return Response(_jpeg(frame), media_type="image/jpeg", headers={"Cache-Control": "no-store"})


class SourceIn(BaseModel):
    source: str = Field(min_length=1, max_length=100)


@router.post("/source")
async def choose_source(body: SourceIn, request: Request) -> dict:
    """Show the camera `source` (an id from /sources) from now on; its saved calibration comes with it."""
    feed = _need_feed(request)
    try:
        spec = resolve(body.source, feed.source.spec)
    except ValueError as exc:
        raise HTTPException(400, detail={"reason": str(exc), "rule": "camera"}) from None
    if (spec.kind, spec.target) != (feed.source.spec.kind, feed.source.spec.target):
        await run_in_threadpool(feed.switch, FrameSource(spec))
        watcher = request.app.state.watcher
        if watcher is not None:
            raw = request.app.state.tables.store.get_meta(f"calibration:{spec.kind}:{spec.target}")
            watcher.calibration = None if raw is None else Calibration.from_json(json.loads(raw))
    return {"source": body.source, "camera": _camera_key(spec),
            "settings": camera_settings.load(request.app.state.tables.store, _camera_key(spec)).to_json()}


@router.get("/check")
async def camera_check(request: Request) -> dict:
    """Resolution, focus, exposure and framing of the live picture, each with what to fix."""
    frame = _frame(request)
    watcher = request.app.state.watcher
    corners = None if watcher is None or watcher.calibration is None else watcher.calibration.corners
    result = await run_in_threadpool(check_picture, frame, corners)
    return result.to_json()


class TestReadingIn(BaseModel):
    game: str = Field(min_length=1, max_length=32)
    players: list[str] | None = Field(default=None, min_length=1, max_length=6)


@router.post("/test-reading")
async def test_reading(body: TestReadingIn, request: Request) -> dict:
    """Read the table in view now as `game`: what was read in words and the picture with labels."""
    reader = READERS.get(body.game)
    if reader is None:
        raise HTTPException(409, detail={"reason": f"the camera does not read {body.game[:32]!r}: "
                                                   f"it reads {', '.join(sorted(READERS))}", "rule": "camera"})
    players = body.players or DEFAULT_PLAYERS[body.game]
    try:
        for name in players:
            check_name(name)
    except RulesError as exc:
        raise HTTPException(400, detail={"reason": exc.reason, "rule": exc.rule}) from None
    frame = _frame(request)
    watcher = request.app.state.watcher
    detector = None if watcher is None else await run_in_threadpool(watcher.detector)
    calibration = None if watcher is None else watcher.calibration
    profile = None if request.app.state.profiles is None else request.app.state.profiles.get()
    context = ReadContext(detector, calibration, tuple(players), profile)
    reading = await run_in_threadpool(reader.read, frame, context)
    labels = labels_for(body.game, reading.drawables)
    picture = draw_scene(frame, labels, headline=f"test reading: {body.game}")
    return {"game": body.game, "players": players, "said": describe(body.game, reading.view),
            "labels": [lab.to_json() for lab in labels], "view": reading.view,
            "picture": "data:image/jpeg;base64," + base64.b64encode(_jpeg(picture)).decode()}


class SettingsIn(BaseModel):
    set_up: bool = True
    game: str | None = Field(default=None, max_length=32)
    check: dict | None = Field(default=None, description="the last /check answer, as the wizard showed it")


@router.get("/settings")
def get_settings(request: Request) -> dict:
    """What the wizard saved for the camera in use (`set_up` false: the first run for it)."""
    spec = _current(request)
    if spec is None:
        return {"camera": None, "set_up": False, "check": None, "game": None, "saved_at": 0}
    return camera_settings.load(request.app.state.tables.store, _camera_key(spec)).to_json()


@router.post("/settings")
def save_settings(body: SettingsIn, request: Request) -> dict:
    """Save the wizard's result for the camera in use."""
    spec = _current(request) or _need_feed(request).source.spec
    if body.game is not None and body.game not in READERS:
        raise HTTPException(400, detail={"reason": f"no camera reader for game {body.game!r}", "rule": "camera"})
    if body.check is not None and len(json.dumps(body.check)) > 8192:
        raise HTTPException(400, detail={"reason": "the check is larger than any check this server makes", "rule": "camera"})
    settings = camera_settings.CameraSettings(_camera_key(spec), body.set_up, body.check, body.game)
    camera_settings.save(request.app.state.tables.store, _camera_key(spec), settings)
    return settings.to_json()


class FocusIn(BaseModel):
    table: str | None = Field(default=None, max_length=64)


@router.post("/focus")
def camera_focus(body: FocusIn, request: Request) -> dict:
    """The table page open now: the live picture shows only what its game uses (null: everything)."""
    watcher = request.app.state.watcher
    game = None
    if body.table is not None:
        try:
            game = request.app.state.tables.table(body.table).record.game
        except TableNotFound:
            raise HTTPException(404, detail={"reason": f"no table {body.table!r}", "rule": None}) from None
    if watcher is not None:
        watcher.focus_game = game
    return {"game": game}
