"""What members see of the seating on their phones: their table and seat first and large,
no coordinator words or beginner badges, past weeks in the past tense and "Last week's
tables" in the menu."""

import datetime

from django.urls import reverse

from club.models import Member, Seat, SeatingTable
from tests.club.seating.helpers import members, played, published, session_with
from tests.factories import MemberFactory, UserFactory

TODAY = datetime.date.today()


def me_in(club):
    return MemberFactory(club=club, user=UserFactory())


def test_home_puts_the_table_and_seat_first_in_large_type(client, club):
    me = me_in(club)
    session = session_with(club, [me, *members(club, 7)], date=TODAY)
    published(session)
    seat = Seat.objects.get(member=me)
    client.force_login(me.user)
    page = client.get(reverse("home")).content.decode()
    big = f'<p class="big-seat">Table <strong>{seat.table.number}</strong></p>'
    assert big in page
    assert f'<p class="big-seat">Seat <strong>{seat.get_wind_display()}</strong>' in page
    assert page.index(big) < page.index("Hello") < page.index('id="rules-heading"')


def test_members_never_see_locked_or_beginner_badges(client, club):
    me = me_in(club)
    beginners = members(club, 3, experience=Member.Experience.BEGINNER)
    session = session_with(club, [me, *beginners, *members(club, 4)], date=TODAY)
    published(session)
    SeatingTable.objects.filter(plan__session=session).update(locked=True)
    client.force_login(me.user)
    page = client.get(reverse("club:seating", args=[session.pk])).content.decode()
    assert "Locked" not in page and "is-locked" not in page
    assert "Beginner" not in page
    assert beginners[0].table_name in page


def test_the_coordinators_page_still_shows_them(coordinator_client, club):
    session = session_with(
        club, members(club, 8, experience=Member.Experience.BEGINNER), date=TODAY
    )
    published(session)
    SeatingTable.objects.filter(plan__session=session).update(locked=True)
    page = coordinator_client.get(reverse("club:seating_manage", args=[session.pk])).content
    assert b"Locked" in page and b"Beginner" in page


def test_a_past_week_reads_in_the_past_tense(client, club):
    me = me_in(club)
    people = members(club, 7)
    past = played(club, [[me, *people[:3]], people[3:]], TODAY - datetime.timedelta(days=7))
    client.force_login(me.user)
    page = client.get(reverse("club:seating", args=[past.pk])).content.decode()
    assert "<h1>Tables on " in page and "Where you sat" in page
    assert "You sat at <strong>table 1</strong>, seat <strong>East</strong>." in page
    assert "Where everyone sat" in page
    assert "You are at" not in page and "Find your table" not in page


def test_last_weeks_tables_is_the_latest_earlier_published_seating(client, club):
    me = me_in(club)
    people = members(club, 4)
    client.force_login(me.user)
    url = reverse("club:last_week_tables")
    page = client.get(url).content.decode()
    assert "There are no earlier tables yet" in page
    assert f'href="{url}"' in page  # in the menu
    played(club, [[me, *people[:3]]], TODAY - datetime.timedelta(days=14))
    week = played(club, [[me, *people[:3]]], TODAY - datetime.timedelta(days=7))
    tonight = session_with(club, [me, *people], date=TODAY)
    published(tonight)
    response = client.get(url)
    assert response.status_code == 302
    assert response["Location"] == reverse("club:seating", args=[week.pk])


def test_last_weeks_tables_needs_a_login(client, club):
    response = client.get(reverse("club:last_week_tables"))
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))


def test_the_logged_out_home_promises_no_standings(client, club):
    page = client.get(reverse("home")).content.decode()
    assert "standings" not in page.lower()
    assert "Log in to see your table" in page
