"""Append-only SQLite event log: a table is its creation record plus its events, replayed.

The file holds the server's secret, so it and its WAL files are readable by their owner only
(0600). One server process uses one file at a time (an exclusive lock on `<db>.lock`): a second
server on the same file would serve stale state and fail every write. Every SQLite failure is
raised as StoreError with words a person can act on (disk full, read-only, damaged, in use).
"""
from __future__ import annotations

import fcntl
import json
import os
import secrets
import sqlite3
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from server.table_board import MemoryBoard

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
OWNER_ONLY = 0o600


class StoreError(RuntimeError):
    """The event log cannot be used; `reason` says why in words (and what to do)."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


class StoreInUse(StoreError):
    """Another server process holds this event log."""


class SeqTaken(StoreError):
    """Event number `seq` of this table is already written (by another process, on a shared store):
    the writer catches up with the log and decides again."""

    def __init__(self, table_id: str, seq: int):
        super().__init__(f"event {seq} of table {table_id!r} was written by someone else first")
        self.table_id, self.seq = table_id, seq


def describe(exc: BaseException) -> str:
    """What an SQLite or OS failure means for the person running the server."""
    text = str(exc).lower()
    if "full" in text:
        return "the disk is full: free some space (the last change was not saved)"
    if "readonly" in text or "read-only" in text or isinstance(exc, PermissionError):
        return "the event log is read-only: make the file and its folder writable (the last change was not saved)"
    if "not a database" in text or "malformed" in text or "corrupt" in text:
        return "the event log is damaged (not a valid SQLite database): restore a backup or start with a new --db"
    if "unable to open" in text or isinstance(exc, OSError):
        return f"the event log cannot be opened ({exc})"
    if "locked" in text or "busy" in text:
        return "the event log is busy (locked by another program)"
    return f"the event log failed: {exc}"


def new_table_id() -> str:
    """A fresh table id: 8 URL-safe characters, never starting with "-": an id that did was read
    as an option by `tablesight camera --table ID` (1 id in 64; a test run met one)."""
    while True:
        tid = secrets.token_urlsafe(6)
        if not tid.startswith("-"):
            return tid


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
    move_id: str | None = None  # the client's id for safe retries, if it sent one


class EventStore:
    """The SQLite file (WAL): every write is committed before the caller goes on.

    One process owns the file, so nobody else appends: `shared` is False, the service keeps its
    tables in memory without re-reading the log, and the camera's board lives in memory."""

    shared = False

    def __init__(self, path: str | Path):
        self.path = Path(path)
        self.board = MemoryBoard()
        self._lock = threading.Lock()
        self._closed = False
        self.unreadable: dict[str, str] = {}  # table id -> why its record was skipped
        try:
            self.path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
            self._held = self._hold(self.path.with_name(self.path.name + ".lock"))
        except OSError as exc:
            raise StoreError(f"{self.path}: {describe(exc)}") from None
        try:
            self._owner_only(self.path)
            self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.executescript(SCHEMA)
            if "move_id" not in {row[1] for row in self._db.execute("PRAGMA table_info(events)")}:
                # The first start of this version: tables made before keep their old Dreams links.
                self._db.execute("ALTER TABLE events ADD COLUMN move_id TEXT")
                self._db.execute("INSERT OR IGNORE INTO meta VALUES ('derived keys since', ?)", (repr(time.time()),))
            # A truncated or damaged file often opens fine and fails later, mid-game: find out now.
            problem = self._db.execute("PRAGMA quick_check").fetchone()[0]
            if problem != "ok":
                raise sqlite3.DatabaseError(f"database disk image is malformed ({problem})")
            for suffix in ("-wal", "-shm"):
                self._owner_only(self.path.with_name(self.path.name + suffix), create=False)
        except (sqlite3.Error, OSError) as exc:
            self._release()
            raise StoreError(f"{self.path}: {describe(exc)}") from None

    @staticmethod
    def _owner_only(path: Path, create: bool = True) -> None:
        # Create it 0600 before SQLite does (SQLite would use the umask: 0644); tighten an old one.
        if create and not path.exists():
            os.close(os.open(path, os.O_CREAT | os.O_WRONLY, OWNER_ONLY))
        if path.exists() and path.stat().st_mode & 0o077:
            os.chmod(path, OWNER_ONLY)

    def _hold(self, lock_path: Path):
        handle = os.fdopen(os.open(lock_path, os.O_CREAT | os.O_RDWR, OWNER_ONLY), "r+")
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = handle.read().strip() or "unknown"
            handle.close()
            raise StoreInUse(
                f"{self.path}: another TableSight server (pid {holder}) is using this event log; "
                "stop it, or give this server its own --db"
            ) from None
        handle.seek(0)
        handle.truncate()
        handle.write(str(os.getpid()))
        handle.flush()
        return handle

    def _release(self) -> None:
        held, self._held = getattr(self, "_held", None), None
        if held is not None:
            held.close()  # closing the file drops the lock

    def _run(self, sql: str, args: tuple = ()) -> list:
        """Run one statement under the lock; SQLite failures come out as StoreError in words."""
        with self._lock:
            try:
                return self._db.execute(sql, args).fetchall()
            except sqlite3.Error as exc:
                raise StoreError(describe(exc)) from None

    def close(self) -> None:
        with self._lock:
            if self._closed:
                return
            self._closed = True
            self._db.close()
            self._release()

    def secret(self) -> bytes:
        """This server's random secret, made once and kept (for per-player links)."""
        self._run("INSERT OR IGNORE INTO meta VALUES ('secret', ?)", (secrets.token_hex(32),))
        return bytes.fromhex(self.get_meta("secret") or "")

    def get_meta(self, key: str) -> str | None:
        rows = self._run("SELECT value FROM meta WHERE key=?", (key,))
        return rows[0][0] if rows else None

    def set_meta(self, key: str, value: str) -> None:
        self._run("INSERT INTO meta VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value=excluded.value", (key, value))

    def increment_meta(self, key: str) -> int:
        """Add one to the number under `key` (0 when unset) and return the new number, atomically."""
        with self._lock:
            try:
                self._db.execute("INSERT INTO meta VALUES (?, '1') ON CONFLICT(key) DO UPDATE "
                                 "SET value=CAST(CAST(value AS INTEGER) + 1 AS TEXT)", (key,))
                return int(self._db.execute("SELECT value FROM meta WHERE key=?", (key,)).fetchone()[0])
            except sqlite3.Error as exc:
                raise StoreError(describe(exc)) from None

    def claim_meta(self, key: str, value: str) -> bool:
        """Set `key` unless it is set already; True when this call set it (atomic: one claimant wins)."""
        with self._lock:
            try:
                return self._db.execute("INSERT OR IGNORE INTO meta VALUES (?, ?)", (key, value)).rowcount == 1
            except sqlite3.Error as exc:
                raise StoreError(describe(exc)) from None

    def create_table(self, game: str, players: list[str], options: dict, seed: int) -> TableRecord:
        rec = TableRecord(new_table_id(), game, list(players), dict(options), seed, time.time())
        self._run(
            "INSERT INTO tables VALUES (?, ?, ?, ?, ?, ?)",
            (rec.id, rec.game, json.dumps(rec.players), json.dumps(rec.options), rec.seed, rec.created),
        )
        return rec

    def append(self, table_id: str, seq: int, kind: str, text: str, source: str, move_id: str | None = None) -> Event:
        """Write event number `seq`; a second writer of the same number fails loudly."""
        ev = Event(seq, kind, text, source, time.time(), move_id)
        with self._lock:
            try:
                self._db.execute(
                    "INSERT INTO events (table_id, seq, kind, text, source, at, move_id) VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (table_id, ev.seq, ev.kind, ev.text, ev.source, ev.at, ev.move_id),
                )
            except sqlite3.IntegrityError as exc:
                if "unique" in str(exc).lower():
                    raise SeqTaken(table_id, seq) from None
                raise StoreError(describe(exc)) from None
            except sqlite3.Error as exc:
                raise StoreError(describe(exc)) from None
        return ev

    def listen(self, heard: Callable[[str | None], None]) -> None:
        """Nothing to hear: no other process writes this file (see PostgresEventStore.listen)."""

    def announce(self, table_id: str) -> None:
        """Nobody else to tell (see PostgresEventStore.announce)."""

    def table_record(self, table_id: str) -> TableRecord | None:
        """One table's record (None: no such table); raises StoreError when it cannot be read."""
        rows = self._run("SELECT id, game, players, options, seed, created FROM tables WHERE id=?", (table_id,))
        return _record(rows[0], self) if rows else None

    def tables(self) -> list[TableRecord]:
        """Every table's record; one that cannot be read is left out and named in `unreadable`."""
        rows = self._run("SELECT id, game, players, options, seed, created FROM tables ORDER BY created")
        return [rec for rec in (_record(r, self) for r in rows) if rec is not None]

    def events(self, table_id: str, since: int = 0) -> list[Event]:
        """The table's events from number `since` on, in order."""
        rows = self._run(
            "SELECT seq, kind, text, source, at, move_id FROM events WHERE table_id=? AND seq>=? ORDER BY seq",
            (table_id, since),
        )
        return [Event(*r) for r in rows]


def _record(row: tuple, store) -> TableRecord | None:
    """A table row as a TableRecord; one that cannot be read is named in `store.unreadable`."""
    try:
        return TableRecord(row[0], row[1], json.loads(row[2]), json.loads(row[3]), row[4], row[5])
    except (ValueError, TypeError) as exc:
        store.unreadable[str(row[0])] = f"its record cannot be read ({exc})"
        return None


def moves_in_force(events: list[Event]) -> list[Event]:
    """The move events still standing once every undo in the log has taken its move back."""
    moves: list[Event] = []
    for ev in events:
        if ev.kind == "move":
            moves.append(ev)
        elif moves:
            moves.pop()
    return moves
