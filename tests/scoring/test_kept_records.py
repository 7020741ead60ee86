"""The club's kept records (scoring.kept_records) equal the records worked out from the
results again, after every write a table or a coordinator makes, under every rule set; the
records page reads them, and `rebuild_standings` makes them again from nothing.

Each list is cut to two places here, so that a few evenings fill them and every way a
write meets a full list is met: a hand too small to enter, one that enters and pushes the
last out, a holder undone or corrected away (its place refilled from the results)."""

import datetime
import io

import pytest
from django.core.management import call_command
from django.db import transaction

from club.models import Club
from games.start import end_evening, start_play
from scoring import kept_records, standings
from scoring.corrections import CorrectionRefused
from scoring.kept_records import KeptRecord, recomputed_records
from scoring.recording import RecordingError
from scoring.results import MatchResult
from tests.games.helpers import seated_session
from tests.scoring.test_replay_properties import RULES, TOTALS, play_step

pytestmark = pytest.mark.django_db

# Every kind of write, at both tables: wins of every size (the limit among them), draws,
# undos, corrections to a draw, a void and another win, kong chips (U3A's).
STEPS = [
    ("win", 0, 0, 4),
    ("win", 0, 0, 1),  # the same chair again: a run of two
    ("win", 1, 2, 1),
    ("win", 0, 1, 2),
    ("win", 0, 1, 3),
    ("undo", 0),
    ("win", 1, 3, 4),
    ("kong", 1, 2, "concealed"),
    ("draw", 0),
    ("win", 1, 0, 2),
    ("win", 1, 0, 3),
    ("win", 1, 0, 1),
    ("correct", 0, 3, 1),
    ("win", 1, 0, 5),
    ("correct", 1, 0, 2),
    ("correct", 0, 1, 0),
    ("undo", 1),
    ("undo", 1),
    ("win", 1, 1, 1),
    ("leave", 5),
    ("win", 0, 3, 7),
]


def kept(club) -> dict:
    return kept_records.kept_records(club.pk)


def by_chair(lists: dict) -> dict:
    chair = dict(MatchResult.objects.values_list("pk", "chair_id"))
    return {key: [(chair[pk], value) for pk, value in ranked] for key, ranked in lists.items()}


@pytest.mark.parametrize("rules", RULES)
def test_kept_records_are_the_results_records_after_every_write(rules, monkeypatch):
    monkeypatch.setattr(kept_records, "KEPT", 2)
    monkeypatch.setitem(TOTALS, "fan", [3, 5, 8, 10])  # the club's fan limit is 10
    club = Club.objects.current()
    club.rule_set = rules
    club.save()
    seen, full = set(), set()
    for date in (datetime.date(2026, 11, 18), datetime.date(2026, 11, 25)):
        session = seated_session(club, sizes=(4, 5), date=date)
        start_play(session)
        for step in STEPS:
            try:
                with transaction.atomic():
                    done = play_step(session, rules, step)
            except (RecordingError, CorrectionRefused):
                done = "refused"
            assert kept(club) == recomputed_records(club.pk), (rules, date, step, done)
            seen.add(done)
            full |= {kind for kind, ranked in kept(club).items() if len(ranked) == 2}
        end_evening(session)
    # Both kinds of list were full while hands came and went.
    assert {kind for kind, _ in full} == {"highest", "streak"}
    assert {"win", "undo", "correction (Void)", "correction (Win)"} <= seen | {"win at the limit"}

    # Worked out again from nothing, they are the same (by chair: a rebuild numbers the
    # result rows anew).
    made = by_chair(kept(club))
    KeptRecord.objects.all().delete()
    call_command("rebuild_standings", stdout=io.StringIO())
    assert by_chair(kept(club)) == made

    # The records page shows the kept rows, in their order.
    season = standings.Season.containing(club, datetime.date(2026, 11, 25))
    shown = standings.records(club, season)
    page = {
        ("highest", rules): [(r.pk, r.best_total) for r in results]
        for rules, results in shown.highest.items()
    }
    if shown.streaks:
        page["streak", ""] = [(r.pk, r.longest_streak) for r in shown.streaks]
    assert page == kept(club)


def test_a_list_with_a_hole_is_filled_by_the_next_write(monkeypatch):
    """A result holding a place that goes some other way than a write at its table (its
    match deleted) leaves the place empty: the page skips it, the next write fills it."""
    monkeypatch.setattr(kept_records, "KEPT", 2)
    club = Club.objects.current()
    club.rule_set = "hk"
    club.save()
    session = seated_session(club, sizes=(4, 4))
    start_play(session)
    for step in [("win", 0, 0, 3), ("win", 1, 1, 2), ("win", 1, 2, 1)]:
        play_step(session, "hk", step)
    holder = KeptRecord.objects.get(kind="highest", rank=1).result
    holder.match.results.all().delete()
    season = standings.Season.containing(club, session.date)
    assert None not in standings.records(club, season).highest["hk"]
    play_step(session, "hk", ("win", 1, 0, 3))
    assert kept(club) == recomputed_records(club.pk)
