"""What the camera says about each table right now: transient, never logged.

A table's board holds two parts: "camera" (the camera's note for the page: watching, a hand,
the worker's state) and "candidates" (moves the camera could not choose between, awaiting one
click). They change with every few frames, so they are not events: a restart forgets them and
the camera says them again. One server process keeps them in memory (`MemoryBoard`); several
processes over one PostgreSQL database share them through it (`server.pg_store.PostgresBoard`),
so a page on one process sees the camera that reports to another. The latest camera picture of
an edge worker's table is kept the same way.
"""
from __future__ import annotations

import copy
import threading
from typing import Literal, Protocol

Part = Literal["camera", "candidates"]
EMPTY: dict[Part, dict] = {"camera": {"watching": False}, "candidates": {"moves": [], "reason": ""}}


class TableBoard(Protocol):
    """The transient state of every table (JSON values), and each table's latest picture."""

    def get(self, table_id: str) -> dict[Part, dict]:
        """Both parts of the table's board (EMPTY's values where nothing was said)."""

    def put(self, table_id: str, part: Part, value: dict) -> None:
        """Replace one part; every process's pages hear of it."""

    def put_picture(self, table_id: str, jpeg: bytes) -> int:
        """Keep `jpeg` as the table's latest picture; returns its version (grows by one each time)."""

    def picture(self, table_id: str) -> tuple[int, bytes] | None:
        """(version, JPEG) of the table's latest picture, or None."""


class MemoryBoard:
    """The board of one server process."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._parts: dict[str, dict[Part, dict]] = {}
        self._pictures: dict[str, tuple[int, bytes]] = {}

    def get(self, table_id: str) -> dict[Part, dict]:
        with self._lock:
            return copy.deepcopy({**EMPTY, **self._parts.get(table_id, {})})

    def put(self, table_id: str, part: Part, value: dict) -> None:
        with self._lock:
            self._parts.setdefault(table_id, {})[part] = copy.deepcopy(value)

    def put_picture(self, table_id: str, jpeg: bytes) -> int:
        with self._lock:
            version = self._pictures.get(table_id, (0, b""))[0] + 1
            self._pictures[table_id] = (version, bytes(jpeg))
            return version

    def picture(self, table_id: str) -> tuple[int, bytes] | None:
        with self._lock:
            return self._pictures.get(table_id)
