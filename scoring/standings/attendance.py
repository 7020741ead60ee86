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
    Member,
    SessionReply,
)
from scoring.standings.seasons import Season


@dataclass
class SessionAttendance:
    date: datetime.date
    present: int
    names: list[str]
    # Who sent apologies (said "not this week", club/week/) and did not come; and the
    # club's active members who neither came nor sent word.
    apologies: int = 0
    absent: int = 0


@dataclass
class MemberAttendance:
    name: str
    attended: int
    held: int
    apologies: int = 0

    @property
    def absent(self) -> int:
        """Sessions missed without a word."""
        return self.held - self.attended - self.apologies

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
    who sent apologies and who stayed away without a word, and each member's counts
    against the sessions held so far."""
    sessions = list(season.sessions(club).filter(date__lte=timezone.localdate()).order_by("date"))
    # Keys first, then the names of those who came or sent word by their keys.
    came = set(
        Attendance.objects.filter(session__in=sessions).values_list("session_id", "member_id")
    )
    replied = set(
        SessionReply.objects.filter(session__in=sessions)
        .not_coming()
        .values_list("session_id", "member_id")
    )
    # Apologies count only for those who then stayed away.
    apologised = replied - came
    names = Member.table_names({m for _, m in came | apologised})
    sessions_of: dict[int, list[int]] = defaultdict(list)
    for session_id, member_id in came:
        sessions_of[member_id].append(session_id)
    by_session: dict[int, list[str]] = defaultdict(list)
    counts: dict[int, int] = {}
    for member_id, name in names.items():  # in the names' order, as the database sorts them
        counts[member_id] = len(sessions_of[member_id])
        for session_id in sessions_of[member_id]:
            by_session[session_id].append(name)
    apologies: dict[int, int] = defaultdict(int)
    sent: dict[int, int] = defaultdict(int)
    for session_id, member_id in apologised:
        apologies[session_id] += 1
        sent[member_id] += 1
    active = set(
        Member.objects.filter(club=club, is_active=True, is_guest=False).values_list(
            "pk", flat=True
        )
    )
    held = len(sessions)
    return AttendanceReport(
        held=held,
        sessions=[
            SessionAttendance(
                s.date,
                len(by_session[s.pk]),
                by_session[s.pk],
                apologies[s.pk],
                absent=sum(
                    1 for m in active if (s.pk, m) not in came and (s.pk, m) not in apologised
                ),
            )
            for s in sessions
        ],
        members=sorted(
            (MemberAttendance(names[m], n, held, sent[m]) for m, n in counts.items()),
            key=lambda m: (-m.attended, m.name.lower()),
        ),
    )
