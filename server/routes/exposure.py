"""What this server exposes, for the page's warning, and the error shape every route documents."""
from __future__ import annotations

from fastapi import APIRouter, Request
from pydantic import BaseModel

from server.security import AccessPolicy

router = APIRouter(prefix="/api")


class ErrorDetail(BaseModel):
    error: str
    reason: str
    rule: str | None


class ErrorBody(BaseModel):
    """Every refusal: what went wrong in words, and the rule it breaks (or null)."""

    detail: ErrorDetail


ERROR_RESPONSES: dict[int | str, dict] = {
    400: {"model": ErrorBody, "description": "Malformed: a body that is not JSON, a foreign Host header, a bad image"},
    403: {"model": ErrorBody, "description": "Refused: another origin, or a private move without its player's link"},
    404: {"model": ErrorBody, "description": "No such table, player or resource"},
    409: {"model": ErrorBody, "description": "Against the rules now (IllegalMove), or the table's state forbids it"},
    413: {"model": ErrorBody, "description": "The body is over the limit (64 KiB; 20 MiB for a photo)"},
    422: {"model": ErrorBody, "description": "Not a move of this game, or fields of the wrong type"},
    503: {"model": ErrorBody, "description": "The event log cannot be written (disk full, read-only) or no camera picture"},
}


@router.get("/server")
def server_info(request: Request) -> dict:
    """Where the server listens and whether other machines can reach it (the page shows the warning)."""
    policy: AccessPolicy = request.app.state.policy
    return {"bind": policy.bind, "exposed": policy.exposed, "warning": policy.warning,
            "allowed_origins": sorted(policy.origins)}
