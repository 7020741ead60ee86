"""Load test: the app under gunicorn with two workers on loopback, driven by locust.

Run from the repository root:  make loadtest   (or .venv/bin/python bench/loadtest/run.py)
Options: --seconds 20 (per read scenario), --users 30, --hands 40, --only sqlite|postgres.

For SQLite (a file in a temporary folder, WAL as configured) and then PostgreSQL
(LOADTEST_PG_URL, default postgres://club_ci:club_ci@127.0.0.1:5432/club_loadtest; the
database is dropped and created again when the role may, otherwise emptied; unreachable
means that part is skipped, saying why), it builds the synthetic ten-year club
(bench/synthetic_club.py: 100 members, 500 sessions, 59,500 hands) with tonight's 20
tables in play, serves it with `gunicorn config.wsgi --workers 2` (DEBUG off, production
settings, plain HTTP) and runs three scenarios one after another (bench/loadtest/locustfile.py):

1. standings: --users members ask for the season's standings, no pause, for --seconds;
2. table page: --users members ask for their own table's page, for --seconds;
3. recording: 20 members, one per table, record hands through the quick-entry form until
   their match is over (or --hands hands), with draws, double taps and undos.

It prints, per database and scenario, requests, requests per second, the 50th, 95th and
99th percentile latency and the errors, then checks the database after recording: at
every table the live hands are exactly the hands saved (nothing lost), numbered 1..N with
no gap or duplicate (nothing doubled), the stored results equal a rebuild from the hands,
and the tallies the table page shows (the flow replayed) equal the payments summed per
chair. Exit status 1 when a check fails or a request errs; throughput under the target is
reported as a FAIL line only (the machine may be shared).
"""

from __future__ import annotations

import argparse
import csv
import datetime
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
for folder in (ROOT, HERE.parent, HERE):
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))

from serve import collect_static, gunicorn_on_loopback, serving_env  # noqa: E402

DEFAULT_PG_URL = "postgres://club_ci:club_ci@127.0.0.1:5432/club_loadtest"
PASSWORD = "load-test-password-8472"
TARGET_STANDINGS_RPS = 200
RECORDING_TABLES = 20
BIN = Path(sys.executable).parent


# --- the parent: one child process per database, then the summary --------------------------


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=int, default=20)
    parser.add_argument("--users", type=int, default=30)
    parser.add_argument("--hands", type=int, default=40)
    parser.add_argument("--only", choices=["sqlite", "postgres"])
    parser.add_argument("--child", help=argparse.SUPPRESS)  # database URL, internal
    parser.add_argument("--out", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        return child(args)
    started = time.monotonic()
    print(f"Load test: gunicorn --workers 2 on 127.0.0.1, locust; load before: {_load()}")
    folder = Path(tempfile.mkdtemp(prefix="loadtest-"))
    rows, checks, skipped = [], [], []
    databases = []
    if args.only in (None, "sqlite"):
        databases.append(("SQLite", f"sqlite:///{folder / 'club.sqlite3'}"))
    if args.only in (None, "postgres"):
        pg_url = os.environ.get("LOADTEST_PG_URL", DEFAULT_PG_URL)
        problem = fresh_postgres(pg_url)
        if problem:
            skipped.append(f"PostgreSQL part SKIPPED ({_hide_password(pg_url)}): {problem}")
            print(skipped[-1])
        else:
            databases.append(("PostgreSQL", pg_url))
    for label, url in databases:
        out = folder / f"{label}.json"
        command = [sys.executable, __file__, "--child", url, "--out", str(out)]
        command += ["--seconds", str(args.seconds), "--users", str(args.users)]
        command += ["--hands", str(args.hands)]
        print(f"\n== {label} ==", flush=True)
        done = subprocess.run(command, cwd=ROOT)
        if not out.exists():
            checks.append((label, f"the {label} run ended early (exit {done.returncode})", False))
            continue
        result = json.loads(out.read_text())
        rows += [dict(row, database=label) for row in result["rows"]]
        checks += [(label, name, ok) for name, ok in result["checks"]]
    status = summary(rows, checks, skipped, time.monotonic() - started)
    if status == 0:
        shutil.rmtree(folder)
    else:
        print(f"Logs, locust's figures and the SQLite database are in {folder}")
    return status


def summary(rows: list[dict], checks: list, skipped: list[str], seconds: float) -> int:
    print("\nResults (latency in ms, as locust measured it: network on loopback included)")
    head = f"  {'database':<11}{'scenario':<34}{'users':>6}{'requests':>9}{'req/s':>8}"
    print(head + f"{'p50':>7}{'p95':>7}{'p99':>7}{'errors':>7}{'cpu ms':>8}")
    for row in rows:
        print(
            f"  {row['database']:<11}{row['scenario']:<34}{row['users']:>6}{row['requests']:>9}"
            f"{row['rps']:>8.1f}{row['p50']:>7.0f}{row['p95']:>7.0f}{row['p99']:>7.0f}"
            f"{row['errors']:>7}{row['cpu_ms']:>8.1f}"
        )
    print(
        "  (cpu ms: the server's processor time per request, master and workers; "
        f"{os.cpu_count()} cores can serve at most {os.cpu_count()} x 1000 / cpu ms a second)"
    )
    print("\nTargets and checks")
    correct = True
    for row in rows:
        if row["scenario"] == "standings":
            fast = row["rps"] >= TARGET_STANDINGS_RPS
            print(
                f"  {'PASS' if fast else 'FAIL'}  {row['database']}: standings at least "
                f"{TARGET_STANDINGS_RPS} requests/s ({row['rps']:.0f})"
            )
    for database, name, ok in checks:
        correct &= ok
        print(f"  {'PASS' if ok else 'FAIL'}  {database}: {name}")
    for line in skipped:
        print(f"  SKIP  {line}")
    print(f"\nLoad after: {_load()}; the whole run took {seconds / 60:.1f} minutes.")
    return 0 if correct else 1


def _load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.2f}, {five:.2f}, {fifteen:.2f} on {os.cpu_count()} cores"


def _hide_password(url: str) -> str:
    parts = urlsplit(url)
    if parts.password:
        netloc = parts.netloc.replace(f":{parts.password}@", ":***@")
        return urlunsplit(parts._replace(netloc=netloc))
    return url


def fresh_postgres(url: str) -> str | None:
    """Drop and create the load test's database (or, if the role may not, check it exists
    so the child empties it). None when ready, else why PostgreSQL cannot be used."""
    import psycopg
    from psycopg import sql

    parts = urlsplit(url)
    name = parts.path.lstrip("/")
    admin = urlunsplit(parts._replace(path="/postgres"))
    try:
        with psycopg.connect(admin, autocommit=True, connect_timeout=5) as connection:
            exists = connection.execute(
                "SELECT 1 FROM pg_database WHERE datname = %s", [name]
            ).fetchone()
            may_create = connection.execute(
                "SELECT rolcreatedb OR rolsuper FROM pg_roles WHERE rolname = current_user"
            ).fetchone()[0]
            if may_create:
                if exists:
                    connection.execute(
                        sql.SQL("DROP DATABASE {} WITH (FORCE)").format(sql.Identifier(name))
                    )
                connection.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
            elif not exists:
                return f"database {name!r} does not exist and the role may not create it"
    except psycopg.Error as error:
        return f"cannot connect: {str(error).strip().splitlines()[0]}"
    return None


# --- the child: one database -----------------------------------------------------------------


def child(args) -> int:
    folder = Path(args.out).with_suffix("")  # logs, locust's figures, the SQLite file
    folder.mkdir()
    env = serving_env(args.child, STATIC_ROOT=str(folder / "static"))
    os.environ.update(env)
    import django

    django.setup()
    from django.core.management import call_command

    started = time.monotonic()
    call_command("flush", interactive=False, verbosity=0)  # a database kept from before
    call_command("migrate", verbosity=0)
    setup = build(folder)
    collect_static(env)
    print(f"  built the club and tonight's tables in {time.monotonic() - started:.0f} s")
    rows, checks = [], []
    with gunicorn_on_loopback(env, folder / "gunicorn.log") as server:
        print(f"  serving on {server.url}; load {_load()}", flush=True)
        for scenario, users, seconds in (
            ("standings", args.users, args.seconds),
            ("table", args.users, args.seconds),
            ("record", RECORDING_TABLES, 600),
        ):
            cpu = server.cpu_seconds()
            row = locust(server.url, folder, scenario, users, seconds, args.hands)
            row["cpu_ms"] = (server.cpu_seconds() - cpu) * 1000 / max(row["requests"], 1)
            print(f"    server processor time {row['cpu_ms']:.1f} ms a request")
            rows.append(row)
        tables = json.loads((folder / "record-results.json").read_text())
        after = verify(setup, tables, server.url)
        server_errors = server.errors()
    checks.append(("no request errors (non-2xx, refusals)", all(r["errors"] == 0 for r in rows)))
    checks.append(
        (f"no errors in the server's log ({len(server_errors)} lines)", not server_errors)
    )
    for line in server_errors[:10]:
        print("  server:", line)
    checks += after
    Path(args.out).write_text(json.dumps({"rows": rows, "checks": checks}))
    return 0


def build(folder: Path) -> dict:
    """The ten-year club, tonight's tables and a login session for every member."""
    import random

    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore
    from synthetic_club import SEED, add_tonight, build_club

    from club.models import Member

    rng = random.Random(SEED)
    last = datetime.date.today() - datetime.timedelta(weeks=1)
    club, _, _, members, _, _ = build_club(rng, last=last)
    tonight, matches = add_tonight(club, members, PASSWORD)
    table_of = {}
    for match in matches:
        for chair in match.chairs.all():
            table_of[chair.member_id] = (match.table_number, match.pk, chair.number)
    logins, recorders = [], []
    for member in Member.objects.filter(club=club).select_related("user").order_by("pk"):
        # What django.contrib.auth.login stores, without typing each password.
        store = SessionStore()
        store[SESSION_KEY] = str(member.user.pk)
        store[BACKEND_SESSION_KEY] = settings.AUTHENTICATION_BACKENDS[-1]
        store[HASH_SESSION_KEY] = member.user.get_session_auth_hash()
        store.create()
        login = {"cookie": store.session_key, "member": member.name}
        if member.pk in table_of:
            table, match, chair = table_of[member.pk]
            login |= {"table": table, "match": match, "chair": chair}
            if chair == 0:
                recorders.append(login)
        logins.append(login)
    seated = [login for login in logins if "table" in login]
    setup = {
        "session": tonight.pk,
        "rules": matches[0].rules,
        "logins": logins,
        "seated": seated,
        "recorders": sorted(recorders, key=lambda login: login["table"]),
    }
    (folder / "logins.json").write_text(json.dumps(setup))
    return setup


SCENARIOS = {
    "standings": "standings",
    "table": "table page",
    "record": "recording (20 tables)",
}


def locust(url: str, folder: Path, scenario: str, users: int, seconds: int, hands=0) -> dict:
    prefix = folder / scenario
    env = dict(os.environ)
    env.update(
        LOADTEST_SCENARIO=scenario,
        LOADTEST_LOGINS=str(folder / "logins.json"),
        LOADTEST_RESULTS=str(folder / "record-results.json"),
        LOADTEST_HANDS=str(hands),
    )
    command = [str(BIN / "locust"), "-f", str(HERE / "locustfile.py"), "--headless"]
    command += ["-u", str(users), "-r", str(users), "-t", f"{seconds}s", "--host", url]
    command += ["--csv", str(prefix), "--only-summary", "--loglevel", "WARNING"]
    command += ["--exit-code-on-error", "0", "--stop-timeout", "10"]
    print(f"  {SCENARIOS[scenario]}: {users} users ...", flush=True)
    log = folder / f"{scenario}-locust.log"
    with log.open("w") as out:
        done = subprocess.run(command, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)
    if done.returncode != 0:
        print(log.read_text()[-3000:])
        raise RuntimeError(f"locust stopped with exit {done.returncode} ({scenario})")
    with open(f"{prefix}_stats.csv", newline="") as stats:
        total = next(row for row in csv.DictReader(stats) if row["Name"] == "Aggregated")
    row = {
        "scenario": SCENARIOS[scenario],
        "users": users,
        "requests": int(total["Request Count"]),
        "rps": float(total["Requests/s"]),
        "p50": float(total["50%"]),
        "p95": float(total["95%"]),
        "p99": float(total["99%"]),
        "errors": int(total["Failure Count"]),
    }
    failures = Path(f"{prefix}_failures.csv")
    if row["errors"] and failures.exists():
        for line in failures.read_text().splitlines()[1:6]:
            print("    error:", line)
    print(
        f"    {row['requests']} requests, {row['rps']:.1f}/s, p50 {row['p50']:.0f} ms, "
        f"p95 {row['p95']:.0f} ms, p99 {row['p99']:.0f} ms, {row['errors']} errors",
        flush=True,
    )
    return row


def shown_tallies(url: str, login: dict, session: int) -> list[int]:
    """The tallies a table's page shows, as its member's phone gets it."""
    request = urllib.request.Request(
        f"{url}/play/{session}/tables/{login['table']}/",
        headers={"Cookie": f"sessionid={login['cookie']}"},
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        page = response.read().decode()
    return [int(tally) for tally in SEAT_TALLY.findall(page)]


SEAT_TALLY = re.compile(r'seat-tally"><span class="visually-hidden">Tally </span>(-?\d+)<')


def verify(setup: dict, tables: list[dict], url: str) -> list[tuple[str, bool]]:
    """After recording: nothing lost, nothing doubled, tallies consistent at every table."""
    from django.forms.models import model_to_dict

    from games.models import Match
    from scoring import selectors
    from scoring.models import Hand
    from scoring.recording import UNDONE_REASON
    from scoring.results import MatchResult
    from scoring.standings import rebuild_results

    by_table = {row["table"]: row for row in tables}
    recorders = {login["table"]: login for login in setup["recorders"]}
    matches = list(Match.objects.filter(session_id=setup["session"]).order_by("table_number", "pk"))
    checks = []
    recorded = [by_table.get(m.table_number, {}) for m in matches]
    checks.append(
        (
            f"all {RECORDING_TABLES} tables recorded at once "
            f"({sum(r.get('saved', 0) for r in recorded)} hands saved, "
            f"{sum(r.get('undone', 0) for r in recorded)} undone, "
            f"{sum(r.get('double_taps', 0) for r in recorded)} double taps)",
            len(matches) == RECORDING_TABLES and all(r.get("saved") for r in recorded),
        )
    )
    lost, doubled, voids, shown, finished = [], [], [], [], []
    for match, row in zip(matches, recorded, strict=True):
        hands = list(Hand.objects.filter(match=match).order_by("number", "pk"))
        live = [hand.number for hand in hands if hand.voided_at is None]
        if len(live) != row.get("saved", 0) - row.get("undone", 0):
            lost.append(match.table_number)
        if live != list(range(1, len(live) + 1)):
            doubled.append(match.table_number)
        undone = [h for h in hands if h.voided_at is not None and h.void_reason == UNDONE_REASON]
        if len(undone) != row.get("undone", 0) or len(undone) != len(hands) - len(live):
            voids.append(match.table_number)
        if row.get("mismatch"):
            doubled.append(match.table_number)
        board = selectors.board(match)
        summed = [match.starting_tally] * len(board.seats)
        for hand in hands:
            if hand.voided_at is None:
                summed = [t + p for t, p in zip(summed, hand.payments, strict=False)]
        stored = [
            match.starting_tally + row.result
            for row in MatchResult.objects.filter(match=match).order_by("chair__number")
        ]
        page = shown_tallies(url, recorders[match.table_number], setup["session"])
        if not ([seat.tally for seat in board.seats] == summed == stored == page):
            shown.append(match.table_number)
        if board.state.over != (match.status == Match.Status.FINISHED):
            finished.append(match.table_number)
    checks.append(("no hand lost: live hands = hands saved, at every table", not lost))
    checks.append(("no hand doubled: hands numbered 1..N, double taps saved once", not doubled))
    checks.append(("every undone hand kept, struck through, and no other", not voids))
    checks.append(
        (
            "tallies on each table's page = the board (flow replayed) = payments summed "
            "per chair = stored results",
            not shown,
        )
    )
    checks.append(("a match over by the flow is finished, and only then", not finished))

    def stored():
        return {
            row.chair_id: model_to_dict(row, exclude=["id"])
            for row in MatchResult.objects.filter(match__in=matches)
        }

    before = stored()
    rebuild_results(Match.objects.filter(pk__in=[m.pk for m in matches]))
    after = stored()
    checks.append(
        (
            f"stored results ({len(before)} rows) = a rebuild from the hands",
            before == after and len(before) == 4 * RECORDING_TABLES,
        )
    )
    for name, tables_wrong in (("lost", lost), ("doubled", doubled), ("tallies", shown)):
        if tables_wrong:
            print(f"  tables with {name} problems: {sorted(set(tables_wrong))}")
    return checks


if __name__ == "__main__":
    # The bench builds and checks every club's rows itself; its requests run in their club's
    # scope as in production (club/scoping.py).
    from django_scopes import scopes_disabled

    with scopes_disabled():
        sys.exit(main())
