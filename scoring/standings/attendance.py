"""Attendance: who came to each session of a season, and each member's count against the
sessions held."""

from __future__ import annotations

import datetime
from collections import defaultdict
from dataclasses import dataclass
from fractions import Fraction

from django.utils import timezone

from club.models import (
    Attendance,
    Club,
)
from scoring.standings.seasons import Season


@dataclass
class SessionAttendance:
    date: datetime.date
    present: int
    names: list[str]


@dataclass
class MemberAttendance:
    name: str
    attended: int
    held: int

    @property
    def share(self) -> Fraction:
        return Fraction(100 * self.attended, self.held) if self.held else Fraction(0)


@dataclass
class AttendanceReport:
    held: int
    sessions: list[SessionAttendance]
    members: list[MemberAttendance]


def attendance_report(club: Club, season: Season) -> AttendanceReport:
    """Who came to each session of the season (checked in, whether or not they played),
    and each member's count against the sessions held so far."""
    sessions = list(season.sessions(club).filter(date__lte=timezone.localdate()).order_by("date"))
    by_session: dict[int, list[str]] = defaultdict(list)
    counts: dict[int, int] = defaultdict(int)
    names: dict[int, str] = {}
    for session_id, member_id, name in (
        Attendance.objects.filter(session__in=sessions)
        .order_by("member__table_name")
        .values_list("session_id", "member_id", "member__table_name")
    ):
        by_session[session_id].append(name)
        counts[member_id] += 1
        names[member_id] = name
    held = len(sessions)
    return AttendanceReport(
        held=held,
        sessions=[
            SessionAttendance(s.date, len(by_session[s.pk]), by_session[s.pk]) for s in sessions
        ],
        members=sorted(
            (MemberAttendance(names[m], n, held) for m, n in counts.items()),
            key=lambda m: (-m.attended, m.name.lower()),
        ),
    )
