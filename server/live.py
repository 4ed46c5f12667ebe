"""Pushing a table's state over a WebSocket after every change (the shared screen and phones)."""
from __future__ import annotations

import asyncio
from typing import Callable

from fastapi import WebSocket
from starlette.concurrency import run_in_threadpool
from starlette.websockets import WebSocketDisconnect

from server.service import TableService


async def push_snapshots(
    ws: WebSocket,
    svc: TableService,
    table_id: str,
    queue: asyncio.Queue,
    player: str | None = None,
    still_valid: Callable[[], bool] | None = None,
) -> None:
    """Send the snapshot (as `player` may see it) now and after each change, until the client leaves
    or `still_valid` (checked before every send: a revoked private link) says no (closed with 4403).

    `queue` comes from `svc.subscribe` (the caller subscribes before accepting, so that no change
    between the first snapshot and the loop is lost); it is unsubscribed here.
    """
    try:
        await ws.send_json(await run_in_threadpool(svc.snapshot, table_id, player))
        receiver = asyncio.ensure_future(ws.receive())
        while True:
            getter = asyncio.ensure_future(queue.get())
            done, _ = await asyncio.wait({getter, receiver}, return_when=asyncio.FIRST_COMPLETED)
            if receiver in done:
                if receiver.result().get("type") == "websocket.disconnect":
                    getter.cancel()
                    break
                receiver = asyncio.ensure_future(ws.receive())  # clients may ping; nothing to answer
            if getter in done:
                while not queue.empty():  # only the newest state matters
                    queue.get_nowait()
                if still_valid is not None and not await run_in_threadpool(still_valid):
                    receiver.cancel()
                    await ws.close(code=4403, reason="this link has been issued again: it no longer works")
                    break
                await ws.send_json(await run_in_threadpool(svc.snapshot, table_id, player))
            else:
                getter.cancel()
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        svc.unsubscribe(table_id, queue)
