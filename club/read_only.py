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
- Once the SQLite files cannot be written, the process's connections kept from earlier
  requests are closed before a request opens one (`before_request`): that spares the
  worker a SIGBUS.
- `write_refused()` is the health check's probe (front/health.py).
"""

from __future__ import annotations

import contextlib
import os
import threading
import time
import weakref
from pathlib import Path

from django.db import DEFAULT_DB_ALIAS, DatabaseError, connection, connections, transaction
from django.db.backends.base.base import BaseDatabaseWrapper

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


def refused_write_behind(error: BaseException | None) -> BaseException | None:
    """The refused write `error` is, or was raised from or while handling: Django answers a
    session save the database refused with SessionInterrupted (a 400), raised over it."""
    seen = set()
    while error is not None and id(error) not in seen:
        if refuses_writes(error):
            return error
        seen.add(id(error))
        error = error.__cause__ or error.__context__
    return None


def sqlite_files_writable(name) -> bool:
    """Whether this process may write the SQLite database `name` and its WAL files (one
    access() call each: cheap). A file that is not there yet is SQLite's to make."""
    name = str(name)
    if name == ":memory:" or name.startswith("file:"):
        return True
    files = [Path(name), Path(f"{name}-wal"), Path(f"{name}-shm")]
    return all(os.access(file, os.W_OK) for file in files if file.exists())


# Free space under which a SQLite database's disk counts as full: a hand is a few pages of
# 4 KiB, and the WAL grows to about 4 MB before it is written back into the database.
DISK_FULL_UNDER = 1024 * 1024


def sqlite_disk_full(name) -> bool:
    """Whether the disk holding the SQLite database `name` is (nearly) full: one statvfs()
    call. root may use the blocks kept back for it; anyone else may not."""
    name = str(name)
    if name == ":memory:" or name.startswith("file:"):
        return False
    disk = os.statvfs(Path(name).parent)
    free = disk.f_bfree if os.geteuid() == 0 else disk.f_bavail
    return free * disk.f_frsize < DISK_FULL_UNDER


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


# This process's SQLite connections kept between requests, by thread: while a thread waits
# for its next request, another may close its connection (see `before_request`). Weak, so
# a thread that ends takes its connection with it.
_kept_lock = threading.Lock()
_kept: weakref.WeakValueDictionary[int, BaseDatabaseWrapper] = weakref.WeakValueDictionary()


def after_request(sender, **kwargs) -> None:
    """`request_finished`: this thread's SQLite connection is listed while it waits."""
    db = connections[DEFAULT_DB_ALIAS]
    if db.vendor == "sqlite" and db.connection is not None:
        with _kept_lock:
            _kept[threading.get_ident()] = db


def before_request(sender, **kwargs) -> None:
    """`request_started`: once the SQLite files cannot be written, the connections kept from
    earlier requests are closed before this request opens one: every waiting thread's, and
    this thread's own. The new connection then opens the files read-only, and SQLite never
    writes to the WAL index it shares in memory between a process's connections (the -shm
    file): a write there, which any first read after a save makes, to a file that stopped
    taking writes kills the process (SIGBUS). Three access() calls a request."""
    db = connections[DEFAULT_DB_ALIAS]
    if db.vendor != "sqlite":
        return
    writable = sqlite_files_writable(db.settings_dict["NAME"])
    with _kept_lock:
        _kept.pop(threading.get_ident(), None)
        if writable:
            return
        for waiting in list(_kept.values()):
            # Its thread is between requests (it takes itself off the list first), so its
            # connection is not in use; it opens a new one when it next needs one.
            raw, waiting.connection = waiting.connection, None
            if raw is not None:
                with contextlib.suppress(Exception):
                    raw.close()
        _kept.clear()
    if db.connection is not None and not db.in_atomic_block:
        db.close()


def write_refused() -> str:
    """Why a write would be refused right now ("" when one would be taken), by taking the
    write lock and giving it back. SQLite: the files' write permission and the disk's free
    space, then `BEGIN IMMEDIATE` and `COMMIT` around a `SELECT 1` (it waits while another
    request writes, a few milliseconds). PostgreSQL: `SHOW transaction_read_only` (a read-only
    database or a standby). Raises the database's error when it cannot be reached."""
    if connection.vendor == "sqlite":
        name = connection.settings_dict["NAME"]
        if not sqlite_files_writable(name):
            return "read-only"
        if sqlite_disk_full(name):
            return "disk full"
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
