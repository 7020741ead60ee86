"""A database that will not take writes for a while stops saves and logins only while it
lasts, and `/health/` says so meanwhile.

A real gunicorn shaped as production runs it (2 workers of 4 threads each) serves a table
recording hands. Then, for a few seconds, the database refuses writes:

- SQLite: its file and WAL files are made immutable (`chattr +i`, which holds even for root,
  as a read-only remount, a backup tool or a permissions slip would);
- PostgreSQL: `ALTER DATABASE ... SET default_transaction_read_only = on`, and the app's
  connections are ended so that each opens a new one under it (a connection already open
  keeps writing: PostgreSQL gives a database's defaults to new connections only).

The saves come last before it, in every thread: the first read after a save is what wrote
to SQLite's WAL index in memory, and so killed the worker (SIGBUS), once the file stopped
taking writes. Meanwhile every save and every login is answered, with the 503 page saying
nothing can be saved (`Club-Database: read-only`, which the tablet's words follow), and
`/health/` answers 503 "database read-only". Once the database takes writes again, saves,
logins and `/health/` work again within seconds, in every worker and thread, with no
restart, no worker has died, and the table holds exactly the hands it was told were saved.
"""

from __future__ import annotations

import contextlib
import http.client
import os
import shutil
import sqlite3
import subprocess
import tempfile
import time
import urllib.parse
from collections import Counter
from contextlib import contextmanager
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection
from django.urls import reverse

from games.models import Match
from games.start import start_play
from scoring.models import Hand
from tests.factories import PASSWORD, UserFactory
from tests.faults import FIGURES
from tests.faults.server import WORKERS, Gunicorn
from tests.faults.test_restart import Tablet, win
from tests.games.helpers import seated_members, seated_session

pytestmark = pytest.mark.django_db(transaction=True)

# Seconds the database refuses writes, and within which everything must work again after.
READ_ONLY_FOR, BACK_WITHIN = 3.0, 10.0
# Rounds (a save, a login, a health probe) answered rightly in a row: more than the 8
# threads, so every worker and thread has shown it is over it.
IN_A_ROW = 12
NOTHING_SAVED = "Nothing can be saved just now"
# As deploy/gunicorn.conf.py runs it (with WORKERS processes).
THREADS = 4


# How the workers hold their connections: kept CONN_MAX_AGE seconds (the default), or, on
# PostgreSQL, Django's pool (compose.yaml turns it on), where a read-only connection given
# back would be handed out again.
CONNECTIONS = {
    "kept": {"DB_POOL_MAX_SIZE": "", "CONN_MAX_AGE": ""},
    "pooled": {"DB_POOL_MAX_SIZE": str(THREADS), "CONN_MAX_AGE": "0"},
}
POSTGRESQL = os.environ.get("DATABASE_URL", "").startswith(("postgres://", "postgresql://"))


@pytest.fixture(params=["kept", "pooled"] if POSTGRESQL else ["kept"])
def server(request, transactional_db, club):
    gunicorn = Gunicorn(threads=THREADS)
    gunicorn.env.update(CONNECTIONS[request.param])
    gunicorn.start()
    gunicorn.wait_until_ready()
    yield gunicorn
    gunicorn.close()


def answer(server: Gunicorn, method: str, path: str, body: str = "", headers=None):
    """(status, Club-Database header, body); status 0 when the connection was dropped."""
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    try:
        conn.request(method, path, body=body or None, headers=headers or {})
        response = conn.getresponse()
        text = response.read().decode(errors="replace")
        return response.status, response.getheader("Club-Database", ""), text
    except (OSError, http.client.HTTPException):
        return 0, "", ""
    finally:
        conn.close()


def health(server: Gunicorn):
    status, _, text = answer(server, "GET", "/health/")
    return status, text.strip()


def log_in(server: Gunicorn, username: str):
    csrf = "k" * 32
    return answer(
        server,
        "POST",
        reverse("login"),
        urllib.parse.urlencode({"username": username, "password": PASSWORD}),
        {
            "Content-Type": "application/x-www-form-urlencoded",
            "Cookie": f"{settings.CSRF_COOKIE_NAME}={csrf}",
            "X-CSRFToken": csrf,
        },
    )


class Table:
    """A table's tablet recording hands; a hand not saved is sent again, unchanged."""

    def __init__(self, server: Gunicorn, match: Match, user):
        self.server = server
        self.tablet = Tablet(server, user)
        self.match = match
        self.path = reverse("scoring:win", args=[match.session_id, match.table_number])
        self.saved: list[int] = []

    def save(self):
        number = len(self.saved) + 1
        status, header, page = answer(
            self.server,
            "POST",
            self.path,
            urllib.parse.urlencode(win(self.match, number)),
            self.tablet.headers(),
        )
        if status == 200:
            assert f"Hand {number} saved:" in page, page[:1000]
            self.saved.append(number)
        return status, header, page


def chattr(flag: str, files: list[Path]) -> None:
    for file in files:
        if file.exists():
            subprocess.run(["chattr", flag, str(file)], check=True, capture_output=True)


@contextmanager
def database_read_only():
    if connection.vendor == "sqlite":
        name = Path(connection.settings_dict["NAME"])
        files = [name, Path(f"{name}-wal"), Path(f"{name}-shm")]
        if shutil.which("chattr") is None:
            pytest.skip("chattr (e2fsprogs) is needed to make the database file read-only")
        try:
            chattr("+i", files)
        except subprocess.CalledProcessError as error:
            chattr("-i", files)
            pytest.skip(f"cannot make the database file immutable here: {error.stderr}")
        try:
            yield
        finally:
            chattr("-i", files)
        return
    database = connection.ops.quote_name(connection.settings_dict["NAME"])
    with connection.cursor() as cursor:
        cursor.execute(f"ALTER DATABASE {database} SET default_transaction_read_only = on")
        cursor.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
    try:
        yield
    finally:
        with connection.cursor() as cursor:
            cursor.execute(f"ALTER DATABASE {database} RESET default_transaction_read_only")


def evening(server: Gunicorn, club) -> tuple[Table, object]:
    """A table in play under u3a rules with its East player's tablet, and a coordinator."""
    club.rule_set = "u3a"
    club.save()
    session = seated_session(club, sizes=(4,))
    start_play(session)
    east = seated_members(session, 1)[0]
    east.user = UserFactory()
    east.save()
    return Table(server, Match.objects.get(session=session), east.user), UserFactory()


def refused_then_back(
    server: Gunicorn, table: Table, coordinator, fault, what: str, some_fit: bool = False
) -> list:
    """Saves and logins work; within `fault` they are refused with the page that says
    nothing can be saved (`some_fit`: or taken, on a full disk, in room a refused one had
    claimed) and /health/ says `database <what>`; after it, they work again within
    BACK_WITHIN seconds. Returns the hand numbers the tablet was told were saved."""
    assert log_in(server, coordinator.username)[0] == 302
    assert health(server) == (200, "ok")
    # Saves last: the first read after a save is what used to write to SQLite's WAL index in
    # memory, and so die of SIGBUS, once the file stopped taking writes.
    for _ in range(2 * WORKERS * THREADS):
        assert table.save()[0] == 200

    during = Counter()
    # `fault` may give a way to keep it going (a full disk kept full) before each request.
    with fault() as keep_faulty:
        keep_faulty = keep_faulty or (lambda: None)
        until = time.monotonic() + READ_ONLY_FOR
        while time.monotonic() < until:
            keep_faulty()
            saved_now = table.save()
            keep_faulty()
            for kind, (status, header, page) in (
                ("save", saved_now),
                ("login", log_in(server, coordinator.username)),
            ):
                during[f"{kind} {status or 'dropped'}"] += 1
                if some_fit and status == {"save": 200, "login": 302}[kind]:
                    continue
                # No save or login goes through, each is answered (no worker died), and
                # not with an error page or "try again in a minute": the page says
                # nothing can be saved.
                assert status == 503, (kind, status, page[:1000], server.log_tail())
                assert header == "read-only" and NOTHING_SAVED in page, page[:1000]
                assert "try again in a minute" not in page
            keep_faulty()
            assert health(server) == (503, f"database {what}")
            during["health 503"] += 1
    assert during["save 503"] and during["login 503"], during

    began, first, streak = time.monotonic(), None, 0
    after = Counter()
    while streak < IN_A_ROW:
        assert time.monotonic() - began < BACK_WITHIN, (
            f"not working again {BACK_WITHIN} s after the database took writes again: "
            f"{dict(after)}\n{server.log_tail()}"
        )
        round_ = (table.save()[0], log_in(server, coordinator.username)[0], health(server))
        after[str(round_)] += 1
        if round_ == (200, 302, (200, "ok")):
            first = first or time.monotonic() - began
            streak += 1
        else:
            streak = 0
    back = time.monotonic() - began

    log = Path(server.log.name).read_text(errors="replace")
    line = (
        f"[{what}] {connection.vendor}, connections "
        f"{'pooled' if server.env.get('DB_POOL_MAX_SIZE') else 'kept'}: {READ_ONLY_FOR:.0f} s, "
        f"{dict(sorted(during.items()))}; first save after {first:.2f} s, "
        f"{IN_A_ROW} rounds in a row after {back:.2f} s"
    )
    print("\n" + line)
    FIGURES.append(line)
    # No worker died: none wrote to SQLite's WAL index in memory once its file stopped
    # taking writes (SIGBUS), and none was restarted.
    assert "SIGBUS" not in log and log.count("Booting worker") == WORKERS, log[-3000:]
    return table.saved


def test_a_read_only_database_stops_writes_only_while_it_lasts(server, club):
    table, coordinator = evening(server, club)
    saved = refused_then_back(server, table, coordinator, database_read_only, "read-only")
    # The table holds exactly the hands its tablet was told were saved.
    hands = Hand.objects.filter(match=table.match).order_by("number")
    assert list(hands.values_list("number", flat=True)) == saved


@contextmanager
def small_disk():
    """A 16 MiB disk of its own (tmpfs), mounted for the test."""
    if connection.vendor != "sqlite":
        pytest.skip("PostgreSQL's disk is the database server's own, out of the test's reach")
    folder = Path(tempfile.mkdtemp(prefix="small-disk-"))
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=16m", "tmpfs", str(folder)], capture_output=True
    )
    if mounted.returncode:
        folder.rmdir()
        pytest.skip(f"cannot mount a small disk here: {mounted.stderr.decode().strip()}")
    try:
        yield folder
    finally:
        subprocess.run(["umount", str(folder)], check=True)
        folder.rmdir()


def test_a_full_disk_stops_writes_only_while_it_lasts(transactional_db, club):
    """SQLite: the database is copied onto a small disk of its own, served from there, and
    the disk filled for a while, then given room again."""
    with small_disk() as disk:
        server = Gunicorn(threads=THREADS)
        table, coordinator = evening(server, club)  # logs in (the session) before the copy
        copy = disk / "club.sqlite3"
        with connection.cursor() as cursor:
            cursor.execute("VACUUM INTO %s", [str(copy)])
        server.env["DATABASE_URL"] = f"sqlite:///{copy}"
        filler = disk / "filler"

        def fill():
            with filler.open("ab", buffering=0) as out:
                for size in (65536, 4096, 1):  # to the last byte
                    with contextlib.suppress(OSError):
                        while out.write(b"\0" * size):
                            pass

        @contextmanager
        def disk_full():
            """The disk filled to the last byte and kept full: a refused save lets SQLite
            drop its write-ahead log (more than the 1 MiB /health/ calls full, since hands
            keep their records too), room a disk that other things fill takes back."""
            fill()
            try:
                yield fill
            finally:
                filler.unlink()

        try:
            server.start()
            server.wait_until_ready()
            saved = refused_then_back(
                server, table, coordinator, disk_full, "disk full", some_fit=True
            )
        finally:
            server.close()
        with contextlib.closing(sqlite3.connect(copy)) as database:
            numbers = database.execute(
                f"SELECT number FROM {Hand._meta.db_table} WHERE match_id = ? ORDER BY number",
                [table.match.pk],
            ).fetchall()
        assert [number for (number,) in numbers] == saved
