"""Which event log `--db` names: an SQLite file (one server, one table at home; the default) or a
PostgreSQL URL (several server processes on one database: a café, a convention)."""
from __future__ import annotations

import os
from pathlib import Path
from typing import Union

from server.pg_store import PostgresEventStore, is_postgres_url
from server.store import EventStore

AnyStore = Union[EventStore, PostgresEventStore]


def open_store(db: str | Path) -> AnyStore:
    """The store `db` names: `postgresql://...` selects PostgreSQL, anything else is an SQLite file.
    StoreError (in words) when it cannot be used."""
    if is_postgres_url(str(db)):
        return PostgresEventStore(str(db))
    return EventStore(db)


def local_folder(db: str | Path) -> Path:
    """Where this machine keeps files beside the log (dice profiles): the SQLite file's folder, or,
    for a database elsewhere, $XDG_DATA_HOME/tablesight."""
    if is_postgres_url(str(db)):
        base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
        return base / "tablesight"
    return Path(db).resolve().parent
