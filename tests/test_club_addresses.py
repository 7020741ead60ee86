"""Clubs by address (club/middleware.py): /c/<slug>/ names the club, links stay inside it,
one club keeps the root, several clubs share an installation."""

import datetime
import zoneinfo

import pytest
import time_machine
from django.http import HttpResponse, StreamingHttpResponse
from django.test import RequestFactory
from django.urls import reverse
from django.utils import timezone

from club.middleware import ClubAddressMiddleware, root_club
from club.models import Club, Member
from club.scoping import scope
from tests.factories import ClubFactory, CoordinatorFactory, MemberFactory, UserFactory

pytestmark = pytest.mark.django_db


def in_club(club, url: str) -> str:
    return f"/c/{club.slug}{url}"


def test_one_club_is_served_at_the_root_and_at_its_address(client, club):
    assert client.get("/").status_code == 200
    assert f"Welcome to {club.name}" in client.get(in_club(club, "/")).content.decode()


def test_an_unknown_address_is_a_plain_404(client, club):
    response = client.get("/c/no-such-club/standings/")
    assert response.status_code == 404
    assert "There is no club at the address “no-such-club”" in response.content.decode()


def test_an_address_without_its_last_slash_gets_it(client, club):
    response = client.get(f"/c/{club.slug}")
    assert response.status_code == 301
    assert response["Location"] == f"/c/{club.slug}/"


def test_every_link_on_a_clubs_page_stays_in_the_club(client, club):
    other = ClubFactory(name="Tuesday Tiles")
    page = client.get(in_club(other, "/accounts/login/")).content.decode()
    assert f'action="/c/{other.slug}/accounts/login/"' in page
    assert f'href="/c/{other.slug}/"' in page
    assert 'href="/static/' in page  # static files are the site's, not a club's
    # A page that asks for a login sends the visitor to the club's own login page.
    response = client.get(in_club(other, "/standings/"))
    assert response["Location"] == (
        f"/c/{other.slug}/accounts/login/?next=/c/{other.slug}/standings/"
    )


def test_with_no_club_at_the_root_it_lists_them_and_club_pages_need_an_address(client, club):
    other = ClubFactory(name="Tuesday Tiles")
    Club.objects.serve_at_root(None)  # the operators' choice: manage.py club_at_root --none
    page = client.get("/").content.decode()
    assert f'href="/c/{club.slug}/">{club.name}' in page
    assert f'href="/c/{other.slug}/">Tuesday Tiles' in page
    found = client.get("/?q=tues").content.decode()
    assert "Tuesday Tiles" in found and club.name not in found
    response = client.get("/standings/")
    assert response.status_code == 404
    assert "/c/thursday-mahjong/" in response.content.decode()  # the example address


def test_home_club_keeps_one_club_at_the_root(client, club, settings):
    Club.objects.serve_at_root(ClubFactory(name="Tuesday Tiles"))
    settings.HOME_CLUB = club.slug  # the setting wins over the club recorded at the root
    assert f"Welcome to {club.name}" in client.get("/").content.decode()
    assert client.get("/standings/").status_code == 302  # the club's page: log in first
    settings.HOME_CLUB = "no-such-club"  # a slip in the setting leaves the recorded root
    assert "Welcome to Tuesday Tiles" in client.get("/").content.decode()


def test_the_first_club_keeps_the_root_whatever_comes_after_it(client, club):
    """The root is recorded with the first club, not counted: clubs coming and going leave
    it where it is, and only the operators move it."""
    assert Club.objects.get(pk=club.pk).served_at_root
    others = [ClubFactory(name="Tuesday Tiles"), ClubFactory(name="Friday Tiles")]
    assert f"Welcome to {club.name}" in client.get("/").content.decode()
    others[0].delete()
    assert f"Welcome to {club.name}" in client.get("/").content.decode()
    assert list(Club.objects.filter(served_at_root=True)) == [club]
    Club.objects.serve_at_root(others[1])
    assert "Welcome to Friday Tiles" in client.get("/").content.decode()
    assert f"Welcome to {club.name}" in client.get(in_club(club, "/")).content.decode()
    assert list(Club.objects.filter(served_at_root=True)) == [others[1]]


def test_a_second_club_at_the_root_is_refused_by_the_database(club):
    from django.db import IntegrityError, transaction

    other = ClubFactory(name="Tuesday Tiles")
    with pytest.raises(IntegrityError), transaction.atomic():
        Club.objects.filter(pk=other.pk).update(served_at_root=True)


def test_the_root_is_found_with_one_query(club, settings, django_assert_num_queries):
    ClubFactory(name="Tuesday Tiles", slug="tuesday-tiles")
    with django_assert_num_queries(1):
        assert root_club() == club
    settings.HOME_CLUB = "tuesday-tiles"
    with django_assert_num_queries(1):
        assert root_club().name == "Tuesday Tiles"


def test_a_site_that_lets_clubs_sign_up_starts_with_the_list_at_its_root(client, db, settings):
    """No club is made by the first request there (it would hold the root for good); the
    clubs that sign up each get their own address, and none takes the root."""
    settings.CLUB_SIGNUP = True
    UserFactory(is_superuser=True)  # the operators' login (an empty one is set up first)
    assert "Start your club" in client.get("/").content.decode()
    assert not Club.objects.exists()


def test_a_login_is_the_sites_but_the_coordinators_power_is_one_clubs(client, club):
    boss = CoordinatorFactory()  # coordinates `club`
    other = ClubFactory(name="Tuesday Tiles")
    client.force_login(boss)
    assert client.get(in_club(club, reverse("club_settings"))).status_code == 200
    refused = client.get(in_club(other, reverse("club_settings")))
    assert refused.status_code == 403


def test_each_clubs_pages_are_in_its_own_time_zone(club):
    """At 23:30 in London on 1 March it is already 2 March in Auckland: each club's "today"
    (tonight's session, the upcoming list) is its own."""
    ClubFactory(slug="kiwi-tiles", time_zone="Pacific/Auckland")
    seen = []

    def view(request):
        seen.append(timezone.localdate())
        return HttpResponse()

    moment = datetime.datetime(2026, 3, 1, 23, 30, tzinfo=zoneinfo.ZoneInfo("Europe/London"))
    with time_machine.travel(moment, tick=False):
        ClubAddressMiddleware(view)(RequestFactory().get(in_club(club, "/")))
        ClubAddressMiddleware(view)(RequestFactory().get("/c/kiwi-tiles/"))
    assert seen == [datetime.date(2026, 3, 1), datetime.date(2026, 3, 2)]


def test_a_streamed_download_is_written_inside_its_clubs_scope(club):
    """A CSV is streamed after the view returns: its rows are still read in the club's scope
    (outside it the first query would fail half-way through the download)."""
    other = ClubFactory(slug="tuesday-tiles")
    MemberFactory(club=other, name="Olive Other")
    MemberFactory(club=club, name="Cora Club")

    def view(request):
        return StreamingHttpResponse(f"{m.name}\n" for m in Member.objects.order_by("name"))

    with scope():  # a fresh context: no scope after the view, as in the server
        response = ClubAddressMiddleware(view)(RequestFactory().get("/c/tuesday-tiles/m.csv"))
        body = b"".join(response.streaming_content).decode()
    assert body == "Olive Other\n"


def test_the_first_request_to_a_new_installation_makes_its_club(client, db):
    """Where the operator made a login first (createsuperuser): without one, the root is
    the setup page (tests/test_first_setup.py)."""
    UserFactory(is_superuser=True)
    assert not Club.objects.exists()
    assert client.get("/").status_code == 200
    assert Club.objects.get().slug == "our-club"


@pytest.mark.django_db(transaction=True)
def test_first_requests_at_once_make_one_club():
    from tests.threads import at_once, failures

    results = at_once([Club.objects.current for _ in range(6)])
    assert failures(results) == []
    assert Club.objects.count() == 1
