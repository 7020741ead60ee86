"""Weekly sessions: list, add, edit, next week's in one click, status buttons."""

import datetime
import re

import pytest
import time_machine
from django.test import Client
from django.urls import reverse

from club.models import Club, Session
from tests.factories import CoordinatorFactory, MemberFactory, SessionFactory
from tests.threads import at_once, failures

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
    assert response.context["past"].sessions == [thursday]
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
def test_next_week_is_a_week_after_the_posted_session(coordinator_client, club, thursday):
    SessionFactory(club=club, date=THURSDAY - datetime.timedelta(days=7), venue="Old place")
    response = coordinator_client.post(
        reverse("club:session_next"), {"from": thursday.pk}, follow=True
    )
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
    coordinator_client.post(reverse("club:session_next"), {"from": thursday.pk})
    new = Session.objects.exclude(pk=thursday.pk).get()
    assert new.date == datetime.date(2026, 4, 23)  # the first Thursday from today


def test_next_week_without_any_session_is_explained(coordinator_client, club):
    response = coordinator_client.post(reverse("club:session_next"), follow=True)
    assert "There is no session yet to copy" in response.content.decode()
    assert not Session.objects.exists()


def test_the_session_page_has_no_status_only_buttons(coordinator_client, thursday):
    detail = reverse("club:session_detail", args=[thursday.pk])
    for status in ("planned", "in_play"):
        Session.objects.filter(pk=thursday.pk).update(status=status)
        page = coordinator_client.get(detail).content.decode()
        assert "Close the session" not in page and "Reopen the session" not in page
        assert reverse("club:session_status", args=[thursday.pk]) not in page
    # Play starts only through the games' button, which opens the tables' matches.
    Session.objects.filter(pk=thursday.pk).update(status="planned")
    assert "Start play at the tables" in coordinator_client.get(detail).content.decode()


def test_a_closed_session_can_be_reopened(coordinator_client, thursday):
    url = reverse("club:session_status", args=[thursday.pk])
    Session.objects.filter(pk=thursday.pk).update(status="closed")
    page = coordinator_client.get(reverse("club:session_detail", args=[thursday.pk]))
    assert "Reopen the session" in page.content.decode()
    response = coordinator_client.post(url, {"status": "in_play"}, follow=True)
    thursday.refresh_from_db()
    assert thursday.status == "in_play"
    assert "The session is open again" in response.content.decode()


def test_status_posts_cannot_start_or_close_a_session(coordinator_client, thursday):
    url = reverse("club:session_status", args=[thursday.pk])
    response = coordinator_client.post(url, {"status": "in_play"}, follow=True)
    thursday.refresh_from_db()
    assert thursday.status == "planned"
    assert "“Start play at the tables”" in response.content.decode()
    Session.objects.filter(pk=thursday.pk).update(status="in_play")
    response = coordinator_client.post(url, {"status": "closed"}, follow=True)
    thursday.refresh_from_db()
    assert thursday.status == "in_play"
    assert "“End the evening”" in response.content.decode()
    coordinator_client.post(url, {"status": "nonsense"})
    thursday.refresh_from_db()
    assert thursday.status == "in_play"


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


# --- every create is idempotent --------------------------------------------------------


def _next_week_form_data(page: str) -> dict:
    """What the "Create next week's session" form on `page` posts."""
    action = reverse("club:session_next")
    form = re.search(rf'<form method="post" action="{action}".*?</form>', page, re.S).group(0)
    return dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', form))


@time_machine.travel(datetime.datetime(2026, 3, 5, 12, 0), tick=False)
def test_next_week_from_the_list_twice_makes_one_session(coordinator_client, club, thursday):
    page = coordinator_client.get(reverse("club:session_list")).content.decode()
    data = _next_week_form_data(page)
    assert data.get("from") == str(thursday.pk)
    first = coordinator_client.post(reverse("club:session_next"), data)
    again = coordinator_client.post(reverse("club:session_next"), data, follow=True)
    new = Session.objects.exclude(pk=thursday.pk).get()
    assert new.date == datetime.date(2026, 3, 12)
    assert first["Location"] == reverse("club:session_detail", args=[new.pk])
    assert again.redirect_chain[-1][0] == first["Location"]
    assert "Nothing new was added" in again.content.decode()


@time_machine.travel(datetime.datetime(2026, 3, 5, 12, 0), tick=False)
def test_next_week_from_a_session_page_twice_makes_one_session(coordinator_client, thursday):
    page = coordinator_client.get(reverse("club:session_detail", args=[thursday.pk]))
    data = _next_week_form_data(page.content.decode())
    assert data["from"] == str(thursday.pk)
    for _ in range(2):
        response = coordinator_client.post(reverse("club:session_next"), data)
        assert response.status_code == 302
    assert list(Session.objects.order_by("date").values_list("date", flat=True)) == [
        THURSDAY,
        datetime.date(2026, 3, 12),
    ]


@time_machine.travel(datetime.datetime(2026, 3, 5, 12, 0), tick=False)
@pytest.mark.django_db(transaction=True)
def test_next_week_twenty_taps_at_once_make_exactly_one_session():
    # After a four-week break, so next week is today: the first tap's session must not
    # move the date the other taps compute.
    club = Club.objects.current()
    SessionFactory(club=club, date=datetime.date(2026, 2, 5))
    coordinator = CoordinatorFactory()
    lister = Client()
    lister.force_login(coordinator)
    data = _next_week_form_data(lister.get(reverse("club:session_list")).content.decode())

    def tap():
        client = Client(raise_request_exception=True)
        client.force_login(coordinator)
        return client.post(reverse("club:session_next"), data)

    responses = at_once([tap] * 20)
    assert not failures(responses), responses
    new = Session.objects.exclude(date=datetime.date(2026, 2, 5)).get()
    assert new.date == datetime.date(2026, 3, 5)
    assert {r["Location"] for r in responses} == {reverse("club:session_detail", args=[new.pk])}


@pytest.mark.parametrize("bad", ["²", "-1", "abc", "", "99999999999999999999"])
def test_next_week_with_a_bad_from_is_explained(coordinator_client, thursday, bad):
    response = coordinator_client.post(reverse("club:session_next"), {"from": bad}, follow=True)
    assert response.status_code == 200
    assert response.redirect_chain[-1][0] == reverse("club:session_list")
    assert "Please use the “Create next week" in response.content.decode()
    assert Session.objects.count() == 1


def test_add_a_session_twice_adds_it_once(coordinator_client, club):
    first = coordinator_client.post(reverse("club:session_add"), session_form())
    again = coordinator_client.post(reverse("club:session_add"), session_form(), follow=True)
    session = Session.objects.get()
    assert first["Location"] == reverse("club:session_detail", args=[session.pk])
    assert again.redirect_chain[-1][0] == first["Location"]
    assert "The session on Thursday 12 March 2026 is already in the list" in (
        again.content.decode()
    )


# --- dates the app takes ---------------------------------------------------------------


@pytest.mark.parametrize("date", ["0001-01-01", "1999-12-31", "2100-01-01", "9999-12-31"])
def test_dates_outside_the_range_are_refused_by_name(coordinator_client, thursday, date):
    for url in [reverse("club:session_add"), reverse("club:session_edit", args=[thursday.pk])]:
        response = coordinator_client.post(url, session_form(date=date))
        assert response.status_code == 200
        assert "Please choose a date from 1 January 2000 to 31 December 2099." in (
            response.content.decode()
        )
    assert list(Session.objects.values_list("date", flat=True)) == [THURSDAY]


@pytest.mark.parametrize("far", [datetime.date(9999, 12, 25), datetime.date.max])
def test_a_session_at_the_end_of_time_breaks_neither_the_list_nor_next_week(
    coordinator_client, club, far
):
    # Such a session can only come from before dates were checked, or from the admin.
    session = SessionFactory(club=club, date=far)
    assert coordinator_client.get(reverse("club:session_list")).status_code == 200
    assert session.next_week_date(datetime.date(2026, 3, 5)) is None
    response = coordinator_client.post(
        reverse("club:session_next"), {"from": session.pk}, follow=True
    )
    assert response.status_code == 200
    assert "A week after" in response.content.decode()
    assert "31 December 2099" in response.content.decode()
    assert Session.objects.count() == 1


def test_next_week_from_the_first_day_there_is_does_not_raise(club):
    session = SessionFactory(club=club, date=datetime.date.min)
    SessionFactory(club=club, date=datetime.date(2026, 3, 5))
    # Another session since then: a week after it (year 1) is out of range.
    assert session.next_week_date(datetime.date(2026, 3, 6)) is None
    # None since then but today's: after the break, the first such weekday from today.
    assert session.next_week_date(datetime.date(2026, 3, 5)) == datetime.date(2026, 3, 9)


@pytest.mark.parametrize("season_start", [None, datetime.date(2024, 9, 1)])
@pytest.mark.parametrize("day", [datetime.date.min, datetime.date.max])
def test_season_start_is_safe_at_the_ends_of_the_calendar(club, season_start, day):
    club.season_start = season_start
    start = club.season_start_for(day)
    assert start <= day and (day - start).days < 366


def test_make_the_seating_for_a_session_in_year_one_does_not_crash(coordinator_client, club):
    # Such a session can only come from before dates were checked, or from the admin.
    club.season_start = datetime.date(2024, 9, 1)
    club.save()
    session = SessionFactory(club=club, date=datetime.date.min)
    for _ in range(8):
        session.check_in(MemberFactory(club=club))
    response = coordinator_client.post(reverse("club:seating_make", args=[session.pk]))
    assert response.status_code in (200, 302)


def test_add_session_racing_another_add_of_the_same_date_answers_with_that_one(club):
    from club.forms import SessionForm

    form = SessionForm(session_form(), club=club)
    assert form.is_valid(), form.errors
    other = SessionFactory(club=club, date=datetime.date(2026, 3, 12))  # the other tap won
    assert form.save() == other and form.already_added == other
    assert Session.objects.count() == 1


def test_editing_onto_a_taken_date_is_a_clash_even_with_the_same_details(
    coordinator_client, club, thursday
):
    SessionFactory(club=club, date=datetime.date(2026, 3, 12), venue="Library")
    response = coordinator_client.post(
        reverse("club:session_edit", args=[thursday.pk]), session_form()
    )
    assert "There is already a session on Thursday 12 March 2026" in response.content.decode()
    thursday.refresh_from_db()
    assert thursday.date == THURSDAY


def test_past_sessions_are_paged_a_year_at_a_time(coordinator_client, club):
    """A club of twenty years: the list shows a year of past sessions, older ones a page on,
    paged by date (no count of the whole history) and back again."""
    from django.utils import timezone

    from club.views.sessions import PAST_PER_PAGE

    last = timezone.localdate() - datetime.timedelta(weeks=1)
    Session.objects.bulk_create(
        Session(club=club, date=last - datetime.timedelta(weeks=w), status="closed")
        for w in range(PAST_PER_PAGE + 3)
    )
    url = reverse("club:session_list")
    oldest = last - datetime.timedelta(weeks=PAST_PER_PAGE + 2)
    first_page_end = last - datetime.timedelta(weeks=PAST_PER_PAGE - 1)

    def shows(page, day):
        return f"{day:%A} {day.day} {day:%B %Y}" in page

    first = coordinator_client.get(url).content.decode()
    assert shows(first, last) and shows(first, first_page_end) and not shows(first, oldest)
    assert "Newer sessions" not in first
    older = f'href="?before={first_page_end:%Y-%m-%d}"'
    assert older in first
    second = coordinator_client.get(url, {"before": f"{first_page_end:%Y-%m-%d}"}).content.decode()
    assert shows(second, oldest) and not shows(second, first_page_end)
    assert "Older sessions" not in second
    newest_of_second = first_page_end - datetime.timedelta(weeks=1)
    assert f'href="?after={newest_of_second:%Y-%m-%d}"' in second
    back = coordinator_client.get(url, {"after": f"{newest_of_second:%Y-%m-%d}"})
    assert [s.date for s in back.context["past"].sessions] == [
        last - datetime.timedelta(weeks=w) for w in range(PAST_PER_PAGE)
    ]
    # An address typed wrong shows the latest page, not an error.
    assert coordinator_client.get(url, {"before": "2026-13-45"}).status_code == 200
