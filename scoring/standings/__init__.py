"""Results and standings, one module per job:

- `refresh`: keeps each chair's `MatchResult` in step with the hands (the only writes);
- `placings`: places, shares of 1st..4th, placing points, half-up rounding;
- `seasons`: which season, the seasons played, the sessions held;
- `rule_sets`: one rule set's share of a season or evening (never added to another's);
- `evening`: the evening's results;
- `leaderboard`: the season's standings;
- `member`: a member's page;
- `summary`: how did I do (last evening, place this season);
- `hands`, `records`: the club's hands and records;
- `attendance`: who came.

Every page is a fixed handful of queries however many seasons the club has played: the
sums run in the database over `MatchResult` (a row per chair per match), and only the rows
of one page come back to Python. The names below are the public API: import them from
`scoring.standings`.
"""

from scoring.standings.attendance import (
    AttendanceReport,
    MemberAttendance,
    SessionAttendance,
    attendance_report,
)
from scoring.standings.evening import (
    PART_WORDS,
    Evening,
    EveningPart,
    EveningRow,
    EveningTable,
    evening_results,
)
from scoring.standings.hands import (
    chair_names,
    club_hands,
    limit_hands,
    winner_name,
)
from scoring.standings.leaderboard import (
    COLUMNS,
    Leaderboard,
    LeaderRow,
    columns_for,
    leaderboard,
    summed_per_member,
)
from scoring.standings.member import (
    MemberPart,
    SeasonPlayed,
    member_season,
    member_special_hands,
    played_with_most,
    recent_hands,
)
from scoring.standings.placings import (
    PLACES,
    SHARE_DENOMINATOR,
    exact_points,
    exact_share,
    placing_points,
    placings,
    plain_figure,
    rank_rows,
    round_half_up,
    shares_of,
    weighted_points,
)
from scoring.standings.records import Records, records
from scoring.standings.refresh import rebuild_results, refresh_match
from scoring.standings.rule_sets import RuleSetPart, UnderOneRuleSet, rule_set_order
from scoring.standings.seasons import (
    Season,
    held_per_rule_set,
    results_in_season,
    season_from_key,
    seasons,
    seasons_between,
    span_of_sessions,
    with_season_span,
)
from scoring.standings.summary import (
    EveningPlace,
    MemberSummary,
    SeasonPlace,
    evening_place,
    last_evening,
    member_summary,
    season_place,
)

__all__ = [
    "AttendanceReport",
    "COLUMNS",
    "Evening",
    "EveningPart",
    "EveningPlace",
    "EveningRow",
    "EveningTable",
    "LeaderRow",
    "Leaderboard",
    "MemberAttendance",
    "MemberPart",
    "MemberSummary",
    "PART_WORDS",
    "PLACES",
    "Records",
    "RuleSetPart",
    "SHARE_DENOMINATOR",
    "Season",
    "SeasonPlace",
    "SeasonPlayed",
    "SessionAttendance",
    "UnderOneRuleSet",
    "attendance_report",
    "chair_names",
    "club_hands",
    "columns_for",
    "evening_place",
    "evening_results",
    "exact_points",
    "exact_share",
    "held_per_rule_set",
    "last_evening",
    "leaderboard",
    "limit_hands",
    "member_season",
    "member_special_hands",
    "member_summary",
    "placing_points",
    "placings",
    "plain_figure",
    "played_with_most",
    "rank_rows",
    "rebuild_results",
    "recent_hands",
    "records",
    "refresh_match",
    "results_in_season",
    "round_half_up",
    "rule_set_order",
    "season_from_key",
    "season_place",
    "summed_per_member",
    "seasons",
    "seasons_between",
    "shares_of",
    "span_of_sessions",
    "weighted_points",
    "winner_name",
    "with_season_span",
]
