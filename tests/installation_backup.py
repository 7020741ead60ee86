"""deploy/backup.sh run on the test database, and what a test compares afterwards: every
row of every table of the database it was restored into, and (PostgreSQL) its id counters.

A PostgreSQL backup is restored into a new database named after the test database
(test_<name>_..._restored), made from template0 so that parallel test workers never wait
on template1, and dropped afterwards."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import time
import urllib.parse
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from django.conf import settings

SCRIPT = Path(settings.BASE_DIR) / "deploy" / "backup.sh"


def backup_script(
    *args: str, url: str, backup_dir: Path, **env: str
) -> subprocess.CompletedProcess:
    """deploy/backup.sh with DATABASE_URL=url and BACKUP_DIR=backup_dir."""
    return subprocess.run(
        ["sh", str(SCRIPT), *args],
        env={**os.environ, "DATABASE_URL": url, "BACKUP_DIR": str(backup_dir), **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def is_postgresql(url: str) -> bool:
    return url.startswith(("postgres://", "postgresql://"))


def _psycopg(url: str):
    import psycopg

    return psycopg.connect(url, autocommit=True)


@contextmanager
def fresh_database(source_url: str, tmp_path: Path) -> Iterator[str]:
    """The URL of a new, empty database of the same kind as `source_url`."""
    if not is_postgresql(source_url):
        yield f"sqlite:///{tmp_path / 'restored.sqlite3'}"
        return
    parts = urllib.parse.urlsplit(source_url)
    name = urllib.parse.unquote(parts.path.lstrip("/")) + "_restored"
    with _psycopg(source_url) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}"')
        admin.execute(f'CREATE DATABASE "{name}" TEMPLATE template0')
    try:
        yield urllib.parse.urlunsplit(parts._replace(path="/" + urllib.parse.quote(name)))
    finally:
        _drop(source_url, name)


def _drop(source_url: str, name: str) -> None:
    """Drop the database: this role's sessions in it ended first, then a plain DROP, which
    also stops an autovacuum worker analysing the fresh restore. WITH (FORCE) would have
    to end that worker too, which a role without pg_signal_backend may not."""
    import psycopg

    with _psycopg(source_url) as admin:
        admin.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s "
            "AND usename = current_user AND pid <> pg_backend_pid()",
            [name],
        )
        for attempt in range(20):
            try:
                admin.execute(f'DROP DATABASE IF EXISTS "{name}"')
                return
            except psycopg.errors.ObjectInUse:
                if attempt == 19:
                    raise
                time.sleep(0.5)


def contents(url: str, tables: list[str] | None = None) -> dict[str, list[str]]:
    """Every row of every table (or of `tables`), as sorted text, read through the database's
    own driver; on PostgreSQL also each id counter's last value."""
    if is_postgresql(url):
        with _psycopg(url) as database:
            names = tables or [
                name
                for (name,) in database.execute(
                    "SELECT tablename FROM pg_tables WHERE schemaname = 'public'"
                )
            ]
            found = {
                name: sorted(row for (row,) in database.execute(f'SELECT t::text FROM "{name}" t'))
                for name in names
            }
            counters = database.execute(
                "SELECT sequencename || '=' || coalesce(last_value, 0) FROM pg_sequences"
            )
            found["(id counters)"] = sorted(value for (value,) in counters)
            return found
    path = url.removeprefix("sqlite:///")
    with sqlite3.connect(path) as database:
        names = tables or [
            name
            for (name,) in database.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
            )
        ]
        found = {
            name: sorted(repr(row) for row in database.execute(f'SELECT * FROM "{name}"'))
            for name in names
        }
        counters = database.execute("SELECT name || '=' || seq FROM sqlite_sequence")
        found["(id counters)"] = sorted(value for (value,) in counters)
    return found


def query(url: str, sql: str) -> list[tuple]:
    """The rows of one query on the database at `url`, through its own driver."""
    if is_postgresql(url):
        with _psycopg(url) as database:
            return database.execute(sql).fetchall()
    with sqlite3.connect(url.removeprefix("sqlite:///")) as database:
        return database.execute(sql).fetchall()
