"""Seasons: which season a date or a page's `?season=` falls in, the seasons a club has
played, and the sessions held in one (read in the same query as a page's rows)."""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field

from django.db.models import Count, Exists, Max, Min, OuterRef, Subquery

from club.models import (
    FIRST_SESSION_DATE,
    LAST_SESSION_DATE,
    Club,
    Session,
)
from scoring.results import MatchResult


@dataclass
class Season:
    start: datetime.date
    end: datetime.date  # the next season's first day
    held: int | None = field(default=None, compare=False)  # sessions played, when counted

    @classmethod
    def containing(cls, club: Club, date: datetime.date) -> Season:
        start = club.season_start_for(date)
        return cls(start, club.season_start_for(start + datetime.timedelta(days=366)))

    @property
    def key(self) -> str:
        return self.start.isoformat()

    @property
    def label(self) -> str:
        if self.start.month == 1 and self.start.day == 1:
            return f"{self.start.year}"
        return f"{self.start.year}–{str(self.end.year)[-2:]}"

    def sessions(self, club: Club):
        return Session.objects.filter(club=club, date__gte=self.start, date__lt=self.end)


def seasons(club: Club, today: datetime.date) -> list[Season]:
    """Every season with a session, latest first, and always this season."""
    span = Session.objects.filter(club=club).aggregate(first=Min("date"), last=Max("date"))
    return seasons_between(club, span["first"], span["last"], today)


def seasons_between(club: Club, first, last, today: datetime.date) -> list[Season]:
    first = first or today
    last = max(last or today, today)
    found = []
    season = Season.containing(club, first)
    while season.start <= last:
        found.append(season)
        season = Season.containing(club, season.end)
    return found[::-1]


def results_in_season(club: Club, season: Season):
    """The club's results of `season`: the season's sessions (read by the club and date
    index), then their results (by the club and session index); never every result the
    club has, whose dates a join to sessions would have to read to filter."""
    return MatchResult.objects.filter(club=club, session__in=season.sessions(club).values("pk"))


def season_results(member, season: Season):
    """The member's results of the season: the season's sessions (the club's date index),
    each looked up in the member's results by the (member, session) index; filtered by
    the sessions' date instead, PostgreSQL read all the member's results of every year."""
    return MatchResult.objects.filter(
        member=member, session_id__in=season.sessions(member.club_id).values("pk")
    )


def span_of_sessions(club, season: Season) -> dict:
    """Annotations: the club's first and last session dates and the sessions played in
    `season` (`first_date`, `last_date`, `held`), as subqueries, so a page reads them in
    the same statement as its rows."""
    sessions = Session.objects.filter(club=club).order_by()
    # A session is held when it has results: an evening whose matches recorded nothing
    # (no hand, no kong chips) has none, live and after a rebuild alike.
    played = MatchResult.objects.filter(session=OuterRef("pk"))
    held = (
        sessions.filter(date__gte=season.start, date__lt=season.end)
        .filter(Exists(played))
        .values("club")
        .annotate(n=Count("pk", distinct=True))
        .values("n")
    )
    return {
        "first_date": Subquery(sessions.order_by("date").values("date")[:1]),
        "last_date": Subquery(sessions.order_by("-date").values("date")[:1]),
        "held": Subquery(held),
    }


def held_per_rule_set(club: Club, season: Season) -> dict[str, int]:
    """The sessions of `season` with results under each rule set (one query). Only a
    season played under more than one rule set needs it: otherwise every session held
    was held under its one rule set (`held` of `span_of_sessions`)."""
    return dict(
        results_in_season(club, season)
        .values("rules")
        .annotate(n=Count("session_id", distinct=True))
        .values_list("rules", "n")
        .order_by()
    )


def with_season_span(members, club: Club, season: Season):
    """`club`'s members annotated with the club's span of sessions (see `span_of_sessions`),
    for the season picker in the same query as the member, and `rule_sets`: how many rule
    sets the season was played under (more than one: `held` counts every rule set's
    sessions, and `held_per_rule_set` has each one's, as the standings count them). The
    club is given, not the member's row's: correlated with the row, PostgreSQL counted the
    rule sets over every result the club has ever had (1 year 9,816 rows, 6 years 63,805)."""
    rule_sets = (
        results_in_season(club, season)
        .values("club")
        .annotate(n=Count("rules", distinct=True))
        .values("n")
    )
    return members.filter(club=club).annotate(
        **span_of_sessions(club, season), rule_sets=Subquery(rule_sets)
    )


def season_from_key(club: Club, key: str | None, today: datetime.date) -> tuple[Season, str]:
    """The season a page's `?season=` names (any day in it, written 2026-01-01), and what
    was wrong with it in plain words: a key that is no date, or a date outside the years a
    session may have (whose season's end would leave the calendar), gives this season and a
    sentence saying so. No key at all is this season, and no sentence."""
    current = Season.containing(club, today)
    if not key:
        return current, ""
    try:
        date = datetime.date.fromisoformat(key)
    except ValueError:  # not a date (NUL bytes, 30 February, "abc" included)
        date = None
    if date is None:
        return current, (
            "That season could not be read (a season is written like 2026-01-01). "
            "This season is shown instead."
        )
    if not FIRST_SESSION_DATE <= date <= LAST_SESSION_DATE:
        return current, (
            f"There are no seasons in {date.year}: seasons can be from "
            f"{FIRST_SESSION_DATE.year} to {LAST_SESSION_DATE.year}. This season is shown instead."
        )
    return Season.containing(club, date), ""
