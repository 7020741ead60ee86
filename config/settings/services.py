"""The database and the cache, chosen from the environment (docs/deploy.md).

Plain functions of an environment mapping, so the choices can be tested without importing
the settings (which read the real environment once, at start-up).

- One club on one computer (the default): SQLite or PostgreSQL from DATABASE_URL, database
  connections kept CONN_MAX_AGE seconds, and the cache in a table of that database.
- Several app servers: DB_POOL_MAX_SIZE turns on Django's PostgreSQL connection pool (one
  pool per server process; PgBouncer in front of PostgreSQL is the alternative, with
  DISABLE_SERVER_SIDE_CURSORS in its transaction mode), and CACHE_URL may name a `redis://`
  address instead of the database's table.

The cache holds the throttles' counts (wrong passwords, wrong table codes, sign-ups): they
must be the same for every gunicorn worker and outlive a worker, which gunicorn replaces
after max_requests (any visitor can bring that about with cheap requests). So with DEBUG off
the default is `database` (Django's DatabaseCache, in the table the club app's migration
makes, club/migrations/0014_cache_table.py), and each process's own memory (`memory`) only
with DEBUG on (`make run`) or when CACHE_URL asks for it.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

SQLITE = "django.db.backends.sqlite3"
POSTGRESQL = "django.db.backends.postgresql"

# The table `createcachetable` makes for CACHE_URL=database.
CACHE_TABLE = "club_cache"
DATABASE_CACHE_ENTRIES = 20_000
REDIS_SCHEMES = ("redis://", "rediss://", "unix://")


def whole_number(environ: Mapping[str, str], name: str, default: int, minimum: int = 0) -> int:
    value = environ.get(name, "").strip()
    if not value:
        return default
    try:
        number = int(value)
    except ValueError:
        number = minimum - 1
    if number < minimum:
        raise ImproperlyConfigured(f"{name} must be a whole number from {minimum}, not {value!r}.")
    return number


def yes_or_no(environ: Mapping[str, str], name: str, default: bool = False) -> bool:
    raw = environ.get(name, "")
    value = raw.strip().lower()
    if not value:
        return default
    if value in ("0", "false", "no", "off"):
        return False
    if value in ("1", "true", "yes", "on"):
        return True
    raise ImproperlyConfigured(f"{name} must be true or false, not {raw!r}.")


def database_settings(environ: Mapping[str, str], base_dir: Path) -> dict[str, Any]:
    """DATABASES["default"] from DATABASE_URL, CONN_MAX_AGE and the DB_POOL_* variables."""
    url = environ.get("DATABASE_URL", "").strip() or f"sqlite:///{base_dir / 'db.sqlite3'}"
    pool_max = whole_number(environ, "DB_POOL_MAX_SIZE", 0)
    conn_max_age = whole_number(environ, "CONN_MAX_AGE", 0 if pool_max else 60)
    if pool_max and conn_max_age:
        # Django refuses both: the pool keeps the connections open itself.
        raise ImproperlyConfigured(
            f"CONN_MAX_AGE must be 0 or unset when DB_POOL_MAX_SIZE is set (it is "
            f"{conn_max_age}): the pool keeps the connections open."
        )
    database = dj_database_url.parse(url, conn_max_age=conn_max_age, conn_health_checks=True)
    if yes_or_no(environ, "DISABLE_SERVER_SIDE_CURSORS"):
        # Behind PgBouncer in transaction mode, a cursor must not outlive its transaction:
        # `.iterator()` then reads in chunks from an ordinary cursor instead.
        database["DISABLE_SERVER_SIDE_CURSORS"] = True
    options = database.setdefault("OPTIONS", {})
    if database["ENGINE"] == SQLITE:
        # Several people tapping at once: every transaction takes the write lock when it
        # begins (IMMEDIATE), so a transaction that read first never fails upgrading its
        # lock, and a waiting writer queues for up to `timeout` seconds instead of "database
        # is locked". WAL lets pages be read while someone writes.
        options.update(
            {
                "transaction_mode": "IMMEDIATE",
                "timeout": 20,
                "init_command": (
                    "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; "
                    "PRAGMA busy_timeout=20000; PRAGMA foreign_keys=ON;"
                ),
            }
        )
    if pool_max:
        if database["ENGINE"] != POSTGRESQL:
            raise ImproperlyConfigured(
                "DB_POOL_MAX_SIZE needs PostgreSQL: DATABASE_URL must start with postgres://."
            )
        pool_min = whole_number(environ, "DB_POOL_MIN_SIZE", min(2, pool_max))
        if pool_min > pool_max:
            raise ImproperlyConfigured(
                f"DB_POOL_MIN_SIZE ({pool_min}) must not be more than DB_POOL_MAX_SIZE "
                f"({pool_max})."
            )
        options["pool"] = {
            "min_size": pool_min,
            "max_size": pool_max,
            # Seconds a request waits for a free connection before it gets the 503 page.
            "timeout": whole_number(environ, "DB_POOL_TIMEOUT", 10, minimum=1),
        }
    return database


def cache_settings(environ: Mapping[str, str], debug: bool = False) -> dict[str, Any]:
    """CACHES from CACHE_URL: `database` (the default, `memory` with DEBUG on), `memory`, or
    a redis:// address."""
    value = environ.get("CACHE_URL", "").strip() or ("memory" if debug else "database")
    if value == "memory":
        # Each server process keeps its own (the login throttle's counts among them).
        default = {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
    elif value == "database":
        default = {
            "BACKEND": "django.core.cache.backends.db.DatabaseCache",
            "LOCATION": CACHE_TABLE,
            # Room for every club's standings and login counts (Django's default is 300).
            "OPTIONS": {"MAX_ENTRIES": DATABASE_CACHE_ENTRIES},
        }
    elif value.startswith(REDIS_SCHEMES):
        if importlib.util.find_spec("redis") is None:
            raise ImproperlyConfigured(
                "CACHE_URL is a Redis address, but the redis package is not installed: "
                "install the app with its redis extra (pip install '.[redis]')."
            )
        default = {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": value}
    else:
        raise ImproperlyConfigured(
            f"CACHE_URL must be memory, database or a redis:// address, not {value!r}."
        )
    return {"default": default}
