"""Standings at the edges a real evening reaches (issue 16, B1, B3, B5, B6): a player who
played no hand has no place, an empty match is no session played (live and rebuilt alike),
a run of wins is hands won one after another, and figures exactly half-way round up."""

import csv
import datetime
import io
from fractions import Fraction

import pytest
from django.core.management import call_command

from club.models import Club
from games.start import end_evening, start_play
from scoring import standings
from scoring.recording import Win, record_kong, record_win, undo_last_hand
from scoring.results import MatchResult
from tests.factories import MemberFactory
from tests.games.helpers import seated_members, seated_session
from tests.scoring.standings_helpers import draw, play, session_on, win

pytestmark = pytest.mark.django_db


def csv_rows(response) -> list[dict]:
    text = b"".join(response.streaming_content).decode()
    return list(csv.DictReader(io.StringIO(text)))


def this_season(club, session):
    return standings.Season.containing(club, session.date)


def rows_of_results() -> list[tuple]:
    fields = ["chair_id", "result", "hands_played", "hands_won", "place", "first", "weight"]
    return sorted(MatchResult.objects.values_list(*fields))


@pytest.fixture
def u3a(club):
    club.rule_set = "u3a"
    club.placing_points = "4-2-1-0"
    club.save()
    return club


def test_the_dreamer_of_a_one_hand_match_has_no_place(u3a, member_client):
    # A table of five: chair 4 (the Dreamer) sits out hand 1; the East wins it and the
    # evening ends. The Dreamer was 2nd of five on a result of 0 and got 2.5 points.
    session = seated_session(u3a, sizes=(5,))
    match = start_play(session)[0]
    record_win(match, 1, Win(0, "wall", None, 10))
    end_evening(session)
    dreamer = seated_members(session, 1)[4]
    evening = standings.evening_results(session, u3a)
    row = next(r for r in evening.rows if r.member == dreamer)
    assert (row.hands_played, row.points, row.placings) == (0, 0, [])
    # The four who played are placed among themselves: 1st, and three tied for 2nd-4th.
    others = sorted(r.points for r in evening.rows if r.member != dreamer)
    assert others == [1, 1, 1, 4]
    assert all("of 4 at table 1" in r.placings[0] for r in evening.rows if r.member != dreamer)
    by_name = {
        r["Name"]: r
        for r in csv_rows(member_client.get(f"/standings/evening/{session.pk}/results.csv"))
    }
    assert by_name[dreamer.table_name]["Placing points"] == "0"
    u3a.standings_ranking = Club.Ranking.PLACINGS
    board = standings.leaderboard(u3a, this_season(u3a, session))
    assert [(r.name, r.points) for r in board.ranked][-1] == (dreamer.table_name, 0)


def test_a_table_with_only_kong_chips_places_nobody(u3a):
    session = seated_session(u3a, sizes=(4,))
    match = start_play(session)[0]
    record_kong(match, 1, 2, "concealed")
    end_evening(session)
    evening = standings.evening_results(session, u3a)
    assert sorted((r.result, r.points, r.placings) for r in evening.rows) == [
        (-3, 0, []),
        (-3, 0, []),
        (-3, 0, []),
        (9, 0, []),
    ]
    board = standings.leaderboard(u3a, this_season(u3a, session))
    # The chips are a result: the evening counts as a session played, with no placing.
    assert sorted((r.total, r.sessions, r.points) for r in board.rows)[-1] == (9, 1, 0)


def test_an_empty_match_is_no_session_live_rebuilt_or_restored(u3a):
    # Two tables start; only table 1 records anything. At table 2 a hand is recorded and
    # undone. Neither table 2's players nor the count of sessions held may change when
    # the results are rebuilt from the hands.
    session = seated_session(u3a, sizes=(4, 4))
    first, second = start_play(session)
    record_win(first, 1, Win(0, "wall", None, 10))
    record_win(second, 1, Win(1, "wall", None, 10))
    undo_last_hand(second, 1)
    empty = seated_session(u3a, sizes=(4,), date=datetime.date(2026, 11, 26))
    start_play(empty)
    end_evening(session)
    end_evening(empty)
    season = this_season(u3a, session)

    def figures():
        board = standings.leaderboard(u3a, season)
        return rows_of_results(), board.sessions_held, [(r.name, r.sessions) for r in board.rows]

    live = figures()
    assert not MatchResult.objects.filter(match=second).exists()
    assert live[1] == 1 and len(live[2]) == 4
    call_command("rebuild_standings")
    assert figures() == live


def test_a_hand_sat_out_ends_a_run_of_wins(club, member_client):
    # Hong Kong at five: the deal passes after every win, and the chair before the dealer
    # sits out. Roger (chair 0) wins hand 1, sits out hand 2 (chair 1 wins it), then wins
    # hands 3, 4 and 5: three hands in a row, not four.
    club.rule_set = "hk"
    club.save()
    session = seated_session(club, sizes=(5,))
    roger = seated_members(session, 1)[0]
    roger.table_name = "Roger"
    roger.save()
    match = start_play(session)[0]
    for number, winner in enumerate([0, 1, 0, 0, 0], start=1):
        record_win(match, number, Win(winner, "wall", None, 3))
    assert match.replay()[1].sitting_out == 0  # hand 2: Roger sat out
    result = MatchResult.objects.get(match=match, member=roger)
    assert (result.hands_played, result.hands_won, result.longest_streak) == (4, 4, 3)
    page = member_client.get("/standings/records/").content.decode()
    assert "<strong>Roger</strong>: 3 hands in a row" in page


def test_figures_exactly_half_way_round_up_on_pages_and_csvs(club, member_client):
    # 4-2-1-0. Xena wins the only hand she plays at table 1 and loses at table 2, where
    # she plays 31 hands: 4 x 1/32 = 0.125 points, "0.13" (binary floats gave "0.12").
    # Yusuf is 2nd of three for 3 hands and last of four for 7: 1.5 x 3/10 = 0.45, which
    # the page shows to one place as "0.5" (it showed "0.4").
    club.placing_points = "4-2-1-0"
    club.save()
    x, y, *others = [MemberFactory(club=club, table_name=n) for n in ("Xena", "Yusuf", *"ABCDEFG")]
    session = session_on(club, datetime.date(2026, 3, 5), members=[x, y, *others])
    a, b, c, d, e, f, g = others
    play(session, 1, [x, a, b, c], [win(0, 10, [30, -10, -10, -10])], ending="table_changed")
    play(session, 1, [a, x, b, c], [win(0, 10, [10, -10, 0, 0], discarder=1)] + [draw(4)] * 30)
    play(
        session,
        2,
        [d, y, e],
        [win(0, 10, [20, -10, -10]), win(0, 10, [20, 0, -20]), draw(3)],
        ending="table_changed",
    )
    play(session, 2, [d, e, f, y], [win(0, 10, [10, 0, 0, -10], discarder=3)] + [draw(4)] * 6)
    evening = {r.member.table_name: r for r in standings.evening_results(session, club).rows}
    assert (evening["Xena"].points, evening["Yusuf"].points) == (Fraction(1, 8), Fraction(9, 20))
    results = csv_rows(member_client.get(f"/standings/evening/{session.pk}/results.csv"))
    by_name = {r["Name"]: r["Placing points"] for r in results}
    assert (by_name["Xena"], by_name["Yusuf"]) == ("0.13", "0.45")
    board = {
        r["Name"]: r["Placing points"]
        for r in csv_rows(member_client.get("/standings/standings.csv?season=2026-03-05"))
    }
    assert (board["Xena"], board["Yusuf"]) == ("0.13", "0.45")
    page = member_client.get("/standings/?season=2026-03-05&sort=points&dir=asc").content.decode()
    assert '<td data-label="Placing points" class="numeric">0.5</td>' in page
    assert standings.plain_figure(Fraction(9, 40)) == "0.23"
    assert standings.plain_figure(0.975) == "0.98" and standings.plain_figure(-2.5, 0) == "-3"


def test_hands_csv_adds_up_to_each_members_results_kong_chips_included(u3a, member_client):
    session = seated_session(u3a, sizes=(4, 5))
    four, five = start_play(session)
    record_kong(four, 1, 2, "concealed")
    record_win(four, 1, Win(0, "wall", None, 10))
    record_kong(four, 2, 1, "discard")
    record_kong(five, 1, 0, "added")
    record_win(five, 1, Win(1, "discard", 2, 12))
    record_kong(five, 2, 3, "concealed")  # made in the hand still being played
    end_evening(session)
    rows = csv_rows(member_client.get(f"/standings/hands.csv?season={session.date}"))
    summed: dict[str, int] = {}
    for row in rows:
        for seat in range(1, 6):
            if row[f"Player {seat}"]:
                name = row[f"Player {seat}"]
                summed[name] = summed.get(name, 0) + int(row[f"Payment {seat}"])
    board = standings.leaderboard(u3a, this_season(u3a, session))
    assert summed == {row.name: row.total for row in board.rows}
    # In the order played: table 1's hand-1 kong chips before hand 1, hand 2's after it.
    assert [(r["Table"], r["Hand"], r["Outcome"]) for r in rows] == [
        ("1", "1", "kong chips"),
        ("1", "1", "win"),
        ("1", "2", "kong chips"),
        ("2", "1", "kong chips"),
        ("2", "1", "win"),
        ("2", "2", "kong chips"),
    ]
    kong = rows[0]
    assert (kong["Winner"], kong["Won by"]) == (
        seated_members(session, 1)[2].table_name,
        "Concealed kong: 3 chips from each",
    )


@pytest.mark.parametrize("rules", ["classical", "hk", "fan", "u3a"])
def test_a_total_agreed_at_the_limit_is_a_limit_hand_on_every_quick_path(club, rules):
    # Recorded at the table, corrected, and typed in from a paper sheet: each way a total
    # agreed at the table is saved. U3A has no limit, so nothing is a limit hand there.
    from scoring.corrections import correct_hand, record_sheet
    from scoring.table_rules import limit_total

    club.rule_set = rules
    club.save()
    session = seated_session(club, sizes=(4, 4))
    table, sheet_table = start_play(session)
    limit = limit_total(table)
    assert (limit is None) == (rules == "u3a")
    top = limit if limit is not None else 10
    below = {"classical": 100, "hk": 3, "fan": 8, "u3a": 8}[rules]
    at_limit = record_win(table, 1, Win(1, "wall", None, top))
    below_limit = record_win(table, 2, Win(2, "wall", None, below))
    assert (at_limit.limit, below_limit.limit) == (limit is not None, False)
    correction = correct_hand(table, 2, Win(2, "wall", None, top), "It was the limit")
    assert correction.replacement.limit == (limit is not None)
    sheet = record_sheet(sheet_table, [Win(0, "wall", None, top), Win(1, "wall", None, below)])
    assert [hand.limit for hand in sheet] == [limit is not None, False]


def test_the_migration_marks_stored_quick_hands_at_the_limit(club):
    import importlib

    from django.apps import apps

    from scoring.models import Hand

    migration = importlib.import_module("scoring.migrations.0007_quick_hands_at_the_limit")
    session = seated_session(club, sizes=(4,))  # classical: limit 2000
    match = start_play(session)[0]
    record_win(match, 1, Win(1, "wall", None, 2000))
    record_win(match, 2, Win(2, "wall", None, 100))
    Hand.objects.update(limit=False)  # as stored before the fix
    migration.quick_hands_at_the_limit(apps, None)
    assert list(match.live_hands().values_list("total", "limit")) == [(2000, True), (100, False)]


def test_records_list_ties_in_the_same_order_after_a_rebuild(u3a):
    # Table 2 records its hands first, so its result rows are made first while playing; a
    # rebuild makes them in the order of the matches. Ties must not swap places.
    session = seated_session(u3a, sizes=(4, 4))
    first, second = start_play(session)
    for match in (second, first):
        record_win(match, 1, Win(1, "wall", None, 10))
        record_win(match, 2, Win(1, "wall", None, 10))

    def shown():
        rec = standings.records(u3a, standings.Season.containing(u3a, session.date))
        return (
            [(r.member.table_name, r.best_total) for r in rec.highest["u3a"]],
            [(r.member.table_name, r.longest_streak) for r in rec.streaks],
        )

    live = shown()
    assert len(live[1]) == 2
    call_command("rebuild_standings")
    assert shown() == live


def test_a_late_arrival_who_sat_out_every_hand_has_no_place(u3a):
    from club.seating.changes import seat_late_arrival

    session = seated_session(u3a, sizes=(4,))
    first = start_play(session)[0]
    record_win(first, 1, Win(0, "wall", None, 10))
    late = MemberFactory(club=u3a, table_name="Late")
    assert seat_late_arrival(session, late).changed
    match = session.matches.in_play().get()
    chair = match.chairs.get(member=late).number
    assert match.replay()[0].sitting_out == chair  # seated as the Dreamer of hand 1
    record_win(match, 1, Win((chair + 1) % 5, "wall", None, 10))
    end_evening(session)
    row = next(r for r in standings.evening_results(session, u3a).rows if r.member == late)
    assert (row.hands_played, row.points, row.placings) == (0, 0, [])
    board = standings.leaderboard(u3a, this_season(u3a, session))
    assert next(r.points for r in board.rows if r.name == "Late") == 0
