"""Weekly sessions: list, add, edit, next week's in one click, status buttons."""

import datetime

import pytest
import time_machine
from django.urls import reverse

from club.models import Club, Session
from tests.factories import SessionFactory

THURSDAY = datetime.date(2026, 3, 5)


@pytest.fixture
def thursday(club):
    return SessionFactory(club=club, date=THURSDAY, venue="Church hall")


def session_form(**overrides):
    data = {"date": "2026-03-12", "venue": "Library", "notes": "", "status": "planned"}
    data.update(overrides)
    return data


def _changing_requests(session):
    return [
        ("get", reverse("club:session_list"), {}),
        ("get", reverse("club:session_detail", args=[session.pk]), {}),
        ("post", reverse("club:session_add"), session_form()),
        ("post", reverse("club:session_edit", args=[session.pk]), session_form()),
        ("post", reverse("club:session_next"), {}),
        ("post", reverse("club:session_status", args=[session.pk]), {"status": "in_play"}),
    ]


def test_anonymous_users_are_sent_to_log_in(client, thursday):
    for method, url, data in _changing_requests(thursday):
        response = getattr(client, method)(url, data)
        assert response.status_code == 302, url
        assert response["Location"].startswith(reverse("login")), url
    assert Session.objects.count() == 1
    assert Session.objects.get().status == "planned"


def test_members_are_refused(member_client, thursday):
    for method, url, data in _changing_requests(thursday):
        assert getattr(member_client, method)(url, data).status_code == 403, url
    assert Session.objects.count() == 1
    assert Session.objects.get().status == "planned"


def test_next_and_status_refuse_get(coordinator_client, thursday):
    assert coordinator_client.get(reverse("club:session_next")).status_code == 405
    url = reverse("club:session_status", args=[thursday.pk])
    assert coordinator_client.get(url, {"status": "in_play"}).status_code == 405
    assert Session.objects.count() == 1


@time_machine.travel(datetime.datetime(2026, 3, 8, 12, 0), tick=False)
def test_list_splits_upcoming_and_past(coordinator_client, club, thursday):
    later = SessionFactory(club=club, date=datetime.date(2026, 3, 12))
    much_later = SessionFactory(club=club, date=datetime.date(2026, 3, 19))
    response = coordinator_client.get(reverse("club:session_list"))
    assert list(response.context["upcoming"]) == [later, much_later]
    assert list(response.context["past"]) == [thursday]
    page = response.content.decode()
    assert page.index("Thursday 12 March 2026") < page.index("Past sessions")
    assert page.index("Past sessions") < page.index("Thursday 5 March 2026")


def test_add_a_session(coordinator_client, club):
    response = coordinator_client.post(
        reverse("club:session_add"), session_form(notes="Bring tiles")
    )
    session = Session.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("club:session_detail", args=[session.pk])
    assert session.club == club and session.date == datetime.date(2026, 3, 12)
    assert session.venue == "Library" and session.notes == "Bring tiles"


def test_duplicate_date_is_explained_and_entries_kept(coordinator_client, thursday):
    response = coordinator_client.post(
        reverse("club:session_add"), session_form(date="2026-03-05", venue="Town hall")
    )
    page = response.content.decode()
    assert response.status_code == 200
    assert "There is already a session on Thursday 5 March 2026" in page
    assert 'value="Town hall"' in page and 'value="2026-03-05"' in page
    assert Session.objects.count() == 1


def test_bad_date_is_named(coordinator_client, club):
    response = coordinator_client.post(reverse("club:session_add"), session_form(date="31/02"))
    assert response.status_code == 200
    assert "Enter a valid date" in response.content.decode()
    assert not Session.objects.exists()


def test_edit_a_session(coordinator_client, thursday):
    response = coordinator_client.post(
        reverse("club:session_edit", args=[thursday.pk]),
        session_form(date="2026-03-05", venue="Town hall", notes="Lift broken"),
    )
    assert response.status_code == 302
    thursday.refresh_from_db()
    assert thursday.venue == "Town hall" and thursday.notes == "Lift broken"


@time_machine.travel(datetime.datetime(2026, 3, 5, 12, 0), tick=False)
def test_next_week_from_the_latest(coordinator_client, club, thursday):
    SessionFactory(club=club, date=THURSDAY - datetime.timedelta(days=7), venue="Old place")
    response = coordinator_client.post(reverse("club:session_next"), follow=True)
    new = Session.objects.get(date=THURSDAY + datetime.timedelta(days=7))
    assert new.venue == "Church hall" and new.status == "planned"
    assert new.date.weekday() == THURSDAY.weekday()
    assert "Next week&#x27;s session is added: Thursday 12 March 2026" in response.content.decode()


@time_machine.travel(datetime.datetime(2026, 3, 1, 12, 0), tick=False)
def test_next_week_refuses_politely_when_it_exists(coordinator_client, club, thursday):
    existing = SessionFactory(club=club, date=THURSDAY + datetime.timedelta(days=7))
    response = coordinator_client.post(
        reverse("club:session_next"), {"from": thursday.pk}, follow=True
    )
    assert response.redirect_chain[-1][0] == reverse("club:session_detail", args=[existing.pk])
    assert "There is already a session on Thursday 12 March 2026" in response.content.decode()
    assert Session.objects.count() == 2


@time_machine.travel(datetime.datetime(2026, 4, 20, 12, 0), tick=False)
def test_next_week_after_a_break_is_not_in_the_past(coordinator_client, club, thursday):
    coordinator_client.post(reverse("club:session_next"))
    new = Session.objects.exclude(pk=thursday.pk).get()
    assert new.date == datetime.date(2026, 4, 23)  # the first Thursday from today


def test_next_week_without_any_session_is_explained(coordinator_client, club):
    response = coordinator_client.post(reverse("club:session_next"), follow=True)
    assert "There is no session yet to copy" in response.content.decode()
    assert not Session.objects.exists()


def test_status_moves_planned_in_play_closed_and_reopen(coordinator_client, thursday):
    url = reverse("club:session_status", args=[thursday.pk])
    detail = coordinator_client.get(reverse("club:session_detail", args=[thursday.pk]))
    assert "Start play" in detail.content.decode()
    coordinator_client.post(url, {"status": "in_play"})
    thursday.refresh_from_db()
    assert thursday.status == "in_play"
    response = coordinator_client.post(url, {"status": "closed"}, follow=True)
    thursday.refresh_from_db()
    assert thursday.status == "closed"
    assert "The session is closed" in response.content.decode()
    assert "Reopen the session" in response.content.decode()
    coordinator_client.post(url, {"status": "in_play"})
    thursday.refresh_from_db()
    assert thursday.status == "in_play"


def test_status_cannot_skip_or_go_anywhere(coordinator_client, thursday):
    url = reverse("club:session_status", args=[thursday.pk])
    response = coordinator_client.post(url, {"status": "closed"}, follow=True)
    thursday.refresh_from_db()
    assert thursday.status == "planned"
    assert "cannot be set to “Closed” from here" in response.content.decode()
    coordinator_client.post(url, {"status": "nonsense"})
    thursday.refresh_from_db()
    assert thursday.status == "planned"


def test_unique_date_per_club_in_the_database(club, thursday):
    from django.db import IntegrityError, transaction

    with pytest.raises(IntegrityError), transaction.atomic():
        Session.objects.create(club=club, date=THURSDAY)


def test_season_start(club):
    day = datetime.date(2026, 3, 5)
    assert club.season_start_for(day) == datetime.date(2026, 1, 1)
    club.season_start = datetime.date(2024, 9, 1)
    assert club.season_start_for(day) == datetime.date(2025, 9, 1)
    assert club.season_start_for(datetime.date(2026, 9, 1)) == datetime.date(2026, 9, 1)
    club.season_start = datetime.date(2024, 2, 29)
    assert club.season_start_for(datetime.date(2025, 3, 1)) == datetime.date(2025, 2, 28)
    assert isinstance(Club.objects.current(), Club)
