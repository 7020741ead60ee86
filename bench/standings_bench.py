"""Standings benchmark: the results pages on ten years of a synthetic club.

Run from the repository root:  python bench/standings_bench.py  [--requests 60]

Builds a club of 100 members with 500 weekly sessions (about 28 players a week at seven
tables, 17 hands a table: about 60,000 hands) in a fresh SQLite file (or the database
DATABASE_URL names, which it empties), then asks for the evening's results, the season's
standings, a member page and the records page as a logged-in member, and prints the
median and 95th-percentile server time (the whole Django request, middleware included)
and the SQL queries each page makes. Targets: 95th percentile under 50 ms and at most 10
queries, the same however much the club has played.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from synthetic_club import SEED, build_club  # noqa: E402

TARGET_P95_MS = 50.0
TARGET_QUERIES = 10


def setup_django() -> None:
    os.environ.setdefault("DEBUG", "true")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")
    if "DATABASE_URL" not in os.environ:
        path = Path(tempfile.mkdtemp(prefix="standings-bench-")) / "bench.sqlite3"
        os.environ["DATABASE_URL"] = f"sqlite:///{path}"
    import django

    django.setup()
    from django.core.management import call_command

    call_command("flush", interactive=False, verbosity=0)
    call_command("migrate", verbosity=0)


def measure(client, url: str, requests: int) -> tuple[float, float, int]:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    client.get(url)  # warm caches (templates, rule sets)
    times, cpu = [], []
    for _ in range(requests):
        started, started_cpu = time.perf_counter(), time.process_time()
        response = client.get(url)
        times.append((time.perf_counter() - started) * 1000)
        cpu.append((time.process_time() - started_cpu) * 1000)
        assert response.status_code == 200, (url, response.status_code)
    with CaptureQueriesContext(connection) as captured:
        client.get(url)
    return percentiles(times) + percentiles(cpu) + (len(captured),)


def percentiles(values: list[float]) -> tuple[float, float]:
    values = sorted(values)
    return statistics.median(values), values[min(len(values) - 1, round(0.95 * len(values)) - 1)]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=60)
    args = parser.parse_args()
    setup_django()
    from django.test import Client

    rng = random.Random(SEED)
    started = time.perf_counter()
    club, user, sessions, members, hands, rebuilt = build_club(rng)
    print(
        f"Standings: a synthetic club of {len(members)} members, {len(sessions)} sessions, "
        f"{hands:,} hands (built in {time.perf_counter() - started:.1f} s; every result "
        f"recomputed from the hands in {rebuilt:.1f} s)"
    )
    client = Client(HTTP_HOST="localhost")
    client.force_login(user)
    pages = [
        ("the evening's results", f"/standings/evening/{sessions[-1].pk}/"),
        ("the season's standings", "/standings/"),
        ("the standings sorted by win rate", "/standings/?sort=win_rate&dir=desc"),
        ("a member page", f"/standings/members/{members[0].pk}/"),
        ("the records page", "/standings/records/"),
    ]
    ok = True
    print(f"  {'page':34} {'median':>8} {'p95':>8} {'cpu med':>8} {'cpu p95':>8} {'queries':>8}")
    for name, url in pages:
        median, p95, cpu_median, cpu_p95, queries = measure(client, url, args.requests)
        good = p95 < TARGET_P95_MS and queries <= TARGET_QUERIES
        ok &= good
        print(
            f"  {name:34} {median:6.1f}ms {p95:6.1f}ms {cpu_median:6.1f}ms {cpu_p95:6.1f}ms "
            f"{queries:8d}  {'ok' if good else 'OVER TARGET'}"
        )
    print(f"  targets: p95 < {TARGET_P95_MS:.0f} ms, at most {TARGET_QUERIES} queries")
    print(
        "  (cpu: this process's processor time per request; on a busy machine it shows what "
        "waiting for a core adds to the wall-clock figures)"
    )
    return 0 if ok else 1


if __name__ == "__main__":
    # The bench builds and checks every club's rows itself; its requests run in their club's
    # scope as in production (club/scoping.py).
    from django_scopes import scopes_disabled

    with scopes_disabled():
        sys.exit(main())
