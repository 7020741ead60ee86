"""Upgrades keep the data: a club's backup written by the previous release's own export
(tests/old_release/club-backup.json, made by tests/old_release/make_backup.py with that
release's code) is restored into this release, and every standings page shows the same
figures as the old release rendered from the same data (tests/old_release/
standings-figures.json, made then too), at the moment they were rendered."""

import datetime
import json
from pathlib import Path

import pytest
import time_machine
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from club.models import Club, Member, Session
from front import backup
from tests.old_release.figures import csv_figures, page_figures

OLD = Path(__file__).resolve().parent / "old_release"

pytestmark = pytest.mark.django_db
GAINED_COLUMNS = ("attendance", "attendance.csv")


def _old_columns(new_rows: list, old_rows: list) -> list:
    """Each of `new_rows` cut to its old row's length (a page row: its numbers)."""
    cut = []
    for new, old in zip(new_rows, old_rows, strict=False):
        if isinstance(new, list) and len(new) == 2 and isinstance(new[1], list):
            cut.append([new[0], new[1][: len(old[1])]])
        else:
            cut.append(new[: len(old)])
    return cut + new_rows[len(old_rows) :]


def test_a_backup_from_the_previous_release_restores_with_every_standings_page_the_same():
    made = json.loads((OLD / "standings-figures.json").read_text(encoding="utf-8"))
    old_pages = made["pages"]
    moment = datetime.datetime.fromisoformat(made["rendered_at"])
    with time_machine.travel(moment, tick=False):
        backup.import_club(str(OLD / "club-backup.json"))
        club = Club.objects.get()
        client = Client()
        client.force_login(get_user_model().objects.create_superuser("new-release-operator"))

        def page(name, *args, csv=False):
            response = client.get(reverse(name, args=args))
            assert response.status_code == 200, (name, args, response.status_code)
            if response.streaming:
                text = b"".join(response.streaming_content).decode()
            else:
                text = response.content.decode()
            return csv_figures(text) if csv else page_figures(text)

        new_pages = {
            "standings": page("scoring:leaderboard"),
            "standings.csv": page("scoring:leaderboard_csv", csv=True),
            "records": page("scoring:records"),
            "attendance": page("scoring:attendance"),
            "attendance.csv": page("scoring:attendance_csv", csv=True),
            "hands.csv": page("scoring:hands_csv", csv=True),
        }
        for session in Session.objects.filter(club=club).order_by("date"):
            new_pages[f"evening {session.date}"] = page("scoring:evening", session.pk)
            new_pages[f"evening {session.date}.csv"] = page(
                "scoring:evening_csv", session.pk, csv=True
            )
        for member in Member.objects.filter(club=club).order_by("name"):
            new_pages[f"member {member.name}"] = page("scoring:member", member.pk)

    assert sorted(new_pages) == sorted(old_pages)
    # The register gained two columns since (sent apologies, absent without word: the club's
    # week): its old columns must be the same, the new ones come after them.
    for name in GAINED_COLUMNS:
        new_pages[name] = _old_columns(new_pages[name], old_pages[name])
    different = [name for name in old_pages if new_pages[name] != old_pages[name]]
    assert different == [], f"pages whose figures changed: {different}"
    # The comparison compared something: standings, evenings and hands with figures.
    assert len(old_pages["standings"]) >= 10 and len(old_pages["hands.csv"]) > 100
    assert sum(name.startswith("evening ") for name in old_pages) >= 10
