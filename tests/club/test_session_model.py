"""Session behaviour shared by check-in and seating: the open/closed guard and checking in."""

import datetime

import pytest

from club.models import Attendance, Session, SessionClosed
from tests.factories import MemberFactory, SessionFactory

pytestmark = pytest.mark.django_db


def test_upcoming_and_past_split_on_today_and_sort_outward():
    today = datetime.date(2026, 5, 6)
    club_session = SessionFactory(date=today)
    later = SessionFactory(club=club_session.club, date=today + datetime.timedelta(days=7))
    earlier = SessionFactory(club=club_session.club, date=today - datetime.timedelta(days=7))
    oldest = SessionFactory(club=club_session.club, date=today - datetime.timedelta(days=14))
    assert list(Session.objects.upcoming(today)) == [club_session, later]
    assert list(Session.objects.past(today)) == [earlier, oldest]


def test_with_present_count_ignores_leavers():
    session = SessionFactory()
    here, gone = MemberFactory(club=session.club), MemberFactory(club=session.club)
    session.check_in(here)
    session.check_in(gone)
    Attendance.objects.filter(member=gone).update(left_at=datetime.datetime.now(datetime.UTC))
    assert Session.objects.with_present_count().get(pk=session.pk).present == 1


def test_ensure_open_names_what_was_refused():
    session = SessionFactory(status=Session.Status.CLOSED)
    with pytest.raises(SessionClosed, match="its seating can no longer change"):
        session.ensure_open("its seating")
    SessionFactory(club=session.club, date=datetime.date(2030, 1, 1)).ensure_open("x")


def test_check_in_is_idempotent_and_brings_a_leaver_back():
    session = SessionFactory(status=Session.Status.IN_PLAY)
    member = MemberFactory(club=session.club)
    first = session.check_in(member)
    Attendance.objects.filter(pk=first.pk).update(left_at=datetime.datetime.now(datetime.UTC))
    again = session.check_in(member)
    assert again.pk == first.pk and again.left_at is None
    assert Attendance.objects.filter(session=session, member=member).count() == 1
