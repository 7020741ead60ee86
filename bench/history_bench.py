"""Flat with years: every page a coordinator or member opens, at 1, 10 and 20 years of a
club's history, on PostgreSQL (issue 28).

Run from the repository root:  make history-bench  (or .venv/bin/python bench/history_bench.py)
Options: --years 1,10,20  --clubs 300 (1 for none)  --runs 9 (timed runs per page and size)
--polls 400  --show "home (coordinator)" (also print that page's heaviest statements at
each size; a label's beginning, several separated by commas)
PostgreSQL: HISTORY_PG_URL (default postgres://club_ci:club_ci@127.0.0.1:5432/history_bench);
the database is made afresh (dropped first); the role must be allowed to create databases.
Unreachable: the bench says so and stops (exit 0), so `make bench` runs without PostgreSQL.

1. Builds the demo club through the app's own code (`manage.py demo`: a season of ten
   evenings played hand by hand) and tonight's evening in play (seated, started, hands at
   table 1), as tests/test_every_page.py does.
2. Copies the ten evenings back in time by SQL with shifted dates and new keys
   (tests/longer_history.py; half the members play on, the others are replaced by lapsed
   members year by year) until the club has a year, then 10 and 20 years, of weekly evenings.
3. At each size, for every page (every URL pattern the site has, as a coordinator and as a
   member seated at table 1; a check-in tap; the table's poll, unchanged): the queries, the
   rows and shared buffers they read (EXPLAIN ANALYZE BUFFERS of each, tests/rows_read.py)
   twice: as planned on this database, and with sequential scans discouraged (marked *), as
   PostgreSQL plans them on a large installation's tables (tests/test_flat_with_history.py
   measures them so); and the median and p95 time of --runs requests through Django's test
   client (every middleware), each followed by a request for the health check (which reads
   nothing); then each ratio to the 1-year club, the time's against the health check's
   between the page's own runs (a run drifts with the machine, alike for every page). Each
   size starts vacuumed and analysed, with the bench's own objects out of Python's
   collector (gc.freeze), so that neither grows with the run.
4. 1 club against --clubs clubs on one PostgreSQL: the one-year club copied by SQL row for
   row, keys moved on (bench/region_bench.py's copier), until the database holds that many
   clubs; the first club's pages measured again, each ratio to the club alone; then the
   copies are deleted and the tables vacuumed before the longer histories.
5. The poll's processor time against a bare view (a 204 with nothing read) through the
   same middleware, in the same process, interleaved.

Ends with two lines a script can read:
    flat: worst rows ratio R (page), worst time ratio T (page)
    poll: P x a bare view
R is over the rows read with indexes preferred. On this one club's small tables the planner
reads a table of a few pages whole rather than look a few rows up (rows grow with the table,
buffers do not), and beside many clubs it looks the same rows up in deeper indexes (the
buffers grow, a page or two a row, the rows do not): the line before says the worst ratio of
rows or buffers as planned, and the worst where both grow, as reading the history would (the
CI test's rule, tests/test_flat_with_history.py). Rows and buffers do not depend on the
machine's load; times do (see docs/measurements.md).
"""

from __future__ import annotations

import argparse
import gc
import os
import statistics
import sys
import time
import types
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parents[1]
HERE = Path(__file__).resolve().parent
for folder in (ROOT, HERE):
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))

DEFAULT_PG_URL = "postgres://club_ci:club_ci@127.0.0.1:5432/history_bench"
# Timed after every request, to take out the drift of a run from the time ratios.
REFERENCE = "health (member)"
# Pages shown in the summary, as the issue names them, by label.
NAMED = {
    "records": "scoring:records (member)",
    "members list": "club:member_list (coordinator)",
    "sessions list": "club:session_list (coordinator)",
    "check-in page": "club:check_in (coordinator)",
    "check-in tap": "check-in tap",
    "Tonight (home)": "home (coordinator)",
    "session page": "club:session_detail (coordinator)",
    "a member's page": "scoring:member (member)",
    "season standings": "scoring:leaderboard (member)",
    "table poll": "table poll (unchanged)",
}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--years", default="1,10,20")
    parser.add_argument("--clubs", type=int, default=300)
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--polls", type=int, default=400)
    parser.add_argument("--show", default="")
    args = parser.parse_args()
    shown = tuple(label for label in args.show.split(",") if label)
    sizes = sorted({int(n) for n in args.years.split(",")})
    url = os.environ.get("HISTORY_PG_URL", DEFAULT_PG_URL)
    problem = fresh_database(url)
    if problem:
        print(f"History bench SKIPPED: PostgreSQL at {hide_password(url)}: {problem}")
        return 0
    started = time.monotonic()
    os.environ["DATABASE_URL"] = url
    os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings.test"
    import django

    django.setup()
    import logging

    logging.disable(logging.WARNING)  # refusals of a member at a coordinator's page
    from django.core.management import call_command
    from django.test.utils import setup_test_environment

    from club.scoping import scopes_disabled

    setup_test_environment()  # the test client's response.context and the like
    print(f"History bench on {hide_password(url)}; {load()}", flush=True)
    with scopes_disabled():
        call_command("migrate", verbosity=0)
        call_command("demo", stdout=open(os.devnull, "w"))  # noqa: SIM115
        world, history, requests = build()
        results = {}
        for years in sizes:
            copies = years * history.per_year - 1 - history.copies
            if copies > 0:
                history.add(copies)
            print(f"  {years} years: sessions from {history.first_date}", flush=True)
            results[years] = measure(requests, args.runs, shown, f"{years} years")
            if years == sizes[0] and args.clubs > 1:
                results["clubs"] = among_clubs(args.clubs, requests, args.runs, shown)
                results["clubs count"] = args.clubs
        poll = poll_ratio(requests["table poll (unchanged)"], args.polls)
    report(results, sizes, poll)
    print(f"{load()}; the whole run took {(time.monotonic() - started) / 60:.1f} minutes.")
    return 0


def fresh_database(url: str) -> str | None:
    """Drop and create the bench's database; a sentence when PostgreSQL cannot be used."""
    try:
        import psycopg
    except ImportError:
        return "psycopg is not installed"
    parts = urlsplit(url)
    name = parts.path.lstrip("/")
    admin = urlunsplit(parts._replace(path="/postgres"))
    try:
        with psycopg.connect(admin, autocommit=True, connect_timeout=5) as connection:
            connection.execute(f'DROP DATABASE IF EXISTS "{name}"')
            connection.execute(f'CREATE DATABASE "{name}"')
    except psycopg.Error as error:
        return str(error).strip().splitlines()[0]
    return None


def hide_password(url: str) -> str:
    parts = urlsplit(url)
    if parts.password:
        parts = parts._replace(netloc=parts.netloc.replace(f":{parts.password}@", ":***@"))
    return urlunsplit(parts)


def build():
    from club.models import Club
    from tests.longer_history import LongerHistory
    from tests.test_every_page import evening_in_play
    from tests.test_flat_with_history import _answered, _requests

    club = Club.objects.get()
    world = evening_in_play(club)
    history = LongerHistory(club)
    requests = _answered(_requests(world))
    return world, history, requests


def among_clubs(clubs: int, requests, runs: int, shown: tuple[str, ...] = ()) -> dict:
    """The first club's pages again with `clubs` clubs in its database: the club copied by
    SQL row for row, keys moved on (bench/region_bench.py's copier), then the copies
    removed again (every copied key is above the first club's largest) and the tables
    vacuumed, so that the longer histories are measured with one club again."""
    from django.db import connection, transaction
    from region_bench import cloned_models, copy_clubs

    from club.models import Club

    began = time.monotonic()
    try:
        copy_clubs(1, clubs)  # in transactions: a copy that fails leaves the one club
    except Exception as error:  # noqa: BLE001 - said, and the years measured regardless
        print(f"  {clubs} clubs NOT MEASURED: the copy failed: {error}", flush=True)
        return None
    print(f"  1 year, {clubs} clubs (copied in {time.monotonic() - began:.0f} s)", flush=True)
    try:
        return measure(requests, runs, shown, f"{clubs} clubs")
    finally:
        with connection.cursor() as cursor:
            cursor.execute("SELECT label, span FROM region_bench_span")
            spans = dict(cursor.fetchall())
        # One transaction: the foreign keys are checked at its end, when every copy is gone.
        with transaction.atomic(), connection.cursor() as cursor:
            for model in reversed(cloned_models()):
                if spans.get(model._meta.label):
                    cursor.execute(
                        f"DELETE FROM {model._meta.db_table} WHERE id > %s",  # noqa: S608
                        [spans[model._meta.label]],
                    )
            first = Club.objects.order_by("pk").values_list("pk", flat=True)[0]
            cursor.execute("DELETE FROM club_club WHERE id <> %s", [first])
            cursor.execute("DROP TABLE region_bench_span")
        with connection.cursor() as cursor:
            cursor.execute("VACUUM ANALYZE")


def measure(requests, runs: int, shown: tuple[str, ...] = (), size: str = "") -> dict:
    from tests.rows_read import reading

    found = {}
    settle()
    # The health check, which reads nothing, timed after every request: what the process
    # and the machine take at that moment whatever the data (see report()).
    reference = requests.get(REFERENCE)
    for label, call in requests.items():
        read = reading(call)
        # The same statements planned as on a large installation's tables (sequential
        # scans discouraged), as tests/test_flat_with_history.py measures them.
        indexed = reading(call, prefer_indexes=True)
        if shown and label.startswith(shown):
            for how, each in (("as planned", read), ("indexes preferred", indexed)):
                for statement in each.heaviest(4):
                    print(
                        f"    {label} at {size}, {how}: {statement.rows} rows, "
                        f"{statement.buffers} buffers: {statement.sql[:1500]}",
                        flush=True,
                    )
        times, reference_times = [], []
        for _ in range(runs):
            began = time.perf_counter()
            call()
            times.append((time.perf_counter() - began) * 1000)
            if reference is not None:
                began = time.perf_counter()
                reference()
                reference_times.append((time.perf_counter() - began) * 1000)
        times.sort()
        found[label] = {
            "queries": read.queries,
            "rows": read.rows,
            "buffers": read.buffers,
            "rows indexed": indexed.rows,
            "buffers indexed": indexed.buffers,
            "median": statistics.median(times),
            "p95": times[min(len(times) - 1, round(0.95 * (len(times) - 1)))],
            # The health check's median, timed between this page's runs.
            "reference": statistics.median(reference_times) if reference_times else 1.0,
        }
    return found


def settle() -> None:
    """Each size measured from the same state: the tables vacuumed and analysed (their
    statistics, and the visibility map that lets an index answer alone), and the bench's
    own objects (the built club, the figures so far) moved out of Python's collector, whose
    full collections otherwise take longer as the run goes on, in every page alike."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE")
    gc.collect()
    gc.freeze()


def poll_ratio(poll, n: int) -> float:
    """The poll's processor time over a bare view's (a 204, nothing read), asked by the same
    logged-in client through the same middleware, interleaved in blocks of 20."""
    from django.http import HttpResponse
    from django.test.utils import override_settings
    from django.urls import clear_url_caches, include, path

    client, match, address = poll.client, poll.match, poll.address
    settle()
    match.refresh_from_db()
    query = {"m": match.pk, "v": match.version}
    urls = types.ModuleType("history_bench_urls")
    urls.urlpatterns = [
        path("bench-bare/", lambda request: HttpResponse(status=204)),
        path("", include("config.urls")),
    ]
    sys.modules["history_bench_urls"] = urls
    spent = {"poll": 0.0, "bare": 0.0}
    with override_settings(ROOT_URLCONF="history_bench_urls"):
        clear_url_caches()
        assert client.get(address, query, HTTP_HX_REQUEST="true").status_code == 204
        for _ in range(max(1, n // 20)):
            began = time.process_time()
            for _ in range(20):
                client.get(address, query, HTTP_HX_REQUEST="true")
            spent["poll"] += time.process_time() - began
            began = time.process_time()
            for _ in range(20):
                client.get("/bench-bare/", HTTP_HX_REQUEST="true")
            spent["bare"] += time.process_time() - began
    clear_url_caches()
    return spent["poll"] / spent["bare"]


def ratio(now: dict, was: dict, key: str) -> float:
    return (now[key] + 1) / (was[key] + 1)


def report(results: dict, sizes: list[int], poll: float) -> None:
    """Every page at every size against the first size (and beside many clubs), as planned
    and with indexes preferred; then the issue's pages; then the two closing lines. A ratio
    of rows or buffers is (now + 1) / (then + 1): a page that read nothing reads nothing."""
    first = sizes[0]
    base = results[first]
    header = f"{'page':44} {'years':>5} {'queries':>7} {'rows':>7} {'buffers':>7} "
    header += f"{'rows*':>7} {'buf*':>6} {'median':>7} {'p95':>7} "
    header += f"{'rows x':>6} {'buf x':>6} {'rows*x':>6} {'buf*x':>6} {'time x':>6}"
    print("\n" + header)
    print(
        "(* indexes preferred, as on a large installation's tables; times in ms; time x "
        "against the health check's between the page's own runs)"
    )
    planned, both, indexed, slowest = (0.0, ""), (0.0, ""), (0.0, ""), (0.0, "")

    def row(label, now, was, where):
        nonlocal planned, both, indexed, slowest
        figures = [ratio(now, was, k) for k in ("rows", "buffers")]
        figures_i = [ratio(now, was, k) for k in ("rows indexed", "buffers indexed")]
        # Against the health check's time between the page's own runs: over a run of
        # minutes the machine drifts (a page that reads nothing took 0.5 ms at the first size
        # and 0.8 ms at the last in one run), alike for every page at the same moment.
        time_x = (now["median"] / now["reference"]) / (was["median"] / was["reference"])
        print(
            f"{label[:44]:44} {where:>5} {now['queries']:7} {now['rows']:7} "
            f"{now['buffers']:7} {now['rows indexed']:7} {now['buffers indexed']:6} "
            f"{now['median']:7.1f} {now['p95']:7.1f} "
            + " ".join(f"{x:6.2f}" for x in (*figures, *figures_i, time_x))
        )
        if now is not was:
            name = label if where.isdigit() else f"{label}, clubs"
            planned = max(planned, (max(figures), name))
            # Reading the history reads more rows and more pages; the planner's whole scan of
            # a small table reads more rows from fewer pages (tests/test_flat_with_history.py).
            both = max(both, (min(figures), name))
            indexed = max(indexed, (figures_i[0], name))
            slowest = max(slowest, (time_x, name))

    for label in base:
        for years in sizes:
            row(label, results[years][label], base[label], str(years))
    clubs = results.get("clubs")
    if clubs:
        print(f"\nThe first club at {first} year beside {results['clubs count']} clubs:")
        for label in base:
            row(label, clubs[label], base[label], "clubs")
    last = sizes[-1]
    print(f"\nThe issue's pages, {last} years / {first} year:")
    for name, label in NAMED.items():
        if label in base:
            now, was = results[last][label], base[label]
            print(
                f"  {name:18} rows {was['rows']} -> {now['rows']} "
                f"({was['rows indexed']} -> {now['rows indexed']}*), buffers "
                f"{was['buffers']} -> {now['buffers']} "
                f"({was['buffers indexed']} -> {now['buffers indexed']}*), median "
                f"{was['median']:.1f} -> {now['median']:.1f} ms"
                + (
                    f"; many clubs: rows {clubs[label]['rows']} "
                    f"({clubs[label]['rows indexed']}*), buffers {clubs[label]['buffers']} "
                    f"({clubs[label]['buffers indexed']}*), median {clubs[label]['median']:.1f} ms"
                    if clubs
                    else ""
                )
            )
    print(
        f"as planned on this database's tables: worst rows or buffers ratio "
        f"{planned[0]:.2f} ({planned[1]}); worst where both grow {both[0]:.2f} ({both[1]})"
    )
    print(
        f"flat: worst rows ratio {indexed[0]:.2f} ({indexed[1]}), "
        f"worst time ratio {slowest[0]:.2f} ({slowest[1]})"
    )
    print(f"poll: {poll:.2f} x a bare view")


def load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.2f} {five:.2f} {fifteen:.2f} on {os.cpu_count()} cores"


if __name__ == "__main__":
    sys.exit(main())
