"""Results and standings: keeping each chair's match figures in step with the hands, and
the queries behind the evening's results, the season's leaderboard, member pages and
the club's records.

Writes: `refresh_match` runs inside the transaction that records, voids or undoes a hand
(scoring.recording calls it), so `MatchResult` never disagrees with the hands that count.
`rebuild_results` recomputes everything from the hands (the management command
`rebuild_standings`, and data loaded without the recording functions).

Reads: every page is a fixed handful of queries however many seasons the club has played:
the sums run in the database over `MatchResult` (a row per chair per match), and only the
rows of one page (one evening, one season's members) come back to Python.
"""

from __future__ import annotations

import datetime
import hashlib
from collections import defaultdict
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from functools import cached_property

from django.db import transaction
from django.db.models import Count, Exists, F, Max, Min, OuterRef, Q, Subquery, Sum
from django.utils import timezone

from club.models import (
    FIRST_SESSION_DATE,
    LAST_SESSION_DATE,
    Attendance,
    Club,
    Member,
    Session,
)
from games import flow
from games.models import Chair, Match
from scoring.models import Hand, KongChips, features
from scoring.results import MatchResult, ordinal
from scoring.rules import hand_unit, rule_set_choices, short_name, tally_unit
from scoring.table_rules import limit_total

# --- placings ---------------------------------------------------------------------------

PLACES = 4  # placing points are given for 1st to 4th


def _position_shares(position: int, size: int) -> list[Fraction]:
    """How much of each of 1st..4th place the `position`-th (from 1) of `size` players earns.

    The first always earns 1st place and the last 4th place; those between are spread
    evenly (at a table of five the 2nd earns 3/4 of 2nd and 1/4 of 1st), so every table
    shares out the same points on average whether it seats three, four or five."""
    shares = [Fraction(0)] * PLACES
    if size <= 1:
        shares[0] = Fraction(1)
        return shares
    q = Fraction((position - 1) * (PLACES - 1), size - 1)  # 0 = 1st .. 3 = 4th
    low = int(q)
    frac = q - low
    shares[low] += 1 - frac
    if frac:
        shares[low + 1] += frac
    return shares


def placings(results: list[int]) -> list[tuple[int, bool, list[Fraction]]]:
    """For each player's result at one table: their place (tied players share the best
    of the places they cover), whether they tied, and their shares of 1st..4th place
    (tied players share the points of the places they cover), as exact fractions."""
    size = len(results)
    order = sorted(range(size), key=lambda chair: -results[chair])
    out: list[tuple[int, bool, list[Fraction]]] = [(0, False, [])] * size
    start = 0
    while start < size:
        end = start
        while end + 1 < size and results[order[end + 1]] == results[order[start]]:
            end += 1
        positions = range(start + 1, end + 2)
        shares = [Fraction(0)] * PLACES
        for position in positions:
            for place, share in enumerate(_position_shares(position, size)):
                shares[place] += share / len(positions)
        for chair in order[start : end + 1]:
            out[chair] = (start + 1, end > start, shares)
        start = end + 1
    return out


# Every share of a place is a multiple of 1/240 (places spread in quarters at five and
# halves at three, split between up to five tied players), so the stored floats, and their
# sums, read back exactly: placing points are then exact fractions, and a figure exactly
# half-way rounds up, never by float noise.
SHARE_DENOMINATOR = 240


def exact_share(value: float | None) -> Fraction:
    """A stored share of a place (or a sum of them) as the exact fraction it stands for."""
    return Fraction(round((value or 0) * SHARE_DENOMINATOR), SHARE_DENOMINATOR)


def exact_points(club: Club) -> list[Fraction]:
    """The club's placing points as exact numbers (e.g. 3.5 is 7/2, not a float)."""
    return [Fraction(repr(float(p))) for p in club.placing_points_list]


def round_half_up(value, places: int = 2) -> Decimal:
    """`value` (a whole number, a Fraction, a Decimal; a float as the decimal it prints
    as) to `places` decimals, a half rounded away from zero as a spreadsheet's ROUND does:
    0.225 is 0.23 and 0.975 is 0.98, whatever binary floats would make of them."""
    if isinstance(value, float):
        value = Fraction(repr(value))
    scaled = Fraction(value) * 10**places
    whole, rest = divmod(abs(scaled.numerator), scaled.denominator)
    if 2 * rest >= scaled.denominator:
        whole += 1
    return Decimal(-whole if scaled < 0 else whole).scaleb(-places)


def plain_figure(value, places: int = 2) -> str:
    """`round_half_up` as text without trailing zeros: "2.5", "0.23", "4"."""
    text = f"{round_half_up(value, places):f}"
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


# --- keeping MatchResult in step ----------------------------------------------------------


def _limit(match: Match) -> int | None:
    return limit_total(match)


def _figures(
    match: Match, chairs: list[Chair], hands: list[Hand], kongs, states=None
) -> list[MatchResult]:
    """Each chair's row of the match, from its live hands and kong chips (and the flow's
    states over those hands, if already worked out). A match where nothing counts (no
    hand, no kong chips) has no rows, while the evening runs and after a rebuild alike: an
    empty match is no session played."""
    if not hands and not kongs:
        return []
    size = len(chairs)
    result = [0] * size
    played = [0] * size
    won = [0] * size
    best: list[Hand | None] = [None] * size
    streak = [0] * size
    run = [0] * size
    limits = [0] * size
    limit = _limit(match)
    sitting_out: list[int | None] = [None] * len(hands)
    if size == 5:  # the Dreamer sits out one hand in five: the flow says which
        try:
            states = match.replay(hands) if states is None else states
            sitting_out = [state.sitting_out for state in states[: len(hands)]]
        except flow.FlowError:
            pass
    for hand, out in zip(hands, sitting_out, strict=True):
        payments = hand.payments
        for chair in range(size):
            result[chair] += payments[chair]
            if chair == out:
                # A run is hands won one after another at the table: a hand sat out (which
                # someone else won, or was drawn) ends it, as the records page says.
                run[chair] = 0
                continue
            played[chair] += 1
            if hand.winner == chair:
                won[chair] += 1
                run[chair] += 1
                streak[chair] = max(streak[chair], run[chair])
                if limit is not None and hand.total >= limit:
                    limits[chair] += 1
                if best[chair] is None or hand.total > best[chair].total:
                    best[chair] = hand
            else:
                run[chair] = 0
    for kong in kongs:
        for chair, paid in enumerate(kong.payments[:size]):
            result[chair] += paid
    # No hands, no place: the places are shared among the players who played a hand here
    # (a Dreamer who sat out the only hand, a table with only kong chips, places nobody).
    placed = [c for c in range(size) if played[c]]
    places = dict(zip(placed, placings([result[c] for c in placed]), strict=True))
    unplaced = (0, False, [Fraction(0)] * PLACES)
    rows = []
    for chair in chairs:
        c = chair.number
        place, tied, shares = places.get(c, unplaced)
        rows.append(
            MatchResult(
                chair=chair,
                match=match,
                session_id=match.session_id,
                member_id=chair.member_id,
                result=result[c],
                hands_played=played[c],
                match_hands=len(hands),
                hands_won=won[c],
                best_total=best[c].total if best[c] else None,
                best_hand=best[c],
                longest_streak=streak[c],
                limit=limit,
                rules=match.rules,
                limit_hands=limits[c],
                table_size=len(placed),  # the players placed: "2nd of 4"
                place=place,
                tied=tied,
                first=float(shares[0]),
                second=float(shares[1]),
                third=float(shares[2]),
                fourth=float(shares[3]),
            )
        )
    return rows


_FIELDS = [
    "result",
    "hands_played",
    "match_hands",
    "hands_won",
    "best_total",
    "best_hand",
    "longest_streak",
    "limit",
    "limit_hands",
    "rules",
    "table_size",
    "place",
    "tied",
    "first",
    "second",
    "third",
    "fourth",
]


def _save_rows(match: Match, chairs: list[Chair], rows: list[MatchResult]) -> None:
    """Write the match's rows, only the fields and rows that changed, and each member's
    weight for the evening (see _reweigh), from one read of their rows that evening."""
    members = [chair.member_id for chair in chairs]
    evening = list(MatchResult.objects.filter(session_id=match.session_id, member_id__in=members))
    existing = {row.chair_id: row for row in evening if row.match_id == match.pk}
    # A chair with no row now (every hand undone or voided) loses the one it had.
    kept = {row.chair_id for row in rows}
    gone = [row.pk for chair_id, row in existing.items() if chair_id not in kept]
    if gone:
        MatchResult.objects.filter(pk__in=gone).delete()
    others = [row for row in evening if row.match_id != match.pk]
    _weigh([*others, *rows])
    new, changed, fields = [], [], set()
    for row in rows:
        old = existing.get(row.chair_id)
        if old is None:
            new.append(row)
            continue
        row.pk = old.pk
        differ = {name for name in _UPDATED if getattr(row, name) != getattr(old, name)}
        if differ:
            changed.append(row)
            fields |= differ
    MatchResult.objects.bulk_create(new, batch_size=500)
    if changed:
        MatchResult.objects.bulk_update(changed, sorted(fields), batch_size=500)
    reweighed = [row for row in others if row.weight != row.stored_weight]
    MatchResult.objects.bulk_update(reweighed, ["weight"], batch_size=500)


# The columns of a row (attnames: best_hand_id, not the hand) that a refresh may change.
_UPDATED = [MatchResult._meta.get_field(name).attname for name in [*_FIELDS, "weight"]]


def _weigh(rows: list[MatchResult]) -> None:
    """Set each row's weight (see _reweigh) from all of its member's rows that evening;
    `stored_weight` keeps what it was."""
    hands = defaultdict(int)
    for row in rows:
        row.stored_weight = row.weight
        hands[row.session_id, row.member_id, row.rules] += row.hands_played
    for row in rows:
        key = row.session_id, row.member_id, row.rules
        row.weight = row.hands_played / hands[key] if hands[key] else 0.0


def _reweigh(session_ids, member_ids=None) -> None:
    """Each member's placing counts once per evening (and rule set): when their table
    changed during the evening, each match weighs by the share of their hands played in it."""
    rows = MatchResult.objects.filter(session_id__in=session_ids)
    if member_ids is not None:
        rows = rows.filter(member_id__in=member_ids)
    rows = list(rows.only("pk", "session_id", "member_id", "rules", "hands_played", "weight"))
    hands = defaultdict(int)
    # Per rule set: standings are kept per rule set, so an evening whose tables played
    # under two (a table started again after the club changed its rules) counts once in
    # each rule set's standings.
    for row in rows:
        hands[row.session_id, row.member_id, row.rules] += row.hands_played
    changed = []
    for row in rows:
        key = row.session_id, row.member_id, row.rules
        # No hands that evening, no place: nothing to weigh.
        weight = row.hands_played / hands[key] if hands[key] else 0.0
        if row.weight != weight:
            row.weight = weight
            changed.append(row)
    MatchResult.objects.bulk_update(changed, ["weight"], batch_size=500)


def refresh_match(match: Match, *, hands=None, kongs=None, states=None) -> None:
    """Recompute the match's rows from its live hands and kong chips. Call it inside the
    transaction that changed them; a write that has just read them (and replayed the
    match's flow over the hands: `states`) passes them in."""
    chairs = match.chair_list()  # a match's chairs never change
    if hands is None:
        hands = list(match.hands.live().order_by("number"))
    if kongs is None:
        kongs = list(match.kong_chips.filter(voided_at__isnull=True))
    _save_rows(match, chairs, _figures(match, chairs, hands, kongs, states))


@transaction.atomic
def rebuild_results(matches=None) -> int:
    """Recompute the rows of `matches` (all matches by default) from their hands, in bulk.
    Returns how many matches were done."""
    matches = list((matches if matches is not None else Match.objects.all()).order_by("pk"))
    ids = [m.pk for m in matches]
    chairs, hands, kongs = defaultdict(list), defaultdict(list), defaultdict(list)
    for start in range(0, len(ids), 500):
        batch = ids[start : start + 500]
        for chair in Chair.objects.filter(match_id__in=batch).order_by("number"):
            chairs[chair.match_id].append(chair)
        for hand in Hand.objects.live().filter(match_id__in=batch).order_by("number"):
            hands[hand.match_id].append(hand)
        for kong in KongChips.objects.filter(match_id__in=batch, voided_at__isnull=True):
            kongs[kong.match_id].append(kong)
    rows = []
    for match in matches:
        match._chairs = chairs[match.pk]
        match._chair_count = len(chairs[match.pk])
        rows += _figures(match, chairs[match.pk], hands[match.pk], kongs[match.pk])
    MatchResult.objects.filter(match_id__in=ids).delete()
    MatchResult.objects.bulk_create(rows, batch_size=500)
    _reweigh({m.session_id for m in matches})
    return len(matches)


# --- seasons ---------------------------------------------------------------------------------


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


def span_of_sessions(club, season: Season) -> dict:
    """Annotations: the club's first and last session dates and the sessions played in
    `season` (`first_date`, `last_date`, `held`), as subqueries, so a page reads them in
    the same statement as its rows. `club` is a Club, or OuterRef("club") for members."""
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
        _in_season(club, season)
        .values("rules")
        .annotate(n=Count("session_id", distinct=True))
        .values_list("rules", "n")
        .order_by()
    )


def with_season_span(members, season: Season):
    """Members annotated with the club's span of sessions (see `span_of_sessions`), for
    the season picker in the same query as the member."""
    return members.annotate(**span_of_sessions(OuterRef("club"), season))


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


# --- the evening's results -----------------------------------------------------------


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


class _UnderOneRuleSet:
    """Figures under one rule set (`part`): its name and units, read from the part."""

    part: RuleSetPart

    @property
    def rules(self) -> str:
        return self.part.rules

    @property
    def name(self) -> str:
        return self.part.name

    @property
    def unit(self) -> str:
        return self.part.unit

    @property
    def hand_unit(self) -> str:
        return self.part.hand_unit


@dataclass
class EveningPart(_UnderOneRuleSet):
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


def _points(shares, points: list[Fraction]) -> Fraction:
    """Placing points, exactly, for stored shares (or sums of shares) of 1st..4th place."""
    return sum(
        (exact_share(share) * p for share, p in zip(shares, points, strict=True)), Fraction(0)
    )


def _shares(result: MatchResult) -> tuple:
    return (result.first, result.second, result.third, result.fourth)


def _weighted(matches: list[tuple[int, Fraction]]) -> Fraction:
    """A member's placing points for one evening from (hands played, placing points) per
    match: each match weighs by its share of their hands, so the evening counts once."""
    hands = sum(played for played, _ in matches)
    if not hands:
        return Fraction(0)
    return sum((played * points for played, points in matches), Fraction(0)) / hands


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
        placed[key].append((result.hands_played, _points(_shares(result), points)))
        if result.best_total is not None:
            row.best_total = max(row.best_total or 0, result.best_total)
        if result.hands_played:
            row.placings.append(
                f"{result.place_text} of {result.table_size} at table {table.number}"
            )
    for key, row in rows.items():
        row.points = _weighted(placed[key])
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
        _rank(ranked, _evening_key(club))
        parts.append(EveningPart(RuleSetPart(rules, len(ranked)), ranked))
    return Evening(session, parts, list(tables.values()))


def _evening_key(club: Club):
    if club.standings_ranking == Club.Ranking.PLACINGS:
        return lambda row: (row.points, row.result)
    return lambda row: (row.result,)


def _rank(rows, key) -> None:
    """Standard competition ranking: equal keys share a rank (1, 2, 2, 4)."""
    previous = None
    for index, row in enumerate(rows, start=1):
        value = key(row)
        if value != previous:
            rank = index
        row.rank = rank
        previous = value


# --- the season's leaderboard -------------------------------------------------------------


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


@dataclass(frozen=True)
class RuleSetPart:
    """One rule set's share of a season or an evening: its figures are kept apart from
    every other rule set's (chips, points and fan never add up or compare)."""

    rules: str
    results: int = 0  # result rows (a member's match) under these rules

    @property
    def name(self) -> str:
        return short_name(self.rules)

    @property
    def unit(self) -> str:
        """What its totals, averages and results count: "chips" or "points"."""
        return tally_unit(self.rules)

    @property
    def hand_unit(self) -> str:
        """What its hands (best hand, limit hands) count: "points", "faan" or "fan"."""
        return hand_unit(self.rules)


def _rule_set_order(rules: str) -> int:
    names = [name for name, _ in rule_set_choices()]
    return names.index(rules) if rules in names else len(names)


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


def _in_season(club: Club, season: Season):
    return MatchResult.objects.filter(
        session__club=club, session__date__gte=season.start, session__date__lt=season.end
    )


def season_results(club: Club, season: Season):
    """The season's MatchResult rows of the club, summed per member and rule set in the
    database (never across rule sets: chips, points and fan do not add up). The placing is
    summed as shares of 1st..4th place over the results that count whole (`whole_first`..),
    which read back exactly; `partly` counts the others (see `_partly_placed`)."""
    whole = Q(weight=1)
    return (
        _in_season(club, season)
        .values("rules", "member_id", "member__table_name", "member__user_id")
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
        _in_season(club, season)
        .filter(_PARTLY, member_id__in=member_ids, rules=rules)
        .values_list("member_id", "session_id", "hands_played", *_SHARE_FIELDS)
    ):
        matches[member_id, session_id].append((played, _points(shares, points)))
    found: dict[int, Fraction] = defaultdict(Fraction)
    for (member_id, _), evening in matches.items():
        found[member_id] += _weighted(evening)
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
    figure among those who played the minimum number of sessions, then the others. One
    query: every rule set's rows (so the page can offer the others), the sessions held
    under each and the club's span of sessions (`span`, for the season picker) come
    together."""
    every = list(season_results(club, season).annotate(**span_of_sessions(club, season)))
    counts: dict[str, int] = defaultdict(int)
    for r in every:
        counts[r["rules"]] += r["results"]
    parts = [
        RuleSetPart(name, n)
        for name, n in sorted(counts.items(), key=lambda kv: _rule_set_order(kv[0]))
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
    rows = [
        LeaderRow(
            member_id=r["member_id"],
            name=r["member__table_name"],
            sessions=r["sessions"],
            total=r["total"] or 0,
            hands_played=r["played"] or 0,
            hands_won=r["won"] or 0,
            points=_points([r[f"whole_{name}"] for name in _SHARE_FIELDS], points)
            + partly.get(r["member_id"], Fraction(0)),
            best_total=r["best"],
            user_id=r["member__user_id"],
        )
        for r in results
    ]
    ranking = _RANKING_KEYS[club.standings_ranking]
    rows.sort(key=lambda row: row.name.lower())
    rows.sort(key=ranking, reverse=True)
    ranked = [row for row in rows if row.sessions >= club.min_sessions]
    unranked = [row for row in rows if row.sessions < club.min_sessions]
    _rank(ranked, ranking)
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


# --- member page ---------------------------------------------------------------------------


def member_sessions(member: Member, season: Season):
    """The member's result per session and rule set of the season, oldest first (one
    query): an evening whose tables played under two rule sets has a row for each."""
    return (
        MatchResult.objects.filter(
            member=member, session__date__gte=season.start, session__date__lt=season.end
        )
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
class MemberPart(_UnderOneRuleSet):
    """A member's season under one rule set: its sessions, total and sessions held."""

    part: RuleSetPart
    sessions: list[dict]
    held: int

    @property
    def total(self) -> int:
        return sum(s["result"] for s in self.sessions)


def member_season(member: Member, club: Club, season: Season) -> list[MemberPart]:
    """The member's season kept per rule set, in the order of the club's choices (one
    query, their sessions; `member` comes from `with_season_span`, which counted the
    sessions held; one more when they played under two rule sets)."""
    rows = list(member_sessions(member, season))
    by_rules: dict[str, list[dict]] = defaultdict(list)
    for row in rows:
        by_rules[row["rules"]].append(row)
    if len(by_rules) > 1:
        held = held_per_rule_set(club, season)
    else:
        held = {rules: member.held or 0 for rules in by_rules}
    return [
        MemberPart(RuleSetPart(rules, len(found)), found, held.get(rules, 0))
        for rules, found in sorted(by_rules.items(), key=lambda kv: _rule_set_order(kv[0]))
    ]


def played_with_most(member: Member, limit: int = 5):
    """Who sat at the member's tables on the most evenings."""
    return (
        Chair.objects.filter(match__chairs__member=member)
        .exclude(member=member)
        .values("member_id", "member__table_name")
        .annotate(evenings=Count("match__session", distinct=True))
        .order_by("-evenings", "member__table_name")[:limit]
    )


def winner_name():
    """An annotation: the table name of a hand's winner."""
    return Subquery(
        Chair.objects.filter(match=OuterRef("match"), number=OuterRef("winner")).values(
            "member__table_name"
        )[:1]
    )


def recent_hands(member: Member, limit: int = 10) -> list[Hand]:
    """The last hands the member played, each with `my_payment` (what they won or paid)."""
    hands = list(
        Hand.objects.live()
        .filter(
            # only the member's latest matches: never a sort of every hand they played
            match_id__in=MatchResult.objects.filter(member=member)
            .order_by("-session__date", "-match_id")
            .values("match_id")[:limit],
            match__chairs__member=member,
        )
        .annotate(my_chair=F("match__chairs__number"), winner_name=winner_name())
        .select_related("match__session")
        .order_by("-match__session__date", "-match__started_at", "-number")[:limit]
    )
    for hand in hands:
        hand.my_payment = hand.payments[hand.my_chair]
    return hands


# --- how a member did: their home page and the top of the standings ------------------------


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
    latest = (
        MatchResult.objects.filter(member_id=member_id, session__club=club)
        .select_related("session")
        .order_by("-session__date", "-session_id")
        .first()
    )
    if latest is None:
        return None
    return evening_place(evening_results(latest.session, club), member_id)


def season_place(board: Leaderboard, member_id: int | None, club: Club) -> SeasonPlace:
    """The member's place on a season's leaderboard (no query: read from the board)."""
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
    )


@dataclass
class MemberSummary:
    """How a member did: their last evening and their place this season."""

    evening: EveningPlace | None
    season: SeasonPlace


def member_summary(member: Member, club: Club, today: datetime.date) -> MemberSummary:
    """The member's last evening (result and place) and their place in this season's
    standings: three queries, four when a table changed during the season."""
    board = leaderboard(club, Season.containing(club, today))
    return MemberSummary(last_evening(member.pk, club), season_place(board, member.pk, club))


# --- club records ----------------------------------------------------------------------------


def limit_hands(club: Club, member: Member | None = None):
    """Live hands worth their match's limit or more, with `winner_name`: found from the
    few results holding a limit hand (a partial index holds only them), each the winner's
    own row, which carries the limit of the rules its match was played under."""
    return (
        Hand.objects.live()
        .filter(
            # one filter(): every condition on the same (the winner's) result row
            match__results__limit_hands__gt=0,
            match__results__chair__number=F("winner"),
            total__gte=F("match__results__limit"),
            match__session__club=club,
            **({"match__results__member": member} if member else {}),
        )
        .annotate(winner_name=F("match__results__member__table_name"))
        .select_related("match__session")
    )


def club_hands(club: Club):
    return (
        Hand.objects.live()
        .filter(match__session__club=club, winner__isnull=False)
        .annotate(winner_name=winner_name())
        .select_related("match__session")
    )


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
    tops = Q()
    for rules, _ in rule_set_choices():
        top = (
            MatchResult.objects.filter(session__club=club, rules=rules, best_total__isnull=False)
            .order_by("-best_total", "chair_id")
            .values("pk")[:limit]
        )
        tops |= Q(pk__in=top)
    best = (
        MatchResult.objects.filter(tops)
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
        MatchResult.objects.filter(session__club=club, longest_streak__gte=2)
        .select_related("member", "session")
        # Ties earliest first by chair (a chair keeps its id through a rebuild and a backup
        # restored; a result row is numbered anew, so ties by it would swap places).
        .order_by("-longest_streak", "chair_id")[:limit]
    )
    return Records(highest, limits, streaks)


def member_special_hands(member: Member, club: Club) -> list[Hand]:
    """The member's limit hands, latest first."""
    return list(limit_hands(club, member).order_by("-match__session__date", "-number"))


def chair_names(club: Club, season: Season) -> dict[int, list[str]]:
    """Each match of the season: its players' table names in chair order (one query)."""
    names: dict[int, list[str]] = defaultdict(list)
    chairs = (
        Chair.objects.filter(
            match__session__club=club,
            match__session__date__gte=season.start,
            match__session__date__lt=season.end,
        )
        .order_by("match_id", "number")
        .values_list("match_id", "member__table_name")
    )
    for match_id, name in chairs:
        names[match_id].append(name)
    return names


# --- attendance --------------------------------------------------------------------------------


@dataclass
class SessionAttendance:
    date: datetime.date
    present: int
    names: list[str]


@dataclass
class MemberAttendance:
    name: str
    attended: int
    held: int

    @property
    def share(self) -> Fraction:
        return Fraction(100 * self.attended, self.held) if self.held else Fraction(0)


@dataclass
class AttendanceReport:
    held: int
    sessions: list[SessionAttendance]
    members: list[MemberAttendance]


def attendance_report(club: Club, season: Season) -> AttendanceReport:
    """Who came to each session of the season (checked in, whether or not they played),
    and each member's count against the sessions held so far."""
    sessions = list(season.sessions(club).filter(date__lte=timezone.localdate()).order_by("date"))
    by_session: dict[int, list[str]] = defaultdict(list)
    counts: dict[int, int] = defaultdict(int)
    names: dict[int, str] = {}
    for session_id, member_id, name in (
        Attendance.objects.filter(session__in=sessions)
        .order_by("member__table_name")
        .values_list("session_id", "member_id", "member__table_name")
    ):
        by_session[session_id].append(name)
        counts[member_id] += 1
        names[member_id] = name
    held = len(sessions)
    return AttendanceReport(
        held=held,
        sessions=[
            SessionAttendance(s.date, len(by_session[s.pk]), by_session[s.pk]) for s in sessions
        ],
        members=sorted(
            (MemberAttendance(names[m], n, held) for m, n in counts.items()),
            key=lambda m: (-m.attended, m.name.lower()),
        ),
    )
