"""When the database will not take writes (its file or disk made read-only, a full disk, a
PostgreSQL database set read-only or a standby), and how a server process gets over it by
itself once the database takes writes again.

- A write it refuses gets the 503 page in words that say so (club/unavailable.py), and the
  connection that met the refusal is closed, so the next request opens a new one that sees
  the database as it is then (a pooled connection is discarded, not given back).
- SQLite opens a file it cannot write read-only without a word, and while one connection
  holds the file that way, every connection the same process opens later is read-only too
  (SQLite shares its file handles within a process). So a SQLite connection opened while the
  files cannot be written is closed when its request ends, whatever CONN_MAX_AGE says: no
  idle thread keeps one, and the first request after the files are writable again writes.
- `write_refused()` is the health check's probe (front/health.py).
"""

from __future__ import annotations

import contextlib
import os
import time
from pathlib import Path

from django.db import DatabaseError, connection, connections, transaction

# SQLite's words for a write the file or disk refused.
SQLITE_REFUSALS = (
    "attempt to write a readonly database",
    "database or disk is full",
    "disk I/O error",
)
# PostgreSQL's: read_only_sql_transaction (a read-only database or session, a standby) and
# disk_full.
POSTGRESQL_REFUSALS = frozenset({"25006", "53100"})


def refuses_writes(error: BaseException | None) -> bool:
    """Whether `error` is the database refusing a write it would take on another day."""
    if not isinstance(error, DatabaseError):
        return False
    if getattr(error.__cause__, "sqlstate", None) in POSTGRESQL_REFUSALS:
        return True
    return str(error).startswith(SQLITE_REFUSALS)


def sqlite_files_writable(name) -> bool:
    """Whether this process may write the SQLite database `name` and its WAL files (one
    access() call each: cheap). A file that is not there yet is SQLite's to make."""
    name = str(name)
    if name == ":memory:" or name.startswith("file:"):
        return True
    files = [Path(name), Path(f"{name}-wal"), Path(f"{name}-shm")]
    return all(os.access(file, os.W_OK) for file in files if file.exists())


def close_when_request_ends(db) -> None:
    """Django closes a connection past its CONN_MAX_AGE when a request ends."""
    db.close_at = time.monotonic()


def drop_connections() -> None:
    """Close this thread's database connections, so the next query opens a new one."""
    for db in connections.all(initialized_only=True):
        if db.connection is None:
            continue
        if db.in_atomic_block:
            close_when_request_ends(db)
            continue
        # Closed first, a pooled connection is discarded by the pool rather than kept.
        with contextlib.suppress(Exception):  # it is being thrown away
            db.connection.close()
        db.close()


def opened(sender, connection, **kwargs) -> None:
    """`connection_created`: a SQLite connection opened read-only lives one request."""
    if connection.vendor == "sqlite" and not sqlite_files_writable(
        connection.settings_dict["NAME"]
    ):
        close_when_request_ends(connection)


def write_refused() -> str:
    """Why a write would be refused right now ("" when one would be taken), by taking the
    write lock and giving it back. SQLite: the files' write permission, then
    `BEGIN IMMEDIATE` and `COMMIT` around a `SELECT 1` (it waits while another request
    writes, a few milliseconds). PostgreSQL: `SHOW transaction_read_only` (a read-only
    database or a standby). Raises the database's error when it cannot be reached."""
    if connection.vendor == "sqlite":
        if not sqlite_files_writable(connection.settings_dict["NAME"]):
            return "read-only"
        try:
            with transaction.atomic(), connection.cursor() as cursor:
                cursor.execute("SELECT 1")
        except DatabaseError as error:
            if refuses_writes(error):
                return "read-only"
            raise
        return ""
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("SHOW transaction_read_only")
            return "read-only" if cursor.fetchone()[0] == "on" else ""
        cursor.execute("SELECT 1")
        cursor.fetchone()
    return ""
