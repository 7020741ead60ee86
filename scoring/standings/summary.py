"""How did I do: a member's place at their last evening and in this season's standings, as
their home page and the top of the standings show it."""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field

from django.db.models import Exists, OuterRef

from club.models import (
    Club,
    Member,
    Session,
)
from scoring.results import MatchResult, ordinal
from scoring.rules import short_name
from scoring.standings.evening import Evening, evening_results
from scoring.standings.leaderboard import Leaderboard, LeaderRow, leaderboard
from scoring.standings.seasons import Season


def _shares_rank(rows, row) -> bool:
    return sum(1 for other in rows if other.rank == row.rank) > 1


@dataclass
class EveningPlace:
    """A member's result and place at one evening, as that evening's results show them."""

    session: Session
    result: int
    rank: int
    tied: bool
    players: int  # everyone in the evening's results under the same rule set
    unit: str = ""  # what the result counts: "chips" or "points"

    @property
    def place_text(self) -> str:
        return ordinal(self.rank, self.tied)

    @property
    def provisional(self) -> bool:
        return not self.session.is_closed


@dataclass
class SeasonPlace:
    """A member's place in a season's standings, as the leaderboard shows it."""

    season: Season
    row: LeaderRow | None  # None: the member has not played in the season
    ranked: int  # the members ranked
    members: int  # everyone on the board, ranked or not
    tied: bool
    sessions_held: int
    min_sessions: int
    unit: str = ""  # what the total counts: "chips" or "points"
    # The rule set of this board, and whether the season was played under more than one
    # (then the board counts only its own rule set's sessions, and the words say so).
    rules: str = ""
    split: bool = False
    # The member's place under each other rule set played this season (a split season).
    others: list[SeasonPlace] = field(default_factory=list)

    @property
    def rules_name(self) -> str:
        return short_name(self.rules)

    @property
    def is_ranked(self) -> bool:
        return self.row is not None and self.row.rank is not None

    @property
    def place_text(self) -> str:
        return ordinal(self.row.rank, self.tied) if self.is_ranked else ""

    @property
    def sessions_to_go(self) -> int:
        """Sessions still to play before the member is ranked."""
        return max(self.min_sessions - self.row.sessions, 0) if self.row else self.min_sessions


def evening_place(evening: Evening, member_id: int) -> EveningPlace | None:
    """The member's line of an evening's results (None when they were not in it), placed
    among those who played the same rule set; the last rule set they played when their
    table started again under another."""
    found = None
    for part in evening.parts:
        for row in part.rows:
            if row.member.pk == member_id:
                tied = _shares_rank(part.rows, row)
                found = EveningPlace(
                    evening.session, row.result, row.rank, tied, len(part.rows), part.unit
                )
    return found


def last_evening(member_id: int, club: Club) -> EveningPlace | None:
    """The member's result and place at the last evening they played (tonight's while it
    goes on), worked out as the evening's results page does (two queries); None when they
    have never played."""
    # The club's sessions backwards by date (its club and date index) until the first the
    # member has a result in: a few rows, however many years they played.
    played = MatchResult.objects.filter(session=OuterRef("pk"), member_id=member_id)
    latest = (
        Session.objects.filter(club=club).filter(Exists(played)).order_by("-date", "-pk").first()
    )
    if latest is None:
        return None
    return evening_place(evening_results(latest, club), member_id)


def season_place(board: Leaderboard, member_id: int | None, club: Club) -> SeasonPlace:
    """The member's place on a season's leaderboard (no query: read from the board). In a
    season played under several rule sets (the club changed its rules), their place under
    each other rule set they played too (a query or two each: that rule set's board)."""
    place = _place_on(board, member_id, club)
    if board.split and member_id is not None:
        for part in board.parts:
            if part.rules == board.rules:
                continue
            other = _place_on(leaderboard(club, board.season, rules=part.rules), member_id, club)
            if other.row is not None:
                place.others.append(other)
    return place


def _place_on(board: Leaderboard, member_id: int | None, club: Club) -> SeasonPlace:
    row = next((r for r in board.rows if r.member_id == member_id), None)
    tied = row is not None and row.rank is not None and _shares_rank(board.ranked, row)
    return SeasonPlace(
        board.season,
        row,
        len(board.ranked),
        len(board.rows),
        tied,
        board.sessions_held,
        club.min_sessions,
        board.part.unit,
        board.rules,
        board.split,
    )


@dataclass
class MemberSummary:
    """How a member did: their last evening and their place this season."""

    evening: EveningPlace | None
    season: SeasonPlace


def member_summary(member: Member, club: Club, today: datetime.date) -> MemberSummary:
    """The member's last evening (result and place) and their place in this season's
    standings: four queries (the board names its members by key), five when a table changed
    during the season."""
    board = leaderboard(club, Season.containing(club, today))
    return MemberSummary(last_evening(member.pk, club), season_place(board, member.pk, club))
