"""Standings are kept per rule set: no figure on any page adds up or compares results of
two rule sets (U3A chips, fan points and fan).

The season (2026, the club plays fan now):

8 Jan, U3A: Ann wins a 40-point hand, +21 chips (Bob, Cat, Dan -7).
15 Jan, fan: Ann wins 8 fan, +300 points (Bob, Cat, Dan -100).
22 Jan, in play: table 1 started under fan, Ann wins 5 fan, +150 points (the others -50);
  then Dan left, Eve sat down and the table started again under U3A (the club had changed
  back meanwhile in this story): Ann wins 12 points, +36 chips (Bob, Cat, Eve -12); that
  match is still in play.

Per rule set: Ann U3A +57 chips (best 40 points), fan +450 points (best 8 fan); 22 Jan
Ann +150 points under fan and +36 chips under U3A. The mixed sums a page must never show:
Ann 507 over the season and 186 on 22 Jan, Bob -169 and -62, Dan -157.
"""

import csv
import datetime
import io
import re
from fractions import Fraction

import pytest
import time_machine

from club.models import Member, Session
from scoring import standings
from scoring.results import MatchResult
from tests.factories import MemberFactory
from tests.scoring.standings_helpers import play, session_on, win

pytestmark = pytest.mark.django_db

MIXED = ["507", "186", "169", "62", "157"]


@pytest.fixture
def mixed(club, member_user):
    club.rule_set = "fan"
    club.save()
    ann = Member.objects.get(user=member_user)
    ann.table_name = "Ann"
    ann.save()
    bob, cat, dan, eve = (
        MemberFactory(club=club, table_name=n) for n in ("Bob", "Cat", "Dan", "Eve")
    )
    s1 = session_on(club, datetime.date(2026, 1, 8))
    play(s1, 1, [ann, bob, cat, dan], [win(0, 40, [21, -7, -7, -7])], rules="u3a")
    s2 = session_on(club, datetime.date(2026, 1, 15))
    play(s2, 1, [ann, bob, cat, dan], [win(0, 8, [300, -100, -100, -100])], rules="fan")
    s3 = session_on(club, datetime.date(2026, 1, 22), status=Session.Status.IN_PLAY)
    play(
        s3,
        1,
        [ann, bob, cat, dan],
        [win(0, 5, [150, -50, -50, -50])],
        rules="fan",
        ending="table_changed",
    )
    in_play = play(
        s3, 1, [ann, bob, cat, eve], [win(0, 12, [36, -12, -12, -12])], rules="u3a", ending=None
    )
    people = {m.table_name: m for m in (ann, bob, cat, dan, eve)}
    return club, people, (s1, s2, s3), in_play


SEASON = standings.Season(datetime.date(2026, 1, 1), datetime.date(2027, 1, 1))


def figures(board):
    return {
        row.name: (row.total, row.sessions, row.hands_won, row.best_total) for row in board.rows
    }


def no_mixed_figure(text: str, where: str) -> None:
    """None of the sums across the two rule sets appears as a figure (+507, −169, 186 ...)
    in what the page shows: tags and their attributes (ids, addresses) are left out."""
    text = re.sub(r"<[^>]*>", " ", text)
    for figure in MIXED:
        found = re.findall(rf"(?<![\w.]){figure}(?![\w.])", text)
        assert not found, (where, figure)


def body(response) -> str:
    assert response.status_code == 200
    content = b"".join(response.streaming_content) if response.streaming else response.content
    return content.decode()


def test_the_leaderboard_is_kept_per_rule_set(mixed):
    club, people, _, _ = mixed
    board = standings.leaderboard(club, SEASON)
    assert board.rules == "fan" and [p.rules for p in board.parts] == ["fan", "u3a"]
    assert board.sessions_held == 2
    assert figures(board) == {
        "Ann": (450, 2, 2, 8),
        "Bob": (-150, 2, 0, None),
        "Cat": (-150, 2, 0, None),
        "Dan": (-150, 2, 0, None),
    }
    board = standings.leaderboard(club, SEASON, rules="u3a")
    assert board.sessions_held == 2
    assert figures(board) == {
        "Ann": (57, 2, 2, 40),
        "Bob": (-19, 2, 0, None),
        "Cat": (-19, 2, 0, None),
        "Dan": (-7, 1, 0, None),
        "Eve": (-12, 1, 0, None),
    }


def test_the_evening_under_two_rule_sets_is_split(mixed):
    club, _, (_, _, s3), _ = mixed
    evening = standings.evening_results(s3, club)
    assert evening.split
    parts = {
        part.rules: {r.member.table_name: (r.rank, r.result, r.best_total) for r in part.rows}
        for part in evening.parts
    }
    assert parts == {
        "fan": {
            "Ann": (1, 150, 5),
            "Bob": (2, -50, None),
            "Cat": (2, -50, None),
            "Dan": (2, -50, None),
        },
        "u3a": {
            "Ann": (1, 36, 12),
            "Bob": (2, -12, None),
            "Cat": (2, -12, None),
            "Eve": (2, -12, None),
        },
    }
    assert [p.rules for p in evening.parts] == ["fan", "u3a"]  # in the order they were played
    # Each placing counts once per evening in each rule set's standings: Ann was 1st of 4
    # in both matches, so 4 placing points in each part (4-2-1-0), never a share of them.
    assert club.placing_points == "4-2-1-0"
    assert [part.rows[0].points for part in evening.parts] == [4, 4]


def test_records_compare_within_one_rule_set(mixed):
    club, _, _, _ = mixed
    rec = standings.records(club, standings.Season.containing(club, datetime.date(2026, 1, 1)))
    best = {rules: [r.best_total for r in rows] for rules, rows in rec.highest.items()}
    assert best == {"fan": [8, 5], "u3a": [40, 12]}


def test_no_page_adds_or_compares_two_rule_sets(mixed, member_client):
    club, people, (s1, s2, s3), _ = mixed
    ann = people["Ann"]
    pages = {
        "leaderboard": "/standings/?season=2026-01-01",
        "leaderboard u3a": "/standings/?season=2026-01-01&rules=u3a",
        "leaderboard sorted": "/standings/?season=2026-01-01&rules=u3a&sort=best&dir=desc",
        "standings.csv": "/standings/standings.csv?season=2026-01-01",
        "standings.csv u3a": "/standings/standings.csv?season=2026-01-01&rules=u3a",
        "evening": f"/standings/evening/{s3.pk}/",
        "evening.csv fan": f"/standings/evening/{s3.pk}/results.csv?rules=fan",
        "evening.csv u3a": f"/standings/evening/{s3.pk}/results.csv?rules=u3a",
        "records": "/standings/records/",
        "member": f"/standings/members/{ann.pk}/?season=2026-01-01",
        "member Bob": f"/standings/members/{people['Bob'].pk}/?season=2026-01-01",
        "room": "/standings/room/",
        "home": "/",
    }
    text = {name: body(member_client.get(url)) for name, url in pages.items()}
    for name, page in text.items():
        no_mixed_figure(page, name)

    # The leaderboard says plainly that the season is split, with a link to each.
    split = "This season was played under two rule sets; their standings are kept apart."
    for name in ("leaderboard", "leaderboard u3a"):
        assert split in text[name]
        assert 'href="?season=2026-01-01&amp;rules=fan&amp;sort=rank&amp;dir=asc"' in text[name]
        assert 'href="?season=2026-01-01&amp;rules=u3a&amp;sort=rank&amp;dir=asc"' in text[name]
    assert "Total (points)" in text["leaderboard"] and "Best hand (fan)" in text["leaderboard"]
    assert "Total (chips)" in text["leaderboard u3a"]
    assert "Best hand (points)" in text["leaderboard u3a"]
    assert 'You are <strong class="you-figure">1st</strong>' in text["leaderboard u3a"]
    assert "+57 chips" in text["leaderboard u3a"] and "+450 points" in text["leaderboard"]
    # Sorting keeps the rule set; the CSV link too.
    assert "rules=u3a&amp;sort=best&amp;dir=asc" in text["leaderboard sorted"]
    assert "standings.csv?season=2026-01-01&amp;rules=u3a" in text["leaderboard u3a"]

    # Each CSV is one rule set's, its units in the headings.
    fan_csv = list(csv.reader(io.StringIO(text["standings.csv"])))
    u3a_csv = list(csv.reader(io.StringIO(text["standings.csv u3a"])))
    assert fan_csv[0][2] == "Total (points)" and u3a_csv[0][2] == "Total (chips)"
    assert {r[1]: int(r[2]) for r in fan_csv[1:]}["Ann"] == 450
    assert {r[1]: int(r[2]) for r in u3a_csv[1:]}["Ann"] == 57
    assert {r[-1] for r in fan_csv[1:]} == {"Fan"} and {r[-1] for r in u3a_csv[1:]} == {"U3A"}
    evening_fan = list(csv.reader(io.StringIO(text["evening.csv fan"])))
    evening_u3a = list(csv.reader(io.StringIO(text["evening.csv u3a"])))
    assert evening_fan[0][2] == "Result (points)" and evening_u3a[0][2] == "Result (chips)"
    assert [r[2] for r in evening_fan[1:]][0] == "150"
    assert [r[2] for r in evening_u3a[1:]][0] == "36"

    # The evening: two tables of results, each titled with its rule set.
    evening = text["evening"]
    assert "Fan results (points)</h2>" in evening and "U3A results (chips)</h2>" in evening
    assert (
        "Under Fan rules you are <strong>1st</strong> of 4 tonight, with <strong>+150 points"
        in evening
    )
    assert (
        "Under U3A rules you are <strong>1st</strong> of 4 tonight, with <strong>+36 chips"
        in evening
    )
    assert "results.csv?rules=u3a" in evening

    # Records: each rule set's hands under its own heading and unit.
    assert "Played under U3A rules (points)" in text["records"]
    assert "Played under Fan rules (fan)" in text["records"]

    # The member's page: a total per rule set, each in its unit.
    member = text["member"]
    assert "played <strong>2 of 2</strong> sessions, total <strong>+57 chips</strong>" in member
    assert "played <strong>2 of 2</strong> sessions, total <strong>+450 points</strong>" in member
    assert "Result (chips)" in member and "Best hand (fan)" in member
    assert "won 12 points" in member and "won 5 fan" in member  # recent hands
    bob = text["member Bob"]
    assert "total <strong>−19 chips</strong>" in bob and "total <strong>−150 points</strong>" in bob

    # The room display: one list of leaders per rule set.
    assert "<h3>Fan (points)</h3>" in text["room"] and "<h3>U3A (chips)</h3>" in text["room"]

    # The reported bug: home said fan while Ann's table played U3A.
    assert "Your table is still playing <strong>U3A</strong> rules" in text["home"]
    assert "its tallies are in chips" in text["home"]


def test_a_season_under_one_rule_set_shows_nothing_extra(club, member_client):
    people = [MemberFactory(club=club) for _ in range(4)]
    session = session_on(club, datetime.date(2026, 1, 8))
    play(session, 1, people, [win(0, 40, [120, -40, -40, -40])])
    page = body(member_client.get("/standings/?season=2026-01-01"))
    assert "rule sets" not in page and "rules=" not in page
    assert "Total (points)" in page
    evening = body(member_client.get(f"/standings/evening/{session.pk}/"))
    assert "rule sets" not in evening and "Everyone's result" in evening
    member = body(member_client.get(f"/standings/members/{people[0].pk}/?season=2026-01-01"))
    assert "rule sets" not in member and "total <strong>+120 points</strong>" in member
    assert "rule set" not in body(member_client.get("/"))  # nor the member's home


def test_the_split_leaderboard_needs_one_query_more(
    mixed, member_client, django_assert_num_queries
):
    member_client.get("/")  # the login's groups and the session are read once
    # The club, the session, the login (no query of its groups), then every rule set's rows with the
    # season picker's span in one statement, and the sessions held under each rule set
    # (only when the season was played under more than one), then the member's last evening
    # and its results for the top of the page, and whether the login coordinates the club.
    # Then, for the top of the page, the member's place under the other rule set: its rows
    # and sessions held (two more, only in a season played under several rule sets). Each
    # board names its members by key after its rows (one more each).
    with django_assert_num_queries(12):
        assert member_client.get("/standings/?season=2026-01-01&rules=u3a").status_code == 200


def test_an_unknown_rule_set_in_the_address_shows_the_default_with_a_sentence(mixed, member_client):
    page = body(member_client.get("/standings/?season=2026-01-01&rules=hk"))
    assert (
        "No results under Hong Kong rules this season: the Fan standings are shown instead." in page
    )
    page = body(member_client.get("/standings/?season=2026-01-01&rules=%3Cscript%3E"))
    assert "There is no rule set called that" in page and "<script>" not in page


def test_the_migration_weighs_placings_per_rule_set(mixed):
    """Rows stored before: the evening of two rule sets weighed each match by the share of
    all the member's hands that evening (a half each here); the migration weighs them again
    per rule set, as recording does now."""
    from importlib import import_module

    from django.apps import apps

    club, people, (_, _, s3), _ = mixed
    rows = MatchResult.objects.filter(session=s3)
    kept = sorted(rows.values_list("chair_id", "weight"))
    assert {w for _, w in kept} == {1.0}
    rows.filter(member=people["Ann"]).update(weight=0.5)
    migration = import_module("scoring.migrations.0008_placings_weigh_per_rule_set")
    migration.weigh_per_rule_set(apps, None)
    assert sorted(rows.values_list("chair_id", "weight")) == kept
    assert standings.leaderboard(club, SEASON).rows[0].points == Fraction(8)


def played_of(page: str) -> dict[str, tuple[int, int]]:
    """{rule set's name or "": (played, held)} from a member page's "played 2 of 3"."""
    found = re.findall(
        r"Season 2026(?:, (\w+) rules)?: played <strong>(\d+) of (\d+)</strong>", page
    )
    return {name: (int(played), int(held)) for name, played, held in found}


def test_a_members_page_counts_sessions_as_the_standings_do(mixed, member_client):
    """Every member's "played N of M" under each rule set is the standings' own count: their
    row's sessions of the sessions held under that rule set (Eve played only under U3A, in a
    season of three evenings of which two were U3A's)."""
    club, people, _, _ = mixed
    boards = {part.rules: part for part in standings.leaderboard(club, SEASON).parts}
    assert set(boards) == {"fan", "u3a"}
    compared = 0
    for rules in boards:
        board = standings.leaderboard(club, SEASON, rules=rules)
        name = standings.RuleSetPart(rules).name
        for row in board.rows:
            page = body(member_client.get(f"/standings/members/{row.member_id}/?season=2026-01-01"))
            assert played_of(page)[name] == (row.sessions, board.sessions_held), row.name
            compared += 1
    assert compared == 9  # Ann, Bob, Cat under both; Dan under both; Eve under U3A only
    eve = body(member_client.get(f"/standings/members/{people['Eve'].pk}/?season=2026-01-01"))
    assert "the sessions counted here are those held under U3A rules" in eve


@pytest.fixture
def after_the_change(mixed):
    """The season of `mixed` seen on 23 January, with three sessions needed to be ranked."""
    club = mixed[0]
    club.min_sessions = 3
    club.save()
    with time_machine.travel(datetime.datetime(2026, 1, 23, 10, tzinfo=datetime.UTC), tick=False):
        yield mixed


def test_after_a_rule_set_change_a_member_reads_why_and_both_standings(
    after_the_change, member_client
):
    """Ann's home page and the top of the standings: her place under the club's rule set now
    (fan), saying that only its sessions count, and her place under U3A too."""
    home = body(member_client.get("/"))
    words = " ".join(re.sub(r"<[^>]*>", "", home).split())
    assert (
        "This season (2026), Fan rules Not ranked yet: you have played 2 sessions under Fan "
        "rules, and 3 are needed to be ranked. Total +450 points." in words
    )
    assert "each rule set's standings count only the sessions played under it" in words
    assert (
        "This season, U3A rules Not ranked: you played 2 sessions under U3A rules, and 3 are "
        "needed. Total +57 chips." in words
    )
    board = body(member_client.get("/standings/"))
    words = " ".join(re.sub(r"<[^>]*>", "", board).split())
    assert "These are the Fan standings: they count only the sessions played under Fan rules." in (
        words
    )
    assert "Under U3A rules you are not ranked: 2 sessions played, 3 needed, total +57 chips." in (
        words
    )
    assert 'href="/standings/?rules=u3a&amp;season=2026-01-01"' in board
