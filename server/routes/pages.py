"""The page: plain HTML/CSS/JS, no build step."""
from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import FileResponse

STATIC = Path(__file__).resolve().parent.parent / "static"
router = APIRouter()


@router.get("/", include_in_schema=False)
def home() -> FileResponse:
    return FileResponse(STATIC / "index.html")


@router.get("/table/{table_id}", include_in_schema=False)
def table_page(table_id: str) -> FileResponse:
    return FileResponse(STATIC / "index.html")


@router.get("/setup", include_in_schema=False)
def setup_page() -> FileResponse:
    """The camera set-up wizard."""
    return FileResponse(STATIC / "setup.html")
