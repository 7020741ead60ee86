"""Reading seating: the season's history, present members, and what the pages show.

The algorithm (`club.seating`) is plain Python and knows players only by id. Here the
database rows become its objects (`load_seating`) and its results become what a page
shows: tables with names and winds, and the quality in plain words.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field

from django.utils import timezone

from club import seating as algo
from club.models import Attendance, KeepApart, Member, Seat, SeatingPlan, Session


class MemberId(int):
    """A member's primary key that reads as their table name.

    The algorithm names players with ``repr(id)`` in the messages it returns ("Margaret
    joins table 2 as Dreamer."); with this id the coordinator reads a name, not a number.
    It hashes and compares as the plain int, so history lists of ints match it.
    """

    def __new__(cls, pk: int, name: str = ""):
        obj = super().__new__(cls, pk)
        obj.name = name or str(pk)
        return obj

    def __repr__(self) -> str:
        return self.name

    __str__ = __repr__


def member_id(member: Member) -> MemberId:
    return MemberId(member.pk, member.table_name)


def as_player(member: Member) -> algo.Player:
    return algo.Player(member_id(member), beginner=member.experience == Member.Experience.BEGINNER)


# --- sessions and attendance -------------------------------------------------------------


def present_members(session: Session) -> list[Member]:
    """Members checked in at the session and not gone home (the players to seat)."""
    return list(
        Member.objects.filter(attendances__session=session, attendances__left_at__isnull=True)
        .order_by("table_name")
        .distinct()
    )


def attendance_of(session: Session, member: Member) -> Attendance | None:
    return Attendance.objects.filter(session=session, member=member).first()


def next_session(club, today: datetime.date | None = None) -> Session | None:
    """Today's session, or else the next one to come (closed sessions are over)."""
    today = today or timezone.localdate()
    return (
        Session.objects.filter(club=club, date__gte=today)
        .exclude(status=Session.Status.CLOSED)
        .order_by("date")
        .first()
    )


def plan_of(session: Session) -> SeatingPlan | None:
    # Not `session.seating`: the descriptor caches a missing plan on the instance.
    return SeatingPlan.objects.filter(session=session).first()


def is_published(plan: SeatingPlan | None) -> bool:
    return plan is not None and plan.status == SeatingPlan.Status.PUBLISHED


# --- the algorithm's inputs --------------------------------------------------------------


def season_history(session: Session) -> list[list[list[int]]]:
    """This season's published seatings before the session's date, oldest first.

    Each session is a list of tables, each a list of member ids in chair order. Drafts,
    later sessions and earlier seasons do not count.
    """
    start = session.club.season_start_for(session.date)
    rows = (
        Seat.objects.filter(
            plan__status=SeatingPlan.Status.PUBLISHED,
            plan__session__club=session.club,
            plan__session__date__gte=start,
            plan__session__date__lt=session.date,
        )
        .order_by("plan__session__date", "table__number", "position")
        .values_list("plan_id", "table__number", "member_id")
    )
    history: list[list[list[int]]] = []
    last_plan = last_table = None
    for plan_id, number, member_pk in rows:
        if plan_id != last_plan:
            history.append([])
            last_plan, last_table = plan_id, None
        if number != last_table:
            history[-1].append([])
            last_table = number
        history[-1][-1].append(member_pk)
    return history


def seating_rules(session: Session, members: list[Member]) -> dict:
    """The club's settings and standing constraints, as `plan_seating` keyword arguments."""
    club = session.club
    ids = [m.pk for m in members]
    keys = {m.pk: member_id(m) for m in members}
    pairs = KeepApart.objects.filter(member_a_id__in=ids, member_b_id__in=ids).values_list(
        "member_a_id", "member_b_id"
    )
    return {
        "prefer": club.odd_tables,
        "spread_beginners": club.spread_beginners,
        "never_together": [(keys[a], keys[b]) for a, b in pairs],
        "fixed_tables": {keys[m.pk]: m.fixed_table for m in members if m.fixed_table},
    }


def _plan_rows(plan: SeatingPlan):
    """The plan's tables with their seats (position order) and members, in two queries."""
    tables = list(plan.tables.order_by("number"))
    seats = Seat.objects.filter(plan=plan).select_related("member").order_by("position")
    by_table: dict[int, list[Seat]] = {t.pk: [] for t in tables}
    for seat in seats:
        by_table.setdefault(seat.table_id, []).append(seat)
    return [(t, by_table[t.pk]) for t in tables]


def load_seating(plan: SeatingPlan, history: list | None = None) -> algo.Seating:
    """The saved plan as the algorithm's `Seating` (to adjust it or measure its quality)."""
    rows = _plan_rows(plan)
    members = [seat.member for _, seats in rows for seat in seats]
    tables = [
        algo.Table(
            table.number,
            tuple(
                algo.WindRoll(member_id(s.member), algo.Seat(s.wind), tuple(s.dice or ()))
                for s in seats
            ),
        )
        for table, seats in rows
    ]
    session = plan.session
    rules = seating_rules(session, members)
    return algo.seating_from_tables(
        tables,
        [as_player(m) for m in members],
        season_history(session) if history is None else history,
        algo.SeatingRules(
            prefer=rules["prefer"],
            spread_beginners=rules["spread_beginners"],
            never_together=tuple(rules["never_together"]),
            fixed_tables=rules["fixed_tables"],
        ),
        locked=[t.number for t, _ in rows if t.locked],
    )


# --- what the pages show -----------------------------------------------------------------

WIND_HELP = {
    "E": "East deals first",
    "S": "South",
    "W": "West",
    "N": "North",
    "D": "Dreamer: sits out the first hand",
}


@dataclass
class SeatView:
    member: Member
    wind: str
    wind_label: str
    dice: list[int]
    position: int
    table_number: int
    is_me: bool = False

    @property
    def is_dreamer(self) -> bool:
        return self.wind == Seat.Wind.DREAMER

    @property
    def is_beginner(self) -> bool:
        return self.member.experience == Member.Experience.BEGINNER

    @property
    def dice_text(self) -> str:
        """'threw 5', or 'threw 6, then 3 after a tie' (tied highest throws again)."""
        if not self.dice:
            return "joined late, no throw"
        throws = [str(d) for d in self.dice]
        if len(throws) == 1:
            return f"threw {throws[0]}"
        return f"threw {', '.join(throws[:-1])}, then {throws[-1]} after a tie"


@dataclass
class TableView:
    number: int
    locked: bool
    seats: list[SeatView]
    has_me: bool = False

    @property
    def size(self) -> int:
        return len(self.seats)

    @property
    def dreamer(self) -> SeatView | None:
        return next((s for s in self.seats if s.is_dreamer), None)

    @property
    def dreamer_turns(self) -> list[str]:
        """Who sits out in turn at a table of five: the Dreamer, then East, South, West, North."""
        if self.dreamer is None:
            return []
        rest = [s for s in self.seats if not s.is_dreamer]
        return [self.dreamer.member.table_name, *(s.member.table_name for s in rest)]

    @property
    def mates_of_me(self) -> list[SeatView]:
        return [s for s in self.seats if not s.is_me]

    @property
    def my_seat(self) -> SeatView | None:
        return next((s for s in self.seats if s.is_me), None)

    @property
    def problem(self) -> str:
        if self.size < 3:
            return f"Table {self.number} has only {self.size} players and cannot play."
        return ""


@dataclass
class SeatingView:
    session: Session
    plan: SeatingPlan | None
    tables: list[TableView] = field(default_factory=list)
    quality: list[str] = field(default_factory=list)
    unseated: list[Member] = field(default_factory=list)
    gone: list[Member] = field(default_factory=list)

    @property
    def published(self) -> bool:
        return is_published(self.plan)

    @property
    def my_table(self) -> TableView | None:
        return next((t for t in self.tables if t.has_me), None)

    @property
    def seated(self) -> list[SeatView]:
        return sorted(
            (s for t in self.tables for s in t.seats), key=lambda s: s.member.table_name.lower()
        )

    @property
    def locked_numbers(self) -> list[int]:
        return [t.number for t in self.tables if t.locked]


def table_views(plan: SeatingPlan, me: Member | None = None) -> list[TableView]:
    tables = []
    for table, seats in _plan_rows(plan):
        views = [
            SeatView(
                member=s.member,
                wind=s.wind,
                wind_label=Seat.Wind(s.wind).label,
                dice=list(s.dice or []),
                position=s.position,
                table_number=table.number,
                is_me=me is not None and s.member_id == me.pk,
            )
            for s in seats
        ]
        tables.append(TableView(table.number, table.locked, views, any(v.is_me for v in views)))
    return tables


def _pairs(n: int) -> str:
    return "1 pair" if n == 1 else f"{n} pairs"


def _compared_with_best(figure: int, best: int) -> str:
    # `best` is a proven lower bound: no seating can do better, but it may not be reachable.
    if figure <= best:
        return "that is the fewest possible."
    if best > 0:
        return f"no seating can have fewer than {best}."
    return "a re-roll might find fewer."


def quality_in_words(
    quality: algo.Quality, *, weeks_of_history: int, spread_beginners: bool
) -> list[str]:
    """The algorithm's figures as sentences a coordinator reads at a glance."""
    lines = []
    if weeks_of_history == 0:
        lines.append("This is the first seating of the season, so nobody has sat together yet.")
    else:
        if quality.last_week_pairs == 0:
            lines.append("Nobody sits with someone from last week.")
        else:
            best = quality.last_week_pairs_min
            lines.append(
                f"{_pairs(quality.last_week_pairs)} sat together last week too — "
                + _compared_with_best(quality.last_week_pairs, best)
            )
        if quality.repeat_pairs == 0:
            lines.append("Nobody sits with someone they sat with earlier this season.")
        else:
            best = quality.repeat_pairs_min
            lines.append(
                f"{_pairs(quality.repeat_pairs)} sat together earlier this season — "
                + _compared_with_best(quality.repeat_pairs, best)
            )
        if quality.max_meetings > 1:
            lines.append(
                f"No two people will have sat together more than {quality.max_meetings} "
                "times this season."
            )
    if spread_beginners and any(quality.beginners_per_table):
        counts = [
            f"{n or 'none'} at table {number}"
            for number, n in enumerate(quality.beginners_per_table, start=1)
        ]
        lines.append(
            f"Beginners: {', '.join(counts[:-1])} and {counts[-1]}."
            if len(counts) > 1
            else f"Beginners: {counts[0]}."
        )
    for problem in quality.violations:
        lines.append(f"Warning: {problem}")
    return lines


def seating_view(session: Session, me: Member | None = None, *, with_quality=False) -> SeatingView:
    """Everything the seating pages show for one session."""
    plan = plan_of(session)
    view = SeatingView(session=session, plan=plan)
    if plan is not None:
        view.tables = table_views(plan, me)
    if with_quality:
        present = present_members(session)
        seated = {s.member.pk for t in view.tables for s in t.seats}
        view.unseated = [m for m in present if m.pk not in seated]
        present_ids = {m.pk for m in present}
        view.gone = [
            s.member for t in view.tables for s in t.seats if s.member.pk not in present_ids
        ]
        if view.tables:
            history = season_history(session)
            seating = load_seating(plan, history)
            view.quality = quality_in_words(
                seating.quality,
                weeks_of_history=len(history),
                spread_beginners=session.club.spread_beginners,
            )
    return view


def member_for(user) -> Member | None:
    if not user.is_authenticated:
        return None
    return Member.objects.filter(user=user).first()


@dataclass
class Tonight:
    """The home page's "Your table tonight": the next session and the member's seat."""

    session: Session | None = None
    plan: SeatingPlan | None = None
    table: TableView | None = None

    @property
    def published(self) -> bool:
        return is_published(self.plan)

    @property
    def is_today(self) -> bool:
        return self.session is not None and self.session.date == timezone.localdate()


def tonight_for(user, club) -> Tonight:
    session = next_session(club)
    if session is None:
        return Tonight()
    plan = plan_of(session)
    result = Tonight(session=session, plan=plan)
    me = member_for(user)
    if is_published(plan) and me is not None:
        result.table = next((t for t in table_views(plan, me) if t.has_me), None)
    return result


def not_present(session: Session) -> list[Member]:
    """Active members of the club who are not (or no longer) checked in at the session."""
    return list(
        Member.objects.filter(club=session.club, is_active=True)
        .exclude(
            pk__in=Attendance.objects.filter(session=session, left_at__isnull=True).values(
                "member_id"
            )
        )
        .order_by("table_name")
    )
