"""The club's sessions as an iCalendar file (RFC 5545), written with the `icalendar` library.

A member's feed marks each session with what they answered and reminds them the day before
(a VALARM their own phone sounds: no email or push service); the club's public feed has the
sessions alone. Times are the club's own: each event names its time zone (TZID) and the
file carries that zone's VTIMEZONE, as calendar apps expect.

Calendar apps poll the address on their own schedule. `Freshness` is what the answer
depends on, read in the same one query that finds the address (views.py): a poll that
brings back the last answer's ETag (or its date) is answered 304 with nothing else read.
"""

import datetime
import hashlib
from dataclasses import dataclass
from zoneinfo import ZoneInfo

from django.db import models
from django.db.models.functions import Coalesce
from icalendar import Alarm, Calendar, Event

from club.models import Club, Session

# The sessions a feed holds: the last four weeks (what was) and the next six months.
DAYS_BEFORE = 28
DAYS_AFTER = 183
# A hint to calendar apps (RFC 7986 and Microsoft's older name): most choose their own.
REFRESH = datetime.timedelta(hours=3)
PRODUCT = "-//Mahjong club//Calendar of the club's sessions//EN"
# Part of every ETag: a change to what a feed says (its words, its fields) changes it too.
FEED_VERSION = "1"
EPOCH = datetime.datetime(2000, 1, 1, tzinfo=datetime.UTC)


def window(today: datetime.date) -> tuple[datetime.date, datetime.date]:
    return today - datetime.timedelta(days=DAYS_BEFORE), today + datetime.timedelta(days=DAYS_AFTER)


def sessions_in_window(today: datetime.date):
    start, end = window(today)
    return Session.objects.filter(date__gte=start, date__lte=end)


def freshness_annotations(club: models.Expression, today: datetime.date) -> dict:
    """Subqueries (for `.annotate`) of when the club's sessions in the window last changed
    and how many there are: a session added, edited or deleted changes one of the two."""
    sessions = sessions_in_window(today).filter(club=club).order_by().values("club")
    return {
        "sessions_changed": Coalesce(
            models.Subquery(sessions.annotate(last=models.Max("updated")).values("last")),
            models.Value(EPOCH),
        ),
        "sessions_count": Coalesce(
            models.Subquery(sessions.annotate(n=models.Count("pk")).values("n")),
            models.Value(0),
        ),
    }


@dataclass(frozen=True)
class Freshness:
    """Everything a feed's text depends on, and so its ETag and Last-Modified."""

    club: Club
    today: datetime.date
    changed: tuple[datetime.datetime, ...]  # when the rows it shows last changed
    counts: tuple[int, ...]  # how many there are (a deleted row changes no date)
    whose: str = ""  # the host asked, and for a member's feed the member and their address

    @property
    def last_modified(self) -> datetime.datetime:
        # The window moves on each day, dropping a past session: the day's start counts.
        # A deleted row leaves no date behind: an app that asks with the date alone (no
        # ETag, which counts the rows) sees a deleted session go on the next day.
        zone = ZoneInfo(self.club.time_zone)
        day_start = datetime.datetime.combine(self.today, datetime.time(), tzinfo=zone)
        return max((*self.changed, day_start))

    @property
    def etag(self) -> str:
        club = self.club
        parts = [
            FEED_VERSION,
            self.whose,
            str(club.pk),
            club.name,
            club.time_zone,
            club.sessions_begin.isoformat(),
            club.sessions_end.isoformat(),
            self.today.isoformat(),
            *(moment.isoformat() for moment in self.changed),
            *map(str, self.counts),
        ]
        return '"' + hashlib.sha256("\x1f".join(parts).encode()).hexdigest()[:32] + '"'


@dataclass(frozen=True)
class Answer:
    """How a member's answer reads in their calendar."""

    summary: str  # after the club's name
    description: str
    remind: bool  # a reminder the day before
    busy: bool


NOT_HEARD = Answer(
    "Mahjong",
    "You have not said yet whether you are coming. You can say so on the club's home page.",
    remind=True,
    busy=True,
)
ANSWERS = {
    "coming": Answer("Mahjong (you are coming)", "You said you are coming.", True, True),
    "not_coming": Answer(
        "Mahjong (you said not this week)",
        "You said you are not coming this time. You can change that on the club's home page.",
        remind=False,
        busy=False,
    ),
}
PUBLIC = Answer("Mahjong", "", remind=True, busy=True)


def reminder_text(club: Club, session: Session) -> str:
    at = f" at {session.venue}" if session.venue else ""
    return f"Mahjong tomorrow{at}, {club.name}, from {club.sessions_begin:%H:%M}."


def build(
    club: Club,
    sessions: list[Session],
    *,
    title: str,
    home_address: str,
    answers: dict[int, tuple[str, str]] | None = None,
    host: str = "mahjong-club",
) -> bytes:
    """The calendar file of `sessions` of `club`. `answers` (a member's feed) maps a
    session's id to the member's answer ("coming", "not_coming") and note; None: the
    public feed."""
    zone = ZoneInfo(club.time_zone)
    calendar = Calendar()
    calendar.add("prodid", PRODUCT)
    calendar.add("version", "2.0")
    calendar.add("calscale", "GREGORIAN")
    calendar.add("name", title)
    calendar.add("x-wr-calname", title)
    calendar.add("x-wr-timezone", club.time_zone)
    calendar.add("refresh-interval", REFRESH, parameters={"VALUE": "DURATION"})
    calendar.add("x-published-ttl", REFRESH)
    for session in sessions:
        answer, note = PUBLIC, ""
        if answers is not None:
            said, note = answers.get(session.pk, ("", ""))
            answer = ANSWERS.get(said, NOT_HEARD)
        event = Event()
        # Stable: the same session is the same event on every poll, whatever changed.
        event.add("uid", f"club-{club.pk}-session-{session.pk}@{host}")
        event.add("dtstamp", session.updated)
        event.add("last-modified", session.updated)
        event.add("dtstart", datetime.datetime.combine(session.date, club.sessions_begin, zone))
        event.add("dtend", datetime.datetime.combine(session.date, club.sessions_end, zone))
        event.add("summary", f"{club.name}: {answer.summary}")
        if session.venue:
            event.add("location", session.venue)
        said = f"Your note: {note}." if note else ""
        description = " ".join(part for part in (answer.description, said, home_address) if part)
        event.add("description", description)
        event.add("url", home_address)
        event.add("status", "CONFIRMED")
        event.add("transp", "OPAQUE" if answer.busy else "TRANSPARENT")
        if answer.remind:
            alarm = Alarm()
            alarm.add("action", "DISPLAY")
            alarm.add("description", reminder_text(club, session))
            alarm.add("trigger", datetime.timedelta(days=-1))
            event.add_component(alarm)
        calendar.add_component(event)
    calendar.add_missing_timezones()
    return calendar.to_ical()
