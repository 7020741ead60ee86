"""The calendar (club/calendar_feed/): a member's private address, the feeds read back with
the icalendar library, polls answered 304 at one query, the 404s that reveal nothing, two
clubs, the public calendar and the club's settings for it."""

import datetime
import re
from zoneinfo import ZoneInfo

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from icalendar import Calendar

from club.calendar_feed.models import CalendarAddress
from club.models import Club, Session
from club.week.models import ReplyAnswer, SessionReply
from tests.factories import ClubFactory, MemberFactory, UserFactory

pytestmark = pytest.mark.django_db

ZONE = "Australia/Sydney"  # not the server's (Europe/London): the times must be the club's


def same_page(one, other) -> bool:
    """Two answers alike but for the CSRF token each page is given afresh."""
    token = re.compile(rb'"X-CSRFToken": "[^"]*"')
    return token.sub(b"", one.content) == token.sub(b"", other.content)


def days(n: int) -> datetime.date:
    return timezone.localdate() + datetime.timedelta(days=n)


@pytest.fixture
def week(club):
    """The club in Sydney, sessions from 13:30 to 16:30, a member with a login, and sessions
    before, in and after the feed's window, with the member's answers to some."""
    club.time_zone = ZONE
    club.sessions_begin = datetime.time(13, 30)
    club.sessions_end = datetime.time(16, 30)
    club.save()
    user = UserFactory()
    member = MemberFactory(club=club, user=user, table_name="Rosa")
    made = {}
    for name, n in [
        ("too_old", -35),
        ("last_week", -7),
        ("coming", 7),
        ("not_coming", 14),
        ("not_heard", 21),
        ("too_far", 200),
    ]:
        made[name] = Session.objects.create(
            club=club, date=days(n), venue=f"Hall {name}", notes="Private session note"
        )
    SessionReply.objects.create(
        session=made["coming"], member=member, answer=ReplyAnswer.COMING, note="late, about 3 pm"
    )
    SessionReply.objects.create(
        session=made["not_coming"], member=member, answer=ReplyAnswer.NOT_COMING
    )
    address = CalendarAddress.renew(member)
    return {"club": club, "member": member, "user": user, "address": address, **made}


def feed_url(token: str) -> str:
    return reverse("calendar_feed", kwargs={"calendar_token": token})


def events_of(response) -> dict[str, object]:
    """The feed's events by their location (each test session has its own hall)."""
    calendar = Calendar.from_ical(response.content)
    return {str(event["location"]): event for event in calendar.walk("VEVENT")}


def test_the_feed_holds_the_window_in_the_clubs_time_zone_with_answers_and_reminders(client, week):
    response = client.get(feed_url(week["address"].token))
    assert response.status_code == 200
    assert response["Content-Type"] == "text/calendar; charset=utf-8"
    calendar = Calendar.from_ical(response.content)
    events = events_of(response)
    # Four weeks back to six months on: the sessions outside are not in it.
    assert sorted(events) == [
        "Hall coming",
        "Hall last_week",
        "Hall not_coming",
        "Hall not_heard",
    ]
    # Times in the club's zone, with that zone's VTIMEZONE for the apps.
    zones = [str(zone["tzid"]) for zone in calendar.walk("VTIMEZONE")]
    assert zones == [ZONE]
    coming = events["Hall coming"]
    start, end = coming.decoded("dtstart"), coming.decoded("dtend")
    assert start == datetime.datetime.combine(days(7), datetime.time(13, 30), ZoneInfo(ZONE))
    assert coming["dtstart"].params["TZID"] == ZONE
    assert (start.hour, start.minute, end.hour, end.minute) == (13, 30, 16, 30)
    # Each marked by the member's answer.
    assert "(you are coming)" in str(coming["summary"])
    assert "You said you are coming." in str(coming["description"])
    assert "late, about 3 pm" in str(coming["description"])
    not_coming = events["Hall not_coming"]
    assert "(you said not this week)" in str(not_coming["summary"])
    assert str(not_coming["transp"]) == "TRANSPARENT"
    assert "have not said yet" in str(events["Hall not_heard"]["description"])
    # A reminder the day before, except where they said they are not coming.
    for name in ("Hall coming", "Hall not_heard", "Hall last_week"):
        alarms = events[name].walk("VALARM")
        assert len(alarms) == 1, name
        assert alarms[0].decoded("trigger") == datetime.timedelta(days=-1)
        assert str(alarms[0]["action"]) == "DISPLAY"
        assert "tomorrow" in str(alarms[0]["description"])
    assert events["Hall not_coming"].walk("VALARM") == []
    # Stable UIDs, the session's notes never.
    again = events_of(Client().get(feed_url(week["address"].token)))
    assert {n: str(e["uid"]) for n, e in again.items()} == {
        n: str(e["uid"]) for n, e in events.items()
    }
    assert str(coming["uid"]) == f"club-{week['club'].pk}-session-{week['coming'].pk}@testserver"
    assert b"Private session note" not in response.content


def test_an_answer_changed_shows_in_the_next_poll(client, week):
    url = feed_url(week["address"].token)
    first = client.get(url)
    SessionReply.objects.filter(session=week["not_coming"]).update(
        answer=ReplyAnswer.COMING, updated_at=timezone.now() + datetime.timedelta(seconds=5)
    )
    second = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert second.status_code == 200
    assert "(you are coming)" in str(events_of(second)["Hall not_coming"]["summary"])


def test_a_poll_with_the_last_etag_or_date_costs_one_query(client, week, django_assert_num_queries):
    url = feed_url(week["address"].token)
    first = client.get(url)
    etag, last_modified = first["ETag"], first["Last-Modified"]
    with django_assert_num_queries(1):
        assert client.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 304
    with django_assert_num_queries(1):
        assert client.get(url, HTTP_IF_MODIFIED_SINCE=last_modified).status_code == 304
    # The whole answer: the address, the sessions, the answers, however many sessions.
    for n in range(30, 60):
        Session.objects.create(club=week["club"], date=days(n + 100))
    with django_assert_num_queries(3):
        assert client.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 200


def _changes(week):
    """Each change a member's feed must show, and a way to make it."""
    session, club, member = week["coming"], week["club"], week["member"]

    def later() -> datetime.datetime:
        return timezone.now() + datetime.timedelta(minutes=1)

    return {
        "a session's venue": lambda: Session.objects.filter(pk=session.pk).update(
            venue="Elsewhere", updated=later()
        ),
        "a session added": lambda: Session.objects.create(club=club, date=days(28)),
        "a session deleted": lambda: Session.objects.filter(pk=week["not_heard"].pk).delete(),
        "an answer": lambda: SessionReply.objects.filter(session=session).update(
            answer=ReplyAnswer.NOT_COMING, updated_at=later()
        ),
        "an answer added": lambda: SessionReply.objects.create(
            session=week["not_heard"], member=member, answer=ReplyAnswer.COMING
        ),
        "an answer taken back": lambda: SessionReply.objects.filter(session=session).delete(),
        "the club's times": lambda: Club.objects.filter(pk=club.pk).update(
            sessions_begin=datetime.time(10, 0)
        ),
        "the club's time zone": lambda: Club.objects.filter(pk=club.pk).update(
            time_zone="Europe/Paris"
        ),
        "the member's name": lambda: (
            type(member).objects.filter(pk=member.pk).update(table_name="Rosie")
        ),
    }


CHANGES = [
    "a session's venue",
    "a session added",
    "a session deleted",
    "an answer",
    "an answer added",
    "an answer taken back",
    "the club's times",
    "the club's time zone",
    "the member's name",
]


@pytest.mark.parametrize("change", CHANGES)
def test_every_change_the_feed_shows_changes_its_etag(client, week, change):
    url = feed_url(week["address"].token)
    etag = client.get(url)["ETag"]
    changes = _changes(week)
    assert sorted(changes) == sorted(CHANGES)
    changes[change]()
    again = client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 200
    assert again["ETag"] != etag


def test_another_members_answers_do_not_change_the_feed(client, week):
    url = feed_url(week["address"].token)
    etag = client.get(url)["ETag"]
    other = MemberFactory(club=week["club"])
    SessionReply.objects.create(session=week["coming"], member=other, answer=ReplyAnswer.COMING)
    assert client.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 304


def test_the_window_moving_on_a_day_changes_the_etag(client, week, time_machine):
    url = feed_url(week["address"].token)
    etag = client.get(url)["ETag"]
    time_machine.move_to(timezone.now() + datetime.timedelta(days=1))
    assert client.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 200


# --- 404s that reveal nothing ----------------------------------------------------------------


def test_wrong_renewed_and_lapsed_tokens_get_the_plain_404(client, week):
    member, old = week["member"], week["address"].token
    nowhere = client.get("/calendar/no/such/address/")
    assert nowhere.status_code == 404
    renewed = CalendarAddress.renew(member)
    assert renewed.token != old
    lapsed_member = MemberFactory(club=week["club"], is_active=True)
    lapsed = CalendarAddress.renew(lapsed_member).token
    lapsed_member.retire()
    cases = {
        "a wrong token": "0" * 40,
        "a token too short": old[:-1],
        "not a token": "../../etc/passwd%00",
        "the renewed one": old,
        "a lapsed member's": lapsed,
    }
    for case, token in cases.items():
        response = client.get(f"/calendar/{token}.ics")
        assert response.status_code == 404, case
        assert same_page(response, nowhere), case
        assert "ETag" not in response, case
    assert client.get(feed_url(renewed.token)).status_code == 200


def test_the_token_is_not_in_the_database(week):
    address = week["address"]
    row = CalendarAddress.objects.filter(pk=address.pk).values().get()
    assert address.token not in " ".join(map(str, row.values()))
    assert len(address.token) == 40


# --- two clubs ----------------------------------------------------------------------------------


def test_a_member_of_two_clubs_has_an_address_in_each_that_opens_only_that_club(client, week):
    b = ClubFactory(slug="birch", name="Birch Club", time_zone="Europe/Paris")
    b_member = MemberFactory(club=b, user=week["user"], table_name="RosaB")
    Session.objects.create(club=b, date=days(3), venue="Hall of Birch")
    a_token, b_token = week["address"].token, CalendarAddress.renew(b_member).token
    assert a_token != b_token
    a_feed, b_feed = client.get(feed_url(a_token)), client.get(feed_url(b_token))
    assert "Hall of Birch" not in events_of(a_feed)
    assert list(events_of(b_feed)) == ["Hall of Birch"]
    assert [str(z["tzid"]) for z in Calendar.from_ical(b_feed.content).walk("VTIMEZONE")] == [
        "Europe/Paris"
    ]
    # Asked at the other club's address, a token is not found.
    nowhere = client.get("/c/birch/no-such-page/")
    under_b = client.get(f"/c/birch/calendar/{a_token}.ics")
    assert under_b.status_code == 404 and same_page(under_b, nowhere)
    assert client.get(f"/c/birch/calendar/{b_token}.ics").status_code == 200
    # Each club's page shows that club's address.
    client.force_login(week["user"])
    assert b_token in client.get("/c/birch/club/calendar/").content.decode()
    assert a_token not in client.get("/c/birch/club/calendar/").content.decode()
    assert a_token in client.get(reverse("club:calendar")).content.decode()


# --- the public calendar ------------------------------------------------------------------------


def test_the_public_calendar_is_off_until_the_club_publishes_it(client, week):
    club = week["club"]
    url = reverse("public_calendar_feed", kwargs={"slug": club.slug})
    nowhere = client.get("/calendar/no/such/address/")
    off = client.get(url)
    assert off.status_code == 404 and same_page(off, nowhere)
    club.public_calendar = True
    club.save()
    response = client.get(url)
    assert response.status_code == 200
    events = events_of(response)
    assert len(events) == 4
    text = response.content.decode()
    for private in ("Rosa", "You said", "late, about 3 pm", "Private session note"):
        assert private not in text
    assert all(str(e["summary"]) == f"{club.name}: Mahjong" for e in events.values())


def test_a_public_calendar_poll_costs_one_query(client, week, django_assert_num_queries):
    club = week["club"]
    club.public_calendar = True
    club.save()
    url = reverse("public_calendar_feed", kwargs={"slug": club.slug})
    etag = client.get(url)["ETag"]
    with django_assert_num_queries(1):
        assert client.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 304


# --- the member's page ------------------------------------------------------------------------


def test_the_member_makes_copies_and_renews_their_address(client, club):
    user = UserFactory()
    member = MemberFactory(club=club, user=user)
    client.force_login(user)
    page = client.get(reverse("club:calendar")).content.decode()
    assert "Make my calendar address" in page and "webcal://" not in page
    assert "often only every few hours" in page
    response = client.post(reverse("club:calendar_renew"), {"renew": "yes"}, follow=True)
    first = CalendarAddress.objects.get(member=member).token
    page = response.content.decode()
    assert f"http://testserver/calendar/{first}.ics" in page
    assert f'href="webcal://testserver/calendar/{first}.ics"' in page
    assert 'data-copy="feed-address"' in page and "Renew the address" in page
    client.post(reverse("club:calendar_renew"), {"renew": "yes"})
    second = CalendarAddress.objects.get(member=member).token
    assert second != first and CalendarAddress.objects.filter(member=member).count() == 1
    assert client.get(feed_url(first)).status_code == 404
    assert client.get(feed_url(second)).status_code == 200
    # The home page and the menu lead to it.
    assert reverse("club:calendar") in client.get(reverse("home")).content.decode()
    assert reverse("club:calendar") in client.get(reverse("menu")).content.decode()


def test_only_a_member_has_an_address(coordinator_client, club):
    client = Client()
    assert client.get(reverse("club:calendar")).status_code == 302
    response = client.post(reverse("club:calendar_renew"), {"renew": "yes"})
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")
    page = coordinator_client.get(reverse("club:calendar")).content.decode()
    assert "not one of" in page
    coordinator_client.post(reverse("club:calendar_renew"), {"renew": "yes"})
    assert not CalendarAddress.objects.exists()


def test_a_post_without_the_pages_button_changes_nothing(member_client, member_user):
    response = member_client.post(reverse("club:calendar_renew"), {"x": "1"}, follow=True)
    assert "Nothing was changed" in response.content.decode()
    assert not CalendarAddress.objects.exists()


# --- the club's settings --------------------------------------------------------------------------


def test_the_coordinator_sets_the_session_times_and_the_public_calendar(coordinator_client, club):
    from tests.test_club_settings import settings_post

    data = settings_post(club, sessions_begin="19:00", sessions_end="18:00", public_calendar="on")
    refused = coordinator_client.post(reverse("club_settings"), data)
    page = refused.content.decode()
    assert "Sessions must end after they begin" in page
    assert 'value="19:00"' in page  # the entries are kept
    data["sessions_end"] = "21:30"
    assert coordinator_client.post(reverse("club_settings"), data).status_code == 302
    club.refresh_from_db()
    assert (club.sessions_begin, club.sessions_end) == (datetime.time(19), datetime.time(21, 30))
    assert club.public_calendar
    shown = coordinator_client.get(reverse("club_settings")).content.decode()
    assert f"http://testserver/calendar/club/{club.slug}.ics" in shown
    data["sessions_begin"] = "7 pm"
    page = coordinator_client.post(reverse("club_settings"), data).content.decode()
    assert "Please write a time of day like 14:00" in page
