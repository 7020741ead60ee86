"""Builders for match tests: a session whose published seating has tables of given sizes."""

import datetime

from club.models import Attendance, Club, Seat, SeatingPlan, SeatingTable, Session
from tests.factories import MemberFactory

WINDS = "ESWND"


def seated_session(club, sizes=(4,), date=None, status=Session.Status.PLANNED) -> Session:
    """A session with everyone checked in and a published seating: one table per size,
    seats in wind order (East first; a fifth seat is the Dreamer)."""
    session = Session.objects.create(
        club=club, date=date or datetime.date(2026, 11, 25), status=status
    )
    plan = SeatingPlan.objects.create(session=session, status=SeatingPlan.Status.PUBLISHED)
    for number, size in enumerate(sizes, start=1):
        table = SeatingTable.objects.create(plan=plan, number=number)
        for position in range(1, size + 1):
            member = MemberFactory(club=club)
            Attendance.objects.create(session=session, member=member)
            Seat.objects.create(
                plan=plan, table=table, member=member, wind=WINDS[position - 1], position=position
            )
    return session


def seated_members(session, number: int) -> list:
    """The members at table `number` in seat order."""
    return [
        seat.member
        for seat in Seat.objects.filter(plan__session=session, table__number=number)
        .select_related("member")
        .order_by("position")
    ]


def one_named_table(rule_set: str, names=("Ann", "Betty", "Carol", "Dot")) -> Session:
    """The club playing `rule_set`, and a session whose one published table seats players
    called `names` at the table (East first): pages and messages can then be read by name."""
    club = Club.objects.current()
    club.rule_set = rule_set
    club.save()
    session = seated_session(club, sizes=(len(names),))
    for member, name in zip(seated_members(session, 1), names, strict=True):
        member.table_name = name
        member.save()
    return session
