"""Standings checked against a small season worked out by hand.

Season 2026 (calendar year), placing points 4-2-1-0, two sessions needed to be ranked:

8 Jan, classical. Table 1, A B C D: A wins 100 (+300 -100 -100 -100), A wins 20 on C's
  discard (+40, C -40), a hand of 1000 to D recorded in error and voided, D wins 40
  (A B C -40 each, D +120). A +300, B -140, C -180, D +20; A won two in a row.
  Table 2, a table of three, E F G: E wins 60 (+120, -60, -60), a draw. F and G tie
  for 2nd of 3 and share its points: (2nd of 3 = half 2nd, half 3rd) and (3rd of 3 =
  4th): 0.75 points each.
15 Jan, the club has changed to U3A rules (its standings are kept apart from classical's). Table 1, a table of five, A B C D E (E the
  Dreamer sits out hands 1 and 2, A sits out hand 3 after a draw... see below):
  A wins 10 (+30, B C D -10), B wins 12 on C's discard (+24, C -24), a draw.
  A +30 (2 hands), B +14, C -34, D -10, E 0 (1 hand). Places of five earn 1st, 3/4 of
  2nd and 1/4 of 1st, half 2nd and half 3rd, 3/4 of 3rd and 1/4 of 4th, 4th:
  A 4, B 2.5, E 1.5, D 0.75, C 0.
22 Jan, still in play, U3A. Table 1 A B C D: B wins 8 (+24, others -8); then D leaves
  and H sits down: a new match A B C H: H wins 5 on A's discard, A wins 6 (+18, -6 each).
  First match: B 4 points, A C D tie for 2nd-4th: 1 point each. Second: A 13 (4 points),
  H -1 (2), B and C -6 (0.5 each). A, B and C played 1 hand then 2: their placings
  weigh 1/3 and 2/3. The evening: B +18, A +5, H -1, D -8, C -14.
"""

import datetime
from fractions import Fraction

import pytest

from club.models import Club, Session
from scoring import standings
from scoring.results import MatchResult, ordinal
from tests.factories import MemberFactory
from tests.scoring.standings_helpers import draw, play, session_on, win

pytestmark = pytest.mark.django_db


@pytest.fixture
def season(club):
    club.placing_points = "4-2-1-0"
    club.min_sessions = 2
    club.save()
    m = {name: MemberFactory(club=club, table_name=name) for name in "ABCDEFGH"}
    A, B, C, D, E, F, G, H = (m[n] for n in "ABCDEFGH")
    s1 = session_on(club, datetime.date(2026, 1, 8), members=[A, B, C, D, E, F, G])
    play(
        s1,
        1,
        [A, B, C, D],
        [
            win(0, 100, [300, -100, -100, -100]),
            win(0, 20, [40, 0, -40, 0], discarder=2),
            win(3, 1000, [-1000, -1000, -1000, 3000], voided=True),
            win(3, 40, [-40, -40, -40, 120]),
        ],
    )
    play(s1, 2, [E, F, G], [win(0, 60, [120, -60, -60]), draw(3)])
    s2 = session_on(club, datetime.date(2026, 1, 15), members=[A, B, C, D, E])
    play(
        s2,
        1,
        [A, B, C, D, E],
        [
            win(0, 10, [30, -10, -10, -10, 0]),
            win(1, 12, [0, 24, -24, 0, 0], discarder=2),
            draw(5),
        ],
        rules="u3a",
    )
    s3 = session_on(club, datetime.date(2026, 1, 22), Session.Status.IN_PLAY, [A, B, C, D, H])
    play(s3, 1, [A, B, C, D], [win(1, 8, [-8, 24, -8, -8])], rules="u3a", ending="table_changed")
    play(
        s3,
        1,
        [A, B, C, H],
        [
            win(3, 5, [-5, 0, 0, 5], discarder=0),
            win(0, 6, [18, -6, -6, -6]),
        ],
        rules="u3a",
        ending=None,
    )
    club.refresh_from_db()
    return club, m, (s1, s2, s3)


def board_figures(board):
    return {
        row.name: (
            row.rank,
            row.total,
            row.sessions,
            row.hands_played,
            row.hands_won,
            row.points,  # exact: a Fraction
            row.best_total,
        )
        for row in board.rows
    }


def test_the_season_by_hand_per_rule_set(season):
    """The season was played under two rule sets: classical points and U3A chips never
    add up, so each rule set has its own standings (the club plays classical here, so
    those are shown first)."""
    club, m, _ = season
    s = standings.Season.containing(club, datetime.date(2026, 3, 1))
    board = standings.leaderboard(club, s)
    assert (board.rules, [p.rules for p in board.parts]) == ("classical", ["classical", "u3a"])
    assert board.split and board.sessions_held == 1
    # One classical session: nobody has the two sessions needed to be ranked.
    assert board.ranked == []
    assert board_figures(board) == {
        "A": (None, 300, 1, 3, 2, 4, 100),
        "E": (None, 120, 1, 2, 1, 4, 60),
        "D": (None, 20, 1, 3, 1, 2, 40),
        "F": (None, -60, 1, 2, 0, 0.75, None),
        "G": (None, -60, 1, 2, 0, 0.75, None),
        "B": (None, -140, 1, 3, 0, 1, None),
        "C": (None, -180, 1, 3, 0, 0, None),
    }
    assert [row.name for row in board.rows] == ["A", "E", "D", "F", "G", "B", "C"]
    board = standings.leaderboard(club, s, rules="u3a")
    assert (board.rules, board.sessions_held) == ("u3a", 2)
    assert board_figures(board) == {
        "A": (1, 35, 2, 5, 2, 7, 10),
        "B": (2, 32, 2, 6, 2, Fraction(25, 6), 12),
        "D": (3, -18, 2, 4, 0, Fraction(7, 4), None),
        "C": (4, -48, 2, 6, 0, Fraction(2, 3), None),
        "E": (None, 0, 1, 1, 0, Fraction(3, 2), None),
        "H": (None, -1, 1, 2, 1, 2, 5),
    }
    assert [row.name for row in board.ranked] == ["A", "B", "D", "C"]
    assert board.ranked[0].average == Fraction(35, 2)
    assert board.ranked[0].win_rate == 40


def test_the_default_rule_set_is_the_clubs_if_played_else_the_most_played(season):
    club, _, _ = season
    s = standings.Season.containing(club, datetime.date(2026, 3, 1))
    club.rule_set = "u3a"
    assert standings.leaderboard(club, s).rules == "u3a"
    club.rule_set = "hk"  # not played this season: the rule set with the most results
    assert standings.leaderboard(club, s).rules == "u3a"
    board = standings.leaderboard(club, s, rules="fan")
    assert board.rules == "u3a" and "No results under Fan rules this season" in (
        board.rules_problem
    )
    board = standings.leaderboard(club, s, rules="<script>")
    assert board.rules == "u3a" and "no rule set called that" in board.rules_problem


def test_ranking_by_placing_points_and_by_average(season):
    club, _, _ = season
    s = standings.Season.containing(club, datetime.date(2026, 1, 1))
    club.standings_ranking = Club.Ranking.PLACINGS
    ranked = standings.leaderboard(club, s, rules="u3a").ranked
    assert [r.name for r in ranked] == ["A", "B", "D", "C"]
    club.standings_ranking = Club.Ranking.AVERAGE
    assert [r.name for r in standings.leaderboard(club, s, rules="u3a").ranked] == [
        "A",
        "B",
        "D",
        "C",
    ]
    club.placing_points = "3-2-1-0"
    club.standings_ranking = Club.Ranking.PLACINGS
    points = {r.name: r.points for r in standings.leaderboard(club, s, rules="u3a").rows}
    # A: 3 + (1/3 of 1 + 2/3 of 3); E: half of 2 and half of 1.
    assert points["A"] == 3 + Fraction(1, 3) + 2 and points["E"] == Fraction(3, 2)
    points = {r.name: r.points for r in standings.leaderboard(club, s).rows}
    assert points["A"] == 3 and points["E"] == 3  # classical: each 1st at their table


def test_sorting_by_a_column_keeps_unranked_members_last(season):
    club, _, _ = season
    s = standings.Season.containing(club, datetime.date(2026, 1, 1))
    board = standings.leaderboard(club, s, "won", rules="u3a")
    # Ties keep the ranking order (A above B, D above C).
    assert [r.name for r in board.rows] == ["A", "B", "D", "C", "H", "E"]
    board = standings.leaderboard(club, s, "name", descending=True, rules="u3a")
    assert [r.name for r in board.ranked] == ["D", "C", "B", "A"]
    board = standings.leaderboard(club, s, "rank", descending=True, rules="u3a")
    assert [r.name for r in board.ranked] == ["C", "D", "B", "A"]
    assert standings.leaderboard(club, s, "nonsense").sort == "rank"


def test_the_evening_adds_up_two_matches_and_is_provisional(season):
    club, m, (s1, s2, s3) = season
    evening = standings.evening_results(s3, club)
    assert evening.provisional
    rows = {
        r.member.table_name: (r.rank, r.result, r.hands_won, r.hands_played, r.points)
        for r in evening.rows
    }
    assert rows == {
        "B": (1, 18, 1, 3, Fraction(5, 3)),
        "A": (2, 5, 1, 3, 3),
        "H": (3, -1, 1, 2, 2),
        "D": (4, -8, 0, 1, 1),
        "C": (5, -14, 0, 3, Fraction(2, 3)),
    }
    assert [[w.table_name for w in t.winners] for t in evening.tables] == [["B"], ["A"]]
    a = next(r for r in evening.rows if r.member.table_name == "A")
    assert a.placings == ["joint 2nd of 4 at table 1", "1st of 4 at table 1"]
    assert not standings.evening_results(s1, club).provisional


def test_a_table_where_everyone_ended_level_has_no_winner(club):
    people = [MemberFactory(club=club) for _ in range(4)]
    session = session_on(club, datetime.date(2026, 2, 4), members=people)
    play(session, 1, people[:3], [draw(3)], rules="u3a")
    play(session, 2, people, [win(0, 8, [24, -8, -8, -8])], rules="u3a")
    evening = standings.evening_results(session, club)
    assert [t.hands for t in evening.tables] == [1, 1]
    assert [[w.pk for w in t.winners] for t in evening.tables] == [[], [people[0].pk]]


def test_the_table_of_five_counts_who_sat_out(season):
    club, m, (s1, s2, s3) = season
    rows = {
        r.member.table_name: (r.result, r.hands_played, r.points)
        for r in standings.evening_results(s2, club).rows
    }
    assert rows == {
        "A": (30, 2, 4.0),
        "B": (14, 3, 2.5),
        "E": (0, 1, 1.5),
        "D": (-10, 3, 0.75),
        "C": (-34, 3, 0.0),
    }
    # The table played three hands, though nobody played all three.
    assert [t.hands for t in standings.evening_results(s2, club).tables] == [3]


def test_records_streaks_and_highest_hands(season):
    club, m, (s1, _, _) = season
    rec = standings.records(club, standings.Season.containing(club, s1.date))
    # Each player's best hand of a table: A's 20 stays behind A's 100 of the same match.
    best = {
        rules: [(r.best_total, r.member.table_name) for r in rows]
        for rules, rows in rec.highest.items()
    }
    assert best == {
        "classical": [(100, "A"), (60, "E"), (40, "D")],
        "u3a": [(12, "B"), (10, "A"), (8, "B"), (6, "A"), (5, "H")],
    }
    assert [(r.member.table_name, r.longest_streak) for r in rec.streaks] == [("A", 2)]
    assert rec.limit_hands == []  # the 1000-point hand was voided


def test_limit_hands_follow_each_matchs_own_limit(season):
    club, m, (s1, _, _) = season
    play(s1, 3, [m["F"], m["G"], m["H"], m["E"]], [win(2, 2000, [-2000, -2000, 6000, -2000])])
    this = standings.Season.containing(club, s1.date)
    rec = standings.records(club, this)
    assert [(h["total"], h["winner_name"]) for h in rec.limit_hands] == [(2000, "H")]
    # The records page lists one season's limit hands: the next season has none of them.
    later = standings.Season.containing(club, this.end)
    assert standings.records(club, later).limit_hands == []
    assert [
        h.total for h in standings.member_special_hands(standings.SeasonPlayed(m["H"], this))
    ] == [2000]
    assert standings.member_special_hands(standings.SeasonPlayed(m["F"], this)) == []
    # The member's page shows the season's: the next season has none of them.
    assert (
        standings.member_special_hands(
            standings.SeasonPlayed(m["H"], standings.Season.containing(club, this.end))
        )
        == []
    )


def test_rebuilding_gives_the_rows_the_recording_kept(season):
    fields = [
        "chair_id",
        "result",
        "hands_played",
        "hands_won",
        "best_total",
        "longest_streak",
        "place",
        "first",
        "second",
        "third",
        "fourth",
        "weight",
    ]
    kept = sorted(MatchResult.objects.values_list(*fields))
    standings.rebuild_results()
    assert sorted(MatchResult.objects.values_list(*fields)) == kept


def test_member_page_figures(season):
    club, m, (s1, s2, s3) = season
    s = standings.Season.containing(club, datetime.date(2026, 1, 1))
    played = standings.SeasonPlayed(m["A"], s)
    assert [(r["session__date"].day, r["result"]) for r in played.sessions()] == [
        (8, 300),
        (15, 30),
        (22, 5),
    ]
    companions = {
        c["member__table_name"]: c["evenings"] for c in standings.played_with_most(played)
    }
    assert companions == {"B": 3, "C": 3, "D": 3, "E": 1, "H": 1}
    # Bounded by the season: the season before had none of these evenings.
    before = standings.Season.containing(club, s.start - datetime.timedelta(days=1))
    assert list(standings.played_with_most(standings.SeasonPlayed(m["A"], before))) == []
    recent = standings.recent_hands(played, limit=3)
    assert [(h.number, h.my_payment) for h in recent] == [(2, 18), (1, -5), (1, -8)]
    assert (
        standings.recent_hands(standings.SeasonPlayed(m["A"], before)) == []
    )  # the season shown only


def test_placings_share_places_fairly():
    assert standings.placings([10, -10]) == [(1, False, [1, 0, 0, 0]), (2, False, [0, 0, 0, 1])]
    (p1, t1, s1), (p2, t2, s2), (p3, t3, s3) = standings.placings([5, 5, -10])
    assert (p1, p2, p3, t1, t2, t3) == (1, 1, 3, True, True, False)
    assert s1 == s2 == [0.5, 0.25, 0.25, 0] and s3 == [0, 0, 0, 1]
    # Every size shares out one 1st and one 4th; a table of five the same points on average as four.
    five = standings.placings([5, 4, 3, 2, 1])
    assert [sum(s[i] for _, _, s in five) for i in range(4)] == [1.25, 1.25, 1.25, 1.25]


def test_seasons_follow_the_clubs_season_start(club):
    club.season_start = datetime.date(2020, 9, 1)
    s = standings.Season.containing(club, datetime.date(2026, 3, 1))
    assert (s.start, s.end, s.label) == (
        datetime.date(2025, 9, 1),
        datetime.date(2026, 9, 1),
        "2025–26",
    )
    assert ordinal(2, tied=True) == "joint 2nd" and ordinal(11) == "11th" and ordinal(23) == "23rd"


def test_recording_and_undoing_keep_the_results_in_step(club):
    from games.start import start_play
    from scoring.models import KongChips
    from scoring.recording import record_draw, undo_last_hand
    from scoring.standings import refresh_match
    from tests.games.helpers import seated_session

    club.rule_set = "u3a"
    club.save()
    match = start_play(seated_session(club))[0]
    rows = MatchResult.objects.filter(match=match).order_by("chair__number")
    record_draw(match, 1)
    assert [r.hands_played for r in rows.all()] == [1, 1, 1, 1]
    record_draw(match, 2)
    assert [r.hands_played for r in rows.all()] == [2, 2, 2, 2]
    undo_last_hand(match, 2)
    assert [r.hands_played for r in rows.all()] == [1, 1, 1, 1]
    # Kong chips count towards the result (written directly until quick entry's kong
    # chips land with the engine's API).
    KongChips.objects.create(
        match=match, hand_number=2, chair=0, kind="concealed", pay0=9, pay1=-3, pay2=-3, pay3=-3
    )
    refresh_match(match)
    assert [(r.result, r.place, r.tied) for r in rows.all()] == [
        (9, 1, False),
        (-3, 2, True),
        (-3, 2, True),
        (-3, 2, True),
    ]


def test_the_rebuild_command_restores_lost_rows(season, capsys):
    from django.core.management import call_command

    kept = MatchResult.objects.count()
    MatchResult.objects.all().delete()
    call_command("rebuild_standings")
    assert MatchResult.objects.count() == kept == 20
    assert "Recomputed the results of 5 matches" in capsys.readouterr().out
