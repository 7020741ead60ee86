"""The room display: the grid it picks for the number of tables, what each table's card
says (hand, round, dealer, tallies), which session it shows, and the links to it from the
session's page and the Tonight page. How it looks on a TV: tests/browser/test_room_display.py."""

import datetime
import re

import pytest

from club.models import Member, Session
from scoring.room import grid, long_name
from tests.scoring.standings_helpers import play, session_on, win

pytestmark = pytest.mark.django_db

TODAY = datetime.date.today()


@pytest.mark.parametrize("count", range(1, 31))
def test_the_grid_holds_every_table_without_an_empty_row_or_column(count):
    columns, rows = grid(count)
    assert columns * rows >= count
    assert (columns - 1) * rows < count and columns * (rows - 1) < count
    # Landscape TV: never taller than wide by more than a row, never a single long row.
    assert rows <= columns + 1 and (count <= 3 or rows > 1)


def test_the_grid_for_a_tv_of_typical_evenings():
    assert [grid(n) for n in (1, 4, 8, 12, 16, 20)] == [
        (1, 1),
        (2, 2),
        (3, 3),
        (4, 3),
        (4, 4),
        (5, 4),
    ]


def test_only_names_over_fourteen_characters_are_long():
    assert long_name("Margaret") is None and long_name("Margaret Smith") is None
    assert long_name("Christopher Smythe") == 18
    assert long_name("Christopher Montgomery-Fitzwilliam Smyth") == 40


def _members(club, names):
    return [Member.objects.create(club=club, name=n, table_name=n) for n in names]


def test_each_table_shows_its_hand_round_dealer_and_tallies(member_client, club):
    tonight = session_on(club, TODAY, Session.Status.IN_PLAY)
    first = _members(club, ["Ann", "Bob", "Cath", "Dot"])
    second = _members(club, ["Eve", "Fay", "Gus", "Hal"])
    # East (chair 0) wins the first hand and stays dealer: hand 2, East round.
    play(tonight, 1, first, [win(0, 30, [90, -30, -30, -30])], ending=None)
    play(tonight, 2, second, [], ending=None)
    play(tonight, 3, _members(club, ["Ivy", "Jo", "Kit", "Lou"]), [], ending="flow")
    page = member_client.get("/standings/room/").content.decode()
    cards = re.findall(r'<div class="room-card">(.*?)</ul>', page, re.S)
    assert len(cards) == 2  # table 3 has finished: while play goes on only tables in play
    text = [" ".join(re.sub(r"<[^>]+>", " ", card).split()) for card in cards]
    assert text[0].startswith("Table 1 Hand 2, East round Dealer: Ann Ann +2090 Bob +1970")
    assert text[1].startswith("Table 2 Hand 1, East round Dealer: Eve Eve +2000")
    assert "room-cols-2 room-rows-1" in page or "room-cols-1 room-rows-2" in page


def test_a_long_name_takes_two_lines_of_its_card(member_client, club):
    tonight = session_on(club, TODAY, Session.Status.IN_PLAY)
    names = ["Ann", "Christopher Montgomery-Fitzwilliam Smyth", "Cath", "Dot"]
    play(tonight, 1, _members(club, names), [], ending=None)
    page = member_client.get("/standings/room/").content.decode()
    assert 'class="room-name room-long room-long-40">Christopher Montgomery' in page
    assert "room-lines-8 " in page  # heading, hand, dealer, four players, one name twice


def test_before_play_tonight_it_says_so_rather_than_last_weeks_results(member_client, club):
    people = _members(club, ["Ann", "Bob", "Cath", "Dot"])
    last_week = session_on(club, TODAY - datetime.timedelta(days=7), members=people)
    play(last_week, 1, people, [win(0, 30, [90, -30, -30, -30])])
    session_on(club, TODAY)  # planned: the seating is still being made
    page = member_client.get("/standings/room/").content.decode()
    assert "No play yet tonight." in page and "room-card" not in page
    assert TODAY.strftime("%A") in page


def test_after_the_evening_it_shows_the_final_figures(member_client, club):
    people = _members(club, ["Ann", "Bob", "Cath", "Dot"])
    last_week = session_on(club, TODAY - datetime.timedelta(days=7), members=people)
    play(last_week, 1, people, [win(0, 30, [90, -30, -30, -30])])
    page = member_client.get("/standings/room/").content.decode()
    assert "Final results" in page and "Table 1" in page and "Finished" in page
    assert "1 hand played" in page


ROOM_LINK = '<a href="/standings/room/">Show the room display (for a TV)</a>'


def test_the_session_page_links_to_the_room_display_on_the_day(coordinator_client, club):
    today = session_on(club, TODAY, Session.Status.PLANNED)
    earlier = session_on(club, TODAY - datetime.timedelta(days=7))
    assert ROOM_LINK in coordinator_client.get(f"/club/sessions/{today.pk}/").content.decode()
    page = coordinator_client.get(f"/club/sessions/{earlier.pk}/").content.decode()
    assert ROOM_LINK not in page  # the display shows tonight, not that evening


def test_the_tonight_page_links_to_the_room_display(coordinator_client, club):
    session_on(club, TODAY, Session.Status.IN_PLAY)
    page = coordinator_client.get("/").content.decode()
    assert "Tonight:" in page and ROOM_LINK in page
