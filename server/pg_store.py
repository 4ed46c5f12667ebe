"""The event log in PostgreSQL (psycopg 3): the same append-only log as `server.store`, shared by
several server processes.

The contract is SQLite's (`server.store.EventStore`): a table is its creation record plus its
numbered events; `append` commits before it returns; a second writer of the same event number
fails (`SeqTaken`), which is what serialises two moves on one table whichever process receives
them (the loser catches up with the log and decides again; see `TableService.play`). What SQLite
needs no answer to, PostgreSQL adds:

- every append and every change of a table's board (`PostgresBoard`) is announced with
  NOTIFY in the same transaction, so it is heard only once committed; `listen` hands the table
  id to the service, which pushes the new state to its WebSocket clients;
- the board and the latest pictures live in UNLOGGED tables: shared, fast, and (like the board
  of one process) forgotten by a crash of the database, never part of the log.

The server's secret lives in the `meta` table: who may read the database may read the secret,
so give the servers a role of their own (README, "Scaling out").
"""
from __future__ import annotations

import json
import logging
import secrets
import threading
import time
import uuid
from contextlib import contextmanager
from typing import Callable, Iterator

import psycopg
from psycopg import errors as pg_errors
from psycopg_pool import ConnectionPool, PoolTimeout

from server.store import Event, SeqTaken, StoreError, TableRecord, new_table_id
from server.table_board import EMPTY, Part

log = logging.getLogger("tablesight")
CHANNEL = "tablesight"
POOL_SIZE = 10  # connections per server process: enough for its thread pool's writers
SCHEMA_LOCK = 0x7AB1E517  # advisory lock: two processes starting at once create the schema once
SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY, game TEXT NOT NULL, players TEXT NOT NULL,
    options TEXT NOT NULL, seed BIGINT NOT NULL, created DOUBLE PRECISION NOT NULL
);
CREATE TABLE IF NOT EXISTS events (
    table_id TEXT NOT NULL REFERENCES tables(id), seq INTEGER NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('move', 'undo')), text TEXT NOT NULL,
    source TEXT NOT NULL, at DOUBLE PRECISION NOT NULL, move_id TEXT, PRIMARY KEY (table_id, seq)
);
CREATE UNLOGGED TABLE IF NOT EXISTS board (
    table_id TEXT NOT NULL, part TEXT NOT NULL, value TEXT NOT NULL, PRIMARY KEY (table_id, part)
);
CREATE UNLOGGED TABLE IF NOT EXISTS pictures (
    table_id TEXT PRIMARY KEY, version BIGINT NOT NULL, jpeg BYTEA NOT NULL
);
"""


def is_postgres_url(text: str) -> bool:
    """True for a libpq URL (`postgresql://...` or `postgres://...`)."""
    return str(text).startswith(("postgresql://", "postgres://"))


def redacted(dsn: str) -> str:
    """The URL without its password, for logs and messages."""
    try:
        info = psycopg.conninfo.conninfo_to_dict(dsn)
    except psycopg.Error:
        return "postgresql://…"
    return f"postgresql://{info.get('user', '')}@{info.get('host', '')}:{info.get('port', 5432)}/{info.get('dbname', '')}"


def describe(exc: BaseException, dsn: str) -> str:
    """What a PostgreSQL failure means for the person running the server."""
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    where = redacted(dsn)
    if isinstance(exc, PoolTimeout):
        return f"the database {where} is busy (no free connection): try again"
    if isinstance(exc, pg_errors.DiskFull):
        return "the database's disk is full: free some space (the last change was not saved)"
    if isinstance(exc, (pg_errors.ReadOnlySqlTransaction, pg_errors.InsufficientPrivilege)):
        return f"the database {where} refuses writes ({text}) (the last change was not saved)"
    if isinstance(exc, psycopg.OperationalError):
        return f"the database {where} cannot be reached ({text}): is PostgreSQL running, and the URL right?"
    return f"the database {where} failed: {text}"


class PostgresBoard:
    """The tables' boards (server.table_board), shared by every process on the database."""

    def __init__(self, store: "PostgresEventStore"):
        self._store = store

    def get(self, table_id: str) -> dict[Part, dict]:
        rows = self._store._run("SELECT part, value FROM board WHERE table_id=%s", (table_id,))
        out = json.loads(json.dumps(EMPTY))
        for part, value in rows:
            out[part] = json.loads(value)
        return out

    def put(self, table_id: str, part: Part, value: dict) -> None:
        with self._store._transaction() as cur:
            cur.execute(
                "INSERT INTO board VALUES (%s, %s, %s) ON CONFLICT (table_id, part) DO UPDATE SET value=EXCLUDED.value",
                (table_id, part, json.dumps(value)),
            )
            self._store._announce(cur, table_id)

    def put_picture(self, table_id: str, jpeg: bytes) -> int:
        rows = self._store._run(
            "INSERT INTO pictures VALUES (%s, 1, %s) ON CONFLICT (table_id) "
            "DO UPDATE SET version=pictures.version + 1, jpeg=EXCLUDED.jpeg RETURNING version",
            (table_id, bytes(jpeg)),
        )
        return int(rows[0][0])

    def picture(self, table_id: str) -> tuple[int, bytes] | None:
        rows = self._store._run("SELECT version, jpeg FROM pictures WHERE table_id=%s", (table_id,))
        return (int(rows[0][0]), bytes(rows[0][1])) if rows else None


class PostgresEventStore:
    """The event log in a PostgreSQL database; any number of server processes may use it at once."""

    shared = True

    def __init__(self, dsn: str, pool_size: int = POOL_SIZE):
        self.dsn = dsn
        self.path = redacted(dsn)  # what messages call it (never the password)
        self.unreadable: dict[str, str] = {}
        self.board = PostgresBoard(self)
        self.origin = uuid.uuid4().hex[:12]  # this process, so that it skips its own announcements
        self._closed = False
        self._stop = threading.Event()
        self._listener: threading.Thread | None = None
        try:
            # One plain connection first: its failure says why in libpq's words (the pool would only time out).
            psycopg.connect(dsn, connect_timeout=10).close()
            self._pool = ConnectionPool(dsn, min_size=1, max_size=pool_size, kwargs={"autocommit": True},
                                        open=False, name="tablesight")
            self._pool.open(wait=True, timeout=15)
        except (psycopg.Error, PoolTimeout) as exc:
            raise StoreError(describe(exc, dsn)) from None
        try:
            with self._transaction() as cur:
                cur.execute("SELECT pg_advisory_xact_lock(%s)", (SCHEMA_LOCK,))
                cur.execute(SCHEMA)
        except StoreError:
            self._pool.close()
            raise

    # -- plumbing ------------------------------------------------------------------------------
    def _run(self, sql: str, args: tuple = ()) -> list:
        """One statement on a pooled connection (autocommit); failures come out as StoreError in words."""
        try:
            with self._pool.connection() as conn:
                cur = conn.execute(sql, args)
                return cur.fetchall() if cur.description is not None else []
        except (psycopg.Error, PoolTimeout) as exc:
            raise StoreError(describe(exc, self.dsn)) from None

    @contextmanager
    def _transaction(self) -> Iterator[psycopg.Cursor]:
        """A cursor inside one transaction, committed on leaving (StoreError in words on failure)."""
        try:
            with self._pool.connection() as conn, conn.transaction(), conn.cursor() as cur:
                yield cur
        except (psycopg.Error, PoolTimeout) as exc:
            raise StoreError(describe(exc, self.dsn)) from None

    def _announce(self, cur: psycopg.Cursor, table_id: str) -> None:
        # Delivered when the transaction commits, to every listening process (this one skips it).
        cur.execute("SELECT pg_notify(%s, %s)", (CHANNEL, json.dumps({"t": table_id, "o": self.origin})))

    def announce(self, table_id: str) -> None:
        """Tell the other processes that `table_id` changed in a way they cannot read from the log
        (a revoked private link): their pages of it read it again."""
        with self._transaction() as cur:
            self._announce(cur, table_id)

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        self._stop.set()
        if self._listener is not None:
            self._listener.join(timeout=5)
        self._pool.close()

    # -- the log (server.store.EventStore's contract) ------------------------------------------
    def secret(self) -> bytes:
        """The servers' random secret, made by whichever process came first and shared by all."""
        self._run("INSERT INTO meta VALUES ('secret', %s) ON CONFLICT (key) DO NOTHING", (secrets.token_hex(32),))
        return bytes.fromhex(self.get_meta("secret") or "")

    def get_meta(self, key: str) -> str | None:
        rows = self._run("SELECT value FROM meta WHERE key=%s", (key,))
        return rows[0][0] if rows else None

    def set_meta(self, key: str, value: str) -> None:
        self._run("INSERT INTO meta VALUES (%s, %s) ON CONFLICT (key) DO UPDATE SET value=EXCLUDED.value", (key, value))

    def increment_meta(self, key: str) -> int:
        """Add one to the number under `key` (0 when unset) and return the new number: two processes
        incrementing at once get two numbers."""
        rows = self._run("INSERT INTO meta VALUES (%s, '1') ON CONFLICT (key) DO UPDATE "
                         "SET value=(meta.value::bigint + 1)::text RETURNING value", (key,))
        return int(rows[0][0])

    def claim_meta(self, key: str, value: str) -> bool:
        """Set `key` unless it is set already; True when this call set it (one process wins)."""
        return bool(self._run("INSERT INTO meta VALUES (%s, %s) ON CONFLICT (key) DO NOTHING RETURNING key", (key, value)))

    def create_table(self, game: str, players: list[str], options: dict, seed: int) -> TableRecord:
        rec = TableRecord(new_table_id(), game, list(players), dict(options), seed, time.time())
        self._run(
            "INSERT INTO tables VALUES (%s, %s, %s, %s, %s, %s)",
            (rec.id, rec.game, json.dumps(rec.players), json.dumps(rec.options), rec.seed, rec.created),
        )
        return rec

    def append(self, table_id: str, seq: int, kind: str, text: str, source: str, move_id: str | None = None) -> Event:
        """Write event number `seq`, committed and announced; SeqTaken when someone wrote it first."""
        ev = Event(seq, kind, text, source, time.time(), move_id)
        try:
            with self._pool.connection() as conn, conn.transaction(), conn.cursor() as cur:
                cur.execute(
                    "INSERT INTO events (table_id, seq, kind, text, source, at, move_id) VALUES (%s, %s, %s, %s, %s, %s, %s)",
                    (table_id, ev.seq, ev.kind, ev.text, ev.source, ev.at, ev.move_id),
                )
                self._announce(cur, table_id)
        except pg_errors.UniqueViolation:
            raise SeqTaken(table_id, seq) from None
        except (psycopg.Error, PoolTimeout) as exc:
            raise StoreError(describe(exc, self.dsn)) from None
        return ev

    def table_record(self, table_id: str) -> TableRecord | None:
        rows = self._run("SELECT id, game, players, options, seed, created FROM tables WHERE id=%s", (table_id,))
        return self._record(rows[0]) if rows else None

    def tables(self) -> list[TableRecord]:
        rows = self._run("SELECT id, game, players, options, seed, created FROM tables ORDER BY created")
        return [rec for rec in map(self._record, rows) if rec is not None]

    def _record(self, r: tuple) -> TableRecord | None:
        try:
            return TableRecord(r[0], r[1], json.loads(r[2]), json.loads(r[3]), int(r[4]), float(r[5]))
        except (ValueError, TypeError) as exc:
            self.unreadable[str(r[0])] = f"its record cannot be read ({exc})"
            return None

    def events(self, table_id: str, since: int = 0) -> list[Event]:
        rows = self._run(
            "SELECT seq, kind, text, source, at, move_id FROM events WHERE table_id=%s AND seq>=%s ORDER BY seq",
            (table_id, since),
        )
        return [Event(*r) for r in rows]

    # -- hearing the other processes -------------------------------------------------------------
    def listen(self, heard: Callable[[str | None], None]) -> None:
        """Call `heard(table_id)` (in a thread of its own) whenever another process changes a table's
        log or board; `heard(None)` after the connection was lost and found again (anything may
        have changed meanwhile)."""
        self._listener = threading.Thread(target=self._listen, args=(heard,), name="pg-listener", daemon=True)
        self._listener.start()

    def _listen(self, heard: Callable[[str | None], None]) -> None:
        backoff, lost = 0.25, False
        while not self._stop.is_set():
            try:
                with psycopg.connect(self.dsn, autocommit=True) as conn:
                    conn.execute(f"LISTEN {CHANNEL}")
                    if lost:
                        heard(None)
                    backoff, lost = 0.25, False
                    while not self._stop.is_set():
                        for note in conn.notifies(timeout=0.5):
                            self._hear(note.payload, heard)
            except psycopg.Error as exc:
                if self._stop.is_set():
                    return
                if not lost:
                    log.warning("database notifications lost (%s); reconnecting", describe(exc, self.dsn))
                lost = True
                self._stop.wait(backoff)
                backoff = min(backoff * 2, 8.0)

    def _hear(self, payload: str, heard: Callable[[str | None], None]) -> None:
        try:
            note = json.loads(payload)
            table_id, origin = str(note["t"]), note.get("o")
        except (ValueError, KeyError, TypeError):
            return  # not ours
        if origin != self.origin:
            try:
                heard(table_id)
            except Exception:  # one page's trouble must not stop the notifications of all
                log.exception("while passing on a change of table %s", table_id)
