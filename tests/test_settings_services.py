"""The database and the cache chosen from the environment (config/settings/services.py):
unchanged for one club on one computer; a connection pool and a cache every app server
shares when there are several."""

from pathlib import Path

import pytest
from django.core.cache import cache
from django.core.exceptions import ImproperlyConfigured
from django.core.management import call_command
from django.db import connection

from club import login_throttle
from config.settings import services
from config.settings.services import CACHE_TABLE, cache_settings, database_settings
from tests.test_settings import run_python

BASE = Path("/srv/club")
PG = "postgres://club:secret@db.example.org:5432/club"


def test_one_club_on_one_computer_is_unchanged():
    database = database_settings({}, BASE)
    assert database["ENGINE"] == "django.db.backends.sqlite3"
    assert database["NAME"] == "/srv/club/db.sqlite3"
    assert database["CONN_MAX_AGE"] == 60
    assert database["CONN_HEALTH_CHECKS"] is True
    assert database["OPTIONS"]["transaction_mode"] == "IMMEDIATE"
    assert "pool" not in database["OPTIONS"]
    # `make run` (DEBUG on) keeps the cache in its one process's memory.
    assert cache_settings({}, debug=True) == {
        "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
    }


def test_production_counts_in_a_table_every_worker_shares_by_default(db):
    """Reported: every throttle forgot its counts when gunicorn replaced a worker (each kept
    them in its own memory). With DEBUG off and no CACHE_URL the cache is the database's
    table, and `migrate` makes that table (club/migrations/0014_cache_table.py)."""
    assert cache_settings({})["default"]["BACKEND"] == "django.core.cache.backends.db.DatabaseCache"
    assert cache_settings({}) == cache_settings({"CACHE_URL": "database"})
    assert CACHE_TABLE in connection.introspection.table_names()


def test_postgresql_without_the_pool_keeps_connections_conn_max_age_seconds():
    database = database_settings({"DATABASE_URL": PG, "CONN_MAX_AGE": "120"}, BASE)
    assert database["ENGINE"] == "django.db.backends.postgresql"
    assert database["CONN_MAX_AGE"] == 120
    assert "pool" not in database["OPTIONS"]


def test_db_pool_max_size_turns_the_pool_on():
    database = database_settings({"DATABASE_URL": PG, "DB_POOL_MAX_SIZE": "8"}, BASE)
    assert database["OPTIONS"]["pool"] == {"min_size": 2, "max_size": 8, "timeout": 10}
    # Django refuses persistent connections with the pool; health checks stay on.
    assert database["CONN_MAX_AGE"] == 0
    assert database["CONN_HEALTH_CHECKS"] is True


def test_the_pool_s_smallest_size_and_wait_come_from_the_environment():
    environ = {
        "DATABASE_URL": PG + "?sslmode=require",
        "DB_POOL_MAX_SIZE": "1",
        "DB_POOL_TIMEOUT": "3",
        "CONN_MAX_AGE": "0",
    }
    database = database_settings(environ, BASE)
    assert database["OPTIONS"]["pool"] == {"min_size": 1, "max_size": 1, "timeout": 3}
    assert database["OPTIONS"]["sslmode"] == "require"  # the address's own options stay
    environ.update(DB_POOL_MAX_SIZE="6", DB_POOL_MIN_SIZE="0")
    assert database_settings(environ, BASE)["OPTIONS"]["pool"]["min_size"] == 0


def test_behind_pgbouncer_s_transaction_mode_no_cursor_outlives_its_transaction():
    assert not database_settings({"DATABASE_URL": PG}, BASE).get("DISABLE_SERVER_SIDE_CURSORS")
    environ = {"DATABASE_URL": PG, "CONN_MAX_AGE": "0", "DISABLE_SERVER_SIDE_CURSORS": "true"}
    assert database_settings(environ, BASE)["DISABLE_SERVER_SIDE_CURSORS"] is True


@pytest.mark.parametrize(
    ("environ", "message"),
    [
        (
            {"DATABASE_URL": PG, "DB_POOL_MAX_SIZE": "4", "CONN_MAX_AGE": "60"},
            "CONN_MAX_AGE must be 0 or unset when DB_POOL_MAX_SIZE is set (it is 60)",
        ),
        ({"DB_POOL_MAX_SIZE": "4"}, "DB_POOL_MAX_SIZE needs PostgreSQL"),
        (
            {"DATABASE_URL": PG, "DB_POOL_MAX_SIZE": "2", "DB_POOL_MIN_SIZE": "3"},
            "DB_POOL_MIN_SIZE (3) must not be more than DB_POOL_MAX_SIZE (2)",
        ),
        ({"DATABASE_URL": PG, "DB_POOL_MAX_SIZE": "four"}, "DB_POOL_MAX_SIZE must be a whole"),
        ({"DATABASE_URL": PG, "DB_POOL_MAX_SIZE": "2", "DB_POOL_TIMEOUT": "0"}, "DB_POOL_TIMEOUT"),
        ({"DATABASE_URL": PG, "DISABLE_SERVER_SIDE_CURSORS": "sometimes"}, "must be true or"),
    ],
)
def test_a_pool_setting_that_cannot_work_is_named(environ, message):
    with pytest.raises(ImproperlyConfigured, match=message.replace("(", r"\(").replace(")", r"\)")):
        database_settings(environ, BASE)


def test_a_shared_cache_in_the_database_or_redis(monkeypatch):
    # As where the redis extra is installed (`make install` leaves it out).
    monkeypatch.setattr(services.importlib.util, "find_spec", lambda name: object())
    assert cache_settings({"CACHE_URL": "memory"}) == cache_settings({}, debug=True)
    assert cache_settings({"CACHE_URL": "database"})["default"] == {
        "BACKEND": "django.core.cache.backends.db.DatabaseCache",
        "LOCATION": "club_cache",
        "OPTIONS": {"MAX_ENTRIES": 20_000},
    }
    assert cache_settings({"CACHE_URL": "redis://cache.internal:6379/1"})["default"] == {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": "redis://cache.internal:6379/1",
    }


def test_a_cache_setting_that_cannot_work_is_named(monkeypatch):
    with pytest.raises(ImproperlyConfigured, match="CACHE_URL must be memory, database or a"):
        cache_settings({"CACHE_URL": "memcached://x"})
    monkeypatch.setattr(services.importlib.util, "find_spec", lambda name: None)
    with pytest.raises(ImproperlyConfigured, match=r"install the app with its redis extra"):
        cache_settings({"CACHE_URL": "redis://cache.internal:6379/1"})


def test_the_settings_read_them_from_the_environment():
    probe = (
        "import json, django; from django.conf import settings; django.setup();"
        "db = settings.DATABASES['default'];"
        "print(json.dumps({'pool': db['OPTIONS'].get('pool'), 'age': db['CONN_MAX_AGE'],"
        " 'cache': settings.CACHES['default']['BACKEND']}))"
    )
    result = run_python(
        probe, DEBUG="true", DATABASE_URL=PG, DB_POOL_MAX_SIZE="4", CACHE_URL="database"
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == (
        '{"pool": {"min_size": 2, "max_size": 4, "timeout": 10}, "age": 0, '
        '"cache": "django.core.cache.backends.db.DatabaseCache"}'
    )


def test_the_login_throttle_counts_in_the_database_cache(db, settings):
    """With CACHE_URL=database every app server reads the same counts: they are rows."""
    settings.CACHES = cache_settings({"CACHE_URL": "database"})
    call_command("createcachetable", verbosity=0)
    for _ in range(3):
        login_throttle.add_failure("username", "sheila")
    assert login_throttle.failures("username", "sheila") == 3
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT cache_key FROM {CACHE_TABLE}")
        keys = [row[0] for row in cursor.fetchall()]
    assert keys == [cache.make_key(login_throttle._key("username", "sheila"))]
    cache.clear()
