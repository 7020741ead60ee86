"""The club's week: members say whether they are coming, and the coordinator's picture of
the evening before anyone arrives.

A session takes answers while it is planned and not in the past: once play starts (or the
day is over, or the evening is closed) the answers stand as they were, and the register
tells apart who came, who sent apologies and who stayed away without a word.
"""

from __future__ import annotations

import datetime
from collections import Counter
from dataclasses import dataclass, field

from django.db import transaction
from django.db.models import Max

from club.models import Attendance, Member, Session, long_date
from club.refusals import Refused
from club.seating.planner import SeatingError
from club.seating.planner.sizes import table_sizes
from club.week.models import NOTE_MAX, AwayPeriod, ReplyAnswer, SessionReply

# How far ahead the home page offers answers, and how many weeks "away" covers at most.
WEEKS_AHEAD = 5
AWAY_MAX_DAYS = 366


class ReplyRefused(Refused):
    """An answer the session no longer takes; str() says why, in plain words."""


def refusal(session: Session, today: datetime.date) -> str:
    """Why `session` takes no answers now, or "" when it does."""
    day = long_date(session.date)
    if session.is_closed:
        return f"The session on {day} is closed, so answers for it can no longer change."
    if session.date < today:
        return f"The session on {day} is over, so answers for it can no longer change."
    if session.status != Session.Status.PLANNED:
        return (
            f"Play has started at the session on {day}, so answers for it can no longer "
            "change: please tell the coordinator at the door."
        )
    return ""


def open_sessions(club, today: datetime.date):
    """The sessions that take answers, soonest first."""
    return Session.objects.filter(
        club=club, date__gte=today, status=Session.Status.PLANNED
    ).order_by("date")


def answer(
    session: Session, member: Member, said: str, note: str = "", *, by, today: datetime.date
) -> SessionReply:
    """Record `member`'s answer (`ReplyAnswer`) for `session`, replacing any earlier one.
    The same answer posted twenty times at once leaves one row: the session's row is locked
    first, and the (session, member) constraint holds the rest."""
    if member.club_id != session.club_id:
        raise Refused("That person is not a member of this club.")
    if said not in ReplyAnswer.values:
        raise Refused("Please press “I'm coming” or “Not this week”.")
    note = " ".join(note.split())
    if len(note) > NOTE_MAX:
        raise Refused(f"The note is {len(note)} characters long: please keep it to {NOTE_MAX}.")
    with transaction.atomic():
        locked = Session.objects.select_for_update().get(pk=session.pk)
        if why := refusal(locked, today):
            raise ReplyRefused(why)
        reply, _ = SessionReply.objects.update_or_create(
            session=locked,
            member=member,
            defaults={"answer": said, "note": note, "answered_by": by},
            create_defaults={
                "club_id": session.club_id,
                "answer": said,
                "note": note,
                "answered_by": by,
            },
        )
    return reply


def answer_away(
    member: Member,
    first: datetime.date,
    last: datetime.date,
    note: str = "",
    *,
    by,
    today: datetime.date,
) -> list[Session]:
    """ "Not this week" for every session from `first` to `last` that still takes answers,
    and the time away kept (`AwayPeriod`) for the sessions added in it later, in one
    transaction. Returns the sessions answered now (maybe none yet)."""
    if last < first:
        raise Refused("The last day away is before the first: please check the dates.")
    if last < today:
        raise Refused("Those days are over: please give a time away from today on.")
    if (last - first).days > AWAY_MAX_DAYS:
        raise Refused("Please give a time away of at most a year.")
    with transaction.atomic():
        # The same dates sent twice (or twenty times at once) are one time away.
        AwayPeriod.objects.get_or_create(
            member=member, first=first, last=last, defaults={"club_id": member.club_id}
        )
        sessions = list(
            open_sessions(member.club_id, today).filter(date__gte=first, date__lte=last)
        )
        for session in sessions:
            answer(session, member, ReplyAnswer.NOT_COMING, note, by=by, today=today)
    return sessions


def end_away(member: Member, pk: int) -> AwayPeriod | None:
    """Remove one of `member`'s times away (None if it is not theirs, or gone already). The
    answers it gave stay: each is changed on its own session, like any other answer."""
    period = AwayPeriod.objects.filter(member=member, pk=pk).first()
    if period is not None:
        period.delete()
    return period


# --- the member's home page ----------------------------------------------------------------


@dataclass
class WeekRow:
    """One session on the member's home page, with their answer if they gave one."""

    session: Session
    reply: SessionReply | None

    @property
    def is_coming(self) -> bool:
        return self.reply is not None and self.reply.answer == ReplyAnswer.COMING

    @property
    def is_not_coming(self) -> bool:
        return self.reply is not None and self.reply.answer == ReplyAnswer.NOT_COMING


def member_week(member: Member, today: datetime.date) -> list[WeekRow]:
    """The member's next sessions (a few weeks ahead) that take answers, each with their
    answer. Two queries, however many sessions."""
    sessions = list(open_sessions(member.club_id, today)[:WEEKS_AHEAD])
    replies = {
        r.session_id: r
        for r in SessionReply.objects.filter(member=member, session__in=[s.pk for s in sessions])
    }
    return [WeekRow(s, replies.get(s.pk)) for s in sessions]


def week_row(member: Member, session: Session) -> WeekRow:
    return WeekRow(session, SessionReply.objects.filter(member=member, session=session).first())


# --- the coordinator's picture -------------------------------------------------------------

NUMBER_WORDS = ["no", "one", "two", "three", "four", "five"]


def tables_in_words(count: int, prefer: str) -> str:
    """ "3 tables of four and one of five" for `count` players, as the seating would
    make them (club/seating/planner/sizes.py)."""
    try:
        sizes = table_sizes(count, prefer)
    except SeatingError:
        return "not enough for a table yet" if count else "nobody yet"
    by_size = sorted(Counter(sizes).items(), key=lambda item: (item[0] != 4, item[0]))
    parts = []
    for n, (size, tables) in enumerate(by_size):
        if n == 0:
            noun = "table" if tables == 1 else "tables"
            parts.append(f"{tables} {noun} of {NUMBER_WORDS[size]}")
        else:
            parts.append(
                f"{NUMBER_WORDS[tables] if tables < 6 else tables} of {NUMBER_WORDS[size]}"
            )
    return " and ".join(parts)


@dataclass
class Answered:
    member: Member
    reply: SessionReply | None = None


@dataclass
class Picture:
    """Who said they are coming, who sent apologies, who has not said; and the tables the
    coming make."""

    session: Session
    coming: list[Answered] = field(default_factory=list)
    apologies: list[Answered] = field(default_factory=list)
    not_heard: list[Answered] = field(default_factory=list)

    @property
    def tables(self) -> str:
        return tables_in_words(len(self.coming), self.session.club.odd_tables)

    @property
    def coming_ids(self) -> set[int]:
        return {a.member.pk for a in self.coming}


def picture(session: Session) -> Picture:
    """The session's answers in three groups, names in order. Two queries: the answers with
    their members, and the active members who have not answered."""
    shown = Picture(session)
    replies = list(
        SessionReply.objects.filter(session=session)
        .select_related("member")
        .order_by("member__table_name")
    )
    for reply in replies:
        group = shown.coming if reply.answer == ReplyAnswer.COMING else shown.apologies
        group.append(Answered(reply.member, reply))
    silent = (
        Member.objects.filter(club=session.club_id, is_active=True, is_guest=False)
        .exclude(pk__in=[r.member_id for r in replies])
        .order_by("table_name")
    )
    shown.not_heard = [Answered(m) for m in silent]
    return shown


# --- absent without a word -----------------------------------------------------------------


@dataclass
class Missing:
    member: Member
    last_seen: datetime.date | None


def absent_without_word(club, today: datetime.date) -> tuple[int, list[Missing]]:
    """The active members who missed each of the club's last N sessions before today
    (N = `club.absent_alert_after`) without coming and without sending apologies, with the
    last time they came. Returns N and the list. Four queries, whatever the history."""
    n = club.absent_alert_after
    recent = list(
        Session.objects.filter(club=club, date__lt=today)
        .order_by("-date")
        .values_list("pk", "date")[:n]
    )
    if len(recent) < n:
        return n, []
    ids = [pk for pk, _ in recent]
    accounted = set(
        Attendance.objects.filter(session__in=ids).values_list("member_id", flat=True)
    ) | set(
        SessionReply.objects.filter(session__in=ids)
        .not_coming()
        .values_list("member_id", flat=True)
    )
    oldest = recent[-1][1]
    members = list(
        Member.objects.filter(club=club, is_active=True, is_guest=False, joined__lte=oldest)
        .exclude(pk__in=accounted)
        .order_by("table_name")
    )
    last_seen = dict(
        Attendance.objects.filter(member__in=members)
        .values("member_id")
        .annotate(last=Max("session__date"))
        .values_list("member_id", "last")
    )
    return n, [Missing(m, last_seen.get(m.pk)) for m in members]


# --- check-in ------------------------------------------------------------------------------


def coming_first(session: Session, rows: list) -> list:
    """The check-in rows with those who said they are coming at the top (each group in its
    own order), each row marked `said_coming`. One query."""
    coming = set(session.replies.coming().values_list("member_id", flat=True))
    for row in rows:
        row.said_coming = row.member.pk in coming
    return sorted(rows, key=lambda row: not row.said_coming)
