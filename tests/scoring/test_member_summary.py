"""How a member did: their last evening's result and place, and their place this season,
for their home page and the top of the standings, checked against a season worked out by
hand.

Season 2026 (calendar year), ranked by total, two sessions needed to be ranked:

5 Jan. Table 1 A B C D: A wins 30 (+90, the others -30). Table 2 E F G H: E wins 20
  (+60, the others -20). The evening: A +90 1st, E +60 2nd, F G H -20 joint 3rd,
  B C D -30 joint 6th; 8 players.
12 Jan. Table 1 A B E F: B wins 40 (+120, the others -40). The evening: B +120 1st,
  A E F -40 joint 2nd; 4 players.

The season: B +90 (2 sessions), A +50 (2), E +20 (2), F -60 (2) are ranked 1st to 4th;
G and H -20, C and D -30 have played one session and are not ranked. N never played.
"""

import datetime

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from club.models import Club, Session
from scoring import standings
from tests.factories import MemberFactory
from tests.scoring.standings_helpers import play, session_on, win

pytestmark = pytest.mark.django_db

TODAY = datetime.date(2026, 1, 20)


def hand_worked_season(club) -> dict:
    """The season above: the members by name, and "sessions" the two evenings."""
    club.min_sessions = 2
    club.save()
    m = {name: MemberFactory(club=club, table_name=name) for name in "ABCDEFGHN"}
    A, B, C, D, E, F, G, H = (m[n] for n in "ABCDEFGH")
    first = session_on(club, datetime.date(2026, 1, 5))
    play(first, 1, [A, B, C, D], [win(0, 30, [90, -30, -30, -30])])
    play(first, 2, [E, F, G, H], [win(0, 20, [60, -20, -20, -20])])
    second = session_on(club, datetime.date(2026, 1, 12))
    play(second, 1, [A, B, E, F], [win(1, 40, [-40, 120, -40, -40])])
    m["sessions"] = (first, second)
    return m


@pytest.fixture
def people(club):
    return hand_worked_season(club)


def summary(member, club, today=TODAY):
    return standings.member_summary(member, club, today)


def test_the_last_evening_played_with_its_result_and_place(club, people):
    first, second = people["sessions"]
    a = summary(people["A"], club).evening
    assert (a.session, a.result, a.rank, a.tied, a.players) == (second, -40, 2, True, 4)
    assert a.place_text == "joint 2nd" and not a.provisional
    b = summary(people["B"], club).evening
    assert (b.session, b.result, b.place_text, b.players) == (second, 120, "1st", 4)
    # G did not play on the 12th: their last evening is the 5th.
    g = summary(people["G"], club).evening
    assert (g.session, g.result, g.place_text, g.players) == (first, -20, "joint 3rd", 8)
    c = summary(people["C"], club).evening
    assert (c.result, c.place_text) == (-30, "joint 6th")


def test_the_season_place_among_the_ranked(club, people):
    a = summary(people["A"], club).season
    assert a.is_ranked and (a.place_text, a.ranked, a.row.total) == ("2nd", 4, 50)
    assert a.members == 8  # four more have played, not yet enough to be ranked
    assert (a.row.sessions, a.sessions_held, a.sessions_to_go) == (2, 2, 0)
    f = summary(people["F"], club).season
    assert (f.place_text, f.ranked, f.row.total) == ("4th", 4, -60)


def test_under_the_minimum_sessions_a_member_is_not_ranked_yet(club, people):
    g = summary(people["G"], club).season
    assert not g.is_ranked and g.place_text == ""
    assert (g.row.total, g.row.sessions, g.sessions_to_go, g.ranked) == (-20, 1, 1, 4)


def test_tied_season_places_are_joint(club, people):
    club.min_sessions = 1
    club.save()
    # Everyone ranked: B 90, A 50, E 20, G and H -20, C and D -30, F -60.
    g = summary(people["G"], club).season
    assert (g.place_text, g.ranked) == ("joint 4th", 8)
    assert summary(people["F"], club).season.place_text == "8th"
    assert summary(people["E"], club).season.place_text == "3rd"


def test_a_member_who_never_played(club, people):
    n = summary(people["N"], club)
    assert n.evening is None
    assert n.season.row is None and not n.season.is_ranked
    assert (n.season.ranked, n.season.sessions_held, n.season.sessions_to_go) == (4, 2, 2)


def test_a_season_without_results_yet(club, people):
    """In the next season nobody has played: no season place, but the last evening (in
    the season before) is still theirs."""
    later = summary(people["A"], club, today=datetime.date(2027, 1, 3))
    assert later.season.row is None and later.season.sessions_held == 0
    assert later.season.season.label == "2027"
    assert later.evening.session == people["sessions"][1]


def test_tonight_while_play_goes_on_is_provisional(club, people):
    tonight = session_on(club, TODAY, Session.Status.IN_PLAY)
    play(tonight, 1, [people[n] for n in "CDGH"], [win(2, 10, [-10, -10, 30, -10])], ending=None)
    g = summary(people["G"], club).evening
    assert (g.session, g.result, g.place_text, g.players, g.provisional) == (
        tonight,
        30,
        "1st",
        4,
        True,
    )
    # C D G H have played two sessions now: all eight are ranked, G 4th with +10 (B 90,
    # A 50, E 20, G 10, H -30, C and D -40, F -60).
    season = summary(people["G"], club).season
    assert (season.place_text, season.ranked, season.row.total) == ("4th", 8, 10)


@pytest.mark.parametrize("ranking", list(Club.Ranking))
def test_the_places_are_those_the_results_pages_show(club, people, ranking):
    """Whatever the club ranks by, the summary's places are the evening's and the
    leaderboard's own."""
    club.standings_ranking = ranking
    club.placing_points = "4-2-1-0"
    club.save()
    second = people["sessions"][1]
    evening = {row.member.pk: row.rank for row in standings.evening_results(second, club).rows}
    board = standings.leaderboard(club, standings.Season.containing(club, TODAY))
    season = {row.member_id: row.rank for row in board.rows}
    for name in "ABEF":
        found = summary(people[name], club)
        assert found.evening.rank == evening[people[name].pk], (ranking, name)
        assert found.season.row.rank == season[people[name].pk], (ranking, name)


def test_a_member_of_another_club_is_not_found(club, people):
    other = Club.objects.create(name="Another club")
    assert standings.last_evening(people["A"].pk, other) is None


def test_four_queries_however_many_evenings(club, people):
    # The season's rows (summed per member by key), the names on the board by key, the
    # member's last evening and its results.
    with CaptureQueriesContext(connection) as few:
        summary(people["A"], club)
    for week in range(3, 8):
        session = session_on(club, datetime.date(2026, 1, 5) + datetime.timedelta(weeks=week))
        for table in range(2):
            seated = [people[n] for n in ("ABCD", "EFGH")[table]]
            pays = [-10] * 4
            pays[week % 4] = 30
            play(session, table + 1, seated, [win(week % 4, 10, pays)])
    with CaptureQueriesContext(connection) as more:
        summary(people["A"], club)
    assert len(few) == len(more) == 4
