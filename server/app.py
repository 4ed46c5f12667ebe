"""The FastAPI application: routes, error shapes, the camera, the event store."""
from __future__ import annotations

import importlib
import json
import logging
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from rules.core import IllegalMove, MoveSyntaxError, RulesError
from rules.registry import ENGINES
from server.camera import CameraFeed
from server.demo import DemoDriver
from server.detection import detector_loader
from server.watcher import TableWatcher
from vision.calibration import Calibration
from vision.games.readers import READERS
from vision.sources import FrameSource
from server.dice_profile import ProfileOrigin, ProfileSlot, load_for_this_model, profile_path
from server.routes import camera, camera_setup, demo, exposure, pages, quarx_check, tables, teach, worker
from server.security import AccessPolicy, GuardMiddleware
from server.service import AccessDenied, MoveIdReused, TableBroken, TableNotFound, TableService
from server.event_stores import open_store
from server.store import StoreError
from server.teaching import TeachingSession, Tools, default_tools
from vision.detector.profile import DiceProfile, ProfileError

log = logging.getLogger("tablesight")
STATIC = Path(__file__).resolve().parent / "static"


def _text(value: object) -> str | None:
    # A reason may quote client input; a lone surrogate in it must not turn a refusal into a 500.
    return None if value is None else str(value).encode("utf-8", "backslashreplace").decode("utf-8")


def _error(status: int, reason: str, rule: str | None = None, kind: str = "error") -> JSONResponse:
    """The documented error shape: {"detail": {"error", "reason", "rule"}}."""
    return JSONResponse({"detail": {"error": kind, "reason": _text(reason), "rule": _text(rule)}}, status_code=status)


def _profile_slot(profile: DiceProfile | None, saved: Path) -> ProfileSlot:
    """The profile given at start, else the one taught earlier for this camera (if it still fits
    the value model: one that does not is left alone and logged), else none."""
    if profile is not None:
        return ProfileSlot(profile, ProfileOrigin.COMMAND_LINE, None)
    if saved.is_file():
        try:
            return ProfileSlot(load_for_this_model(saved), ProfileOrigin.SAVED, saved)
        except ProfileError as exc:
            log.warning("dice profile of this camera not used: %s", exc)
    return ProfileSlot()


def create_app(
    db_path: str | Path, source: FrameSource | None = None, detector: bool = True, policy: AccessPolicy | None = None,
    profile: DiceProfile | None = None, teach_tools: Tools = default_tools,
) -> FastAPI:
    """The app over the event log `db_path` names (an SQLite file, or a `postgresql://` URL shared
    with other server processes); the camera `source` starts and stops with it.

    `policy` says which hosts and origins it answers (default: loopback only, see server.security);
    `profile`: the dice profile every reader uses (default: the one taught for this camera, if any);
    `teach_tools`: the detector and value model that teaching uses (tests give stand-ins);
    StoreError when the event log cannot be used (in use, damaged, unreadable)."""

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        if camera_feed is not None:
            camera_feed.start()
        try:
            yield
        finally:
            if camera_feed is not None:
                camera_feed.stop()
            store.close()

    store = open_store(db_path)
    app = FastAPI(title="TableSight", lifespan=lifespan, responses=exposure.ERROR_RESPONSES)
    app.state.policy = policy or AccessPolicy.for_bind()
    app.add_middleware(GuardMiddleware, policy=app.state.policy)
    try:
        app.state.tables = TableService(store)
    except BaseException:
        store.close()
        raise
    app.state.watcher = None
    app.state.demo = None
    camera_feed = None
    if source is not None:
        # Readers that need no network (Quarx, Ubongo, Diceline read classically) work without a model.
        app.state.watcher = TableWatcher(app.state.tables, detector_loader() if detector else None, READERS)
        saved = store.get_meta(f"calibration:{source.spec.kind}:{source.spec.target}")
        if saved:
            app.state.watcher.calibration = Calibration.from_json(json.loads(saved))
        # The demo driver stands around the watcher's frame path: it types what the demo's players
        # would, at the right frames of the clip (it does nothing unless the source is the demo).
        app.state.demo = DemoDriver(app.state.tables, app.state.watcher,
                                    lambda: getattr(camera_feed.source, "capture", None))  # the wizard may switch it
        camera_feed = CameraFeed(source, process=app.state.demo.process)
    app.state.camera = camera_feed
    camera_key = "no camera" if source is None else f"{source.spec.kind}:{source.spec.target}"
    saved_profile = profile_path(db_path, camera_key)
    app.state.profiles = _profile_slot(profile, saved_profile)
    if app.state.watcher is not None:
        app.state.watcher.profiles = app.state.profiles
    app.state.teaching = TeachingSession(camera_key, saved_profile, app.state.profiles, teach_tools)

    @app.exception_handler(MoveSyntaxError)
    async def _syntax(request: Request, exc: MoveSyntaxError):
        return _error(422, exc.reason, exc.rule, "MoveSyntaxError")

    @app.exception_handler(IllegalMove)
    async def _illegal(request: Request, exc: IllegalMove):
        return _error(409, exc.reason, exc.rule, "IllegalMove")

    @app.exception_handler(RulesError)
    async def _rules(request: Request, exc: RulesError):
        return _error(409, exc.reason, exc.rule, type(exc).__name__)

    @app.exception_handler(TableNotFound)
    async def _missing(request: Request, exc: TableNotFound):
        return _error(404, str(exc), None, "TableNotFound")

    @app.exception_handler(AccessDenied)
    async def _denied(request: Request, exc: AccessDenied):
        return _error(403, str(exc), "private moves", "AccessDenied")

    @app.exception_handler(TableBroken)
    async def _broken(request: Request, exc: TableBroken):
        return _error(409, str(exc), "replay", "TableBroken")

    @app.exception_handler(MoveIdReused)
    async def _reused(request: Request, exc: MoveIdReused):
        return _error(409, str(exc), "move id", "MoveIdReused")

    @app.exception_handler(StoreError)
    async def _store(request: Request, exc: StoreError):
        log.error("event log: %s", exc.reason)
        return _error(503, exc.reason, "event log", "StoreError")

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, exc: StarletteHTTPException):
        # Routes raise HTTPException(detail={"reason", "rule"}); the framework raises it with a
        # bare string (a body that is not JSON or not UTF-8, an unknown path): one shape for both.
        detail = exc.detail if isinstance(exc.detail, dict) else {"reason": str(exc.detail), "rule": None}
        if exc.status_code == 400 and detail["reason"] == "There was an error parsing the body":
            detail = {"reason": "the body is not valid JSON (UTF-8, nested at most a few hundred levels)", "rule": "request body"}
        response = _error(exc.status_code, detail.get("reason", ""), detail.get("rule"), "HTTPException")
        for k, v in (exc.headers or {}).items():
            response.headers[k] = v
        return response

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, exc: RequestValidationError):
        parts = []
        for e in exc.errors():
            where = ".".join(str(x) for x in e.get("loc", ()) if x != "body")
            parts.append(f"{where}: {e.get('msg')}" if where else str(e.get("msg")))
        return _error(422, "; ".join(parts) or "malformed request", None, "RequestValidationError")

    @app.exception_handler(Exception)
    async def _crash(request: Request, exc: Exception):
        # A bug must still answer in words; the trace goes to the log, not the client.
        log.exception("unhandled error on %s", request.url.path)
        return _error(500, f"internal error: {type(exc).__name__}", None, "InternalError")

    app.include_router(tables.router)
    app.include_router(exposure.router)
    app.include_router(camera.router)
    app.include_router(camera_setup.router)
    app.include_router(quarx_check.router)
    app.include_router(demo.router)
    app.include_router(teach.router)
    app.include_router(worker.router)
    for game in ENGINES:
        try:
            module = importlib.import_module(f"server.routes.{game}")
        except ModuleNotFoundError as exc:
            if exc.name != f"server.routes.{game}":
                raise
            continue
        app.include_router(module.router)
    app.include_router(pages.router)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    return app
