"""Small builders for the seating tests: a club session with checked-in members."""

import datetime

from club.models import Attendance, Member, Seat, SeatingPlan, SeatingTable, Session
from club.seating.changes import make_seating
from tests.factories import MemberFactory


def members(club, n: int, **kwargs) -> list[Member]:
    return [MemberFactory(club=club, **kwargs) for _ in range(n)]


def session_with(club, people, date=None, **kwargs) -> Session:
    session = Session.objects.create(club=club, date=date or datetime.date.today(), **kwargs)
    for member in people:
        Attendance.objects.create(session=session, member=member)
    return session


def played(club, tables: list[list[Member]], date) -> Session:
    """A past session whose published seating was exactly `tables`."""
    from club.models import Seat, SeatingTable

    session = session_with(club, [m for t in tables for m in t], date=date)
    plan = SeatingPlan.objects.create(session=session, status=SeatingPlan.Status.PUBLISHED)
    winds = "ESWND"
    for number, people in enumerate(tables, start=1):
        table = SeatingTable.objects.create(plan=plan, number=number)
        for position, member in enumerate(people, start=1):
            Seat.objects.create(
                plan=plan, table=table, member=member, wind=winds[position - 1], position=position
            )
    session.status = Session.Status.CLOSED
    session.save()
    return session


def plan(session) -> SeatingPlan:
    return SeatingPlan.objects.get(session=session)


def published(session, seed=1):
    plan, _ = make_seating(session, seed=seed)
    plan.publish()
    return plan


def snapshot(session) -> dict[int, list[tuple]]:
    """{table number: [(member id, wind, dice), ...]} as saved."""
    from club.models import Seat

    tables: dict[int, list[tuple]] = {}
    for seat in Seat.objects.filter(plan__session=session).order_by("table__number", "position"):
        tables.setdefault(seat.table.number, []).append(
            (seat.member_id, seat.wind, tuple(seat.dice))
        )
    return tables


def table_of(session, member) -> int:
    for number, seats in snapshot(session).items():
        if any(pk == member.pk for pk, _, _ in seats):
            return number
    raise AssertionError(f"{member} is not seated")


def latin_room(club):
    """Sixteen people who sat as four fours last week (groups), seated tonight one from
    each group at every table: any swap between two tables brings back last week.
    Returns the groups and the session."""
    people = members(club, 16)
    groups = [people[g * 4 : g * 4 + 4] for g in range(4)]
    played(club, groups, datetime.date.today() - datetime.timedelta(days=7))
    session = session_with(club, people, date=datetime.date.today())
    plan, _ = make_seating(session, seed=1)
    Seat.objects.filter(plan=plan).delete()
    for number in range(1, 5):
        table = SeatingTable.objects.get_or_create(plan=plan, number=number)[0]
        for position, group in enumerate(groups, start=1):
            Seat.objects.create(
                plan=plan,
                table=table,
                member=group[number - 1],
                wind="ESWN"[position - 1],
                position=position,
            )
    return groups, session
