"""Results pages: who may see them, HTMX sorting that the URL keeps, CSV exports, the
public pages never showing contact details or notes, and a fixed number of queries."""

import csv
import datetime
import io
import re

import pytest
from django.core.cache import cache
from django.core.cache.utils import make_template_fragment_key
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import set_script_prefix

from club.models import Club, Session
from tests.factories import MemberFactory
from tests.scoring.standings_helpers import draw, play, session_on, win

pytestmark = pytest.mark.django_db


def build(
    club, members_per_table=4, tables=2, sessions=3, hands=4, start=datetime.date(2026, 1, 5)
):
    """A season of `sessions` evenings, `tables` tables, `hands` hands a table."""
    people = [MemberFactory(club=club) for _ in range(members_per_table * tables)]
    made = []
    for week in range(sessions):
        session = session_on(club, start + datetime.timedelta(weeks=week), members=people)
        for t in range(tables):
            seated = people[t * members_per_table : (t + 1) * members_per_table]
            specs = []
            for n in range(hands):
                winner = (n + week) % members_per_table
                pays = [-10] * members_per_table
                pays[winner] = 10 * (members_per_table - 1)
                specs.append(win(winner, 10 + n, pays))
            specs.append(draw(members_per_table))
            play(session, t + 1, seated, specs)
        made.append(session)
    return people, made


@pytest.fixture
def small(club):
    club.name = "Riverside"
    club.save()
    return build(club)


def pages(people, sessions):
    return [
        "/standings/",
        "/standings/?sort=won&dir=desc",
        f"/standings/evening/{sessions[-1].pk}/",
        f"/standings/members/{people[0].pk}/",
        "/standings/records/",
        "/standings/room/",
    ]


def test_members_only_by_default(client, small):
    people, sessions = small
    for url in pages(people, sessions) + ["/standings/standings.csv", "/standings/hands.csv"]:
        response = client.get(url)
        assert response.status_code == 302 and "/accounts/login/" in response["Location"], url


def test_members_see_every_page(member_client, small):
    people, sessions = small
    for url in pages(people, sessions):
        assert member_client.get(url).status_code == 200, url


def test_the_attendance_report_is_for_coordinators(member_client, small):
    assert member_client.get("/standings/attendance/").status_code == 403
    assert member_client.get("/standings/attendance.csv").status_code == 403


def test_attendance_report(coordinator_client, small):
    people, sessions = small
    page = coordinator_client.get("/standings/attendance/?season=2026-01-01")
    assert page.status_code == 200 and b"3 of 3" in page.content
    rows = list(
        csv.reader(
            io.StringIO(
                b"".join(
                    coordinator_client.get(
                        "/standings/attendance.csv?season=2026-01-01&by=members"
                    ).streaming_content
                ).decode()
            )
        )
    )
    assert rows[0][:4] == ["Name", "Sessions attended", "Sessions held", "Attendance (%)"]
    assert rows[0][4:] == ["Sent apologies", "Absent without word"]
    assert len(rows) == 1 + len(people) and rows[1][1:] == ["3", "3", "100", "0", "0"]
    rows = list(
        csv.reader(
            io.StringIO(
                b"".join(
                    coordinator_client.get(
                        "/standings/attendance.csv?season=2026-01-01&by=sessions"
                    ).streaming_content
                ).decode()
            )
        )
    )
    assert rows[0] == ["Date", "Members present", "Names", "Sent apologies", "Absent without word"]
    assert rows[1][:2] == ["2026-01-05", "8"]
    assert coordinator_client.get("/standings/attendance.csv?by=nonsense").status_code == 404


def test_sorting_swaps_only_the_table_and_the_links_keep_the_choice(member_client, small):
    page = member_client.get(
        "/standings/?season=2026-01-01&sort=won&dir=desc", headers={"HX-Request": "true"}
    )
    html = page.content.decode()
    assert html.lstrip().startswith('<div id="board">') and "<h1" not in html
    assert 'aria-sort="descending"' in html
    # Tapping the sorted column again reverses it; the link is a real URL (works without htmx).
    assert 'href="?season=2026-01-01&amp;sort=won&amp;dir=asc"' in html
    assert 'hx-push-url="true"' in html
    full = member_client.get("/standings/?season=2026-01-01&sort=won&dir=desc").content.decode()
    assert "<h1" in full and 'aria-sort="descending"' in full


def test_the_board_is_rendered_once_and_again_whenever_anything_it_shows_changes(
    member_client, small
):
    people, sessions = small
    url = "/standings/?season=2026-01-01"
    first = member_client.get(url).content.decode()
    # The rendering is kept under a digest of the figures: plant a marker in it to see
    # the next view served from it.
    board = member_client.get(url).context["board"]
    me = member_client.get(url).context["me"]
    club = people[0].club_id
    key = make_template_fragment_key("standings_board", [club, board.fingerprint, me, "/"])
    assert people[0].table_name in cache.get(key)
    cache.set(key, "KEPT BOARD")
    assert "KEPT BOARD" in member_client.get(url).content.decode()
    # Another hand changes a total: the board is worked out afresh, with the new figure.
    seated = people[:4]
    play(sessions[-1], 9, seated, [win(0, 500, [1500, -500, -500, -500])])
    fresh = member_client.get(url).content.decode()
    assert "KEPT BOARD" not in fresh and fresh != first
    # So does a new name, and another sort order.
    people[1].table_name = "Renamed Person"
    people[1].save()
    assert "Renamed Person" in member_client.get(url).content.decode()
    assert "KEPT BOARD" not in member_client.get(url + "&sort=name").content.decode()


def test_leaderboard_csv(member_client, club, small):
    people, _ = small
    people[0].table_name = 'Ann "Mac", O\'Neil'
    people[0].save()
    response = member_client.get("/standings/standings.csv?season=2026-01-01")
    assert response["Content-Type"].startswith("text/csv")
    rows = list(csv.reader(io.StringIO(b"".join(response.streaming_content).decode())))
    assert rows[0][:4] == ["Place", "Name", "Total (points)", "Average (points)"]
    assert rows[0][-2:] == ["Best hand (points)", "Rules"]
    assert {row[-1] for row in rows[1:]} == {"Classical"}
    assert len(rows) == 1 + len(people)
    names = [row[1] for row in rows[1:]]
    assert 'Ann "Mac", O\'Neil' in names
    ann = rows[1 + names.index('Ann "Mac", O\'Neil')]
    int(ann[2]), float(ann[3]), int(ann[4])  # numbers, not text like "+30"


def test_hands_csv_has_one_row_per_live_hand_with_payments(member_client, small):
    people, sessions = small
    response = member_client.get("/standings/hands.csv?season=2026-01-01")
    rows = list(csv.reader(io.StringIO(b"".join(response.streaming_content).decode())))
    assert rows[0][:10] == [
        "Date",
        "Table",
        "Rules",
        "Hand",
        "Outcome",
        "Winner",
        "Won by",
        "Discarder",
        "Value",
        "Entry",
    ]
    assert len(rows) == 1 + 3 * 2 * 5
    first = rows[1]
    assert first[:5] == ["2026-01-05", "1", "classical", "1", "win"]
    payments = [int(first[i]) for i in range(11, 21, 2)[:4]]
    assert sum(payments) == 0 and first[5] == first[10]  # the winner is player 1 here


def test_public_pages_show_no_contact_details_or_notes(client, club, small):
    people, sessions = small
    club.standings_visibility = Club.Visibility.PUBLIC
    club.save()
    planted = []
    for n, member in enumerate(people):
        member.email = f"secret{n}@private.example"
        member.phone = f"07700 90{n:04d}"
        member.notes = f"Private note number {n} xyzzy"
        member.name = f"Fullname{n} Hidden-Surname{n}"
        member.save()
        planted += [member.email, member.phone, member.notes, f"Hidden-Surname{n}"]
    sessions[-1].notes = "Session note plugh"
    sessions[-1].save()
    planted.append("Session note plugh")
    urls = pages(people, sessions) + [
        "/standings/standings.csv?season=2026-01-01",
        "/standings/hands.csv?season=2026-01-01",
        f"/standings/evening/{sessions[-1].pk}/results.csv",
    ]
    for url in urls:
        response = client.get(url)
        assert response.status_code == 200, url
        body = b"".join(response.streaming_content) if response.streaming else response.content
        text = body.decode()
        leaked = [value for value in planted if value in text]
        assert leaked == [], (url, leaked)
    assert client.get("/standings/attendance/").status_code == 302  # still coordinators only


def queries_for(client, url):
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url)
        if response.streaming:
            b"".join(response.streaming_content)
    assert response.status_code == 200, url
    return len(captured)


def test_query_counts_stay_the_same_when_members_and_hands_double(member_client, club):
    people, sessions = build(club, tables=2, sessions=2, hands=3)
    before = [queries_for(member_client, url) for url in pages(people, sessions)]
    # Twice the members, tables and hands a table, in the same season.
    more_people, more_sessions = build(
        club, tables=4, sessions=4, hands=6, start=datetime.date(2026, 3, 2)
    )
    after = [queries_for(member_client, url) for url in pages(more_people, more_sessions)]
    assert after == before
    assert max(before) <= 10, before
    # The season's standings: the club, the session, the login (whether it must change its
    # password read with it: club/login_names.py, no query of its groups), then the rows
    # with the season picker's span in the same statement, and the names on the board by
    # the members' keys (tests/test_bounded_reads.py, item 6); then, for the top of the page,
    # the reader's member (they have no row on the board to name them) and their last
    # evening (a reader on the board: their last evening and its results); and whether the
    # login coordinates this club (the menu's links).
    assert before[0] == 8, before


def test_the_season_picker_without_results_this_season(member_client, club):
    build(club, start=datetime.date(2025, 1, 6))  # results only in an earlier season
    page = member_client.get("/standings/?season=2026-01-01").content.decode()
    assert "No results yet this season." in page
    assert 'value="2025-01-01"' in page and 'value="2026-01-01"' in page


def test_the_club_settings_save_the_standings_choices(coordinator_client, club):
    from tests.test_club_settings import settings_post

    data = settings_post(club)
    data.update(
        standings_ranking="placings",
        placing_points="3-2-1-0",
        min_sessions="4",
        standings_visibility="public",
    )
    assert coordinator_client.post("/settings/", data).status_code == 302
    club.refresh_from_db()
    assert (
        club.standings_ranking,
        club.placing_points,
        club.min_sessions,
        club.standings_visibility,
    ) == ("placings", "3-2-1-0", 4, "public")
    data["placing_points"] = "1-2-3-4"
    page = coordinator_client.post("/settings/", data)
    assert (
        page.status_code == 200
        and "1st place must get at least as many points" in page.content.decode()
    )
    data["placing_points"] = "four-two"
    assert "Write four numbers" in coordinator_client.post("/settings/", data).content.decode()
    club.refresh_from_db()
    assert club.placing_points == "3-2-1-0"


def test_the_room_display_polls_for_the_session_in_play(member_client, club, small):
    people, sessions = small
    tonight = session_on(club, datetime.date(2026, 2, 5), Session.Status.IN_PLAY, people[:4])
    play(tonight, 3, people[:4], [win(2, 30, [-30, -30, 90, -30])], ending=None)
    page = member_client.get("/standings/room/").content.decode()
    # Every 20 s, give or take an eighth, drawn at each render (polling_tags).
    polls = re.findall(r'hx-trigger="every (\d+)ms"', page)
    assert len(polls) == 1 and 17500 <= int(polls[0]) <= 22500 and "Provisional" in page
    assert "Table 3" in page and "+90" in page
    swap = member_client.get("/standings/room/", headers={"HX-Request": "true"}).content.decode()
    assert swap.lstrip().startswith('<div id="room-body"') and "<html" not in swap


def test_latest_evening_goes_to_the_last_session_played(member_client, club, small):
    people, sessions = small
    session_on(club, datetime.date(2026, 6, 1))  # planned, nothing played yet
    response = member_client.get("/standings/evening/")
    assert response["Location"] == f"/standings/evening/{sessions[-1].pk}/"


def test_latest_evening_behind_many_planned_sessions(member_client, club, small):
    """The last played is found behind more planned sessions than are read at a time, by
    the sessions' keys: no query joins every match the club played (which PostgreSQL
    hashes whole once the database is large, issue 28)."""
    from scoring.room import RECENT_SESSIONS

    people, sessions = small
    for week in range(RECENT_SESSIONS + 3):
        session_on(club, datetime.date(2026, 6, 1) + datetime.timedelta(weeks=week))
    with CaptureQueriesContext(connection) as queries:
        response = member_client.get("/standings/evening/")
    assert response["Location"] == f"/standings/evening/{sessions[-1].pk}/"
    assert not [
        q
        for q in queries.captured_queries
        if "EXISTS(SELECT" in q["sql"].upper() and '"games_match"' in q["sql"]
    ]


def test_no_results_yet(member_client, club):
    page = member_client.get("/standings/evening/")
    assert page.status_code == 200 and b"No hands have been played yet" in page.content


def test_the_evening_updates_itself_only_while_provisional(member_client, club, small):
    people, sessions = small
    closed = member_client.get(f"/standings/evening/{sessions[0].pk}/").content.decode()
    assert "Final results" in closed and "hx-trigger" not in closed
    sessions[0].status = Session.Status.IN_PLAY
    sessions[0].save()
    page = member_client.get(f"/standings/evening/{sessions[0].pk}/").content.decode()
    polls = re.findall(r'hx-trigger="every (\d+)ms"', page)
    assert "Provisional" in page and len(polls) == 1 and 26250 <= int(polls[0]) <= 33750
    swap = member_client.get(
        f"/standings/evening/{sessions[0].pk}/", headers={"HX-Request": "true"}
    )
    assert swap.content.decode().lstrip().startswith('<div id="evening-body"')


def test_evening_csv(member_client, small):
    people, sessions = small
    response = member_client.get(f"/standings/evening/{sessions[0].pk}/results.csv")
    rows = list(csv.reader(io.StringIO(b"".join(response.streaming_content).decode())))
    assert rows[0] == [
        "Place",
        "Name",
        "Result (points)",
        "Hands won",
        "Hands played",
        "Placing points",
        "At the table",
        "Best hand (points)",
        "Rules",
    ]
    assert len(rows) == 1 + len(people)
    assert sum(int(row[2]) for row in rows[1:]) == 0  # every payment is someone's gain
    # Each player won one hand and paid for three: all even, so all joint first, four a table.
    assert [row[0] for row in rows[1:]] == ["1"] * len(people)
    assert (
        sorted(row[6] for row in rows[1:])
        == ["joint 1st of 4 at table 1"] * 4 + ["joint 1st of 4 at table 2"] * 4
    )


def test_the_standings_link_every_member_to_their_page_under_any_prefix(member_client, small):
    people, _ = small
    page = member_client.get("/standings/").content.decode()
    for person in people:
        assert re.search(rf'href="/standings/members/{person.pk}/\?season=[\d-]+"', page)
    # A site served under a sub-path links there, though the same member was linked before.
    set_script_prefix("/club/")  # as the WSGI handler does (the test client does not)
    try:
        page = member_client.get("/standings/").content.decode()
    finally:
        set_script_prefix("/")
    assert re.search(rf'href="/club/standings/members/{people[0].pk}/\?season=[\d-]+"', page)


def test_records_list_the_limit_hands_of_the_season_picked(member_client, club):
    """The records page lists one season's limit hands (every season's grew with the club's
    years, tests/test_flat_with_history.py), with the season picker; the highest hands
    stay the club's all-time ones."""
    people = [MemberFactory(club=club) for _ in range(4)]
    session = session_on(club, datetime.date(2025, 3, 6), members=people)
    play(session, 1, people, [win(2, 2000, [-2000, -2000, 6000, -2000])])
    earlier = member_client.get("/standings/records/?season=2025-01-01").content.decode()
    assert "Limit hands in the 2025 season" in earlier
    assert "1 limit hand in the 2025 season" in earlier
    later = member_client.get("/standings/records/?season=2026-01-01").content.decode()
    assert "No one scored a limit hand in the 2026 season." in later
    assert 'value="2025-01-01"' in later and "2000" in later  # the highest hand, all time


def test_the_room_display_shows_the_session_in_play_else_today_s_else_the_last_played(
    member_client, club, small
):
    """Read a few sessions up to today at a time (issue 28): planned sessions ahead and
    more empty evenings than are read at a time do not hide the last one played."""
    from django.utils import timezone

    from scoring.room import RECENT_SESSIONS

    people, sessions = small
    today = timezone.localdate()
    for days in range(1, RECENT_SESSIONS + 3):
        session_on(club, today + datetime.timedelta(weeks=days), Session.Status.PLANNED)
        session_on(club, today - datetime.timedelta(days=days))  # held, nothing played

    def shown():
        return member_client.get("/standings/room/").context["session"]

    assert shown() == sessions[-1]
    tonight = session_on(club, today, Session.Status.PLANNED)
    assert shown() == tonight
    yesterday = Session.objects.get(club=club, date=today - datetime.timedelta(days=1))
    yesterday.status = Session.Status.IN_PLAY
    yesterday.save()
    assert shown() == yesterday
