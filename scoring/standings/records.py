"""The club's records: the highest hands per rule set, every limit hand and the longest
runs of hands won in a row at one table."""

from __future__ import annotations

from dataclasses import dataclass

from club.models import (
    Club,
)
from scoring.kept_records import KeptRecord
from scoring.models import Hand, features
from scoring.results import MatchResult
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
            # the season's sessions, each looked up in the results holding a limit hand
            # (a partial index by session): not every such result of the club's years
            session_id__in=season.sessions(club).values("pk"),
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
    # Unordered (sorted below): the hands' default order joined their sessions, and the
    # plan read thousands of other hands of the club to do it.
    hands = (
        Hand.objects.live()
        .filter(match_id__in={match_id for match_id, _ in holders}, winner__isnull=False)
        .order_by()
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


def records(club: Club, season: Season) -> Records:
    """The club's highest hands (per rule set: points and faan do not compare) and longest
    runs of hands won in a row at one table, as kept (scoring.kept_records: one query of a
    few dozen rows), and the limit hands of `season`."""
    highest: dict[str, list[MatchResult]] = {}
    streaks: list[MatchResult] = []
    kept = (
        KeptRecord.objects.filter(club=club, result__isnull=False)
        .select_related("result__member", "result__session", "result__match", "result__best_hand")
        .order_by("kind", "rules", "rank")
    )
    for record in kept:
        if record.kind == KeptRecord.Kind.HIGHEST:
            highest.setdefault(record.rules, []).append(record.result)
        else:
            streaks.append(record.result)
    return Records(highest, season_limit_hands(club, season), streaks)
