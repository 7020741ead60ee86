"""Pages that update themselves poll at an interval drawn at each render (polling_tags), so
thousands of tablets that opened their pages together do not ask together."""

import random
import re

import pytest

from games.models import Match
from games.start import start_play
from scoring.recording import record_draw
from scoring.templatetags.polling_tags import SPREAD, poll_every, poll_interval_ms
from tests.games.helpers import seated_session
from tests.scoring.test_table_views import HTMX, live_url, url

TRIGGER = re.compile(r'hx-trigger="every (\d+)ms"')


def intervals(html: str) -> list[int]:
    return [int(ms) for ms in TRIGGER.findall(html)]


class Ends:
    """A stand-in for random that always picks one end of the range."""

    def __init__(self, end):
        self.end = end

    def uniform(self, low, high):
        return low if self.end == "low" else high


@pytest.mark.parametrize(("seconds", "low", "high"), [(4, 3500, 4500), (20, 17500, 22500)])
def test_the_interval_stays_within_an_eighth_either_side(seconds, low, high):
    assert SPREAD == 0.125
    assert poll_interval_ms(seconds, Ends("low")) == low
    assert poll_interval_ms(seconds, Ends("high")) == high
    drawn = [poll_interval_ms(seconds, random.Random(seed)) for seed in range(200)]
    assert all(low <= ms <= high for ms in drawn)
    assert len(set(drawn)) > 150  # spread out, not a few fixed values
    assert min(drawn) < low + (high - low) / 4 and max(drawn) > high - (high - low) / 4


def test_the_tag_writes_htmx_s_trigger_in_milliseconds():
    assert re.fullmatch(r"every \d{4}ms", poll_every(4))
    assert re.fullmatch(r"every \d{5}ms", poll_every("30"))


@pytest.fixture
def evening(club):
    session = seated_session(club, sizes=(4,))
    start_play(session)
    session.refresh_from_db()
    return session


def test_each_render_of_the_table_page_and_its_poll_picks_a_new_interval(
    coordinator_client, evening
):
    pages = [coordinator_client.get(url("table", evening)).content.decode() for _ in range(6)]
    drawn = [ms for page in pages for ms in intervals(page)]
    assert len(drawn) == 6, "one polling element per page"
    # The board's poll, when the hands changed: the swapped-in element has its own interval.
    match = Match.objects.get(session=evening, table_number=1, status="in_play")
    for _ in range(6):
        shown = match.version
        record_draw(match, match.hands.count() + 1)
        match.refresh_from_db()
        swap = coordinator_client.get(live_url(evening, match, shown, 1), **HTMX)
        drawn += intervals(swap.content.decode())
    assert len(drawn) == 12
    assert all(3500 <= ms <= 4500 for ms in drawn), drawn
    assert len(set(drawn)) > 1, drawn


def test_an_unchanged_table_costs_the_poll_one_lookup_of_its_match(
    client, evening, django_assert_num_queries
):
    """The poll is most of a club night's requests: for a player whose table has not
    changed it reads the login (its session, its user), the club, and the match by session
    and table: nothing more (the seat is remembered in the login's session after the first
    poll; no groups, no chairs, no session or club read twice). Exact, on both databases."""
    from django.test import Client

    from tests.factories import UserFactory
    from tests.games.helpers import seated_members

    player = seated_members(evening, 1)[0]
    player.user = UserFactory()
    player.save()
    client = Client()
    client.force_login(player.user)
    match = Match.objects.get(session=evening, table_number=1, status="in_play")
    address = live_url(evening, match, match.version)
    assert client.get(address, **HTMX).status_code == 204  # the first: reads the chairs
    with django_assert_num_queries(4):  # club, login session, user, match
        answer = client.get(address, **HTMX)
    assert answer.status_code == 204
    # A login not at this table is still refused, poll after poll (its seat is not kept).
    stranger = Client()
    stranger.force_login(UserFactory())
    for _ in range(2):
        assert stranger.get(address, **HTMX).status_code == 403
