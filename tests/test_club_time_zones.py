"""Each club's "tonight" is its own: the middleware runs a club's pages in the club's time
zone, so at one instant a club in Auckland and one in Los Angeles have different dates."""

import datetime

import pytest
import time_machine
from django.http import HttpResponse
from django.test import RequestFactory
from django.urls import reverse
from django.utils import timezone

from club.middleware import ClubAddressMiddleware
from club.roles import make_coordinator
from tests.factories import ClubFactory, SessionFactory, UserFactory

# 12:00 UTC on Thursday 5 March 2026: 01:00 on Friday 6 March in Auckland (NZDT, UTC+13),
# 04:00 on Thursday 5 March in Los Angeles (PST, UTC-8).
INSTANT = datetime.datetime(2026, 3, 5, 12, 0, tzinfo=datetime.UTC)
THURSDAY, FRIDAY = datetime.date(2026, 3, 5), datetime.date(2026, 3, 6)


@pytest.fixture
def two_clubs(db):
    auckland = ClubFactory(name="Auckland Tiles", slug="auckland", time_zone="Pacific/Auckland")
    los_angeles = ClubFactory(
        name="LA Mahjong", slug="los-angeles", time_zone="America/Los_Angeles"
    )
    for club in (auckland, los_angeles):
        for date in (THURSDAY, FRIDAY):
            SessionFactory(club=club, date=date, venue=f"{club.name} hall")
    return auckland, los_angeles


def coordinator_of(club, client):
    user = UserFactory()
    make_coordinator(user, club)
    client.force_login(user)
    return client


def page(client, club, name) -> str:
    response = client.get(f"/c/{club.slug}" + reverse(name))
    assert response.status_code == 200
    return response.content.decode()


def test_tonight_follows_each_clubs_time_zone(two_clubs, client):
    auckland, los_angeles = two_clubs
    with time_machine.travel(INSTANT, tick=False):
        coordinator_of(auckland, client)
        assert "<h1>Tonight: Friday 6 March</h1>" in page(client, auckland, "home")
        coordinator_of(los_angeles, client)
        assert "<h1>Tonight: Thursday 5 March</h1>" in page(client, los_angeles, "home")


def test_a_new_session_is_dated_today_in_the_clubs_time_zone(two_clubs, client):
    auckland, los_angeles = two_clubs
    with time_machine.travel(INSTANT, tick=False):
        coordinator_of(auckland, client)
        assert 'value="2026-03-06"' in page(client, auckland, "club:session_add")
        coordinator_of(los_angeles, client)
        assert 'value="2026-03-05"' in page(client, los_angeles, "club:session_add")


def test_the_hours_on_a_clubs_pages_are_its_own(two_clubs):
    """The same instant, written by each club's pages (the active time zone of a request)."""
    seen = {}

    def view(request):
        seen[request.club.slug] = (timezone.localdate(), timezone.localtime(INSTANT).hour)
        return HttpResponse()

    middleware = ClubAddressMiddleware(view)
    with time_machine.travel(INSTANT, tick=False):
        for club in two_clubs:
            middleware(RequestFactory().get(f"/c/{club.slug}/"))
    assert seen == {"auckland": (FRIDAY, 1), "los-angeles": (THURSDAY, 4)}
