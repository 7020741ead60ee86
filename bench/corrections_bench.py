"""Corrections and paper sheets benchmark.

Run from the repository root:  python bench/corrections_bench.py  [--repeats 20]

Builds a fresh SQLite database in a temporary folder (or uses DATABASE_URL when set) and
measures, on the server's own time:
- typing in a paper sheet: saving a 20-hand sheet in one transaction;
- correcting the first hand of a long match (60 hands), the worst case, since every later
  hand and kong chip is re-derived;
- the scoresheet page of that match.
It also counts the keystrokes a coordinator types for a typical 20-hand sheet (characters
plus Enter to move on), the figure behind "twenty hands in under two minutes".
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

# A coordinator types about two keys a second while reading a sheet: 20 hands in under two
# minutes leaves 240 keys, so a row must stay well under 12.
TARGET_KEYS_PER_ROW = 10
TARGET_SAVE_P95_MS = 250
TARGET_CORRECT_P95_MS = 500


def setup_django(folder: str) -> None:
    os.environ.setdefault("DATABASE_URL", f"sqlite:///{folder}/bench.sqlite3")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.test")
    import logging

    import django

    django.setup()
    logging.disable(logging.INFO)
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def percentile(values, pct):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(pct / 100 * (len(ordered) - 1))))]


def sheet_rows(count: int):
    """A plausible sheet: mostly wins (a third on a discard), a draw now and then."""
    import random

    rng = random.Random(count)
    rows = []
    for index in range(count):
        if index % 9 == 4:
            rows.append(("", "x", "", ""))
        elif index % 3 == 1:
            winner = rng.randint(1, 4)
            rows.append((str(winner), "d", str(winner % 4 + 1), str(rng.randint(5, 20))))
        else:
            rows.append((str(rng.randint(1, 4)), "w", "", str(rng.randint(5, 20))))
    return rows


def long_rows(count: int):
    """A long match that does not end: Ann (chair 1, the first dealer) keeps winning, so
    keeps the deal; one draw and its goulash hand send the deal once round the table."""
    rows = [("1", "d", "2", "8") if i % 3 == 1 else ("1", "w", "", "10") for i in range(count)]
    rows[10] = ("", "x", "", "")
    return rows


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeats", type=int, default=20)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        setup_django(folder)
        from django.contrib.auth import get_user_model
        from django.test import Client
        from django.urls import reverse

        from club.models import Club
        from club.roles import make_coordinator
        from games.models import Match
        from games.start import start_play
        from scoring.corrections import Draw, correct_hand, record_sheet
        from scoring.forms import PaperRowForm
        from scoring.recording import Win
        from tests.games.helpers import seated_session

        club = Club.objects.current()
        club.rule_set = "u3a"
        club.save()
        boss = get_user_model().objects.create_user("bench-boss", password="x")
        make_coordinator(boss)

        def parse(rows):
            names = ["Ann", "Betty", "Carol", "Dot"]
            parsed = []
            for winner, how, discarder, total in rows:
                form = PaperRowForm(
                    {"winner": winner, "how": how, "discarder": discarder, "total": total},
                    names=names,
                )
                assert form.is_valid(), form.errors
                parsed.append(form.cleaned_data["row"])
            return parsed

        twenty = sheet_rows(20)
        keys = sum(sum(len(cell) for cell in row) + 4 for row in twenty)  # Enter per box
        save_ms = []
        for _ in range(args.repeats):
            (match,) = start_play(seated_session(club, sizes=(4,), date=next_date()))
            started = time.perf_counter()
            record_sheet(match, parse(twenty), by=boss)
            save_ms.append((time.perf_counter() - started) * 1000)
            Match.objects.filter(pk=match.pk).update(status="finished", ending="closed")

        (long_match,) = start_play(seated_session(club, sizes=(4,), date=next_date()))
        record_sheet(long_match, parse(long_rows(60)), by=boss)
        hands = long_match.live_hands().count()
        correct_ms = []
        for index in range(args.repeats):
            first = long_match.live_hands().get(number=1)
            change = Draw() if not first.is_draw else Win(0, "wall", None, 5 + index % 15)
            started = time.perf_counter()
            correct_hand(long_match, 1, change, "Bench", by=boss)
            correct_ms.append((time.perf_counter() - started) * 1000)

        client = Client()
        client.force_login(boss)
        url = reverse("scoring:scoresheet", args=[long_match.pk])
        client.get(url)
        page_ms = []
        for _ in range(args.repeats):
            started = time.perf_counter()
            assert client.get(url).status_code == 200
            page_ms.append((time.perf_counter() - started) * 1000)

    print(
        f"Paper sheet: {keys} keys for 20 hands ({keys / 20:.1f} a row; target under "
        f"{TARGET_KEYS_PER_ROW})"
    )
    for label, values, target in [
        ("Save a 20-hand sheet", save_ms, TARGET_SAVE_P95_MS),
        (f"Correct hand 1 of {hands}", correct_ms, TARGET_CORRECT_P95_MS),
        (f"Scoresheet of {hands} hands", page_ms, None),
    ]:
        p95 = percentile(values, 95)
        verdict = "" if target is None else (" ok" if p95 <= target else f" OVER {target} ms")
        print(f"{label}: median {statistics.median(values):.1f} ms, p95 {p95:.1f} ms{verdict}")
    ok = keys / 20 < TARGET_KEYS_PER_ROW and percentile(save_ms, 95) <= TARGET_SAVE_P95_MS
    return 0 if ok and percentile(correct_ms, 95) <= TARGET_CORRECT_P95_MS else 1


_DAYS = iter(range(1, 10_000))


def next_date():
    """A fresh session date for each match (one session a day)."""
    import datetime

    return datetime.date(2030, 1, 1) + datetime.timedelta(days=next(_DAYS))


if __name__ == "__main__":
    # The bench builds and checks every club's rows itself; its requests run in their club's
    # scope as in production (club/scoping.py).
    from django_scopes import scopes_disabled

    with scopes_disabled():
        raise SystemExit(main())
