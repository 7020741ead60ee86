"""The club's records: the highest hands per rule set, every limit hand and the longest
runs of hands won in a row at one table."""

from __future__ import annotations

from dataclasses import dataclass

from django.db import connection
from django.db.models import Q

from club.models import (
    Club,
)
from scoring.models import Hand, features
from scoring.results import MatchResult
from scoring.rules import rule_set_choices
from scoring.standings.seasons import Season


def season_limit_hands(club: Club, season: Season) -> list[dict]:
    """The season's limit hands, latest first, as plain rows (no model instances): the
    season's results holding one first (each the winner's own row, with the limit of its
    match's rules), then the live hands of those matches only, so a club of twenty years
    reads what one season's do."""
    holders = {
        (r["match_id"], r["chair__number"]): r
        for r in MatchResult.objects.filter(
            club=club,
            limit_hands__gt=0,
            session__date__gte=season.start,
            session__date__lt=season.end,
        ).values(
            "match_id",
            "chair__number",
            "limit",
            "member__table_name",
            "match__table_number",
            "session__date",
            "rules",
        )
    }
    hands = Hand.objects.live().filter(
        match_id__in={match_id for match_id, _ in holders}, winner__isnull=False
    )
    found = []
    for hand in hands.values("match_id", "winner", "total", "number", "breakdown"):
        holder = holders.get((hand["match_id"], hand["winner"]))
        if holder and hand["total"] >= holder["limit"]:
            found.append(
                {
                    "total": hand["total"],
                    "number": hand["number"],
                    "winner_name": holder["member__table_name"],
                    "match__table_number": holder["match__table_number"],
                    "match__session__date": holder["session__date"],
                    "match__rules": holder["rules"],
                    "features": features(hand["breakdown"]),
                    "match_id": hand["match_id"],
                }
            )
    found.sort(
        key=lambda h: (
            -h["match__session__date"].toordinal(),
            -h["number"],
            h["match__table_number"],
            h["match_id"],
        )
    )
    for hand in found:
        del hand["match_id"]
    return found


@dataclass
class Records:
    highest: dict[str, list[MatchResult]]  # each member's best hand of a match
    limit_hands: list[dict]
    streaks: list[MatchResult]


def records(club: Club, season: Season, limit: int = 10) -> Records:
    """The club's highest hands (per rule set: points and faan do not compare), the limit
    hands of `season`, and the longest runs of hands won in a row at one table."""
    highest: dict[str, list[MatchResult]] = {}
    # Each rule set's top rows by a small uncorrelated subquery read in the order of the
    # (rules, best_total) index, all four in one statement: no sort of every result.
    # One UNION ALL of the four (PostgreSQL): rows ORed by IN are looked for in every result.
    tops = [
        MatchResult.objects.filter(club=club, rules=rules, best_total__isnull=False)
        .order_by("-best_total", "chair_id")
        .values("pk")[:limit]
        for rules, _ in rule_set_choices()
    ]
    if connection.features.supports_slicing_ordering_in_compound:
        # The chosen rows' keys first, then those rows by key: as one statement (IN the
        # UNION) PostgreSQL read every result of the club to join them.
        chosen = Q(pk__in=list(tops[0].union(*tops[1:], all=True).values_list("pk", flat=True)))
    else:  # SQLite: no LIMIT inside a UNION; its planner looks each IN up by its index
        chosen = Q()
        for top in tops:
            chosen |= Q(pk__in=top)
    best = (
        MatchResult.objects.filter(chosen)
        .select_related("member", "session", "match", "best_hand")
        .order_by("rules", "-best_total", "chair_id")
    )
    for result in best:
        highest.setdefault(result.rules, []).append(result)
    limits = season_limit_hands(club, season)
    streaks = list(
        MatchResult.objects.filter(club=club, longest_streak__gte=2)
        .select_related("member", "session")
        # Ties earliest first by chair (a chair keeps its id through a rebuild and a backup
        # restored; a result row is numbered anew, so ties by it would swap places).
        .order_by("-longest_streak", "chair_id")[:limit]
    )
    return Records(highest, limits, streaks)
