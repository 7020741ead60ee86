"""Table money at check-in: a club setting turns on a "Paid" tick per person and the
evening's total; the tick is an idempotent htmx post, coordinators only."""

from decimal import Decimal

import pytest
from django.db import IntegrityError, transaction
from django.urls import reverse

from club.models import Attendance, Club, Refused, Session
from tests.factories import MemberFactory, SessionFactory
from tests.test_club_settings import settings_post

HX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def money_club(club):
    club.collects_table_money = True
    club.table_money = Decimal("2.50")
    club.save()
    return club


@pytest.fixture
def session(money_club):
    return SessionFactory(club=money_club)


@pytest.fixture
def betty(session):
    member = MemberFactory(club=session.club, name="Betty Shaw", table_name="Betty")
    session.check_in(member)
    return member


def paid_url(session, member):
    return reverse("club:set_paid", args=[session.pk, member.pk])


def test_paid_tick_is_coordinators_only_and_post_only(
    client, member_client, coordinator, session, betty
):
    url = paid_url(session, betty)
    assert member_client.post(url, {"paid": "1"}).status_code == 403
    member_client.logout()
    response = client.post(url, {"paid": "1"})
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
    client.force_login(coordinator)
    assert client.get(url).status_code == 405
    assert not Attendance.objects.get(member=betty).paid


def test_ticking_paid_twice_is_one_payment_and_the_total_follows(
    coordinator_client, session, betty
):
    url = paid_url(session, betty)
    for _ in range(2):  # a double tap
        response = coordinator_client.post(url, {"paid": "1"}, **HX)
    page = response.content.decode()
    assert response.status_code == 200
    assert page.lstrip().startswith(f'<li id="member-{betty.pk}"')
    assert "✓ Paid £2.50" in page and 'name="paid" value="0"' in page
    assert "<strong>1</strong> paid: <strong>£2.50</strong>" in page  # the counts, out of band
    counts = session.attendance_counts()
    assert counts.paid == 1 and counts.takings == Decimal("2.50")
    coordinator_client.post(url, {"paid": "0"}, **HX)
    assert not Attendance.objects.get(member=betty).paid


def test_the_money_is_written_in_the_clubs_currency(coordinator_client, session, betty):
    session.club.currency_symbol = "€"
    session.club.save()
    coordinator_client.post(paid_url(session, betty), {"paid": "1"}, **HX)
    page = coordinator_client.get(reverse("club:check_in", args=[session.pk])).content.decode()
    assert "✓ Paid €2.50" in page
    assert "<strong>1</strong> paid: <strong>€2.50</strong>" in page
    assert "£" not in page


def test_total_counts_everyone_who_paid(coordinator_client, session, betty):
    carol = MemberFactory(club=session.club, table_name="Carol")
    session.check_in(carol)
    for member in (betty, carol):
        coordinator_client.post(paid_url(session, member), {"paid": "1"}, **HX)
    page = coordinator_client.get(reverse("club:check_in", args=[session.pk])).content.decode()
    assert "<strong>2</strong> paid: <strong>£5.00</strong>" in page


def test_someone_not_checked_in_cannot_have_paid(coordinator_client, session):
    dora = MemberFactory(club=session.club, table_name="Dora")
    response = coordinator_client.post(paid_url(session, dora), {"paid": "1"}, **HX)
    assert "Dora is not checked in, so cannot have paid." in response.content.decode()
    assert not Attendance.objects.filter(member=dora).exists()


def test_a_closed_sessions_money_is_read_only(coordinator_client, session, betty):
    Session.objects.filter(pk=session.pk).update(status=Session.Status.CLOSED)
    session.refresh_from_db()
    with pytest.raises(Refused, match="its table money can no longer change"):
        session.set_paid(betty, True)
    response = coordinator_client.post(paid_url(session, betty), {"paid": "1"}, **HX)
    assert "its table money can no longer change" in response.content.decode()
    assert not Attendance.objects.get(member=betty).paid


def test_no_paid_ticks_unless_the_club_collects(coordinator_client, club, betty, session):
    Club.objects.filter(pk=club.pk).update(collects_table_money=False)
    page = coordinator_client.get(reverse("club:check_in", args=[session.pk])).content.decode()
    assert "paid-toggle" not in page and " paid:" not in page
    Club.objects.filter(pk=club.pk).update(collects_table_money=True)
    page = coordinator_client.get(reverse("club:check_in", args=[session.pk])).content.decode()
    assert page.count('class="paid-toggle"') == 1  # only Betty is here


def test_settings_turn_table_money_on_and_ask_for_the_amount(coordinator_client, club):
    data = settings_post(club, collects_table_money="on", table_money="")
    response = coordinator_client.post(reverse("club_settings"), data)
    assert "Please give the table money each person pays" in response.content.decode()
    data["table_money"] = "3.00"
    coordinator_client.post(reverse("club_settings"), data)
    club.refresh_from_db()
    assert club.collects_table_money and club.table_money == Decimal("3.00")


def test_the_database_refuses_negative_table_money(club):
    with pytest.raises(IntegrityError), transaction.atomic():
        Club.objects.filter(pk=club.pk).update(table_money=Decimal("-1"))


@pytest.mark.parametrize(
    ("amount", "symbol", "written"),
    [
        (Decimal("2.5"), "£", "£2.50"),
        (Decimal("0"), "€", "€0.00"),
        (None, "$", "$0.00"),
        (Decimal("1250"), "NZ$", "NZ$1,250.00"),
    ],
)
def test_an_amount_is_written_with_the_clubs_symbol_and_pence(amount, symbol, written):
    from club.money import money

    assert money(amount, Club(currency_symbol=symbol)) == written
