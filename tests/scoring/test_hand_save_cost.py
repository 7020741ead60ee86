"""What one write at the table costs: queries, builds of the table's board, and replays of
the match's flow. Recording a hand works the match's state out once inside the write and
builds the page once from it, so a saved hand stays quick however the code around it grows
(issue #18). Before: a quick-entry win 33 statements, the board built three times and the
flow replayed five times (six at a table of five); a draw 29/1/3, kong chips 30/2/3, an
undo 27/1/2 (counted as here). The page's one-time key (sent_key, issue #20) adds two
queries to each: 17 for every write; the club's kept records (issue #28) up to four more
for a write that changes a best hand or a run of wins: 21."""

import re
import uuid
from contextlib import contextmanager
from dataclasses import dataclass
from unittest import mock

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games import flow
from games.models import Match
from games.start import start_play
from scoring import selectors
from scoring.models import KongChips
from scoring.recording import Win, record_kong, record_win
from tests.games.helpers import seated_session

# transaction=True: each write is its own transaction, as in production, so the queries
# counted are the ones a live request makes (no test savepoints around every atomic block).
pytestmark = pytest.mark.django_db(transaction=True)
HTMX = {"HTTP_HX_REQUEST": "true"}

# A quick-entry save: the page built once, the flow replayed at most twice (once to check
# and record the hand, once where the results need the Dreamer's hands at a table of five).
# Every query a request sends (the request's club and its login included): 15, and two for
# the write's one-time key (issue #20): looked for under the match's lock, then kept. The
# club's kept records (scoring.kept_records): nothing when no best hand or run changed, else
# their lists read (1), and when the change reaches one, it worked out again and its rows
# replaced (3 more): the first hands of a club, as here, make records.
MAX_QUERIES = 21
MAX_BOARDS = 1
MAX_REPLAYS = 2
TRANSACTION_CONTROL = re.compile(r"\A\s*(BEGIN|COMMIT|ROLLBACK)\b", re.IGNORECASE)
HANDS_BEFORE = 3  # hands already played, so the replays and the results have work to do


@dataclass
class Cost:
    queries: int = 0
    boards: int = 0
    replays: int = 0


@contextmanager
def counted():
    """Count the queries, board builds and flow replays of what runs inside."""
    cost = Cost()
    with (
        CaptureQueriesContext(connection) as queries,
        mock.patch.object(selectors, "board", wraps=selectors.board) as board,
        mock.patch.object(flow, "replay", wraps=flow.replay) as replay,
    ):
        yield cost
    # BEGIN and COMMIT are not queries (SQLite's log shows them, PostgreSQL's does not).
    cost.queries = sum(
        not TRANSACTION_CONTROL.match(query["sql"]) for query in queries.captured_queries
    )
    cost.boards = board.call_count
    cost.replays = replay.call_count


def _table(club, size: int) -> Match:
    """A u3a table of `size` in play with HANDS_BEFORE hands won by the dealer (who keeps
    the deal) and kong chips in the hand being played."""
    club.rule_set = "u3a"
    club.save()
    match = start_play(seated_session(club, sizes=(size,)))[0]
    for number in range(1, HANDS_BEFORE + 1):
        record_win(match, number, Win(0, "wall", None, 10))
    record_kong(match, HANDS_BEFORE + 1, 1, "concealed")
    return match


def _post(client, match, name: str, data: dict):
    url = reverse(f"scoring:{name}", args=[match.session_id, match.table_number])
    # As the page sends it: with its one-time key (one read and one row more).
    data = {**data, "sent_key": str(uuid.uuid4())}
    with counted() as cost:
        response = client.post(url, data, **HTMX)
    assert response.status_code == 200
    return response, cost


def _within_targets(cost: Cost) -> None:
    assert cost.boards <= MAX_BOARDS, cost
    assert cost.replays <= MAX_REPLAYS, cost
    assert cost.queries <= MAX_QUERIES, cost


@pytest.mark.parametrize("size", [4, 5])
def test_a_quick_entry_win_builds_the_page_once(coordinator_client, club, size):
    match = _table(club, size)
    data = {"hand": HANDS_BEFORE + 1, "winner": 1, "won_by": "discard", "discarder": 2}
    response, cost = _post(coordinator_client, match, "win", {**data, "total": 12})
    assert b"saved" in response.content
    assert match.live_hands().count() == HANDS_BEFORE + 1
    _within_targets(cost)


def test_a_draw_builds_the_page_once(coordinator_client, club):
    match = _table(club, 4)
    response, cost = _post(coordinator_client, match, "draw", {"hand": HANDS_BEFORE + 1})
    assert b"a draw" in response.content
    _within_targets(cost)


def test_kong_chips_build_the_page_once(coordinator_client, club):
    match = _table(club, 4)
    data = {"hand": HANDS_BEFORE + 1, "chair": 2, "kind": "discard", "key": str(uuid.uuid4())}
    response, cost = _post(coordinator_client, match, "kong", data)
    assert b"Kong chips saved" in response.content
    assert KongChips.objects.filter(match=match, voided_at__isnull=True).count() == 2
    _within_targets(cost)


def test_an_undo_builds_the_page_once(coordinator_client, club):
    match = _table(club, 4)
    response, cost = _post(coordinator_client, match, "undo", {"hand": HANDS_BEFORE})
    assert b"is undone" in response.content
    assert match.live_hands().count() == HANDS_BEFORE - 1
    _within_targets(cost)
