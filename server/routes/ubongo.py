"""Ubongo helpers for the page: the dice hint, the fill question and where a shape fits.

The solver runs in a worker thread (run_in_threadpool) so a long search never blocks live updates.
"""
from __future__ import annotations

from fastapi import APIRouter, Query, Request
from starlette.concurrency import run_in_threadpool

from rules.core import IllegalMove
from rules.ubongo.engine import UbongoEngine
from rules.ubongo.hint import DEFAULT_BUDGET
from rules.ubongo.shapes import cell_name
from rules.ubongo.solver import OutOfBudget, board, placements
from rules.ubongo.state import UbongoState
from server.service import TableNotFound, TableService

router = APIRouter(prefix="/api/tables/{table_id}/ubongo")
FILL_BUDGET = 200_000  # search nodes for "can it still be filled": far above what a 21-cell area needs


def _state(request: Request, table_id: str) -> tuple[UbongoEngine, UbongoState]:
    svc: TableService = request.app.state.tables
    if svc.table(table_id).record.game != "ubongo":
        raise TableNotFound(f"table {table_id!r} is not an Ubongo table")
    match = svc.match(table_id)
    # A state is never changed after it is made (apply copies), so holding one is safe.
    return match.engine, match.state


def _player(state: UbongoState, player: str) -> str:
    if player not in state.players:
        raise IllegalMove(f"{player!r} does not play at this table", rule="players")
    return player


def _hint(engine: UbongoEngine, state: UbongoState, player: str, budget: int) -> dict:
    hints = engine.hint(state, player, budget=budget)
    fill = {"can_fill": None, "min_rounds": None, "cells_left": None}
    if state.phase != "over":
        empty = engine.empty_mask(state, player)
        search = engine.fill_search(state, budget=FILL_BUDGET)
        fill["cells_left"] = empty.bit_count()
        try:
            fill["can_fill"] = search.can_fill(empty)
            fill["min_rounds"] = search.min_rounds(empty)
        except OutOfBudget:  # say we do not know rather than guess
            pass
    return {"player": player, "hints": hints, "fill": fill}


@router.get("/hint")
async def hint(table_id: str, request: Request, player: str = Query(min_length=1, max_length=32),
               budget: int = Query(DEFAULT_BUDGET, ge=1_000, le=2_000_000)) -> dict:
    """The dice pairs `player` could grab, best first, and how far their area is from full."""
    engine, state = _state(request, table_id)
    return await run_in_threadpool(_hint, engine, state, _player(state, player), budget)


@router.get("/placements")
async def where_it_fits(table_id: str, request: Request, player: str = Query(min_length=1, max_length=32),
                        shape: str = Query(min_length=1, max_length=12)) -> dict:
    """Every way `shape` fits on `player`'s empty cells, as cell-name lists."""
    engine, state = _state(request, table_id)
    _player(state, player)
    names = {n.lower(): n for n, _ in state.comps.shapes}
    if shape.lower() not in names:
        raise IllegalMove(f"there is no shape {shape!r} (known: {', '.join(sorted(names.values()))})", rule="shape")
    name = names[shape.lower()]
    area = engine.area_cells(state)
    b = board(area)
    found = placements(area, state.comps.shape(name), engine.empty_mask(state, player))
    return {"player": player, "shape": name,
            "placements": [[cell_name(c) for c in sorted(b.cells_of(m))] for m in found]}
