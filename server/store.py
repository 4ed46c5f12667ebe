"""Append-only SQLite event log: a table is its creation record plus its events, replayed."""
from __future__ import annotations

import json
import secrets
import sqlite3
import threading
import time
from dataclasses import dataclass
from pathlib import Path

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY, game TEXT NOT NULL, players TEXT NOT NULL,
    options TEXT NOT NULL, seed INTEGER NOT NULL, created REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS events (
    table_id TEXT NOT NULL REFERENCES tables(id), seq INTEGER NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('move', 'undo')), text TEXT NOT NULL,
    source TEXT NOT NULL, at REAL NOT NULL, PRIMARY KEY (table_id, seq)
);
"""


@dataclass(frozen=True)
class TableRecord:
    """How a table was created."""

    id: str
    game: str
    players: list[str]
    options: dict
    seed: int
    created: float


@dataclass(frozen=True)
class Event:
    """One entry of a table's log: a move played, or an undo."""

    seq: int
    kind: str
    text: str
    source: str
    at: float


class EventStore:
    """The SQLite file (WAL): every write is committed before the caller goes on."""

    def __init__(self, path: str | Path):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.executescript(SCHEMA)

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def secret(self) -> bytes:
        """This server's random secret, made once and kept (for per-player links)."""
        with self._lock:
            row = self._db.execute("SELECT value FROM meta WHERE key='secret'").fetchone()
            if row is None:
                value = secrets.token_hex(32)
                self._db.execute("INSERT INTO meta VALUES ('secret', ?)", (value,))
                return bytes.fromhex(value)
            return bytes.fromhex(row[0])

    def get_meta(self, key: str) -> str | None:
        with self._lock:
            row = self._db.execute("SELECT value FROM meta WHERE key=?", (key,)).fetchone()
        return None if row is None else row[0]

    def set_meta(self, key: str, value: str) -> None:
        with self._lock:
            self._db.execute("INSERT INTO meta VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value=excluded.value", (key, value))

    def create_table(self, game: str, players: list[str], options: dict, seed: int) -> TableRecord:
        rec = TableRecord(secrets.token_urlsafe(6), game, list(players), dict(options), seed, time.time())
        with self._lock:
            self._db.execute(
                "INSERT INTO tables VALUES (?, ?, ?, ?, ?, ?)",
                (rec.id, rec.game, json.dumps(rec.players), json.dumps(rec.options), rec.seed, rec.created),
            )
        return rec

    def append(self, table_id: str, seq: int, kind: str, text: str, source: str) -> Event:
        """Write event number `seq`; a second writer of the same number fails loudly."""
        ev = Event(seq, kind, text, source, time.time())
        with self._lock:
            self._db.execute(
                "INSERT INTO events VALUES (?, ?, ?, ?, ?, ?)", (table_id, ev.seq, ev.kind, ev.text, ev.source, ev.at)
            )
        return ev

    def tables(self) -> list[TableRecord]:
        with self._lock:
            rows = self._db.execute("SELECT id, game, players, options, seed, created FROM tables ORDER BY created").fetchall()
        return [TableRecord(r[0], r[1], json.loads(r[2]), json.loads(r[3]), r[4], r[5]) for r in rows]

    def events(self, table_id: str) -> list[Event]:
        with self._lock:
            rows = self._db.execute(
                "SELECT seq, kind, text, source, at FROM events WHERE table_id=? ORDER BY seq", (table_id,)
            ).fetchall()
        return [Event(*r) for r in rows]


def moves_in_force(events: list[Event]) -> list[Event]:
    """The move events still standing once every undo in the log has taken its move back."""
    moves: list[Event] = []
    for ev in events:
        if ev.kind == "move":
            moves.append(ev)
        elif moves:
            moves.pop()
    return moves
