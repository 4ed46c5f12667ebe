"""Diceline helpers for the page: the move advisor for the player to move.

The search is CPU work of a second or more, so it runs in a worker thread (run_in_threadpool)
and never blocks live updates. Asked for only by the page's "Suggest a move" button.
"""
from __future__ import annotations

from dataclasses import asdict

from fastapi import APIRouter, Query, Request
from starlette.concurrency import run_in_threadpool

from rules.diceline.advisor import DEFAULT_ITERATIONS, MAX_ITERATIONS, advise
from rules.diceline.engine import DicelineEngine
from rules.diceline.state import DicelineState
from server.service import TableNotFound, TableService

router = APIRouter(prefix="/api/tables/{table_id}")
MAX_SECONDS = 30.0  # a longer wait helps little and ties up a worker thread


def _state(request: Request, table_id: str) -> tuple[DicelineEngine, DicelineState]:
    svc: TableService = request.app.state.tables
    if svc.table(table_id).record.game != "diceline":
        raise TableNotFound(f"table {table_id!r} is not a Dazzling Diceline table")
    match = svc.match(table_id)
    # A state is never changed after it is made (apply copies), so holding one is safe.
    return match.engine, match.state


def _advice(engine: DicelineEngine, state: DicelineState, iterations: int, seed: int, seconds: float | None) -> dict:
    advice = advise(engine, state, iterations=iterations, seed=seed, time_cap=seconds)
    out = asdict(advice)
    top = advice.moves[0]
    out["explanation"] = f"{top.move}: {top.reason}"
    return out


@router.get("/advice")
async def advice(table_id: str, request: Request,
                 iterations: int = Query(DEFAULT_ITERATIONS, ge=1, le=MAX_ITERATIONS,
                                         description="rollouts (the budget); at least one per legal move runs"),
                 seconds: float | None = Query(None, gt=0, le=MAX_SECONDS,
                                               description="optional time cap; without it the answer is fixed by the seed"),
                 seed: int = Query(0, ge=0, le=2**31 - 1)) -> dict:
    """The legal moves of the player to move, best first: expected points, margin and a reason each."""
    engine, state = _state(request, table_id)
    return await run_in_threadpool(_advice, engine, state, iterations, seed, seconds)
