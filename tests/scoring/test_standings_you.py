"""The season standings as a member reads them: their own place and last evening at the
top, the latest evening's results a tap away, and on a phone a compact board of place,
name and total whose rows open to the rest (the season of test_member_summary.py)."""

import datetime
import re

import pytest
import time_machine
from django.utils.html import strip_tags

from tests.factories import UserFactory
from tests.scoring.test_member_summary import hand_worked_season

pytestmark = pytest.mark.django_db

TODAY = datetime.datetime(2026, 1, 20, 10, 0, tzinfo=datetime.UTC)


@pytest.fixture
def people(club):
    return hand_worked_season(club)


@pytest.fixture(autouse=True)
def today():
    with time_machine.travel(TODAY, tick=False):
        yield


def standings_of(client, member, query="") -> str:
    if member.user is None:
        member.user = UserFactory()
        member.save()
    client.force_login(member.user)
    return client.get("/standings/" + query).content.decode()


def words(html: str) -> str:
    return " ".join(strip_tags(html).split())


def cells(html: str) -> str:
    """The words of `html`, each element's apart (as a screen reader reads a list)."""
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def element(page: str, tag: str, element_id: str) -> str:
    found = re.search(rf'<{tag}[^>]* id="{element_id}"[^>]*>(.*?)</{tag}>', page, re.S)
    assert found, f"no #{element_id} on the page"
    return words(found.group(1))


def test_a_member_finds_their_place_and_last_evening_at_the_top(client, people):
    page = standings_of(client, people["A"])
    assert element(page, "section", "your-standing") == (
        "How you did You are 2nd of 4 ranked members, total +50 points. "
        "Monday 12 January: −40 points, joint 2nd of 4."
    )
    # The latest evening's results come before the season picker and the board.
    latest = page.index('href="/standings/evening/"')
    assert latest < page.index('id="id_season"') < page.index('id="board"')


def test_a_member_not_ranked_yet_and_one_who_has_not_played(client, people):
    page = standings_of(client, people["G"])
    assert element(page, "section", "your-standing") == (
        "How you did You are not ranked yet: 1 session played, 2 needed. Total −20 points. "
        "Monday 5 January: −20 points, joint 3rd of 8."
    )
    client.logout()
    page = standings_of(client, people["N"])
    assert element(page, "section", "your-standing") == (
        "How you did You have not played this season yet."
    )


def test_an_earlier_season_says_where_they_were_without_the_last_evening(client, people):
    with time_machine.travel(datetime.datetime(2027, 2, 1, tzinfo=datetime.UTC), tick=False):
        page = standings_of(client, people["B"], "?season=2026-01-01")
        assert element(page, "section", "your-standing") == (
            "How you did You were 1st of 4 ranked members, total +90 points."
        )
        page = client.get("/standings/").content.decode()
        assert element(page, "section", "your-standing") == (
            "How you did You have not played this season yet. "
            "Monday 12 January 2026: +120 points, 1st of 4."
        )


def test_a_login_that_is_no_members_sees_the_board_only(client, coordinator, people):
    client.force_login(coordinator)
    page = client.get("/standings/").content.decode()
    assert 'id="your-standing"' not in page
    assert page.index('href="/standings/evening/"') < page.index('id="id_season"')


def compact_rows(page: str) -> list[str]:
    board = page[page.index('<div class="compact-board">') : page.index("<table")]
    return [words(s) for s in re.findall(r"<summary>(.*?)</summary>", board, re.S)]


def test_the_compact_board_is_place_name_and_total(client, people):
    page = standings_of(client, people["A"])
    assert compact_rows(page) == [
        "1st B +90",
        "2nd A (you) +50",
        "3rd E +20",
        "4th F −60",
        # not ranked yet, by total then name
        "– G −20",
        "– H −20",
        "– C −30",
        "– D −30",
    ]
    assert "Not ranked yet (under 2 sessions):" in page
    assert len(re.findall(r'<li class="me">', page)) == 1
    mine = re.search(r'<li class="me">(.*?)</li>', page, re.S).group(1)
    assert cells(mine[mine.index("<dl") :]) == (
        "Total +50 Average 25 Sessions 2 Hands won 1 of 2 Win rate 50% Placing points 5 "
        "Best hand 30 A's results, evening by evening"
    )
    assert f'href="/standings/members/{people["A"].pk}/?season=2026-01-01"' in mine


def test_the_compact_board_shows_the_figure_it_is_sorted_by(client, people):
    page = standings_of(client, people["A"], "?sort=won&dir=desc")
    head = re.search(r'<p class="cb-head">(.*?)</p>', page, re.S).group(1)
    assert cells(head) == "Place Name Hands won"
    # Most hands won first (a tie keeps the standings' order); the places stay.
    assert compact_rows(page) == [
        "1st B 1 of 2",
        "2nd A (you) 1 of 2",
        "3rd E 1 of 2",
        "4th F 0 of 2",
        "– G 0 of 1",
        "– H 0 of 1",
        "– C 0 of 1",
        "– D 0 of 1",
    ]


def test_the_compact_boards_total_says_its_unit(client, people):
    page = standings_of(client, people["A"], "")
    head = re.search(r'<p class="cb-head">(.*?)</p>', page, re.S).group(1)
    assert cells(head) == "Place Name Total (points)"
