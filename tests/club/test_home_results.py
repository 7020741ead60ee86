"""A member's home page says how they did, with no tap: their last evening's result and
place, and their place this season (the season of tests/scoring/test_member_summary.py)."""

import datetime
import re

import pytest
import time_machine
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils.html import strip_tags

from club.models import Session
from scoring.templatetags.results_tags import when_played
from tests.factories import UserFactory
from tests.scoring.standings_helpers import play, session_on, win
from tests.scoring.test_member_summary import hand_worked_season

pytestmark = pytest.mark.django_db

TODAY = datetime.datetime(2026, 1, 20, 10, 0, tzinfo=datetime.UTC)  # a Tuesday


@pytest.fixture
def people(club):
    return hand_worked_season(club)


@pytest.fixture(autouse=True)
def today():
    with time_machine.travel(TODAY, tick=False):
        yield


def home_of(client, member) -> str:
    user = UserFactory()
    member.user = user
    member.save()
    client.force_login(user)
    return client.get("/").content.decode()


def line(page: str, element_id: str) -> str:
    """The words of the element with `element_id`, spaces squeezed."""
    found = re.search(rf'<p[^>]* id="{element_id}">(.*?)</p>', page, re.S)
    assert found, f"no #{element_id} on the page"
    return " ".join(strip_tags(found.group(1)).split())


def test_a_member_sees_their_last_evening_and_season_place(client, people):
    page = home_of(client, people["A"])
    assert "How you did" in page
    assert line(page, "your-last-evening") == "Monday 12 January −40 points, joint 2nd of 4"
    assert line(page, "your-season") == "This season (2026) 2nd of 4 ranked, total +50 points"
    second = people["sessions"][1]
    assert f'href="/standings/evening/{second.pk}/"' in page
    assert 'href="/standings/"' in page


def test_the_leader(client, people):
    page = home_of(client, people["B"])
    assert line(page, "your-last-evening") == "Monday 12 January +120 points, 1st of 4"
    assert line(page, "your-season") == "This season (2026) 1st of 4 ranked, total +90 points"


def test_when_everyone_is_ranked_the_place_is_of_everyone(client, people):
    club = people["A"].club
    club.min_sessions = 1
    club.save()
    page = home_of(client, people["G"])
    assert line(page, "your-season") == "This season (2026) joint 4th of 8, total −20 points"


def test_a_member_not_ranked_yet(client, people):
    page = home_of(client, people["G"])
    assert line(page, "your-last-evening") == "Monday 5 January −20 points, joint 3rd of 8"
    assert line(page, "your-season") == (
        "This season (2026) Not ranked yet: you have played 1 session, "
        "and 2 are needed to be ranked. Total −20 points."
    )


def test_a_member_who_never_played(client, people):
    page = home_of(client, people["N"])
    assert line(page, "your-last-evening") == (
        "You have not played at the club yet. Your results will show here after your first evening."
    )
    assert line(page, "your-season") == "This season (2026) You have not played this season yet."
    assert "/standings/evening/" not in page


def test_a_season_with_no_results_yet(client, people):
    with time_machine.travel(datetime.datetime(2027, 1, 4, 10, tzinfo=datetime.UTC), tick=False):
        page = home_of(client, people["A"])
    assert line(page, "your-last-evening") == "Monday 12 January 2026 −40 points, joint 2nd of 4"
    assert line(page, "your-season") == "This season (2027) No results yet this season."


def test_tonight_while_play_goes_on(client, people):
    tonight = session_on(people["A"].club, TODAY.date(), Session.Status.IN_PLAY)
    play(tonight, 1, [people[n] for n in "CDGH"], [win(2, 10, [-10, -10, 30, -10])], ending=None)
    page = home_of(client, people["G"])
    assert line(page, "your-last-evening") == (
        "Tonight (so far: play is still going on) +30 points, 1st of 4"
    )


def test_a_login_that_is_no_members_sees_no_results(client, people):
    client.force_login(UserFactory())
    page = client.get("/").content.decode()
    assert page.count("Hello") == 1 and "How you did" not in page
    client.logout()
    assert "How you did" not in client.get("/").content.decode()


def home_queries(client) -> int:
    with CaptureQueriesContext(connection) as captured:
        assert client.get("/").status_code == 200
    return len(captured)


def test_the_home_page_reads_a_fixed_handful_of_queries(client, people):
    home_of(client, people["A"])
    before = home_queries(client)
    for week in range(2, 8):
        session = session_on(
            people["A"].club, datetime.date(2026, 1, 5) + datetime.timedelta(weeks=week)
        )
        for table, names in enumerate(("ABCD", "EFGH")):
            pays = [-10] * 4
            pays[week % 4] = 30
            play(session, table + 1, [people[n] for n in names], [win(week % 4, 10, pays)])
    assert home_queries(client) == before
    # The session, the login, its groups, the club (three times: each part of the page reads
    # it), the next session, the member's table in play, the member, then the summary's
    # three: the last evening, its results, the season's rows, and the rules of the member's
    # table in play when they differ from the club's, and the member's times away (14
    # today).
    assert before <= 14, before


@pytest.mark.parametrize(
    "date, words",
    [
        (datetime.date(2026, 1, 20), "Tonight"),
        (datetime.date(2026, 1, 19), "Yesterday, Monday 19 January"),
        (datetime.date(2026, 1, 13), "Last Tuesday, 13 January"),
        (datetime.date(2026, 1, 12), "Monday 12 January"),
        (datetime.date(2025, 12, 30), "Tuesday 30 December 2025"),
    ],
)
def test_when_played_in_words(date, words):
    assert when_played(date) == words
