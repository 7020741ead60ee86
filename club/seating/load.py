"""Database rows -> the planner's input: who is here, the season so far, the club's rules,
and a saved plan read back as the planner's `Seating`.

The planner (`club.seating.planner`) knows players by id and name only; this module is the
one place that turns members, attendance, keep-apart pairs and seats into its objects.
"""

from __future__ import annotations

from dataclasses import dataclass

from club.models import Attendance, KeepApart, Member, Seat, SeatingPlan, SeatingTable, Session
from club.seating import planner


def present_members(session: Session) -> list[Member]:
    """Members checked in at the session and not gone home (the players to seat)."""
    # Their keys from tonight's attendance, then the members by key: joined through the
    # club's scope, PostgreSQL read every member the club ever had (38 -> 263 rows from 1
    # to 20 years).
    here = Attendance.objects.filter(session=session, left_at__isnull=True).values("member_id")
    return list(Member._base_manager.filter(pk__in=here).order_by("table_name"))


def as_player(member: Member) -> planner.Player:
    return planner.Player(
        member.pk,
        beginner=member.experience == Member.Experience.BEGINNER,
        name=member.table_name,
    )


def season_history(session: Session) -> list[list[list[int]]]:
    """This season's published seatings before the session's date, oldest first.

    Each session is a list of tables, each a list of member ids in chair order. Drafts,
    later sessions and earlier seasons do not count.
    """
    start = session.club.season_start_for(session.date)
    season = Session.objects.filter(club=session.club, date__gte=start, date__lt=session.date)
    dates = dict(
        SeatingPlan.objects.filter(
            status=SeatingPlan.Status.PUBLISHED, session__in=season.values("pk")
        ).values_list("pk", "session__date")
    )
    # The plans' tables and seats by the plans' keys, sorted here: sorted by the sessions'
    # dates in SQL, PostgreSQL walked every plan and session of a club of twenty years to
    # find these; with each seat joined to its table, it hashed every table the club had.
    numbers = dict(SeatingTable._base_manager.filter(plan_id__in=dates).values_list("pk", "number"))
    seats = (
        Seat._base_manager.filter(plan_id__in=dates)
        .order_by()  # sorted here: the model's order joins the tables
        .values_list("plan_id", "table_id", "position", "member_id")
    )
    rows = sorted(
        ((plan, numbers[table], position, member) for plan, table, position, member in seats),
        key=lambda row: (dates[row[0]], *row[:3]),
    )
    history: list[list[list[int]]] = []
    last_plan = last_table = None
    for plan_id, number, _, member_pk in rows:
        if plan_id != last_plan:
            history.append([])
            last_plan, last_table = plan_id, None
        if number != last_table:
            history[-1].append([])
            last_table = number
        history[-1][-1].append(member_pk)
    return history


def seating_rules(session: Session, members: list[Member]) -> planner.SeatingRules:
    """The club's settings and the standing constraints among these members."""
    ids = [m.pk for m in members]
    pairs = KeepApart.objects.filter(member_a_id__in=ids, member_b_id__in=ids).values_list(
        "member_a_id", "member_b_id"
    )
    return planner.SeatingRules(
        prefer=session.club.odd_tables,
        spread_beginners=session.club.spread_beginners,
        never_together=tuple(pairs),
        fixed_tables={m.pk: m.fixed_table for m in members if m.fixed_table},
    )


@dataclass(frozen=True)
class Room:
    """Everything the planner needs to seat one session from scratch."""

    members: list[Member]
    history: list[list[list[int]]]
    rules: planner.SeatingRules

    @property
    def players(self) -> list[planner.Player]:
        return [as_player(m) for m in self.members]


def room(session: Session, members: list[Member] | None = None) -> Room:
    """The room to seat: the members present, or `members` (a draft made before anyone
    arrives, from those who said they are coming)."""
    members = present_members(session) if members is None else members
    return Room(members, season_history(session), seating_rules(session, members))


@dataclass(frozen=True)
class SavedTable:
    row: SeatingTable
    seats: list[Seat]  # in chair order, each with its member

    def as_planner_table(self) -> planner.Table:
        return planner.Table(
            self.row.number,
            tuple(
                planner.PlannedSeat(s.member_id, planner.Wind(s.wind), tuple(s.dice or ()))
                for s in self.seats
            ),
        )


def saved_tables(plan: SeatingPlan) -> list[SavedTable]:
    """The plan's tables with their seats and members, in two queries."""
    tables = list(plan.tables.order_by("number"))
    seats = Seat.objects.filter(plan=plan).select_related("member").order_by("position")
    by_table: dict[int, list[Seat]] = {t.pk: [] for t in tables}
    for seat in seats:
        by_table[seat.table_id].append(seat)
    return [SavedTable(t, by_table[t.pk]) for t in tables]


def saved_seating(
    plan: SeatingPlan,
    history: list | None = None,
    tables: list[SavedTable] | None = None,
    arriving: Member | None = None,
) -> planner.Seating:
    """The saved plan as the planner's `Seating` (to adjust it or measure its quality).
    `history` and `tables`, when the caller has read them already, save the queries.
    `arriving`, someone about to be seated, brings their fixed table and "never seat with"
    pairs into the rules: the seated members' own rules cannot mention them."""
    tables = saved_tables(plan) if tables is None else tables
    members = [seat.member for t in tables for seat in t.seats]
    session = plan.session
    return planner.seating_from_tables(
        [t.as_planner_table() for t in tables],
        [as_player(m) for m in members],
        season_history(session) if history is None else history,
        seating_rules(session, members + ([arriving] if arriving else [])),
        locked=[t.row.number for t in tables if t.row.locked],
    )


def plan_of(session: Session) -> SeatingPlan | None:
    # Not `session.seating`: the descriptor caches a missing plan on the instance.
    return SeatingPlan.objects.filter(session=session).first()


def seat_of(session: Session, member: Member) -> Seat:
    return Seat.objects.select_related("table").get(plan__session=session, member=member)
