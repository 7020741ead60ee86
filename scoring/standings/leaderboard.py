"""The season's leaderboard under one rule set: sums run in the database over `MatchResult`
(a row per chair per match), ranked by the club's chosen figure, sortable by any column;
a fixed handful of queries however many seasons the club has played."""

from __future__ import annotations

import datetime
import hashlib
from collections import defaultdict
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property

from django.db.models import Count, Max, Q, Sum

from club.models import (
    Club,
    Member,
)
from scoring.rules import hand_unit, rule_set_choices, short_name, tally_unit
from scoring.standings.placings import exact_points, placing_points, rank_rows, weighted_points
from scoring.standings.rule_sets import RuleSetPart, rule_set_order
from scoring.standings.seasons import Season, held_per_rule_set, results_in_season, span_of_sessions


@dataclass
class LeaderRow:
    member_id: int
    name: str
    sessions: int
    total: int
    hands_played: int
    hands_won: int
    points: Fraction
    best_total: int | None
    user_id: int | None = None
    rank: int | None = None

    # Exact fractions: the pages and CSVs round them half up, never by float noise.
    @property
    def average(self) -> Fraction:
        return Fraction(self.total, self.sessions) if self.sessions else Fraction(0)

    @property
    def win_rate(self) -> Fraction:
        return (
            Fraction(100 * self.hands_won, self.hands_played) if self.hands_played else Fraction(0)
        )


# Columns the leaderboard can be sorted by: (key, heading).
COLUMNS = [
    ("rank", "Place"),
    ("name", "Name"),
    ("total", "Total"),
    ("average", "Average"),
    ("sessions", "Sessions"),
    ("won", "Hands won"),
    ("win_rate", "Win rate"),
    ("points", "Placing points"),
    ("best", "Best hand"),
]
_SORT_KEYS = {
    "name": lambda row: row.name.lower(),
    "total": lambda row: row.total,
    "average": lambda row: row.average,
    "sessions": lambda row: row.sessions,
    "won": lambda row: row.hands_won,
    "win_rate": lambda row: row.win_rate,
    "points": lambda row: row.points,
    "best": lambda row: row.best_total or 0,
}
_RANKING_KEYS = {
    Club.Ranking.TOTAL: lambda row: (row.total, row.points),
    Club.Ranking.AVERAGE: lambda row: (row.average, row.total),
    Club.Ranking.PLACINGS: lambda row: (row.points, row.total),
}


def columns_for(rules: str) -> list[tuple[str, str]]:
    """The leaderboard's columns, the figures' headings with their unit."""
    units = {"total": tally_unit(rules), "average": tally_unit(rules), "best": hand_unit(rules)}
    return [
        (key, f"{heading} ({units[key]})" if key in units else heading) for key, heading in COLUMNS
    ]


@dataclass
class Leaderboard:
    season: Season
    sessions_held: int
    ranked: list[LeaderRow]
    unranked: list[LeaderRow]
    sort: str
    descending: bool
    # The club's first and last session dates, read with the rows for the season picker;
    # None when the season has no results (the picker then asks on its own).
    span: tuple[datetime.date, datetime.date] | None = None
    # The rule set these standings are for, and every rule set played this season (in the
    # order of the club's choices): more than one means the season's standings are split.
    rules: str = ""
    parts: list[RuleSetPart] = field(default_factory=list)
    # A ?rules= that names no rule set played this season, in plain words.
    rules_problem: str = ""

    @property
    def rows(self) -> list[LeaderRow]:
        return self.ranked + self.unranked

    @property
    def split(self) -> bool:
        return len(self.parts) > 1

    @property
    def part(self) -> RuleSetPart:
        return next((p for p in self.parts if p.rules == self.rules), RuleSetPart(self.rules))

    @property
    def columns(self) -> list[tuple[str, str]]:
        return columns_for(self.rules)

    @cached_property
    def fingerprint(self) -> str:
        """A digest of everything the board shows, so its rendering can be kept and reused
        until any figure, name or order changes: the key is the data itself, never stale.
        Rendering a hundred rows costs several times what reading them does."""
        shown = (
            self.season.key,
            self.sessions_held,
            self.sort,
            self.descending,
            self.rules,
            self.parts,
            self.rows,
        )
        return hashlib.blake2b(repr(shown).encode(), digest_size=16).hexdigest()


_SHARE_FIELDS = ("first", "second", "third", "fourth")
# A result whose placing counts only in part (the member's table changed that evening).
_PARTLY = Q(weight__gt=0, weight__lt=1)


def summed_per_member(club: Club, season: Season):
    """The season's MatchResult rows of the club, summed per member and rule set in the
    database (never across rule sets: chips, points and fan do not add up). The placing is
    summed as shares of 1st..4th place over the results that count whole (`whole_first`..),
    which read back exactly; `partly` counts the others (see `_partly_placed`). By the
    members' keys: their names are read by key afterwards (joined here, PostgreSQL looked up
    a member for every result, or read every member the club had)."""
    whole = Q(weight=1)
    return (
        results_in_season(club, season)
        .values("rules", "member_id")
        .annotate(
            results=Count("pk"),
            total=Sum("result"),
            sessions=Count("session_id", distinct=True),
            played=Sum("hands_played"),
            won=Sum("hands_won"),
            best=Max("best_total"),
            partly=Count("pk", filter=_PARTLY),
            **{f"whole_{name}": Sum(name, filter=whole) for name in _SHARE_FIELDS},
        )
        .order_by()
    )


def _partly_placed(
    club: Club, season: Season, member_ids, points, rules: str
) -> dict[int, Fraction]:
    """Placing points under `rules` of the evenings when a member's table changed, each
    match weighed by its share of their hands that evening, in exact fractions (one query,
    only when a table changed: the rows come back to Python, a few per late arrival or
    leaver)."""
    if not member_ids:
        return {}
    matches: dict[tuple[int, int], list[tuple[int, Fraction]]] = defaultdict(list)
    for member_id, session_id, played, *shares in (
        results_in_season(club, season)
        .filter(_PARTLY, member_id__in=member_ids, rules=rules)
        .values_list("member_id", "session_id", "hands_played", *_SHARE_FIELDS)
    ):
        matches[member_id, session_id].append((played, placing_points(shares, points)))
    found: dict[int, Fraction] = defaultdict(Fraction)
    for (member_id, _), evening in matches.items():
        found[member_id] += weighted_points(evening)
    return found


def _chosen_rules(club: Club, parts: list[RuleSetPart], asked: str | None) -> tuple[str, str]:
    """The rule set to show, and a sentence when the address asked for one not played this
    season: the one asked for, else the club's rule set if played this season, else the
    rule set with the most results."""
    played = [part.rules for part in parts]
    if asked and asked in played:
        return asked, ""
    if club.rule_set in played or not parts:
        chosen = club.rule_set
    else:
        chosen = max(parts, key=lambda part: part.results).rules
    problem = ""
    if asked:
        problem = (
            f"No results under {short_name(asked)} rules this season: "
            f"the {short_name(chosen)} standings are shown instead."
            if asked in dict(rule_set_choices())
            else f"There is no rule set called that: the {short_name(chosen)} standings "
            "are shown instead."
        )
    return chosen, problem


def leaderboard(
    club: Club,
    season: Season,
    sort: str = "rank",
    descending: bool | None = None,
    rules: str | None = None,
) -> Leaderboard:
    """The season's standings under one rule set (`rules`; by default the club's own if
    played this season, else the one with the most results): ranked by the club's chosen
    figure among those who played the minimum number of sessions, then the others. Two
    queries: every rule set's rows (so the page can offer the others), the sessions held
    under each and the club's span of sessions (`span`, for the season picker) together;
    then the shown members' names by their keys."""
    every = list(summed_per_member(club, season).annotate(**span_of_sessions(club, season)))
    counts: dict[str, int] = defaultdict(int)
    for r in every:
        counts[r["rules"]] += r["results"]
    parts = [
        RuleSetPart(name, n)
        for name, n in sorted(counts.items(), key=lambda kv: rule_set_order(kv[0]))
    ]
    chosen, problem = _chosen_rules(club, parts, rules)
    results = [r for r in every if r["rules"] == chosen]
    # No result rows means no match was played in the season: no session was held.
    held = 0
    if results:
        # One rule set played: every session held was held under it. Two or more: the
        # sessions held under the chosen one are counted apart (one more query).
        held = results[0]["held"] if len(parts) == 1 else held_per_rule_set(club, season)[chosen]
    span = (every[0]["first_date"], every[0]["last_date"]) if every else None
    points = exact_points(club)
    partly = _partly_placed(
        club, season, [r["member_id"] for r in results if r["partly"]], points, chosen
    )
    members = {
        pk: (name, user_id)
        for pk, name, user_id in Member._base_manager.filter(
            pk__in=[r["member_id"] for r in results]
        ).values_list("pk", "table_name", "user_id")
    }
    rows = [
        LeaderRow(
            member_id=r["member_id"],
            name=members[r["member_id"]][0],
            sessions=r["sessions"],
            total=r["total"] or 0,
            hands_played=r["played"] or 0,
            hands_won=r["won"] or 0,
            points=placing_points([r[f"whole_{name}"] for name in _SHARE_FIELDS], points)
            + partly.get(r["member_id"], Fraction(0)),
            best_total=r["best"],
            user_id=members[r["member_id"]][1],
        )
        for r in results
    ]
    ranking = _RANKING_KEYS[club.standings_ranking]
    rows.sort(key=lambda row: row.name.lower())
    rows.sort(key=ranking, reverse=True)
    ranked = [row for row in rows if row.sessions >= club.min_sessions]
    unranked = [row for row in rows if row.sessions < club.min_sessions]
    rank_rows(ranked, ranking)
    if sort not in _SORT_KEYS:
        sort = "rank"
    if descending is None:
        descending = sort not in ("rank", "name")
    if sort == "rank":
        if descending:
            ranked.reverse()
    else:
        key = _SORT_KEYS[sort]
        ranked.sort(key=key, reverse=descending)
        unranked.sort(key=key, reverse=descending)
    return Leaderboard(
        season, held, ranked, unranked, sort, descending, span, chosen, parts, problem
    )
