"""\"Teach it your dice\": photos, corrections and learning over HTTP (see server.teaching).

Every state-changing route is a POST, PATCH or DELETE, so the origin guard (server.security)
applies to each; refusals have the documented shape, with the rule "teaching".
"""
from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, HTTPException, Request, UploadFile
from fastapi.responses import Response
from pydantic import BaseModel, Field
from starlette.concurrency import run_in_threadpool

from server.security import UPLOAD_LIMIT
from server.teaching import TeachingSession, TeachRefused
from vision.detector.errors import BadImageError
from vision.detector.image_io import decode_image_bytes

router = APIRouter(prefix="/api/teach")
Coordinate = Annotated[float, Field(allow_inf_nan=False, ge=-1e6, le=1e6)]
Value = Annotated[int, Field(ge=1, le=6, strict=True)]
Colour = Annotated[str, Field(min_length=1, max_length=20)]


def _session(request: Request) -> TeachingSession:
    return request.app.state.teaching


def _refused(exc: TeachRefused) -> HTTPException:
    return HTTPException(exc.status, detail={"reason": exc.reason, "rule": exc.rule})


async def _call(fn, *args):
    """Run a session method off the event loop; its refusals become documented HTTP answers."""
    try:
        return await run_in_threadpool(fn, *args)
    except TeachRefused as exc:
        raise _refused(exc) from None


class CorrectionIn(BaseModel):
    value: Value | None = Field(default=None, description="the die's top value, 1..6 (omit: unchanged)")
    colour: Colour | None = Field(default=None, description="one colour word, or null for none (omit: unchanged)")


class NewDieIn(BaseModel):
    box: tuple[Coordinate, Coordinate, Coordinate, Coordinate] = Field(description="x1, y1, x2, y2 in the photo's pixels")
    value: Value
    colour: Colour | None = None


@router.get("")
def teach_state(request: Request) -> dict:
    """The session: photos with their dice, learning progress and result, the active profile."""
    return _session(request).state()


@router.post("/photos/camera", status_code=201)
async def photo_from_camera(request: Request) -> dict:
    """Take the camera's newest frame as a photo; the reader proposes each die."""
    feed = request.app.state.camera
    if feed is None:
        raise HTTPException(404, detail={"reason": "this server runs without a camera source: upload a photo",
                                         "rule": "teaching"})
    _, frame = feed.source.latest()
    if frame is None:
        raise HTTPException(503, detail={"reason": "no camera picture yet", "rule": None})
    return await _call(_session(request).propose, frame, "camera")


@router.post("/photos/upload", status_code=201)
async def photo_from_upload(image: UploadFile, request: Request) -> dict:
    """Take an uploaded photo (JPEG, PNG, WebP or BMP, at most 20 MiB); the reader proposes each die."""
    data = await image.read(UPLOAD_LIMIT + 1)
    if len(data) > UPLOAD_LIMIT:
        raise HTTPException(413, detail={"reason": f"the photo is larger than {UPLOAD_LIMIT // 2**20} MB",
                                         "rule": "teaching"})
    try:
        frame = await run_in_threadpool(decode_image_bytes, data)
    except BadImageError as exc:
        raise HTTPException(400, detail={"reason": str(exc), "rule": None}) from None
    return await _call(_session(request).propose, frame, image.filename or "upload")


@router.get("/photos/{photo_id}/image.jpg")
def photo_image(photo_id: int, request: Request) -> Response:
    """The photo as the reader saw it (scaled to at most 1920 pixels); boxes are in its pixels."""
    try:
        return Response(_session(request).jpeg(photo_id), media_type="image/jpeg")
    except TeachRefused as exc:
        raise _refused(exc) from None


@router.delete("/photos/{photo_id}")
async def remove_photo(photo_id: int, request: Request) -> dict:
    await _call(_session(request).remove_photo, photo_id)
    return _session(request).state()


@router.post("/photos/{photo_id}/dice", status_code=201)
async def add_die(photo_id: int, body: NewDieIn, request: Request) -> dict:
    """A die the reader missed: its box, value and (optionally) colour."""
    return await _call(_session(request).add_die, photo_id, body.box, body.value, body.colour)


@router.patch("/photos/{photo_id}/dice/{die_id}")
async def correct_die(photo_id: int, die_id: int, body: CorrectionIn, request: Request) -> dict:
    """Correct a die's value and/or colour (a field left out stays as it is)."""
    return await _call(_session(request).correct, photo_id, die_id, body.value, body.colour,
                       "colour" in body.model_fields_set)


@router.delete("/photos/{photo_id}/dice/{die_id}")
async def remove_die(photo_id: int, die_id: int, request: Request) -> dict:
    """A false die: not a die, or not to be taught."""
    await _call(_session(request).remove_die, photo_id, die_id)
    return {"removed": die_id}


@router.post("/learn", status_code=202)
async def learn(request: Request) -> dict:
    """Start learning from the photos (2 at least, every die's value said); poll GET /api/teach."""
    await _call(_session(request).start_learning)
    return _session(request).state()
