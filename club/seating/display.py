"""What the seating pages show: tables with names and winds, the quality in plain words,
and the home page's "Your table tonight". Reads only; built from the saved rows.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.utils import timezone

from club.models import Attendance, Member, SeatingPlan, Session
from club.seating import planner
from club.seating.load import (
    SavedTable,
    plan_of,
    present_members,
    saved_seating,
    saved_tables,
    season_history,
)


@dataclass
class SeatView:
    member: Member
    chair: planner.PlannedSeat
    table_number: int
    is_me: bool = False

    @property
    def wind(self) -> str:
        return self.chair.wind.value

    @property
    def wind_label(self) -> str:
        return self.chair.wind.label

    @property
    def is_dreamer(self) -> bool:
        return self.chair.wind is planner.Wind.DREAMER

    @property
    def is_beginner(self) -> bool:
        return self.member.experience == Member.Experience.BEGINNER

    @property
    def dice_text(self) -> str:
        """'threw 5', or 'threw 6, then 3 after a tie' (tied highest throws again)."""
        throws = [str(d) for d in self.chair.throws]
        if not throws:
            return "joined late, no throw"
        if len(throws) == 1:
            return f"threw {throws[0]}"
        return f"threw {', '.join(throws[:-1])}, then {throws[-1]} after a tie"


@dataclass
class TableView:
    table: planner.Table
    locked: bool
    seats: list[SeatView]

    @property
    def number(self) -> int:
        return self.table.number

    @property
    def size(self) -> int:
        return self.table.size

    @property
    def has_me(self) -> bool:
        return any(s.is_me for s in self.seats)

    @property
    def dreamer(self) -> SeatView | None:
        return next((s for s in self.seats if s.is_dreamer), None)

    @property
    def dreamer_turns(self) -> list[str]:
        """Names in the order they sit out (see `planner.Table.dreamer_rotation`)."""
        names = {s.member.pk: s.member.table_name for s in self.seats}
        return [names[pid] for pid in self.table.dreamer_rotation]

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


def table_views(tables: list[SavedTable], me: Member | None = None) -> list[TableView]:
    views = []
    for saved in tables:
        table = saved.as_planner_table()
        seats = [
            SeatView(seat.member, chair, table.number, me is not None and seat.member_id == me.pk)
            for seat, chair in zip(saved.seats, table.chairs, strict=True)
        ]
        views.append(TableView(table, saved.row.locked, seats))
    return views


@dataclass
class SeatingPage:
    session: Session
    plan: SeatingPlan | None
    tables: list[TableView] = field(default_factory=list)
    quality: list[str] = field(default_factory=list)
    unseated: list[Member] = field(default_factory=list)
    gone: list[Member] = field(default_factory=list)

    @property
    def published(self) -> bool:
        return self.plan is not None and self.plan.is_published

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


def _pairs_line(count: int, best: int, at_random: float, *, none: str, some: str) -> str:
    """`count` pairs said against what a random draw gives and `best`, a proven lower bound
    (no seating can do better, though it may not be reachable): what was avoided first."""
    if count == 0:
        return none
    pairs = "1 pair" if count == 1 else f"{count} pairs"
    if count <= best:
        return f"{pairs} {some} — that is the fewest possible."
    line = f"{pairs} {some}."
    avoided = round(at_random) - count
    if avoided > 0:
        line += f" Seating at random would give about {round(at_random)}, so about {avoided} were avoided."
    if best > 0:
        return line + f" At least {best} cannot be avoided by any seating."
    return line + " A re-roll might find fewer."


def _beginners_line(per_table: tuple[int, ...], numbers: list[int]) -> str:
    shared = [f"table {number}" for number, n in zip(numbers, per_table, strict=True) if n > 1]
    if not shared:
        return "Beginners: each at a different table."
    if sum(per_table) > len(per_table):
        return (
            f"Beginners: {sum(per_table)} beginners and {len(per_table)} tables, so some "
            f"tables have two ({', '.join(shared)})."
        )
    return (
        f"Beginners: two share {' and '.join(shared)}. The app found no seating that gives "
        "every beginner a table of their own with tonight's locked tables, fixed tables and "
        "“never together” rules."
    )


def quality_in_words(
    quality: planner.Quality,
    *,
    weeks_of_history: int,
    spread_beginners: bool,
    numbers: list[int] | None = None,
) -> list[str]:
    """The planner's figures as sentences a coordinator reads at a glance."""
    lines = []
    if weeks_of_history == 0:
        lines.append("This is the first seating of the season, so nobody has sat together yet.")
    else:
        lines.append(
            _pairs_line(
                quality.last_week_pairs,
                quality.last_week_pairs_min,
                quality.last_week_pairs_random,
                none="Nobody sits with someone from last week.",
                some="sat together last week too",
            )
        )
        lines.append(
            _pairs_line(
                quality.repeat_pairs,
                quality.repeat_pairs_min,
                quality.repeat_pairs_random,
                none="Nobody sits with someone they sat with earlier this season.",
                some="sat together earlier this season",
            )
        )
        if quality.max_meetings > 1:
            lines.append(
                f"No two people will have sat together more than {quality.max_meetings} "
                "times this season."
            )
    if spread_beginners and any(quality.beginners_per_table):
        numbers = numbers or list(range(1, len(quality.beginners_per_table) + 1))
        lines.append(_beginners_line(quality.beginners_per_table, numbers))
    for problem in quality.violations:
        lines.append(f"Warning: {problem}")
    return lines


def seating_page(session: Session, me: Member | None = None, *, with_quality=False) -> SeatingPage:
    """Everything the seating pages show for one session."""
    plan = plan_of(session)
    page = SeatingPage(session=session, plan=plan)
    saved = saved_tables(plan) if plan is not None else []
    page.tables = table_views(saved, me)
    if with_quality:
        present = present_members(session)
        seated = {s.member.pk for t in page.tables for s in t.seats}
        page.unseated = [m for m in present if m.pk not in seated]
        present_ids = {m.pk for m in present}
        page.gone = [
            s.member for t in page.tables for s in t.seats if s.member.pk not in present_ids
        ]
        if page.tables:
            history = season_history(session)
            page.quality = quality_in_words(
                saved_seating(plan, history, saved).quality,
                weeks_of_history=len(history),
                spread_beginners=session.club.spread_beginners,
                numbers=[t.number for t in page.tables],
            )
    return page


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


@dataclass
class Tonight:
    """The home page's "Your table tonight": the next session and the member's seat."""

    session: Session | None = None
    plan: SeatingPlan | None = None
    table: TableView | None = None

    @property
    def published(self) -> bool:
        return self.plan is not None and self.plan.is_published

    @property
    def is_today(self) -> bool:
        return self.session is not None and self.session.date == timezone.localdate()


def tonight_for(user, club) -> Tonight:
    today = timezone.localdate()
    session = (
        Session.objects.filter(club=club)
        .upcoming(today)
        .exclude(status=Session.Status.CLOSED)
        .first()
    )
    if session is None:
        return Tonight()
    plan = plan_of(session)
    result = Tonight(session=session, plan=plan)
    me = member_for(user)
    if result.published and me is not None:
        result.table = next((t for t in table_views(saved_tables(plan), me) if t.has_me), None)
    return result


def member_for(user) -> Member | None:
    if not user.is_authenticated:
        return None
    return Member.objects.filter(user=user).first()
