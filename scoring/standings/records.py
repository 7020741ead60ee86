"""The club's records: the highest hands per rule set, every limit hand and the longest
runs of hands won in a row at one table."""

from __future__ import annotations

from dataclasses import dataclass

from django.db import connection
from django.db.models import Q

from club.models import (
    Club,
)
from scoring.models import features
from scoring.results import MatchResult
from scoring.rules import rule_set_choices
from scoring.standings.hands import limit_hands


@dataclass
class Records:
    highest: dict[str, list[MatchResult]]  # each member's best hand of a match
    limit_hands: list[dict]
    streaks: list[MatchResult]


def records(club: Club, limit: int = 10) -> Records:
    """The club's highest hands (per rule set: points and faan do not compare), every
    limit hand, and the longest runs of hands won in a row at one table."""
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
        chosen = Q(pk__in=tops[0].union(*tops[1:], all=True))
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
    # Every limit hand of every season: plain rows (no model instances) keep a long list cheap.
    limits = list(
        limit_hands(club)
        .order_by("-match__session__date", "-number", "match__table_number", "match_id")
        .values(
            "total",
            "number",
            "winner_name",
            "match__table_number",
            "match__session__date",
            "match__rules",
            "breakdown",
        )
    )
    for hand in limits:
        hand["features"] = features(hand.pop("breakdown"))
    streaks = list(
        MatchResult.objects.filter(club=club, longest_streak__gte=2)
        .select_related("member", "session")
        # Ties earliest first by chair (a chair keeps its id through a rebuild and a backup
        # restored; a result row is numbered anew, so ties by it would swap places).
        .order_by("-longest_streak", "chair_id")[:limit]
    )
    return Records(highest, limits, streaks)
