"""A member's page: their season per rule set, who they played with most, their recent
hands."""

from __future__ import annotations

import operator
from collections import defaultdict
from dataclasses import dataclass
from functools import reduce

from django.db.models import Count, Q

from club.models import (
    Club,
    Member,
)
from games.models import Chair
from scoring.models import Hand
from scoring.standings.hands import winner_name
from scoring.standings.rule_sets import RuleSetPart, UnderOneRuleSet, rule_set_order
from scoring.standings.seasons import Season, held_per_rule_set, season_results


class SeasonPlayed:
    """A member's results of one season, one row per match, latest first (one query: the
    season's sessions by the club's date index, each looked up in the member's results).

    The page's other figures (who they played with, their recent and limit hands) are read
    by these matches' keys. Read through a join to the season's results instead, PostgreSQL
    chose its plan by the size of the club's history: the same page read 755 rows at one
    year and 1,142 to 1,495 with five more (tests/test_flat_with_history.py)."""

    def __init__(self, member: Member, season: Season):
        self.member = member
        self.rows = list(
            season_results(member, season)
            .order_by("-session__date", "-match__started_at", "-match_id")
            .values(
                "match_id",
                "session_id",
                "session__date",
                "rules",
                "result",
                "hands_won",
                "hands_played",
                "best_total",
                "limit_hands",
                "limit",
                "chair__number",
                "match__table_number",
            )
        )

    def match_ids(self) -> list[int]:
        """Their matches of the season, latest first."""
        return [row["match_id"] for row in self.rows]

    def sessions(self) -> list[dict]:
        """Their result per session and rule set, oldest first: an evening whose tables
        played under two rule sets has a row for each."""
        by_session: dict[tuple, dict] = {}
        for row in reversed(self.rows):
            key = (row["session_id"], row["rules"])
            if key not in by_session:
                by_session[key] = {
                    "session_id": row["session_id"],
                    "session__date": row["session__date"],
                    "rules": row["rules"],
                    "result": 0,
                    "won": 0,
                    "played": 0,
                    "best": row["best_total"],
                }
            kept = by_session[key]
            kept["result"] += row["result"]
            kept["won"] += row["hands_won"]
            kept["played"] += row["hands_played"]
            if row["best_total"] is not None:  # None: no hand won (as SQL's MAX skips it)
                kept["best"] = max(kept["best"] or row["best_total"], row["best_total"])
        return list(by_session.values())


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


def member_season(played: SeasonPlayed, club: Club, season: Season) -> list[MemberPart]:
    """The member's season kept per rule set, in the order of the club's choices (no query
    but `played`'s; its member comes from `with_season_span`, which counted the sessions
    held and the rule sets played). "Played 8 of 12" counts as the standings do: in a
    season played under several rule sets, the sessions held under each (one more query),
    whichever of them the member played."""
    member = played.member
    by_rules: dict[str, list[dict]] = defaultdict(list)
    for row in played.sessions():
        by_rules[row["rules"]].append(row)
    if (member.rule_sets or 0) > 1:
        held = held_per_rule_set(club, season)
    else:
        held = {rules: member.held or 0 for rules in by_rules}
    return [
        MemberPart(RuleSetPart(rules, len(found)), found, held.get(rules, 0), len(held) > 1)
        for rules, found in sorted(by_rules.items(), key=lambda kv: rule_set_order(kv[0]))
    ]


def played_with_most(played: SeasonPlayed, limit: int = 5) -> list[dict]:
    """Who sat at the member's tables on the most evenings of the season (ties by name):
    the chairs of their matches of the season, by the matches' keys, counted per member;
    then those members' names by key. Not through the club's scoped manager: its join to
    every match of the club (to check each chair's club) is what PostgreSQL hashes whole
    with years of matches; the matches came from the club's scope already (as
    `scoring.selectors` reads tonight's chairs). Nor with the members joined to name them:
    PostgreSQL looked a member up for every chair, or read every member the club had."""
    evenings = dict(
        Chair._base_manager.filter(match_id__in=played.match_ids())
        .exclude(member=played.member)
        .values("member_id")
        .annotate(evenings=Count("match__session", distinct=True))
        .values_list("member_id", "evenings")
    )
    # In the database's order of names, then by evenings (a stable sort keeps the names').
    companions = [
        {"member_id": pk, "member__table_name": name, "evenings": evenings[pk]}
        for pk, name in Member.table_names(evenings).items()
    ]
    return sorted(companions, key=lambda c: -c["evenings"])[:limit]


def recent_hands(played: SeasonPlayed, limit: int = 10) -> list[Hand]:
    """The member's last hands of the season, each with `my_payment` (what they won or
    paid) and `played` (their row of `played`: the match's session date, table and rules):
    the hands of their latest matches of the season, by the matches' keys alone. Sorted
    through a join to the matches and sessions instead, PostgreSQL hashed every match and
    session the club held (4,131 rows at twenty years)."""
    latest = {row["match_id"]: row for row in played.rows[:limit]}
    if not latest:
        return []
    newest_first = {match_id: place for place, match_id in enumerate(latest)}
    hands = sorted(
        Hand.objects.live()
        .filter(match_id__in=latest)
        .order_by()  # sorted here: the model's order joins the sessions
        .annotate(winner_name=winner_name()),
        key=lambda hand: (newest_first[hand.match_id], -hand.number),
    )[:limit]
    for hand in hands:
        hand.played = latest[hand.match_id]
        hand.my_payment = hand.payments[hand.played["chair__number"]]
    return hands


def member_special_hands(played: SeasonPlayed) -> list[Hand]:
    """The member's limit hands of the season, latest first: in each of their matches of
    the season that holds one, the hands won from their chair worth the match's limit or
    more, looked up by the match's key. Found through the results holding a limit hand
    instead, PostgreSQL could read every such result of the club's history."""
    won = [
        Q(match_id=row["match_id"], winner=row["chair__number"], total__gte=row["limit"])
        for row in played.rows
        if row["limit_hands"]
    ]
    if not won:
        return []
    return list(
        Hand.objects.live()
        .filter(reduce(operator.or_, won))
        .select_related("match__session")
        .order_by("-match__session__date", "-number")
    )
