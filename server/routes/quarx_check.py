"""'How many spheres are there?': count a dropped photo or the camera picture."""
from __future__ import annotations

from fastapi import APIRouter, HTTPException, Request, UploadFile
from starlette.concurrency import run_in_threadpool

from server.detection import quarx_count

router = APIRouter(prefix="/api/quarx")
MAX_UPLOAD = 20 * 1024 * 1024


def _count(frame) -> dict:
    from vision.detector import NoModelError

    try:
        return quarx_count(frame)
    except NoModelError as exc:
        raise HTTPException(503, detail={"reason": str(exc), "rule": None}) from None


@router.post("/count")
async def count_photo(image: UploadFile) -> dict:
    """Count the spheres in an uploaded photo; 400 with a reason for anything that is not one."""
    from vision.detector import BadImageError, decode_image_bytes

    data = await image.read(MAX_UPLOAD + 1)
    if len(data) > MAX_UPLOAD:
        raise HTTPException(413, detail={"reason": f"the photo is larger than {MAX_UPLOAD // 2**20} MB", "rule": None})
    try:
        frame = await run_in_threadpool(decode_image_bytes, data)
    except BadImageError as exc:
        raise HTTPException(400, detail={"reason": str(exc), "rule": None}) from None
    result = await run_in_threadpool(_count, frame)
    result["image"] = image.filename
    return result


@router.post("/count-camera")
async def count_camera(request: Request) -> dict:
    """Count the spheres in the newest camera picture."""
    feed = request.app.state.camera
    if feed is None:
        raise HTTPException(404, detail={"reason": "this server runs without a camera source", "rule": None})
    _, frame = feed.source.latest()
    if frame is None:
        raise HTTPException(503, detail={"reason": "no camera picture yet", "rule": None})
    result = await run_in_threadpool(_count, frame)
    result["image"] = "camera"
    return result
