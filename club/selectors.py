"""Reads for members, sessions and attendance: the views ask here, never build queries."""

import datetime
from dataclasses import dataclass

from django.db.models import Count, Q, QuerySet

from .models import Attendance, Club, KeepApart, Member, Session


def search_members(club: Club, q: str = "", show: str = "active") -> QuerySet[Member]:
    """Members matching `q` (name, table name, email or phone), filtered by status."""
    members = Member.objects.filter(club=club)
    if show == "active":
        members = members.filter(is_active=True, is_guest=False)
    elif show == "lapsed":
        members = members.filter(is_active=False)
    elif show == "guests":
        members = members.filter(is_guest=True)
    for word in q.split():
        members = members.filter(
            Q(name__icontains=word)
            | Q(table_name__icontains=word)
            | Q(email__icontains=word)
            | Q(phone__icontains=word)
        )
    return members.select_related("user").annotate(
        sessions_attended=Count("attendances", distinct=True)
    )


def member_has_played(member: Member) -> bool:
    """Whether the member came to a session or sat at a table: then they are kept for good."""
    return member.attendances.exists() or member.seats.exists()


@dataclass
class KeptApart:
    pair: KeepApart
    other: Member


def keep_aparts_for(member: Member) -> list[KeptApart]:
    pairs = KeepApart.objects.filter(Q(member_a=member) | Q(member_b=member)).select_related(
        "member_a", "member_b"
    )
    rows = [KeptApart(pair, pair.other(member)) for pair in pairs]
    return sorted(rows, key=lambda row: row.other.table_name.lower())


def upcoming_sessions(club: Club, today: datetime.date) -> QuerySet[Session]:
    return (
        Session.objects.filter(club=club, date__gte=today)
        .order_by("date")
        .annotate(present=_present_count())
    )


def past_sessions(club: Club, today: datetime.date) -> QuerySet[Session]:
    return (
        Session.objects.filter(club=club, date__lt=today)
        .order_by("-date")
        .annotate(present=_present_count())
    )


def latest_session(club: Club) -> Session | None:
    return Session.objects.filter(club=club).order_by("-date").first()


def _present_count():
    return Count("attendances", filter=Q(attendances__left_at__isnull=True), distinct=True)


@dataclass
class CheckInRow:
    member: Member
    attendance: Attendance | None

    @property
    def present(self) -> bool:
        return self.attendance is not None and self.attendance.left_at is None

    @property
    def left(self) -> bool:
        return self.attendance is not None and self.attendance.left_at is not None


def _listed_members(session: Session) -> QuerySet[Member]:
    """Who the check-in page lists: the active members, and anyone already recorded."""
    return Member.objects.filter(
        Q(club=session.club_id, is_active=True, is_guest=False) | Q(attendances__session=session)
    ).distinct()


def check_in_rows(session: Session) -> list[CheckInRow]:
    attendances = {a.member_id: a for a in session.attendances.all()}
    members = _listed_members(session).order_by("table_name", "name")
    return [CheckInRow(member, attendances.get(member.pk)) for member in members]


def check_in_row(session: Session, member: Member) -> CheckInRow:
    return CheckInRow(member, session.attendances.filter(member=member).first())


@dataclass
class Counts:
    present: int
    absent: int


def attendance_counts(session: Session) -> Counts:
    listed = _listed_members(session).count()
    present = session.attendances.filter(left_at__isnull=True).count()
    return Counts(present=present, absent=listed - present)


def find_members_by_name(club: Club, name: str) -> list[Member]:
    """Members whose full name or table name is exactly `name` (any case, any status)."""
    return list(
        Member.objects.filter(club=club).filter(Q(name__iexact=name) | Q(table_name__iexact=name))
    )
