"""The evening's results: each member's result over their matches (per rule set), ranked,
and each table with its players in place order."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property

from club.models import (
    Club,
    Member,
    Session,
)
from games.models import Chair, Match
from scoring.results import MatchResult, ordinal
from scoring.rules import short_name, tally_unit
from scoring.standings.placings import (
    exact_points,
    placing_points,
    rank_rows,
    shares_of,
    weighted_points,
)
from scoring.standings.rule_sets import RuleSetPart, UnderOneRuleSet


@dataclass
class EveningRow:
    member: Member
    rules: str = ""  # the rule set of the matches summed here (an evening row never mixes)
    result: int = 0
    hands_won: int = 0
    hands_played: int = 0
    best_total: int | None = None
    points: Fraction = Fraction(0)
    placings: list[str] = field(default_factory=list)
    rank: int | None = None


@dataclass
class EveningTable:
    number: int
    match: Match
    players: list[tuple[Chair, MatchResult | None]]
    hands: int
    # Which part of the evening at this table, when the table had several matches
    # ("first", "second"): set by Evening.listed_tables.
    which_part: str = ""

    @property
    def heading(self) -> str:
        """The table's heading, different for each match listed: "Table 4", or "Table 4,
        first part (until the table changed)" and "Table 4, second part"."""
        words = f"Table {self.number}"
        if self.which_part:
            words += f", {self.which_part} part"
        if self.match.ending == Match.Ending.TABLE_CHANGED:
            words += " (until the table changed)"
        return words

    @property
    def is_empty(self) -> bool:
        """A match that ended with nothing in it: no hand, no kong chips (so no results)."""
        return (
            not self.match.is_in_play
            and not self.hands
            and all(result is None for _, result in self.players)
        )

    @property
    def has_figures(self) -> bool:
        """Whether anything was scored here yet (a hand, or kong chips paid): a match just
        started is listed by its players alone, with no row of zeros."""
        return bool(self.hands) or any(
            result is not None and result.result for _, result in self.players
        )

    def _place_key(self, entry) -> tuple:
        chair, result = entry
        if result is not None and self.hands and result.hands_played:
            return (0, result.place, chair.number)
        return (1, 0, chair.number)  # no place (no hand played): after the placed, by seat

    @property
    def in_place_order(self) -> list[tuple[Chair, MatchResult | None]]:
        """The players by place (1st first; tied players share a place, then by seat), those
        who played no hand after them by seat."""
        return sorted(self.players, key=self._place_key)

    @property
    def unit(self) -> str:
        """What the table's results count (the match's rule set): "chips" or "points"."""
        return tally_unit(self.match.rules)

    @property
    def rules_name(self) -> str:
        return short_name(self.match.rules)

    @property
    def winners(self) -> list[Member]:
        """Who ended ahead; nobody when everyone ended level (e.g. only draws played)."""
        results = [result.result for _, result in self.players if result]
        if not results or not self.hands or min(results) == max(results):
            return []
        top = max(results)
        return [chair.member for chair, result in self.players if result and result.result == top]


@dataclass
class EveningPart(UnderOneRuleSet):
    """The evening's results under one rule set, ranked among themselves."""

    part: RuleSetPart
    rows: list[EveningRow]


@dataclass
class Evening:
    session: Session
    parts: list[EveningPart]
    tables: list[EveningTable]

    @property
    def provisional(self) -> bool:
        return not self.session.is_closed

    @property
    def split(self) -> bool:
        """Whether tables played under more than one rule set tonight (a table started
        again after the club changed its rules): each has its own results."""
        return len(self.parts) > 1

    @property
    def rows(self) -> list[EveningRow]:
        """Every part's rows, one after the other; each row is ranked within its own rule
        set (`parts`), never against another's."""
        return [row for part in self.parts for row in part.rows]

    @cached_property
    def listed_tables(self) -> list[EveningTable]:
        """The tables as the results list them: without empty matches (ended before a hand
        was played), and each match of a table that had several named by its part of the
        evening, so no two share a heading."""
        listed = [table for table in self.tables if not table.is_empty]
        by_number: dict[int, list[EveningTable]] = defaultdict(list)
        for table in listed:
            by_number[table.number].append(table)
        for parts in by_number.values():
            if len(parts) > 1:
                for index, table in enumerate(parts):
                    table.which_part = (
                        PART_WORDS[index] if index < len(PART_WORDS) else ordinal(index + 1)
                    )
        return listed


PART_WORDS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth")


def evening_results(session: Session, club: Club) -> Evening:
    """Each member's result for the evening (all their matches under one rule set added
    up) and each table. An evening whose tables played under two rule sets (a table that
    started again after the club changed its rules) has a part per rule set, each ranked
    on its own: chips and points are never added or compared. One query: the chairs with
    their matches and results."""
    points = exact_points(club)
    chairs = list(
        Chair.objects.filter(match__session=session)
        .select_related("member", "match", "result")
        .order_by("match__table_number", "match__started_at", "match_id", "number")
    )
    tables: dict[int, EveningTable] = {}
    rows: dict[tuple[str, int], EveningRow] = {}
    placed: dict[tuple[str, int], list[tuple[int, Fraction]]] = defaultdict(list)
    started: dict[str, tuple] = {}  # each rule set's first match tonight: parts in that order
    for chair in chairs:
        result = getattr(chair, "result", None)
        match = chair.match
        table = tables.setdefault(match.pk, EveningTable(match.table_number, match, [], 0))
        table.players.append((chair, result))
        started[match.rules] = min(
            started.get(match.rules, (match.started_at, match.pk)), (match.started_at, match.pk)
        )
        key = (match.rules, chair.member_id)
        row = rows.setdefault(key, EveningRow(chair.member, match.rules))
        if result is None:
            continue
        table.hands = result.match_hands
        row.result += result.result
        row.hands_won += result.hands_won
        row.hands_played += result.hands_played
        placed[key].append((result.hands_played, placing_points(shares_of(result), points)))
        if result.best_total is not None:
            row.best_total = max(row.best_total or 0, result.best_total)
        if result.hands_played:
            row.placings.append(
                f"{result.place_text} of {result.table_size} at table {table.number}"
            )
    for key, row in rows.items():
        row.points = weighted_points(placed[key])
    # A member listed under a second rule set only because they sat in a match that
    # recorded nothing under it (a table started again just before the evening ended)
    # adds nothing there: such rows are dropped when the member has results elsewhere.
    with_results = {key[1] for key in placed}
    parts = []
    for rules in sorted(started, key=started.__getitem__):
        part_rows = [
            row
            for (r, member_id), row in rows.items()
            if r == rules and ((r, member_id) in placed or member_id not in with_results)
        ]
        if not part_rows:
            continue
        ranked = sorted(part_rows, key=_evening_key(club), reverse=True)
        rank_rows(ranked, _evening_key(club))
        parts.append(EveningPart(RuleSetPart(rules, len(ranked)), ranked))
    return Evening(session, parts, list(tables.values()))


def _evening_key(club: Club):
    if club.standings_ranking == Club.Ranking.PLACINGS:
        return lambda row: (row.points, row.result)
    return lambda row: (row.result,)
