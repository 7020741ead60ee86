"""The table page's scripts take the server's words and constants, without a browser: the
outbox writes waiting hands and the board in the words of the page's JSON (table_flow),
which are the server's own, and repeats none of them; flow.js has games/flow.py's
constants from the same JSON and defines none itself."""

import json
import re
from html import unescape
from pathlib import Path

import pytest
from django.conf import settings

from games import flow
from scoring import selectors
from tests.scoring.test_table_views import url

JS = Path(__file__).resolve().parents[2] / "static" / "js"
pytestmark = pytest.mark.django_db


@pytest.fixture
def evening(club):
    from games.start import start_play
    from tests.games.helpers import seated_session

    club.rule_set = "u3a"
    club.save()
    session = seated_session(club, sizes=(4,))
    start_play(session)
    return session


def page_flow(client, session) -> dict:
    html = client.get(url("table", session, 1)).content.decode()
    found = re.search(r'<script id="table-flow" type="application/json">(.*?)</script>', html)
    assert found, "the table page carries its JSON while hands can be recorded"
    return json.loads(unescape(found.group(1)))


def test_the_pages_words_and_retry_are_the_servers(coordinator_client, evening):
    data = page_flow(coordinator_client, evening)
    assert data["words"] == {
        "won_by": {str(how): words for how, words in selectors.WON_BY_WORDS.items()},
        "kong": selectors.KONG_WORDS,
        "winds": flow.WIND_WORDS,
    }
    assert data["retry_ms"] == settings.TABLE_OUTBOX_RETRY_MS


def test_the_outbox_repeats_none_of_the_servers_words():
    """Every word the page's JSON gives the outbox is the server's alone: a word changed in
    Python cannot leave the outbox saying the old one."""
    script = "\n".join(path.read_text() for path in sorted(JS.glob("outbox*.js")))
    server = [
        *selectors.KONG_WORDS.values(),
        *flow.WIND_WORDS.values(),
        # "on {discarder} discard": the script once wrote "on " + who + "'s discard".
        *(
            f"'s{words.split('{discarder}')[-1]}" if "{" in words else words
            for words in selectors.WON_BY_WORDS.values()
        ),
    ]
    repeated = [words for words in server if words in script]
    assert not repeated, f"the outbox's files repeat the server's words: {repeated}"


def test_the_pages_flow_constants_are_games_flows(coordinator_client, evening):
    """flow.js moves the board with the constants the page's JSON gives it: games/flow.py's."""
    assert page_flow(coordinator_client, evening)["flow"] == {
        "winds": list(flow.WINDS),
        "needs_discarder": sorted(flow._NEEDS_DISCARDER),
        "classical_games": flow.CLASSICAL_GAMES,
        "games_per_round": flow.GAMES_PER_ROUND,
        "default_rounds": flow.DEFAULT_ROUNDS,
        "max_rounds": flow.MAX_ROUNDS,
        "min_players": flow.MIN_PLAYERS,
        "max_players": flow.MAX_PLAYERS,
    }


def test_flow_js_defines_none_of_games_flows_constants():
    """flow.js keeps only the moves: no wind, rule of a discarder or limit of its own (a
    count of 0, 1 or 2 is arithmetic, not a rule), so a constant changed in games/flow.py
    cannot leave the board moving on by the old one."""
    script = (JS / "flow.js").read_text()
    code = re.sub(r"//.*", "", script)
    strings = set(re.findall(r'"([^"]*)"', code))
    assert not strings & {*flow.WINDS, *flow.WIND_WORDS.values(), *flow._NEEDS_DISCARDER}
    numbers = set(re.findall(r"(?<![\w.])\d+(?![\w.])", code))
    assert numbers <= {"0", "1", "2"}, f"flow.js has numbers of its own: {numbers}"
    assert not re.search(r"\b[A-Z][A-Z_]+\s*=", code), "flow.js names a constant"


def test_the_table_page_loads_every_outbox_file_in_order(coordinator_client, evening):
    """The outbox is split by job into files with no build step: the page loads each of
    them, after flow.js, in the order outbox-shared.js lists them (a file calls the ones
    before it by the names it took at its top), and no file in static/js is left out."""
    html = coordinator_client.get(url("table", evening, 1)).content.decode()
    loaded = re.findall(r'<script src="/static/js/(flow\.js|outbox[\w-]*\.js)" defer>', html)
    listed = re.findall(r"^//\s+(outbox[\w-]*\.js)\s", (JS / "outbox-shared.js").read_text(), re.M)
    assert loaded == ["flow.js", *listed]
    assert sorted(listed) == sorted(path.name for path in JS.glob("outbox*.js"))
