"""The guard in front of every route: who may talk to this server, and how much.

TableSight is a LAN companion with no accounts, so the browser is the attacker's way in: any web
page the user visits can send requests to http://127.0.0.1:8000, and a page on a name the
attacker controls can re-point that name at 127.0.0.1 (DNS rebinding). The guard answers:

- a foreign Host header (a name not on the allow-list; IP literals are fine, since rebinding
  needs a name): 400, rule "host allow-list";
- a request that changes something (any method but GET/HEAD/OPTIONS) or a WebSocket handshake
  from another origin: 403, rule "same origin". The origin is the Origin header (browsers send
  it on every POST and WebSocket); with no Origin, Sec-Fetch-Site "cross-site"/"same-site" is
  refused too. A client that is not a browser (curl, scripts, the tests) sends neither: allowed;
- a body over the limit (64 KiB; a photo 20 MiB, a camera worker's picture 1 MiB), read before any
  parsing: 413, rule "body limit".

The allow-lists start at loopback and grow only from `--host` and `--allow-origin`.
"""
from __future__ import annotations

import ipaddress
import json
from dataclasses import dataclass, field
from typing import Literal
from urllib.parse import urlsplit

from starlette.types import ASGIApp, Message, Receive, Scope, Send

LOOPBACK_NAMES = frozenset({"localhost", "127.0.0.1", "::1"})
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
BODY_LIMIT = 64 * 1024  # every JSON body of the API is far smaller
UPLOAD_LIMIT = 20 * 1024 * 1024  # a photo for the sphere count or for teaching dice
UPLOAD_PATHS = ("/api/quarx/count", "/api/teach/photos/upload")
PICTURE_LIMIT = 1024 * 1024  # an edge camera worker's annotated JPEG (PUT /api/tables/{id}/worker/picture)
PICTURE_SUFFIX = "/worker/picture"
MULTIPART_SLACK = 64 * 1024  # form boundaries and headers around the photo

Refusal = Literal["host allow-list", "same origin", "body limit"]


def is_loopback(host: str) -> bool:
    """True when binding `host` keeps the server on this machine."""
    if host in ("localhost", ""):
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def _hostname(netloc: str) -> str:
    """The host part of "name:port" / "[v6]:port", lower case ("" when it is not one)."""
    try:
        return (urlsplit("//" + netloc).hostname or "").lower()
    except ValueError:  # "[not-v6" and the like
        return ""


def _is_ip(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
        return True
    except ValueError:
        return False


@dataclass(frozen=True)
class AccessPolicy:
    """Host names and extra origins this server answers, and its body limits."""

    bind: str = "127.0.0.1"
    hosts: frozenset[str] = LOOPBACK_NAMES
    origins: frozenset[str] = frozenset()
    body_limit: int = BODY_LIMIT
    upload_limit: int = UPLOAD_LIMIT + MULTIPART_SLACK
    upload_paths: tuple[str, ...] = field(default=UPLOAD_PATHS)

    @classmethod
    def for_bind(cls, bind: str = "127.0.0.1", allow_origins: tuple[str, ...] | list[str] = ()) -> "AccessPolicy":
        """Loopback, plus the `--host` name, plus each `--allow-origin` (and its host name)."""
        hosts = set(LOOPBACK_NAMES)
        origins = set()
        if bind and not _is_ip(bind.strip("[]")):
            hosts.add(bind.lower())
        for origin in allow_origins:
            parts = urlsplit(origin.strip())
            if parts.scheme not in ("http", "https") or not parts.hostname:
                raise ValueError(f"--allow-origin {origin!r} is not an origin like http://name:8000")
            origins.add(f"{parts.scheme}://{parts.netloc}".lower())
            hosts.add(parts.hostname.lower())
        return cls(bind=bind, hosts=frozenset(hosts), origins=frozenset(origins))

    @property
    def exposed(self) -> bool:
        """True when the server can be reached from other machines."""
        return not is_loopback(self.bind)

    @property
    def warning(self) -> str | None:
        """What the person running the server must know about who can reach it (None on loopback)."""
        if not self.exposed:
            return None
        return (f"This server listens on {self.bind}: anyone on your network can open it and play, undo or start "
                "tables (there are no accounts). Use it only on a network you trust.")

    def host_allowed(self, host: str | None) -> bool:
        if host is None:
            return True  # HTTP/1.0 without Host: not a browser
        name = _hostname(host)
        return bool(name) and (_is_ip(name) or name in self.hosts)

    def origin_refusal(self, method: str, headers: dict[str, str], websocket: bool) -> str | None:
        """Why this request may not change anything, or None when it may."""
        if not websocket and method in SAFE_METHODS:
            return None
        origin = headers.get("origin")
        if origin is None:
            site = headers.get("sec-fetch-site")
            if site in ("cross-site", "same-site"):
                return f"a {site} request may not change anything here"
            return None
        origin = origin.lower()
        if origin in self.origins:
            return None
        scheme, _, netloc = origin.partition("://")
        host = headers.get("host")
        if scheme in ("http", "https") and host is not None and netloc == host.lower() and self.host_allowed(host):
            return None
        return f"requests from {origin} may not change anything here (only this server's own page may)"

    def body_limit_for(self, path: str) -> int:
        if path.startswith("/api/tables/") and path.endswith(PICTURE_SUFFIX):
            return PICTURE_LIMIT
        return self.upload_limit if path in self.upload_paths else self.body_limit


def refusal_body(status: int, reason: str, rule: Refusal) -> bytes:
    return json.dumps({"detail": {"error": "Refused", "reason": reason, "rule": rule}}).encode()


class GuardMiddleware:
    """ASGI middleware enforcing an AccessPolicy on HTTP requests and WebSocket handshakes."""

    def __init__(self, app: ASGIApp, policy: AccessPolicy):
        self.app = app
        self.policy = policy

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
        websocket = scope["type"] == "websocket"
        if not self.policy.host_allowed(headers.get("host")):
            reason = f"this server does not answer to the host name {_hostname(headers.get('host', ''))!r}; start it with --host or --allow-origin naming it"
            await self._refuse(scope, send, 400, reason, "host allow-list")
            return
        refusal = self.policy.origin_refusal(scope.get("method", "GET"), headers, websocket)
        if refusal:
            await self._refuse(scope, send, 403, refusal, "same origin")
            return
        if websocket:
            await self.app(scope, receive, send)
            return
        limit = self.policy.body_limit_for(scope["path"])
        declared = headers.get("content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > limit):
            await self._refuse(scope, send, 413, f"the request body is larger than {limit:,} bytes", "body limit")
            return
        body = await _read_body(receive, limit)
        if body is None:
            await self._refuse(scope, send, 413, f"the request body is larger than {limit:,} bytes", "body limit")
            return
        await self.app(scope, _replay(body, receive), send)

    @staticmethod
    async def _refuse(scope: Scope, send: Send, status: int, reason: str, rule: Refusal) -> None:
        if scope["type"] == "websocket":
            # Closing before accepting: the server answers the handshake with HTTP 403.
            await send({"type": "websocket.close", "code": 4403, "reason": reason[:120]})
            return
        body = refusal_body(status, reason, rule)
        await send({"type": "http.response.start", "status": status,
                    "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]})
        await send({"type": "http.response.body", "body": body})


async def _read_body(receive: Receive, limit: int) -> bytes | None:
    """The whole body, or None as soon as it passes `limit` (the rest is never held in memory)."""
    chunks, size = [], 0
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            break
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > limit:
            return None
        chunks.append(chunk)
        if not message.get("more_body", False):
            break
    return b"".join(chunks)


def _replay(body: bytes, receive: Receive) -> Receive:
    sent = False

    async def replayed() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()  # after the body: wait for the disconnect, as Starlette expects

    return replayed
