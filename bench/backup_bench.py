"""Backup benchmark: export and import of the synthetic club at 10 and 20 years.

Run from the repository root:  python bench/backup_bench.py  [--years 10 20]

For each size, builds the synthetic club (bench/synthetic_club.py; every hand recorded under
a login, as tables record them) in a fresh SQLite file (or the database DATABASE_URL names,
which it empties), then, each in a process of its own so its memory is its own:

- export: `export_club` to a file; its time, SQL queries, peak Python memory (tracemalloc)
  and the process's peak resident memory (ru_maxrss) over what Django itself takes;
- export while tables record: a thread saves hands through the app's own code all through
  a second export; the slowest save (it must never wait for the export);
- import: `import_club` of that file into the emptied database; the same figures, and SQL
  statements per row restored (the match results are rebuilt from the hands too).

BACKUP_BENCH_TRACE=0 skips the second, traced go of each (on a busy machine).
Targets: the same few tens of MB of memory at 10 and 20 years (nothing grows with the club),
a fixed number of export queries, and a save during an export as quick as any other.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import threading
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
for path in (ROOT, ROOT / "bench"):
    if str(path) not in sys.path:
        sys.path.insert(0, str(path))

TARGET_MEMORY_MB = 40  # peak over Django's own, the same at any size


def setup_django(database: str | None) -> None:
    os.environ.setdefault("DEBUG", "false")
    os.environ.setdefault("SECRET_KEY", "backup-bench")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")
    if database:
        os.environ["DATABASE_URL"] = database
    import django

    django.setup()


def rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


class Statements:
    """Counts every SQL statement the connection runs, keeping none of them."""

    def __init__(self):
        self.count = 0

    def __call__(self, execute, sql, params, many, context):
        self.count += 1
        return execute(sql, params, many, context)


def measured(work) -> dict:
    """Time, statements and memory of `work()`; tracemalloc runs in a second go, since it
    slows the first."""
    from django.db import connection

    baseline = rss_mb()
    statements = Statements()
    started, started_cpu = time.perf_counter(), time.process_time()
    with connection.execute_wrapper(statements):
        result = work()
    figures = {
        "seconds": time.perf_counter() - started,
        "cpu": time.process_time() - started_cpu,
        "statements": statements.count,
        "rss_over_django_mb": rss_mb() - baseline,
        "result": result,
    }
    return figures


def traced_peak(work) -> float | None:
    """Peak Python memory of `work()` under tracemalloc (a second go, since tracing slows
    it); None with BACKUP_BENCH_TRACE=0, on a machine too busy for two goes."""
    if os.environ.get("BACKUP_BENCH_TRACE", "1") == "0":
        return None
    tracemalloc.start()
    work()
    peak = tracemalloc.get_traced_memory()[1] / 2**20
    tracemalloc.stop()
    return peak


def phase_build(years: int) -> dict:
    import random

    from django.core.management import call_command

    call_command("flush", interactive=False, verbosity=0)
    call_command("migrate", verbosity=0)
    from synthetic_club import SEED, build_club

    from scoring.models import Hand

    started = time.perf_counter()
    _, user, sessions, members, hands, _ = build_club(random.Random(SEED), years=years)
    Hand.objects.update(recorded_by=user)
    return {"hands": hands, "sessions": len(sessions), "seconds": time.perf_counter() - started}


def phase_export(file: str) -> dict:
    from club.models import Club
    from front.backup import write_backup

    club = Club.objects.current()

    def export():
        with open(file, "w", encoding="utf-8", newline="\n") as out:
            return write_backup(out, club)

    figures = measured(export)
    figures["tracemalloc_peak_mb"] = traced_peak(export)
    figures["rows"] = sum(figures.pop("result").values())
    figures["file_mb"] = os.path.getsize(file) / 2**20
    return figures


def phase_export_while_recording(file: str) -> dict:
    """Tables save hands, one after another, all through an export."""
    import datetime

    from django.db import connections

    from club.models import Club
    from club.scoping import scope
    from front.backup import write_backup
    from games.start import start_play
    from scoring.recording import RecordingError, Win, record_win
    from tests.games.helpers import seated_session

    session = seated_session(Club.objects.current(), (4,) * 40, date=datetime.date(2100, 1, 1))
    tables = start_play(session)
    saves: list[float] = []
    failed: list[str] = []
    done = threading.Event()

    club = Club.objects.current()

    def record():
        with scope(club=club):
            record_in_scope()

    def record_in_scope():
        number = 1
        try:
            while tables and not done.is_set():
                started = time.perf_counter()
                try:
                    record_win(tables[0], number, Win(number % 4, "wall", None, 40))
                except RecordingError:  # this table's match is over: the next table
                    tables.pop(0)
                    number = 1
                    continue
                except Exception as error:  # noqa: BLE001 - counted and shown
                    failed.append(str(error))
                saves.append(time.perf_counter() - started)
                number += 1
                time.sleep(0.05)
        finally:
            connections.close_all()

    # The same table without an export first: what a save costs on this machine now.
    recorder = threading.Thread(target=record)
    recorder.start()
    time.sleep(5)
    done.set()
    recorder.join()
    alone, saves[:] = sorted(saves), []
    done.clear()

    recorder = threading.Thread(target=record)
    started = time.perf_counter()
    recorder.start()
    with open(file, "w", encoding="utf-8", newline="\n") as out:
        write_backup(out, Club.objects.current())
    seconds = time.perf_counter() - started
    done.set()
    recorder.join()
    saves.sort()
    return {
        "seconds": seconds,
        "saves": len(saves),
        "failed": failed[:3] + ([f"... {len(failed)} in all"] if len(failed) > 3 else []),
        "median_save": saves[len(saves) // 2] if saves else 0.0,
        "slowest_save": max(saves, default=0.0),
        "median_alone": alone[len(alone) // 2] if alone else 0.0,
        "slowest_alone": max(alone, default=0.0),
    }


def phase_import(file: str) -> dict:
    from django.core.management import call_command

    from front.backup import import_club

    call_command("flush", interactive=False, verbosity=0)

    def restore():
        with open(file, "rb") as backup:
            return import_club(backup).counts

    figures = measured(restore)
    rows = sum(figures.pop("result").values())
    figures["rows"] = rows
    figures["statements_per_row"] = figures["statements"] / rows
    figures["tracemalloc_peak_mb"] = traced_peak(
        lambda: (call_command("flush", interactive=False, verbosity=0), restore())
    )
    return figures


PHASES = {
    "build": phase_build,
    "export": phase_export,
    "export-while-recording": phase_export_while_recording,
    "import": phase_import,
}


def run(phase: str, argument, database: str) -> dict:
    """`phase` in a fresh process: its peak memory is the phase's own."""
    command = [sys.executable, __file__, "--phase", phase, "--argument", str(argument)]
    done = subprocess.run(
        command,
        env={**os.environ, "DATABASE_URL": database},
        check=True,
        capture_output=True,
        text=True,
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--years", type=int, nargs="+", default=[10, 20])
    parser.add_argument("--phase", choices=PHASES, help=argparse.SUPPRESS)
    parser.add_argument("--argument", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.phase:
        setup_django(None)
        from club.scoping import scopes_disabled

        argument = int(args.argument) if args.phase == "build" else args.argument
        # The bench's own set-up reads and writes the club as an operator's tool does; the
        # export and the import run in the club's scope themselves.
        with scopes_disabled():
            print(json.dumps(PHASES[args.phase](argument)))
        return 0

    folder = Path(tempfile.mkdtemp(prefix="backup-bench-"))
    database = os.environ.get("DATABASE_URL") or f"sqlite:///{folder / 'bench.sqlite3'}"
    engine = "PostgreSQL" if database.startswith("postgres") else "SQLite"
    ok = True
    print(f"Backups ({engine}): export and import of the synthetic club")
    for years in args.years:
        built = run("build", years, database)
        file = folder / f"club-{years}-years.json"
        export = run("export", file, database)
        meanwhile = run("export-while-recording", folder / "meanwhile.json", database)
        print(f"  {years} years: built ({built['seconds']:.0f} s)", flush=True)
        restore = run("import", file, database)
        print(
            f"  {years} years: {built['sessions']} sessions, {built['hands']:,} hands, "
            f"{export['rows']:,} rows, a file of {export['file_mb']:.1f} MB"
        )
        for name, figures in (("export", export), ("import", restore)):
            extra = (
                f", {figures['statements_per_row']:.3f} statements a row"
                if "statements_per_row" in figures
                else ""
            )
            peak = figures["tracemalloc_peak_mb"]
            traced = "" if peak is None else f"peak {peak:.1f} MB (tracemalloc), "
            good = figures["rss_over_django_mb"] < TARGET_MEMORY_MB
            ok &= good
            print(
                f"    {name}: {figures['seconds']:6.1f} s ({figures['cpu']:.1f} s cpu), "
                f"{figures['statements']:,} statements{extra}; memory: {traced}resident +"
                f"{figures['rss_over_django_mb']:.0f} MB over Django's  "
                f"{'ok' if good else 'OVER TARGET'}"
            )
        print(
            f"    a table saving a hand every 50 ms all through an export "
            f"({meanwhile['seconds']:.1f} s): {meanwhile['saves']} saves, median "
            f"{meanwhile['median_save'] * 1000:.0f} ms, slowest "
            f"{meanwhile['slowest_save'] * 1000:.0f} ms (with no export: median "
            f"{meanwhile['median_alone'] * 1000:.0f} ms, slowest "
            f"{meanwhile['slowest_alone'] * 1000:.0f} ms), "
            f"{'none failed' if not meanwhile['failed'] else meanwhile['failed']}"
        )
        ok &= bool(meanwhile["saves"]) and not meanwhile["failed"]
    print(
        f"  targets: resident memory under {TARGET_MEMORY_MB} MB over Django's at every size; "
        "no save waits for an export"
    )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
