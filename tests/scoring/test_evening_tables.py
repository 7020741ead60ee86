"""The evening's results, table by table: players in place order with their place, no
match listed that had nothing in it, and a heading of its own for each match at a table
that changed (so no two headings or landmarks share a name, axe's "landmark-unique")."""

import datetime
import re
from html import unescape

import pytest

from club.models import Session
from scoring import standings
from scoring.models import KongChips
from scoring.standings import refresh_match
from tests.factories import MemberFactory
from tests.page_outline import PageOutline, repeated_headings, repeated_landmarks
from tests.scoring.standings_helpers import draw, play, session_on, win

pytestmark = pytest.mark.django_db

DATE = datetime.date(2026, 3, 5)


def people(club, count=8):
    names = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo"][:count]
    return [MemberFactory(club=club, table_name=name) for name in names]


def page(client, session, htmx=False) -> str:
    headers = {"HX-Request": "true"} if htmx else {}
    response = client.get(f"/standings/evening/{session.pk}/", headers=headers)
    assert response.status_code == 200
    return unescape(response.content.decode())


def cards(html: str) -> dict[str, list[str]]:
    """Each table card's heading and its list of players, as the page shows them."""
    found = {}
    for heading, items in re.findall(
        r'<h3 id="table-\d+">(.*?)</h3>.*?<ul class="plain-list">(.*?)</ul>', html, re.S
    ):
        found[heading] = [" ".join(item.split()) for item in re.findall(r"<li>(.*?)</li>", items)]
    return found


# --- players in place order -------------------------------------------------------------


def test_each_table_lists_its_players_by_place_with_the_place_shown(member_client, club):
    ann, bob, cat, dan = people(club, 4)
    session = session_on(club, DATE, members=[ann, bob, cat, dan])
    # Seated Ann, Bob, Cat, Dan: Cat ends +38, Bob -10, Ann and Dan -14 each.
    play(
        session,
        1,
        [ann, bob, cat, dan],
        [win(2, 10, [-10, -10, 30, -10]), win(2, 4, [-4, 0, 8, -4])],
        rules="u3a",
    )
    listed = cards(page(member_client, session))["Table 1"]
    # Each line ends with the result and its unit ("+38 chips").
    assert all(item.endswith(" chips") for item in listed)
    assert [item.split(" ")[:-2] for item in listed] == [
        ["1st:", "Cat"],
        ["2nd:", "Bob"],
        ["joint", "3rd:", "Ann"],
        ["joint", "3rd:", "Dan"],
    ]


def test_players_are_ordered_by_place_then_seat_and_those_without_a_place_come_last(club):
    ann, bob, cat, dan, eve = people(club, 5)
    session = session_on(club, DATE, members=[ann, bob, cat, dan, eve])
    # Eve (chair 4) sits out the only hand; Dan wins it; Ann, Bob and Cat each pay 10.
    play(session, 1, [ann, bob, cat, dan, eve], [win(3, 10, [-10, -10, -10, 30, 0])])
    (table,) = standings.evening_results(session, club).listed_tables
    seats = [chair.member.table_name for chair, _ in table.players]
    assert seats == ["Ann", "Bob", "Cat", "Dan", "Eve"]
    ordered = table.in_place_order
    assert [chair.member.table_name for chair, _ in ordered] == ["Dan", "Ann", "Bob", "Cat", "Eve"]
    results = {chair.member.table_name: result for chair, result in ordered}
    assert results["Dan"].place_text == "1st"
    assert {results[name].place_text for name in ("Ann", "Bob", "Cat")} == {"joint 2nd"}
    assert results["Eve"] is None or results["Eve"].hands_played == 0


def test_the_page_shows_the_places_in_order(member_client, club):
    ann, bob, cat, dan = people(club, 4)
    session = session_on(club, DATE, members=[ann, bob, cat, dan])
    play(
        session,
        2,
        [ann, bob, cat, dan],
        [win(3, 10, [-10, -10, -10, 30]), win(1, 4, [0, 8, -4, -4])],
        rules="u3a",
    )
    (listed,) = cards(page(member_client, session)).values()
    assert [item.split(":")[0] for item in listed] == ["1st", "2nd", "3rd", "4th"]
    assert [item.split(": ")[1].split()[0] for item in listed] == ["Dan", "Bob", "Ann", "Cat"]


# --- empty matches and matches of a table that changed ---------------------------------


def changed_twice(club, session_status=Session.Status.CLOSED):
    """Table 4 changed twice (three matches with hands) after an empty match (the table
    changed before its first hand); table 2 was started and ended straight away, then
    played; table 3 made a kong and changed before any hand finished."""
    members = people(club, 10)
    a, b, c, d, e, f, g, h, i, j = members
    session = session_on(club, DATE, session_status, members)
    play(session, 4, [a, b, c, d], [], rules="u3a", ending="table_changed")
    play(session, 4, [a, b, c, e], [win(0, 6, [18, -6, -6, -6])], "u3a", "table_changed")
    play(session, 4, [a, b, e, c], [draw(4), win(1, 8, [-8, 24, -8, -8])], "u3a", "table_changed")
    last = None if session_status == Session.Status.IN_PLAY else "closed"
    play(session, 4, [a, b, e, d], [win(3, 4, [-4, -4, -4, 12])], "u3a", last)
    play(session, 2, [f, g, h, i], [], rules="u3a", ending="ended")
    play(session, 2, [f, g, h, i], [win(2, 10, [-10, -10, 30, -10])], "u3a", last)
    kong = play(session, 3, [j, f, g, h], [], rules="u3a", ending="table_changed")
    KongChips.objects.create(
        match=kong, hand_number=1, chair=0, kind="concealed", payments=[9, -3, -3, -3]
    )
    refresh_match(kong)
    return session


def test_an_empty_match_is_not_listed(member_client, club):
    session = changed_twice(club)
    html = page(member_client, session)
    headings = list(cards(html))
    assert headings == [
        "Table 2",
        "Table 3 (until the table changed)",
        "Table 4, first part (until the table changed)",
        "Table 4, second part (until the table changed)",
        "Table 4, third part",
    ]
    assert "0 hands played" not in html
    assert "No hands finished: only kong chips were paid." in html  # table 3: chips, no hand


def test_a_table_that_changed_has_a_heading_for_each_part(club):
    session = changed_twice(club)
    evening = standings.evening_results(session, club)
    assert len(evening.tables) == 7  # every match, empty ones included
    table_4 = [table for table in evening.listed_tables if table.number == 4]
    assert [table.which_part for table in table_4] == ["first", "second", "third"]
    assert [table.hands for table in table_4] == [1, 2, 1]


def test_a_table_in_play_with_no_hands_yet_is_listed_as_such(member_client, club):
    ann, bob, cat, dan = people(club, 4)
    session = session_on(club, DATE, Session.Status.IN_PLAY, [ann, bob, cat, dan])
    play(session, 1, [ann, bob, cat, dan], [], rules="u3a", ending=None)
    html = page(member_client, session)
    assert list(cards(html)) == ["Table 1"] and "No hands played yet." in html
    # Its players, and no figures: nothing was scored yet (not "Ann 0 chips").
    assert cards(html)["Table 1"] == ["Ann", "Bob", "Cat", "Dan"]


def test_a_match_with_nothing_in_it_is_listed_while_played_and_left_out_once_ended(
    member_client, club
):
    """What the user guide says: a match just started is listed ("No hands played yet.",
    its players, no zeros); one that ended with nothing in it (its table changed before
    the first hand) is not."""
    ann, bob, cat, dan, eve = people(club, 5)
    session = session_on(club, DATE, Session.Status.IN_PLAY, [ann, bob, cat, dan, eve])
    play(session, 1, [ann, bob, cat, dan], [], rules="u3a", ending="table_changed")
    play(session, 1, [ann, bob, cat, eve], [], rules="u3a", ending=None)
    html = page(member_client, session)
    assert cards(html) == {"Table 1": ["Ann", "Bob", "Cat", "Eve"]}
    assert "No hands played yet." in html and " 0 chips" not in html


# --- the kind: no two headings or landmarks alike, on every variant of the page -----------


def _one_table(club):
    members = people(club, 4)
    session = session_on(club, DATE, members=members)
    play(session, 1, members, [win(0, 10, [30, -10, -10, -10])], rules="u3a")
    return session


def _in_play(club):
    return changed_twice(club, Session.Status.IN_PLAY)


def _placings(club):
    club.standings_ranking = club.Ranking.PLACINGS
    club.save()
    return changed_twice(club)


VARIANTS = {
    "one table": _one_table,
    "a table changed twice, empty matches, final": changed_twice,
    "the same, provisional": _in_play,
    "ranked by placings": _placings,
}


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("htmx", [False, True], ids=["page", "update"])
def test_no_two_headings_or_landmarks_share_a_name(member_client, club, variant, htmx):
    session = VARIANTS[variant](club)
    html = page(member_client, session, htmx)
    outline = PageOutline(html)
    assert [text for level, text in outline.headings if level == 3]  # the tables are there
    assert repeated_headings(html) == []
    assert repeated_landmarks(html) == []
    regions = [name for role, name in outline.landmarks if role == "region"]
    assert regions == [text for level, text in outline.headings if level == 3]


def test_the_outline_finds_repeated_headings_and_landmarks():
    html = (
        '<nav aria-label="Main"></nav><nav aria-label="Main"></nav>'
        '<section aria-labelledby="a"><h3 id="a">Table 4 <em>(until)</em></h3></section>'
        '<section aria-labelledby="b"><h3 id="b">Table 4 <em>(until)</em></h3></section>'
        "<section><h2>Unnamed</h2></section><section><h2>Other</h2></section>"
    )
    assert repeated_headings(html) == [(3, "Table 4 (until)")]
    assert repeated_landmarks(html) == [("navigation", "Main"), ("region", "Table 4 (until)")]


@pytest.mark.parametrize("status", [Session.Status.CLOSED, Session.Status.IN_PLAY])
def test_the_room_display_lists_each_table_by_place_under_a_heading_of_its_own(
    member_client, club, status
):
    changed_twice(club, status)
    html = unescape(member_client.get("/standings/room/").content.decode())
    assert repeated_headings(html) == [] and repeated_landmarks(html) == []
    cards = re.findall(r'<div class="room-card">.*?<ul>(.*?)</ul>', html, re.S)
    assert cards
    for items in cards:
        figures = [int(f.replace("\u2212", "-")) for f in re.findall(r'figure">([^<]+)<', items)]
        assert figures == sorted(figures, reverse=True)
