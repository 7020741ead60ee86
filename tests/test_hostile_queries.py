"""Hostile query strings, enumerated: every page the site answers (walked from the URLconf,
as in test_security_enumerated) is opened with every query parameter any view reads set to
values a typing slip, an old bookmark or a prober sends: dates past the calendar, impossible
dates, words for numbers, huge numbers, NUL bytes (PostgreSQL refuses NUL in text where
SQLite takes it), very long values. None may be a server error, on either database, for a
coordinator, a member, or an anonymous visitor when the club's results are public.
"""

import re
from pathlib import Path
from urllib.parse import urlencode

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from club.models import Club
from tests.test_security_enumerated import HTMX, client_for, urls, world  # noqa: F401

pytestmark = pytest.mark.django_db

HOSTILE = [
    "9999-09-01",  # a season whose end is past the calendar's last year
    "0000-01-01",  # year 0 does not exist
    "1999-12-31",  # a real date before any session may be held
    "2025-02-30",
    "abc",
    "../",
    "sideways",
    "-1",
    "99999999999999999999999999999999",
    "²",
    "\x00",
    "x" * 5000,
]


def query_names() -> set[str]:
    """Every query parameter a view reads: found in the apps' source, so a new one is
    walked without being listed here; plus the fields of forms bound to request.GET."""
    names = {"page", "season", "sort", "dir"}
    pattern = re.compile(
        r"""GET(?:\.get|\.getlist)?\(\s*["'](\w+)["']|["'](\w+)["'] in request\.GET"""
    )
    for app in ("club", "games", "scoring", "front", "config"):
        for path in (Path(settings.BASE_DIR) / app).rglob("*.py"):
            for match in pattern.finditer(path.read_text()):
                names.add(match.group(1) or match.group(2))
    names |= {"q", "show"}  # MemberSearchForm(request.GET)
    names |= {"name", "min_sessions", "option_limit", "value_mahjong.points"}  # settings preview
    return names


def hostile_queries() -> list[str]:
    names = sorted(query_names())
    queries = [urlencode({name: value for name in names}) for value in HOSTILE]
    # The season alone too: a page that refuses the sort first must still meet the season.
    queries += [urlencode({"season": value}) for value in HOSTILE]
    return queries


def test_the_walk_reads_the_parameters_the_views_read():
    # The scan found the views' own parameters (so it would find a new one).
    assert {"season", "sort", "dir", "by", "next", "rules"} <= query_names()


def failures(client: Client, pages, queries) -> list[str]:
    found = []
    for name, url in pages:
        for query in queries:
            for extra in ({}, HTMX):
                try:
                    response = client.get(f"{url}?{query}", **extra)
                    if response.streaming:  # a CSV fails while it is being written
                        b"".join(response.streaming_content)
                except Exception as error:  # noqa: BLE001 - each failure is reported by name
                    found.append(f"{name} ?{query[:80]}: {type(error).__name__}: {error}"[:300])
                    continue
                if response.status_code >= 500:
                    found.append(f"{name} ?{query[:80]}: {response.status_code}")
    return found


def test_no_page_is_a_server_error_for_a_coordinator(world):  # noqa: F811
    pages = urls(world)
    assert len(pages) > 40  # the walk reached the pages
    client = client_for(world["coordinator"])
    assert failures(client, pages, hostile_queries()) == []


@pytest.mark.parametrize("who", ["member", "anonymous"])
def test_no_standings_page_is_a_server_error(world, who):  # noqa: F811
    Club.objects.update(standings_visibility=Club.Visibility.PUBLIC)
    pages = [(name, url) for name, url in urls(world) if "/standings/" in url]
    assert len(pages) >= 10  # every standings page, the six that read a season among them
    client = client_for(world["plain"] if who == "member" else None)
    assert failures(client, pages, hostile_queries()) == []


def shown_season(response):
    board = response.context.get("board")
    return board.season if board is not None else response.context["season"]


@pytest.mark.parametrize(
    "path", ["/standings/", "/standings/members/{pk}/", "/standings/attendance/"]
)
@pytest.mark.parametrize("season", ["9999-09-01", "0000-01-01", "abc", "2025-02-30", "\x00"])
def test_a_season_that_cannot_be_shown_shows_this_season_and_says_so(world, path, season):  # noqa: F811
    client = client_for(world["coordinator"])
    url = path.format(pk=world["plain_member"].pk)
    bad, plain = client.get(url, {"season": season}), client.get(url)
    assert bad.status_code == plain.status_code == 200
    assert shown_season(bad) == shown_season(plain)
    assert "This season is shown instead." in bad.content.decode()
    assert "This season is shown instead." not in plain.content.decode()


def test_a_season_key_names_its_season(world):  # noqa: F811
    client = client_for(world["coordinator"])
    response = client.get("/standings/", {"season": "2025-06-01"})
    assert shown_season(response).key == "2025-01-01"
    assert "shown instead" not in response.content.decode()


@pytest.mark.parametrize("shown_hand", ["²", "١٢", "x" * 5000, "\x00", "99999999999999999999"])
def test_the_table_poll_reads_the_hand_shown_as_digits_only(world, shown_hand):  # noqa: F811
    """The table's poll with this match's own id (so it reads the hand number: the walk
    above, which sends the same value everywhere, stops at the match id)."""
    match = world["match"]
    client = client_for(world["seated"].user)
    url = reverse("scoring:poll", args=[match.session_id, match.table_number])
    response = client.get(url, {"m": match.pk, "h": shown_hand}, **HTMX)
    assert response.status_code == 200
