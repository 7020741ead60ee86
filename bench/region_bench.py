"""A region of many clubs on one PostgreSQL installation, measured (issue #19).

Run from the repository root:  make region-bench   (or .venv/bin/python bench/region_bench.py)
Options: --clubs 1,100,1000  --requests 120 (per kind of request and size)
         --load-clubs 25 --load-seconds 120 --workers 3 (the Tuesday-afternoon load test under
         gunicorn with that many workers, as docs/deploy.md runs it; 0 seconds skips it)
PostgreSQL: REGION_PG_URL (default postgres://club_ci:club_ci@127.0.0.1:5432/region_bench).
The role must be allowed to create databases: the bench makes <name>_1, <name>_100 ... (one
per size, dropped first when they exist). Unreachable: the bench says so and stops (exit 0).

1. Builds one club ("club-0000"): 30 members, a year of history (50 weekly evenings, 6
   tables, 16 hands a table, bench/synthetic_club.py's bulk builder, results computed from
   the hands), and tonight's evening with 6 tables started by the app's own code
   (games.start via a published seating) and 8 hands a table saved by
   scoring.recording.save_win. It checks the bulk-built rows have the shape the app's
   writes give (same columns filled, the club key equal to the match's, payments summing
   to zero, stored results equal to a rebuild from the hands).
2. Copies that club, row for row, into N - 1 more clubs with SQL (INSERT ... SELECT, new
   keys by offset; logins get their own user names), each size in its own database made
   from the previous one (CREATE DATABASE ... TEMPLATE). At 1,000 clubs the tables hold
   4.8 million hands. Stored results of a copied club are checked again against a rebuild.
3. Per size, per kind of request of a Tuesday afternoon (the 4-second poll, a saved hand,
   the table page, the results pages), in this process through Django's WSGI handler with
   every middleware (production settings, DEBUG off, real CSRF and session checks) at
   /c/<slug>/... addresses of clubs spread over the installation: the app's processor time
   per request (p50, p95), the wall time, the database's processor time (the server
   process's own counters) and the number of queries. At the largest size it prints
   EXPLAIN ANALYZE for the slowest queries.
4. The load test: gunicorn (3 workers) over the largest database, locust driving
   --load-clubs clubs' tables at the pace of a real evening (each table polls every 4 s and
   saves a hand about every 3 minutes, each club's members read results about 3 times each
   an evening), then the processor time per request of the mix, app and database, and the
   number of 2-core app servers a region of 1,000 clubs needs at its peak.
"""

from __future__ import annotations

import argparse
import csv
import datetime
import json
import os
import random
import re
import secrets
import statistics
import string
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parents[1]
HERE = Path(__file__).resolve().parent
for folder in (ROOT, HERE, HERE / "loadtest"):
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))

DEFAULT_PG_URL = "postgres://club_ci:club_ci@127.0.0.1:5432/region_bench"
SEED = 20261126
MEMBERS, TABLES, HANDS_PER_TABLE, WEEKS = 30, 6, 16, 50
TONIGHT_HANDS = 8
PASSWORD = "region-bench-password-5521"
CHUNK = 100  # clubs copied per statement
# Issue #19's targets for the app's processor time per request.
TARGET_POLL_MS, TARGET_SAVE_MS = 2.0, 25.0
# A Tuesday afternoon, per club: tables polling every 4 s, a hand about every 3 minutes at
# each table, each member reading results about 3 times in a 3-hour afternoon.
POLL_SECONDS, HAND_SECONDS, READS_PER_MEMBER, AFTERNOON_SECONDS = 4, 180, 3, 3 * 3600
BIN = Path(sys.executable).parent


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clubs", default="1,100,1000")
    parser.add_argument("--requests", type=int, default=120)
    parser.add_argument("--load-clubs", type=int, default=25)
    parser.add_argument("--load-seconds", type=int, default=120)
    parser.add_argument("--workers", type=int, default=3, help="gunicorn's (deployment: 3)")
    parser.add_argument("--keep", action="store_true", help="reuse databases already built")
    args = parser.parse_args()
    sizes = sorted({int(n) for n in args.clubs.split(",")})
    url = os.environ.get("REGION_PG_URL", DEFAULT_PG_URL)
    problem = reachable(url)
    if problem:
        print(f"Region bench SKIPPED: PostgreSQL at {hide_password(url)}: {problem}")
        return 0
    started = time.monotonic()
    print(f"Region bench: {sizes} clubs on {hide_password(url)}; {load()}", flush=True)
    print(f"  processor: {calibration()}", flush=True)
    static = Path(tempfile.mkdtemp(prefix="region-static-"))
    from serve import serving_env

    env = serving_env(
        database_url(url, sizes[0]),
        STATIC_ROOT=str(static),
        CONN_MAX_AGE="600",
    )
    env["ALLOWED_HOSTS"] = "testserver,127.0.0.1,localhost"
    os.environ.update(env)
    import django

    django.setup()
    import logging

    logging.disable(logging.WARNING)  # refused logins and the like are logged as warnings
    from django.core.management import call_command

    call_command("collectstatic", interactive=False, verbosity=0)
    built = build_all(url, sizes, args.keep)
    rows, slow = [], {}
    for n in sizes:
        use_database(database_url(url, n))
        rows += measure_size(n, args.requests, slow)
    report(rows, sizes)
    explain(slow)
    loadrow = None
    if args.load_clubs and args.load_seconds:
        from django.db import connection

        connection.close()
        loadrow = load_test(
            database_url(url, sizes[-1]), env, args, min(args.load_clubs, sizes[-1])
        )
    region(rows, loadrow, sizes[-1])
    print(f"  processor: {calibration()}; {load()}")
    print(f"\nBuilt: {built}. The whole run took {(time.monotonic() - started) / 60:.1f} minutes.")
    return 0


# --- PostgreSQL databases ---------------------------------------------------------------------


def database_url(url: str, clubs: int) -> str:
    parts = urlsplit(url)
    return urlunsplit(parts._replace(path=f"{parts.path.rstrip('/')}_{clubs}"))


def hide_password(url: str) -> str:
    parts = urlsplit(url)
    if parts.password:
        return urlunsplit(
            parts._replace(netloc=parts.netloc.replace(f":{parts.password}@", ":***@"))
        )
    return url


def admin(url: str):
    import psycopg

    parts = urlsplit(url)
    return psycopg.connect(
        urlunsplit(parts._replace(path="/postgres")), autocommit=True, connect_timeout=5
    )


def reachable(url: str) -> str | None:
    import psycopg

    try:
        with admin(url) as connection:
            may = connection.execute(
                "SELECT rolcreatedb OR rolsuper FROM pg_roles WHERE rolname = current_user"
            ).fetchone()[0]
    except psycopg.Error as error:
        return f"cannot connect: {str(error).strip().splitlines()[0]}"
    return None if may else "the role may not create databases"


def exists(url: str) -> bool:
    with admin(url) as connection:
        name = urlsplit(url).path.lstrip("/")
        return bool(
            connection.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone()
        )


def create_database(url: str, template: str | None = None) -> None:
    from psycopg import sql

    name = urlsplit(url).path.lstrip("/")
    with admin(url) as connection:
        connection.execute(
            sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
        )
        statement = sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name))
        if template:
            statement += sql.SQL(" TEMPLATE {}").format(
                sql.Identifier(urlsplit(template).path.lstrip("/"))
            )
        connection.execute(statement)


def use_database(url: str) -> None:
    """Point Django's connection at another database of the same server."""
    from django.db import connection

    connection.close()
    connection.settings_dict["NAME"] = urlsplit(url).path.lstrip("/")


# --- building ---------------------------------------------------------------------------------


def build_all(url: str, sizes: list[int], keep: bool) -> str:
    previous, have = None, 1
    said = []
    for n in sizes:
        target = database_url(url, n)
        if keep and exists(target):
            print(f"  {n} clubs: kept from before")
            previous, have = target, n
            continue
        started, cpu = time.monotonic(), time.process_time()
        if previous is None:
            create_database(target)
            use_database(target)
            from django.core.management import call_command

            call_command("migrate", verbosity=0)
            template_club()
            have = 1
        else:
            from django.db import connection

            connection.close()
            create_database(target, template=previous)
            use_database(target)
        if n > have:
            copy_clubs(have, n)
            check_copy(n)
        have, previous = n, target
        hands = count("scoring_hand")
        said.append(f"{n} clubs, {hands:,} hands in {time.monotonic() - started:.0f} s")
        print(
            f"  {n} clubs: {hands:,} hands, {count('scoring_matchresult'):,} results, "
            f"{count('club_member'):,} members, built in {time.monotonic() - started:.0f} s "
            f"(this process {time.process_time() - cpu:.0f} s of processor)",
            flush=True,
        )
    return "; ".join(said) or "nothing (kept from before)"


def count(table: str) -> int:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(f"SELECT count(*) FROM {table}")  # noqa: S608 (our own table names)
        return cursor.fetchone()[0]


def template_club() -> None:
    """The first club: a year of history in bulk, tonight started and played by the app."""
    import synthetic_club

    from club.models import Club
    from club.scoping import scope, scopes_disabled
    from games.models import Match
    from scoring.recording import Win, save_win

    synthetic_club.MEMBERS = MEMBERS
    synthetic_club.TABLES = TABLES
    synthetic_club.HANDS_PER_TABLE = HANDS_PER_TABLE
    rng = random.Random(SEED)
    last = datetime.date.today() - datetime.timedelta(weeks=1)
    with scopes_disabled():
        club, user, _, members, _, _ = synthetic_club.build_club(
            rng, last=last, years=WEEKS * 10 // synthetic_club.SESSIONS
        )
        Club.objects.filter(pk=club.pk).update(slug="club-0000", name="Club 0")
        club.refresh_from_db()
        synthetic_club.add_tonight(club, members, PASSWORD, tables=TABLES)
    with scope(club=club):
        tonight = club.sessions.order_by("-date").first()
        for match in Match.objects.filter(session=tonight).order_by("table_number"):
            for number in range(1, TONIGHT_HANDS + 1):
                # The dealer (chair 0) wins every hand and keeps the deal: the matches stay
                # in play however many hands the measurements add.
                discarder = rng.choice([None, 1, 2, 3])
                win = Win(
                    winner=0,
                    won_by="discard" if discarder is not None else "wall",
                    discarder=discarder,
                    total=rng.choice([24, 40, 80, 160]),
                )
                save_win(match, number, win, by=user)
    check_shapes(club)


FILLED_SKIP = {"id", "recorded_at", "recorded_by", "club", "match", "number"}


def filled(row, skip=FILLED_SKIP) -> frozenset:
    """The columns a row has filled in (not null, not empty)."""
    return frozenset(
        field.name
        for field in row._meta.concrete_fields
        if field.name not in skip and getattr(row, field.attname) not in (None, "", [], {})
    )


def check_shapes(club) -> None:
    """Bulk-built history against tonight's hands, saved by the app's own write path."""
    from club.scoping import scope
    from games.models import Match
    from scoring.models import Hand
    from scoring.results import MatchResult

    with scope(club=club):
        tonight = club.sessions.order_by("-date").first()
        real = list(Hand.objects.filter(match__session=tonight).select_related("match"))
        bulk = list(Hand.objects.exclude(match__session=tonight).select_related("match"))
        assert len(real) == TABLES * TONIGHT_HANDS, len(real)
        for hand in real + bulk:
            assert hand.club_id == hand.match.club_id, "a hand's club is not its match's"
            assert sum(hand.payments) == 0, "payments that do not sum to zero"
        for kind in ("wall", "discard"):
            real_shapes = {filled(h) for h in real if h.won_by == kind}
            bulk_shapes = {filled(h) for h in bulk if h.won_by == kind}
            # Who recorded it and when are left out: the app's write records both.
            assert bulk_shapes <= real_shapes, (
                kind,
                bulk_shapes - real_shapes,
            )
        results_match(Match.objects.filter(session=tonight), "tonight (app's writes)")
        sample = list(club.sessions.order_by("date").values_list("pk", flat=True)[:3])
        results_match(Match.objects.filter(session__in=sample), "3 bulk-built evenings")
        real_rows = {filled(r, {"id"}) for r in MatchResult.objects.filter(session=tonight)}
        bulk_rows = {filled(r, {"id"}) for r in MatchResult.objects.filter(session__in=sample)}
        print(
            f"  shapes: {len(real)} hands saved by save_win and {len(bulk):,} bulk-built "
            f"share their columns; results rows: {len(real_rows)} / {len(bulk_rows)} shapes",
            flush=True,
        )


def results_match(matches, label: str) -> None:
    """Stored results of `matches` equal a rebuild from their hands."""
    from django.db import transaction
    from django.forms.models import model_to_dict

    from scoring.results import MatchResult
    from scoring.standings import rebuild_results

    def stored():
        return {
            row.chair_id: model_to_dict(row, exclude=["id"])
            for row in MatchResult.objects.filter(match__in=matches)
        }

    # Undone afterwards: a rebuild's new rows would take keys a later copy needs.
    with transaction.atomic():
        before = stored()
        rebuild_results(matches)
        after = stored()
        transaction.set_rollback(True)
    assert before and before == after, f"stored results differ from a rebuild: {label}"
    print(f"  results of {label}: {len(before)} rows = a rebuild from the hands")


def cloned_models() -> list:
    from django.contrib.auth import get_user_model

    from club.calendar_feed.models import CalendarAddress
    from club.models import (
        Attendance,
        Coordinator,
        KeepApart,
        Member,
        SeatingPlan,
        SeatingTable,
        Session,
        SessionReply,
    )
    from club.models import Seat as PlannedSeat
    from games.models import Chair, Match, RoomKey, TableKey
    from scoring.kept_records import KeptRecord
    from scoring.models import Correction, Hand, KongChips
    from scoring.results import MatchResult

    return [
        get_user_model(),
        Member,
        Coordinator,
        KeepApart,
        CalendarAddress,
        RoomKey,
        Session,
        Attendance,
        SessionReply,
        TableKey,
        SeatingPlan,
        SeatingTable,
        PlannedSeat,
        Match,
        Chair,
        Hand,
        KongChips,
        Correction,
        MatchResult,
        KeptRecord,
    ]


def copy_clubs(have: int, want: int) -> None:
    """Clubs have..want-1 as copies of club 0 (the first club built): every row of each
    model in `cloned_models`, keys moved on by k x (the first club's largest key)."""
    from django.apps import apps
    from django.db import connection, transaction
    from django.db.models import CharField, UUIDField

    from club.models import Club

    models = cloned_models()
    q = connection.ops.quote_name
    with connection.cursor() as cursor:
        cursor.execute("SELECT min(id), count(*) FROM club_club")
        first, clubs = cursor.fetchone()
        assert clubs == have, (clubs, have)
        if have == 1:
            # The first club's largest key of each table: a copy k's keys are above k x span.
            cursor.execute("CREATE TABLE region_bench_span (label text PRIMARY KEY, span bigint)")
            for model in models:
                cursor.execute(
                    "INSERT INTO region_bench_span VALUES (%s, "
                    f"(SELECT coalesce(max(id), 0) FROM {model._meta.db_table}))",  # noqa: S608
                    [model._meta.label],
                )
        cursor.execute("SELECT label, span FROM region_bench_span")
        spans = {apps.get_model(label): span for label, span in cursor.fetchall()}
    for model in apps.get_models():
        if (
            model not in models
            and model is not Club
            and model._meta.app_label in ("club", "games", "scoring")
            and _rows(model)
        ):
            print(f"  note: {model._meta.label} has rows that are not copied")

    def expression(model, field) -> str:
        column = f"t.{q(field.column)}"
        if field.primary_key:
            return f"{column} + k * {spans[model]}"
        if field.is_relation:
            target = field.related_model
            if target is Club:
                return f"{column} + k"
            if target in spans:
                return f"{column} + k * {spans[target]}"
            return column
        if field.unique and isinstance(field, CharField):
            # Cut to leave room for "-k" within the column's length (a card's code is 10).
            return f"left({column}, {field.max_length - len(str(want)) - 1}) || '-' || k"
        if field.unique and isinstance(field, UUIDField):
            return f"CASE WHEN {column} IS NULL THEN NULL ELSE gen_random_uuid() END"
        return column

    started = time.monotonic()
    for low in range(have, want, CHUNK):
        high = min(low + CHUNK, want) - 1
        with transaction.atomic(), connection.cursor() as cursor:
            if have > 1:
                # The same statements made the first copies with every foreign key checked
                # (at commit); beyond those, the checks (triggers) are off: a third faster.
                cursor.execute("SET LOCAL session_replication_role = replica")
            fields = Club._meta.concrete_fields
            columns = ", ".join(q(f.column) for f in fields)
            values = []
            for field in fields:
                if field.primary_key:
                    values.append("t.id + k")
                elif field.name == "slug":
                    values.append("'club-' || lpad(k::text, 4, '0')")
                elif field.name == "name":
                    values.append("'Club ' || k")
                elif field.name == "served_at_root":
                    values.append("false")  # one club at most at the root
                else:
                    values.append(f"t.{q(field.column)}")
            cursor.execute(
                f"INSERT INTO club_club ({columns}) SELECT {', '.join(values)} "  # noqa: S608
                f"FROM club_club t CROSS JOIN generate_series({low}, {high}) AS k "
                f"WHERE t.id = {first}"
            )
            for model in models:
                if not spans[model]:
                    continue
                fields = model._meta.concrete_fields
                columns = ", ".join(q(f.column) for f in fields)
                values = ", ".join(expression(model, f) for f in fields)
                cursor.execute(
                    f"INSERT INTO {model._meta.db_table} ({columns}) SELECT {values} "  # noqa: S608
                    f"FROM {model._meta.db_table} t CROSS JOIN generate_series({low}, {high}) "
                    f"AS k WHERE t.id <= {spans[model]}"
                )
                for through in through_models(model):
                    assert not _rows(through), f"{through._meta.label}: rows not copied"
        print(f"    copied clubs {low}..{high} ({time.monotonic() - started:.0f} s)", flush=True)
    with connection.cursor() as cursor:
        for model in [Club, *models]:
            table = model._meta.db_table
            cursor.execute(
                f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
                f"(SELECT max(id) FROM {table}))"
            )
        cursor.execute("ANALYZE")


def _rows(model) -> bool:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(f"SELECT EXISTS (SELECT 1 FROM {model._meta.db_table})")  # noqa: S608
        return cursor.fetchone()[0]


def through_models(model) -> list:
    return [
        field.remote_field.through
        for field in model._meta.local_many_to_many
        if field.remote_field.through._meta.auto_created
    ]


def check_copy(n: int) -> None:
    """The last copy has the first club's number of hands, and its stored results equal a
    rebuild from its own hands."""
    from club.models import Club
    from club.scoping import scope
    from games.models import Match
    from scoring.models import Hand

    first, last = Club.objects.order_by("pk").first(), Club.objects.order_by("-pk").first()
    with scope(club=first):
        hands = Hand.objects.count()
    with scope(club=last):
        assert Hand.objects.count() == hands, "a copy has not the first club's hands"
        sample = list(last.sessions.order_by("-date").values_list("pk", flat=True)[:4])
        results_match(Match.objects.filter(session__in=sample), f"{last.slug} (a copy)")


# --- measuring one size -----------------------------------------------------------------------


def csrf_secret() -> str:
    alphabet = string.ascii_letters + string.digits
    return "".join(secrets.choice(alphabet) for _ in range(32))


def login_cookie(user) -> str:
    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore

    store = SessionStore()
    store[SESSION_KEY] = str(user.pk)
    store[BACKEND_SESSION_KEY] = settings.AUTHENTICATION_BACKENDS[-1]  # the one for passwords
    store[HASH_SESSION_KEY] = user.get_session_auth_hash()
    store.create()
    return store.session_key


def club_setup(club) -> dict:
    """What the requests of one club need: tonight's tables, a login at each, a reader."""
    from club.models import Member, Session
    from club.scoping import scope
    from games.models import Match

    with scope(club=club):
        tonight = club.sessions.order_by("-date").first()
        evening = (
            Session.objects.filter(status="closed").order_by("-date").values_list("pk", flat=True)
        )[0]
        tables = []
        for match in Match.objects.filter(session=tonight).order_by("table_number"):
            chair = match.chairs.select_related("member__user").get(number=0)
            tables.append(
                {
                    "table": match.table_number,
                    "match": match.pk,
                    "version": match.version,
                    "cookie": login_cookie(chair.member.user),
                    "hand": match.hands.filter(voided_at__isnull=True).count() + 1,
                }
            )
        reader = Member.objects.filter(user__isnull=False).order_by("pk")[5]
        return {
            "slug": club.slug,
            "session": tonight.pk,
            "evening": evening,
            "reader": reader.pk,
            "reader_cookie": login_cookie(reader.user),
            "tables": tables,
        }


class Driver:
    """Requests through Django's WSGI handler, as gunicorn calls it (all middleware)."""

    def __init__(self):
        from django.core.handlers.wsgi import WSGIHandler
        from django.test import RequestFactory

        self.handler = WSGIHandler()
        self.factory = RequestFactory()
        self.csrf = csrf_secret()

    def environ(self, method: str, path: str, cookie: str, data=None, htmx=False) -> dict:
        self.factory.cookies.clear()
        self.factory.cookies["sessionid"] = cookie
        self.factory.cookies["csrftoken"] = self.csrf
        extra = {"HTTP_HX_REQUEST": "true"} if htmx else {}
        if method == "POST":
            data = {"csrfmiddlewaretoken": self.csrf, **(data or {})}
            return self.factory.post(path, data, **extra).environ
        return self.factory.get(path, **extra).environ

    def __call__(self, environ: dict) -> tuple[int, bytes]:
        status = []
        response = self.handler(
            environ, lambda s, headers, exc_info=None: status.append(f"{s} {headers}")
        )
        try:
            body = b"".join(response)
        finally:
            response.close()
        self.last = status[0]
        return int(status[0].split()[0]), body


HAND_FIELD = re.compile(rb'id="win-form".*?name="hand" value="(\d+)"', re.S)
VERSION = re.compile(rb"[?&](?:amp;)?v=(\d+)")


def kinds(clubs: list[dict]):
    """Each kind of request: (name, expected status, a function i -> environ-maker)."""

    def table_of(i):
        club = clubs[i % len(clubs)]
        return club, club["tables"][(i // len(clubs)) % len(club["tables"])]

    def base(club):
        return f"/c/{club['slug']}/"

    def live(i, stale=False):
        club, table = table_of(i)
        version = table["version"] - 1 if stale else table["version"]
        path = (
            f"{base(club)}play/{club['session']}/tables/{table['table']}/poll/"
            f"?m={table['match']}&v={version}&open=1&h={table['hand']}"
        )
        return ("GET", path, table["cookie"], None, True), None

    def save(i):
        club, table = table_of(i)
        path = f"{base(club)}play/{club['session']}/tables/{table['table']}/win/"
        data = {
            "match": table["match"],
            "hand": table["hand"],
            "winner": 0,
            "won_by": "wall",
            "total": 24,
            "action": "save",
        }
        return ("POST", path, table["cookie"], data, True), table

    def page(i):
        club, table = table_of(i)
        path = f"{base(club)}play/{club['session']}/tables/{table['table']}/"
        return ("GET", path, table["cookie"], None, False), None

    def reading(suffix):
        def make(i):
            club = clubs[i % len(clubs)]
            path = base(club) + suffix.format(**club)
            return ("GET", path, club["reader_cookie"], None, False), None

        return make

    return [
        ("poll, nothing new (204)", 204, live),
        ("poll after a hand (200)", 200, lambda i: live(i, stale=True)),
        ("saved hand (quick entry)", 200, save),
        ("table page", 200, page),
        ("home page", 200, reading("")),
        ("standings", 200, reading("standings/")),
        ("an evening's results", 200, reading("standings/evening/{evening}/")),
        ("a member's results", 200, reading("standings/members/{reader}/")),
    ]


def backend_cpu() -> tuple[int, float]:
    """The database server process of this connection, and its processor seconds so far."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        pid = cursor.fetchone()[0]
    return pid, process_cpu(pid)


def process_cpu(pid: int) -> float:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return float("nan")
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(share * (len(ordered) - 1))))]


def measure_size(n: int, requests: int, slow: dict) -> list[dict]:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from club.models import Club

    sample = sorted({0, n // 4, n // 2, 3 * n // 4, n - 1})
    slugs = [f"club-{k:04d}" for k in sample]
    clubs = [club_setup(club) for club in Club.objects.filter(slug__in=slugs).order_by("pk")]
    total_hands = count("scoring_hand")
    print(
        f"\n== {n} clubs ({total_hands:,} hands in the installation); requests to clubs "
        f"{', '.join(slugs)}; {load()}; {calibration()}",
        flush=True,
    )
    driver = Driver()
    rows = []
    for name, expected, make in kinds(clubs):
        times, walls, database, backend = [], [], [], {"pid": 0}

        def one(  # noqa: PLR0913 (the loop's values bound, as a closure in a loop must)
            i,
            timed=True,
            captured=None,
            name=name,
            expected=expected,
            make=make,
            times=times,
            walls=walls,
            database=database,
            backend=backend,
        ):
            """Request i of this kind; timed: its processor and wall time and the database
            server process's processor time; captured: its queries."""
            (method, path, cookie, data, htmx), table = make(i)
            environ = driver.environ(method, path, cookie, data, htmx)
            db = process_cpu(backend["pid"]) if timed else 0.0
            cpu, wall = time.process_time(), time.perf_counter()
            if captured is not None:
                with CaptureQueriesContext(connection) as context:
                    status, body = driver(environ)
                captured += context.captured_queries
            else:
                status, body = driver(environ)
            if timed:
                times.append((time.process_time() - cpu) * 1000)
                walls.append((time.perf_counter() - wall) * 1000)
                database.append((process_cpu(backend["pid"]) - db) * 1000)
            assert status == expected, (name, path, driver.last, body[-600:])
            if table is not None:  # a saved hand: the form now offers the next one
                shown = HAND_FIELD.search(body)
                assert shown and int(shown.group(1)) == table["hand"] + 1, (name, body[-600:])
                # Undone at once (not measured), so that no match ends however many hands
                # are saved (classical ends after 16 won games): the next save is the same.
                undo = {"match": table["match"], "hand": table["hand"]}
                environ = driver.environ(
                    "POST", path.replace("/win/", "/undo/"), cookie, undo, htmx
                )
                status, body = driver(environ)
                shown = HAND_FIELD.search(body)
                assert status == 200 and shown and int(shown.group(1)) == table["hand"], (
                    "undo",
                    body[-600:],
                )
            return path

        for i in range(5):  # warm the caches (templates, URL patterns, the database's pages)
            one(i, timed=False)
        backend["pid"] = backend_cpu()[0]
        for i in range(requests):
            one(i)
        same = backend_cpu()[0] == backend["pid"]  # else the connection was opened again meanwhile
        db_ms = statistics.mean(database) if same else float("nan")
        counts = []
        for i in range(requests, requests + 5):
            captured = []
            path = one(i, timed=False, captured=captured)
            counts.append(len(captured))
            for query in captured:
                key = (name, re.sub(r"\d+", "N", query["sql"]))  # one per kind of query
                if float(query["time"]) >= slow.get(key, (0, ""))[0]:
                    slow[key] = (float(query["time"]), query["sql"], n, path)
        row = {
            "clubs": n,
            "kind": name,
            "cpu_p50": statistics.median(times),
            "cpu_p95": percentile(times, 0.95),
            "wall_p50": statistics.median(walls),
            "wall_p95": percentile(walls, 0.95),
            "db_ms": db_ms,
            "queries": max(counts),
            "queries_min": min(counts),
        }
        rows.append(row)
        print(
            f"  {name:<28} cpu p50 {row['cpu_p50']:6.2f} p95 {row['cpu_p95']:6.2f} ms; wall "
            f"p50 {row['wall_p50']:6.2f} p95 {row['wall_p95']:6.2f} ms; database cpu "
            f"{db_ms:5.2f} ms; {row['queries']} queries",
            flush=True,
        )
    return rows


def report(rows: list[dict], sizes: list[int]) -> None:
    print("\nPer request, side by side (the app's processor ms p50 / p95; the database's")
    print("processor ms a request; queries):")
    head = f"  {'request':<28}" + "".join(f"{f'{n} clubs':>30}" for n in sizes)
    print(head)
    by = {(r["kind"], r["clubs"]): r for r in rows}
    for kind in dict.fromkeys(r["kind"] for r in rows):
        line = f"  {kind:<28}"
        for n in sizes:
            r = by[(kind, n)]
            line += f"{r['cpu_p50']:>8.2f} /{r['cpu_p95']:>6.2f}  db {r['db_ms']:>5.2f}  q {r['queries']:>3}"
        print(line)
    print("\nTargets (the app's processor time, p50, at the largest size):")
    last = {r["kind"]: r for r in rows if r["clubs"] == sizes[-1]}
    first = {r["kind"]: r for r in rows if r["clubs"] == sizes[0]}
    for kind, target in (
        ("poll, nothing new (204)", TARGET_POLL_MS),
        ("saved hand (quick entry)", TARGET_SAVE_MS),
    ):
        r = last[kind]
        print(
            f"  {'met' if r['cpu_p50'] < target else 'MISSED':<7} {kind}: {r['cpu_p50']:.2f} ms (target under {target} ms)"
        )
    for kind, r in last.items():
        same = r["queries"] == first[kind]["queries"]
        ratio = r["cpu_p50"] / first[kind]["cpu_p50"]
        print(
            f"  {'same' if same else 'GROWN':<7} {kind}: queries {first[kind]['queries']} -> "
            f"{r['queries']}; processor {ratio:.2f} x of one club's"
        )


def explain(slow: dict) -> None:
    """EXPLAIN ANALYZE of every kind of query seen at the largest size; the slowest shown."""
    from django.db import connection

    if not slow:
        return
    largest = max(value[2] for value in slow.values())
    plans = []
    with connection.cursor() as cursor:
        for (kind, _), (_, sql, n, path) in slow.items():
            if n != largest or not sql.startswith("SELECT"):
                continue
            cursor.execute("EXPLAIN (ANALYZE, BUFFERS) " + sql)
            lines = [line for (line,) in cursor.fetchall()]
            took = float(re.search(r"Execution Time: ([\d.]+)", lines[-1]).group(1))
            plans.append((took, kind, sql, path, lines))
    plans.sort(key=lambda plan: plan[0], reverse=True)
    print(f"\nThe slowest of {len(plans)} kinds of query at {largest} clubs (EXPLAIN ANALYZE):")
    for took, kind, sql, path, lines in plans[:5]:
        print(f"\n  {took:.2f} ms ({kind}: {path}):\n    {sql[:600]}")
        for line in lines:
            print("    | " + line)


# --- the Tuesday-afternoon load test ----------------------------------------------------------


def load_test(url: str, env: dict, args, clubs: int) -> dict:
    from serve import gunicorn_on_loopback

    env = dict(env, DATABASE_URL=url, CONN_MAX_AGE="60")
    folder = Path(tempfile.mkdtemp(prefix="region-load-"))
    use_database(url)
    from club.models import Club

    every = max(1, int(Club.objects.count()) // clubs)
    slugs = [f"club-{k:04d}" for k in range(0, every * clubs, every)]
    setups = [club_setup(c) for c in Club.objects.filter(slug__in=slugs).order_by("pk")]
    (folder / "clubs.json").write_text(json.dumps(setups))
    from django.db import connection

    connection.close()
    tables = sum(len(s["tables"]) for s in setups)
    print(
        f"\n== Tuesday afternoon: {len(setups)} clubs of the {Club.objects.count()}, {tables} "
        f"tables polling every {POLL_SECONDS} s and saving a hand every ~{HAND_SECONDS} s, "
        f"{MEMBERS} members a club reading results {READS_PER_MEMBER} times an afternoon; "
        f"gunicorn --workers {args.workers}, locust, {args.load_seconds} s; {load()}",
        flush=True,
    )
    connection.close()
    ready = f"/c/{setups[0]['slug']}/accounts/login/"
    with gunicorn_on_loopback(
        env, folder / "gunicorn.log", workers=args.workers, ready=ready
    ) as server:
        database = DatabaseProcesses(url)
        time.sleep(2)
        cpu, db = server.cpu_seconds(), database.cpu_seconds()
        sampling = threading.Event()
        sampler = threading.Thread(target=database.sample, args=(sampling,), daemon=True)
        sampler.start()
        started = time.monotonic()
        command = [str(BIN / "locust"), "-f", str(HERE / "region_locust.py"), "--headless"]
        users = tables + len(setups)
        command += ["-u", str(users), "-r", str(max(1, users // 10)), "-t", f"{args.load_seconds}s"]
        command += ["--host", server.url, "--csv", str(folder / "load"), "--only-summary"]
        command += ["--loglevel", "WARNING", "--exit-code-on-error", "0", "--stop-timeout", "10"]
        locust_env = dict(os.environ, REGION_CLUBS=str(folder / "clubs.json"))
        with (folder / "locust.log").open("w") as out:
            subprocess.run(
                command, cwd=ROOT, env=locust_env, stdout=out, stderr=subprocess.STDOUT, check=True
            )
        seconds = time.monotonic() - started
        sampling.set()
        sampler.join()
        cpu, db = server.cpu_seconds() - cpu, database.cpu_seconds() - db
        errors = server.errors()
    with open(folder / "load_stats.csv", newline="") as stats:
        lines = list(csv.DictReader(stats))
    total = next(line for line in lines if line["Name"] == "Aggregated")
    done = int(total["Request Count"])
    row = {
        "clubs": len(setups),
        "tables": tables,
        "requests": done,
        "rps": done / seconds,
        "failures": int(total["Failure Count"]),
        "cpu_ms": cpu * 1000 / max(done, 1),
        "db_ms": db * 1000 / max(done, 1),
        "server_errors": len(errors),
        "by_name": {
            line["Name"]: (int(line["Request Count"]), float(line["50%"]), float(line["95%"]))
            for line in lines
            if line["Name"] != "Aggregated"
        },
    }
    for name, (n, p50, p95) in row["by_name"].items():
        print(f"  {name:<34} {n:>7} requests, latency p50 {p50:.0f} ms, p95 {p95:.0f} ms")
    print(
        f"  all: {done} requests in {seconds:.0f} s ({row['rps']:.1f}/s), {row['failures']} "
        f"failed, {len(errors)} server errors; processor per request: app {row['cpu_ms']:.2f} "
        f"ms (gunicorn master and workers), database {row['db_ms']:.2f} ms; {load()}"
    )
    for line in errors[:5]:
        print("  server:", line)
    return row


class DatabaseProcesses:
    """The PostgreSQL server processes serving one database (psutil: gunicorn's workers keep
    their connections open, CONN_MAX_AGE)."""

    def __init__(self, url: str):
        self.url = url
        self.name = urlsplit(url).path.lstrip("/")
        self.seen: dict[int, float] = {}

    def sample(self, stop) -> None:
        """Read the processes' counters every second until `stop` is set: a connection
        closed after CONN_MAX_AGE takes its counters with it."""
        while not stop.wait(1):
            self.cpu_seconds()

    def cpu_seconds(self) -> float:
        import psycopg

        with psycopg.connect(self.url.replace("postgres://", "postgresql://", 1)) as connection:
            pids = [
                pid
                for (pid,) in connection.execute(
                    "SELECT pid FROM pg_stat_activity WHERE datname = %s AND pid <> pg_backend_pid()",
                    [self.name],
                )
            ]
        for pid in pids:
            now = process_cpu(pid)
            if now == now:  # not NaN: the process is still there
                self.seen[pid] = now
        return sum(value for value in self.seen.values() if value == value)


def region(rows: list[dict], loadrow: dict | None, largest: int) -> None:
    """Requests a second at a region's peak, and the app servers it needs."""
    clubs = 1000
    by = {r["kind"]: r for r in rows if r["clubs"] == largest}
    polls = clubs * TABLES / POLL_SECONDS
    hands = clubs * TABLES / HAND_SECONDS
    fresh = hands  # the next poll after a hand gets the board (200)
    reads = clubs * MEMBERS * READS_PER_MEMBER / AFTERNOON_SECONDS
    total = polls + hands + reads
    read_kinds = ["home page", "standings", "an evening's results", "a member's results"]
    read_ms = statistics.mean(by[k]["cpu_p50"] for k in read_kinds)
    read_db = statistics.mean(by[k]["db_ms"] for k in read_kinds)
    app = (
        (polls - fresh) * by["poll, nothing new (204)"]["cpu_p50"]
        + fresh * by["poll after a hand (200)"]["cpu_p50"]
        + hands * by["saved hand (quick entry)"]["cpu_p50"]
        + reads * read_ms
    ) / 1000
    db = (
        (polls - fresh) * by["poll, nothing new (204)"]["db_ms"]
        + fresh * by["poll after a hand (200)"]["db_ms"]
        + hands * by["saved hand (quick entry)"]["db_ms"]
        + reads * read_db
    ) / 1000
    print(f"\nA region of {clubs} clubs at its peak (every club's {TABLES} tables at once):")
    print(
        f"  requests/s = {clubs} x {TABLES} x (1/{POLL_SECONDS} polls + 1/{HAND_SECONDS} hands) "
        f"+ {clubs} x {MEMBERS} x {READS_PER_MEMBER} / {AFTERNOON_SECONDS} reads = {polls:.0f} + "
        f"{hands:.1f} + {reads:.1f} = {total:.0f}/s"
    )
    print(
        f"  app processor (per-request figures at {largest} clubs, p50, in-process): "
        f"{app:.2f} cores ({app * 1000 / total:.2f} ms a request); database {db:.2f} cores"
    )
    if loadrow:
        served = loadrow["cpu_ms"] * total / 1000
        print(
            f"  measured under gunicorn at the mix ({loadrow['cpu_ms']:.2f} ms app, "
            f"{loadrow['db_ms']:.2f} ms database a request): app {served:.2f} cores, database "
            f"{loadrow['db_ms'] * total / 1000:.2f} cores"
        )
        app = max(app, served)
    servers = -(-app / (2 * 0.5) // 1)  # 2 cores each, kept half idle for bursts
    print(
        f"  2-core app servers, each kept at most half busy: ceil({app:.2f} / (2 x 0.5)) = "
        f"{servers:.0f} (plus one spare)"
    )


def calibration() -> str:
    """A fixed piece of Python work, to compare this machine's processor with another's."""
    started = time.process_time()
    total = 0
    for i in range(2_000_000):
        total += i * i
    return f"a fixed loop (2 million squares) took {(time.process_time() - started) * 1000:.0f} ms"


def load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.1f}, {five:.1f}, {fifteen:.1f} on {os.cpu_count()} cores"


if __name__ == "__main__":
    sys.exit(main())
