"""A member's page: their season per rule set, who they played with most, their recent
hands."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from django.db.models import Count, Max, OuterRef, Subquery, Sum

from club.models import (
    Club,
    Member,
)
from games.models import Chair
from scoring.models import Hand
from scoring.standings.hands import winner_name
from scoring.standings.rule_sets import RuleSetPart, UnderOneRuleSet, rule_set_order
from scoring.standings.seasons import Season, held_per_rule_set, season_results


def member_sessions(member: Member, season: Season):
    """The member's result per session and rule set of the season, oldest first (one
    query): an evening whose tables played under two rule sets has a row for each."""
    return (
        season_results(member, season)
        .values("session_id", "session__date", "rules")
        .annotate(
            result=Sum("result"),
            won=Sum("hands_won"),
            played=Sum("hands_played"),
            best=Max("best_total"),
        )
        .order_by("session__date")
    )


@dataclass
class MemberPart(UnderOneRuleSet):
    """A member's season under one rule set: its sessions, total and sessions held."""

    part: RuleSetPart
    sessions: list[dict]
    held: int
    split: bool = False  # the season was played under more than one rule set

    @property
    def total(self) -> int:
        return sum(s["result"] for s in self.sessions)


def member_season(member: Member, club: Club, season: Season) -> list[MemberPart]:
    """The member's season kept per rule set, in the order of the club's choices (one
    query, their sessions; `member` comes from `with_season_span`, which counted the
    sessions held and the rule sets played). "Played 8 of 12" counts as the standings do:
    in a season played under several rule sets, the sessions held under each (one more
    query), whichever of them the member played."""
    rows = list(member_sessions(member, season))
    by_rules: dict[str, list[dict]] = defaultdict(list)
    for row in rows:
        by_rules[row["rules"]].append(row)
    if (member.rule_sets or 0) > 1:
        held = held_per_rule_set(club, season)
    else:
        held = {rules: member.held or 0 for rules in by_rules}
    return [
        MemberPart(RuleSetPart(rules, len(found)), found, held.get(rules, 0), len(held) > 1)
        for rules, found in sorted(by_rules.items(), key=lambda kv: rule_set_order(kv[0]))
    ]


def played_with_most(member: Member, season: Season, limit: int = 5):
    """Who sat at the member's tables on the most evenings of the season: their matches
    found from their own results of the season (as `member_sessions`), not from every
    chair they ever sat in."""
    return (
        Chair.objects.filter(match_id__in=season_results(member, season).values("match_id"))
        .exclude(member=member)
        .values("member_id", "member__table_name")
        .annotate(evenings=Count("match__session", distinct=True))
        .order_by("-evenings", "member__table_name")[:limit]
    )


def recent_hands(member: Member, season: Season, limit: int = 10) -> list[Hand]:
    """The member's last hands of `season`, each with `my_payment` (what they won or paid).

    Bounded by the season, as every figure of the page is: their latest matches of the
    season from their season's results (as `member_sessions`), then those matches' hands.
    The member's latest sessions ever were found by walking the club's sessions backwards
    until ten had a result of theirs, which for a member who stopped coming years ago is
    every session since."""
    latest = (
        season_results(member, season)
        .order_by("-session__date", "-match__started_at", "-match_id")
        .values("match_id")[:limit]
    )
    # Their chair at each hand's table looked up by the match's key: joined to chairs by
    # member instead, PostgreSQL went through every chair the member ever sat in.
    my_chair = Chair.objects.filter(match_id=OuterRef("match_id"), member=member)
    hands = list(
        Hand.objects.live()
        .filter(match_id__in=latest)
        .annotate(my_chair=Subquery(my_chair.values("number")[:1]), winner_name=winner_name())
        .select_related("match__session")
        .order_by("-match__session__date", "-match__started_at", "-number")[:limit]
    )
    for hand in hands:
        hand.my_payment = hand.payments[hand.my_chair]
    return hands
