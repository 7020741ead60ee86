"""Session behaviour shared by check-in and seating: the open/closed guard and checking in."""

import datetime

import pytest

from club.models import Attendance, Refused, Session, SessionClosed
from tests.factories import ClubFactory, MemberFactory, SessionFactory

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


def test_only_reopening_is_a_move_by_hand_and_refusals_say_what_to_press():
    session = SessionFactory()
    with pytest.raises(Refused, match="“Start play at the tables”"):
        session.move_to(Session.Status.IN_PLAY)
    session.status = Session.Status.IN_PLAY
    with pytest.raises(Refused, match="“End the evening”"):
        session.move_to(Session.Status.CLOSED)
    session.status = Session.Status.CLOSED
    session.move_to(Session.Status.IN_PLAY)
    assert Session.objects.get(pk=session.pk).status == Session.Status.IN_PLAY


def test_next_week_date_is_a_week_on_or_the_first_such_weekday_from_today():
    thursday = SessionFactory(date=datetime.date(2026, 3, 5))
    assert thursday.next_week_date(datetime.date(2026, 3, 1)) == datetime.date(2026, 3, 12)
    assert thursday.next_week_date(datetime.date(2026, 4, 20)) == datetime.date(2026, 4, 23)
    # Not the latest session: the week after it, even in the past.
    SessionFactory(club=thursday.club, date=datetime.date(2026, 3, 19))
    assert thursday.next_week_date(datetime.date(2026, 4, 20)) == datetime.date(2026, 3, 12)


def test_create_next_week_twice_gives_the_same_session():
    thursday = SessionFactory(date=datetime.date(2026, 3, 5), venue="Library")
    today = datetime.date(2026, 3, 5)
    first, created = thursday.create_next_week(today)
    again, created_again = thursday.create_next_week(today)
    assert created and not created_again and again == first
    assert (first.date, first.venue) == (datetime.date(2026, 3, 12), "Library")
    assert Session.objects.count() == 2


def test_set_present_before_play_removes_and_after_start_records_leaving():
    session = SessionFactory()
    member = MemberFactory(club=session.club)
    session.set_present(member, True)
    assert session.set_present(member, False) is None
    assert not Attendance.objects.exists()
    session.status = Session.Status.IN_PLAY  # as games.start.start_play leaves it
    session.set_present(member, True)
    assert session.set_present(member, False).left_at is not None
    session.status = Session.Status.CLOSED  # as games.start.end_evening leaves it
    with pytest.raises(SessionClosed, match="its attendance can no longer change"):
        session.set_present(member, True)


def test_set_present_refuses_another_clubs_member():
    session = SessionFactory()
    stranger = MemberFactory(club=ClubFactory(name="Other club"))
    with pytest.raises(Refused, match="not a member of this club"):
        session.set_present(stranger, True)


def test_check_in_rows_list_active_members_and_anyone_recorded():
    session = SessionFactory()
    active = MemberFactory(club=session.club, table_name="A")
    lapsed = MemberFactory(club=session.club, table_name="B", is_active=False)
    MemberFactory(club=session.club, table_name="C", is_guest=True)
    session.check_in(lapsed)
    rows = session.check_in_rows()
    assert [(row.member, row.present) for row in rows] == [(active, False), (lapsed, True)]
    counts = session.attendance_counts()
    assert (counts.present, counts.absent) == (1, 1)
