"""A server restart in the middle of an evening loses no recorded hand and no check-in.

A real gunicorn (2 sync workers) serves the test database while four tables record hands
and a coordinator checks late arrivals in, each over plain HTTP from its own thread,
without pause. When every table has a few hands, the database is held for a moment so that
requests are certainly in flight inside the server, and the server is then restarted:

- graceful: SIGHUP to the master, which replaces its workers;
- stop and start: SIGTERM (requests under way finish), then a new gunicorn;
- killed: SIGKILL to the master and its workers together, then a new gunicorn.

Like a tablet, a client that gets no answer (refused, reset, cut off, or a 503 page)
cannot know whether its post landed, so it sends the same form again (same hand number,
same CSRF token) until it gets an answer. The app must answer "saved" if the first post
did not land and "already saved" if it did. Afterwards every table's hands are exactly the
ones its client was told were saved, numbered 1..N with none doubled or missing, every
confirmed check-in is there, and the tallies equal a rebuild from the hands.

`pytest tests/faults -s` prints each restart's figures (they are also in the summary).
"""

from __future__ import annotations

import contextvars
import http.client
import re
import signal
import threading
import time
import urllib.parse
from collections.abc import Callable
from contextlib import contextmanager
from dataclasses import dataclass, field

import pytest
from django.conf import settings
from django.db import connection, transaction
from django.urls import reverse

from club.models import Attendance, Club
from games.models import Match
from games.start import start_play
from scoring import standings
from scoring.models import Hand
from scoring.results import MatchResult
from tests.concurrency.test_bursts import Browser
from tests.factories import CoordinatorFactory, MemberFactory, UserFactory
from tests.faults import FIGURES
from tests.faults.server import Gunicorn
from tests.games.helpers import seated_members, seated_session

pytestmark = pytest.mark.django_db(transaction=True)

TABLES = 4
LATE_ARRIVALS = 200
# Hands each table has saved before the restart, and more after it, before the run ends.
HANDS_BEFORE, HANDS_AFTER = 3, 3
# A client with no answer tries again this often, for at most this long.
RETRY_EVERY, GIVE_UP_AFTER = 0.05, 40.0
# The coordinator taps a name this often.
CHECK_IN_EVERY = 0.03
# After every client has a request out, how long before the restart, so that the workers
# have taken theirs and are waiting on the database.
SETTLE = 0.5
NEXT_HAND = re.compile(r'<input type="hidden" name="hand" value="(\d+)">')
HTMX = {"HX-Request": "true"}


class NoAnswer(Exception):
    """No answer the client can trust: the connection failed, or the 503 page."""


@dataclass
class Tally:
    """What one client sent and was told."""

    posts: int = 0
    recorded: int = 0
    already: int = 0
    not_sure: int = 0
    confirmed: list = field(default_factory=list)  # hand numbers or members, in order
    in_flight: int = 0
    lose_next_answer: bool = False
    lost: list = field(default_factory=list)  # hands whose answer the tablet never read
    already_for: list = field(default_factory=list)  # hands answered "already saved"
    failure: str = ""


class Tablet(Browser):
    """A logged-in device (the bursts test's Browser) that sends a post again, unchanged,
    until it gets an answer."""

    def __init__(self, server: Gunicorn, user):
        super().__init__(server, user)
        self.tally = Tally()

    def send_and_hang_up(self, path: str, data: dict) -> None:
        """Post, and drop the connection without reading the answer (the tablet's Wi-Fi
        went as the answer came back)."""
        self.tally.posts += 1
        sent = http.client.HTTPConnection(self.host, self.port, timeout=10)
        sent.request("POST", path, body=urllib.parse.urlencode(data), headers=self.headers())
        sent.close()

    def headers(self) -> dict:
        return {
            "Content-Type": "application/x-www-form-urlencoded",
            "Cookie": f"{settings.SESSION_COOKIE_NAME}={self.session_cookie}; "
            f"{settings.CSRF_COOKIE_NAME}={self.csrf}",
            "X-CSRFToken": self.csrf,
            **HTMX,
        }

    def post_until_answered(self, path: str, data: dict) -> str:
        deadline = time.monotonic() + GIVE_UP_AFTER
        while True:
            self.tally.posts += 1
            self.tally.in_flight += 1
            try:
                answer = self.post(path, data, headers=HTMX)
            except (OSError, http.client.HTTPException):
                answer = None
            finally:
                self.tally.in_flight -= 1
            if answer is not None and answer.status != 503:
                if answer.status != 200:
                    raise AssertionError(f"{path} answered {answer.status}: {answer.body[:500]}")
                return answer.body
            self.tally.not_sure += 1
            if time.monotonic() > deadline:
                raise NoAnswer(f"no answer to {path} within {GIVE_UP_AFTER} s")
            time.sleep(RETRY_EVERY)


def win(match: Match, number: int) -> dict:
    """Hand `number`'s form: the dealer (chair 0) wins, so under u3a rules the deal stays
    and the match never ends; the way and the total vary."""
    data = {"hand": number, "match": match.pk, "winner": 0, "action": "save"}
    if number % 2:
        return data | {"won_by": "wall", "total": 8 + 2 * (number % 5)}
    return data | {"won_by": "discard", "discarder": 1 + number % 3, "total": 10 + number % 7}


def play(tablet: Tablet, match: Match, stop: threading.Event) -> None:
    path = reverse("scoring:win", args=[match.session_id, match.table_number])
    number = 1
    while not stop.is_set():
        if tablet.tally.lose_next_answer:
            tablet.tally.lose_next_answer = False
            tablet.send_and_hang_up(path, win(match, number))
            tablet.tally.lost.append(number)
            landed = match.live_hands().filter(number=number)
            wait_until(landed.exists, "the hand whose answer was dropped")
        page = tablet.post_until_answered(path, win(match, number))
        if f"Hand {number} saved:" in page:
            tablet.tally.recorded += 1
        elif f"Hand {number} is saved." in page:  # the first post had landed
            tablet.tally.already += 1
            tablet.tally.already_for.append(number)
        else:
            raise AssertionError(f"Hand {number} neither saved nor already saved:\n{page[:2000]}")
        tablet.tally.confirmed.append(number)
        shown = NEXT_HAND.search(page)
        assert shown and int(shown.group(1)) == number + 1, "the page must offer the next hand"
        number += 1


def check_in(tablet: Tablet, session, late: list, stop: threading.Event) -> None:
    for member in late:
        if stop.is_set():
            return
        path = reverse("club:set_attendance", kwargs={"pk": session.pk, "member_pk": member.pk})
        row = tablet.post_until_answered(path, {"present": "1"})
        if f'id="member-{member.pk}"' not in row or 'aria-pressed="true"' not in row:
            raise AssertionError(f"{member.name} was not shown as here:\n{row[:2000]}")
        tablet.tally.recorded += 1
        tablet.tally.confirmed.append(member.pk)
        time.sleep(CHECK_IN_EVERY)


def running(target: Callable, tablet: Tablet, *args) -> threading.Thread:
    context = contextvars.copy_context()  # the test's club scope (tests/conftest.py)

    def run():
        try:
            context.run(target, tablet, *args)
        except BaseException as error:  # reported by the test, not lost in the thread
            tablet.tally.failure = f"{type(error).__name__}: {error}"
        finally:
            connection.close()  # this thread's own, opened to look for a lost hand

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread


def wait_until(condition: Callable[[], bool], what: str, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"Timed out waiting for {what}.")
        time.sleep(0.01)


@contextmanager
def database_held():
    """Hold the tables the writes need, so every write that arrives waits inside the server
    (reads go on). SQLite: the transaction begins IMMEDIATE, taking the write lock."""
    with transaction.atomic(), connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            tables = f"{Match._meta.db_table}, {Attendance._meta.db_table}"
            cursor.execute(f"LOCK TABLE {tables} IN EXCLUSIVE MODE")
        else:
            cursor.execute(f"UPDATE {Match._meta.db_table} SET version = version WHERE 0 = 1")
        yield


@dataclass
class Evening:
    session: object
    matches: list
    tables: list
    coordinator: Tablet
    late: list


@pytest.fixture
def server(transactional_db, club):
    # Asking for the database first stops the server before the database is emptied; the
    # club must exist before the first page, which would otherwise make a club of its own.
    gunicorn = Gunicorn()
    gunicorn.start()
    gunicorn.wait_until_ready()
    yield gunicorn
    gunicorn.close()


@pytest.fixture
def evening(server, club) -> Evening:
    """Four tables of four in play under u3a rules, the East player of each recording on
    their own tablet, and a coordinator with a list of late arrivals to check in."""
    club.rule_set = "u3a"
    club.save()
    session = seated_session(club, sizes=(4,) * TABLES)
    start_play(session)
    matches = list(Match.objects.filter(session=session).order_by("table_number"))
    tables = []
    for number in range(1, TABLES + 1):
        east = seated_members(session, number)[0]
        east.user = UserFactory()
        east.save()
        tables.append(Tablet(server, east.user))
    late = MemberFactory.create_batch(LATE_ARRIVALS, club=club)
    return Evening(session, matches, tables, Tablet(server, CoordinatorFactory()), late)


def restart(server: Gunicorn, kind: str) -> None:
    """Begin the restart (the database is held; requests are in flight)."""
    if kind == "graceful":
        server.signal(signal.SIGHUP)
    elif kind == "stop and start":
        server.signal(signal.SIGTERM)
    elif kind == "killed":
        server.kill_all()


def back_up(server: Gunicorn, kind: str, old_workers: set[int]) -> None:
    """Wait until the server answers again (starting a new one after a stop or a kill)."""
    if kind == "graceful":
        wait_until(lambda: not server.workers() & old_workers, "the old workers to leave")
    elif kind == "stop and start":
        server.wait_exit()
        server.start()
    else:
        server.start()
    server.wait_until_ready()


@pytest.mark.parametrize("kind", ["graceful", "stop and start", "killed"])
def test_a_restart_mid_evening_loses_nothing(server, evening, kind):
    stop = threading.Event()
    tablets = [*evening.tables, evening.coordinator]
    threads = [
        running(play, tablet, match, stop)
        for tablet, match in zip(evening.tables, evening.matches, strict=True)
    ] + [running(check_in, evening.coordinator, evening.session, evening.late, stop)]

    def failed() -> str:
        return "; ".join(t.tally.failure for t in tablets if t.tally.failure)

    def hands_at_least(counts: list[int]) -> bool:
        assert not failed(), failed()
        return all(len(t.tally.confirmed) >= n for t, n in zip(evening.tables, counts, strict=True))

    try:
        wait_until(lambda: hands_at_least([HANDS_BEFORE] * TABLES), "hands before the restart")
        not_sure_before = sum(t.tally.not_sure for t in tablets)
        old_workers = server.workers()
        with database_held():
            wait_until(
                lambda: all(t.tally.in_flight for t in evening.tables), "every table to post"
            )
            time.sleep(SETTLE)
            in_flight = sum(t.tally.in_flight for t in tablets)
            began = time.monotonic()
            restart(server, kind)
        back_up(server, kind, old_workers)
        seconds = time.monotonic() - began
        for tablet in evening.tables:
            tablet.tally.lose_next_answer = True
        marks = [len(t.tally.confirmed) + HANDS_AFTER for t in evening.tables]
        wait_until(lambda: hands_at_least(marks), "hands after the restart")
    finally:
        stop.set()
        for thread in threads:
            thread.join(timeout=GIVE_UP_AFTER + 10)
    assert not failed(), failed()

    figures = {
        "posts": sum(t.tally.posts for t in tablets),
        "recorded": sum(t.tally.recorded for t in tablets),
        "already": sum(t.tally.already for t in tablets),
        "not_sure": sum(t.tally.not_sure for t in tablets) - not_sure_before,
        "hands": sum(len(t.tally.confirmed) for t in evening.tables),
        "check_ins": len(evening.coordinator.tally.confirmed),
    }
    line = (
        f"[restart] {kind} ({connection.vendor}): {figures['posts']} posts sent "
        f"({figures['hands']} hands, {figures['check_ins']} check-ins confirmed); "
        f"{figures['recorded']} recorded, {figures['already']} refused as already recorded "
        f"({TABLES} of them answers the tablet dropped on purpose after the restart); "
        f"{in_flight} requests in flight at the restart, {figures['not_sure']} connection "
        f"errors or 503s during it; back in {seconds:.2f} s"
    )
    print("\n" + line)
    FIGURES.append(line)

    # The restart met requests under way: a graceful one drops no connection; a stop or a
    # kill drops them, and the tablets' retries got through.
    assert in_flight >= TABLES
    if kind == "graceful":
        assert figures["not_sure"] == 0
    else:
        assert figures["not_sure"] >= in_flight

    # Every table's hands are exactly those its tablet was told were saved, each once.
    for tablet, match in zip(evening.tables, evening.matches, strict=True):
        confirmed = tablet.tally.confirmed
        assert confirmed == list(range(1, len(confirmed) + 1))
        hands = list(Hand.objects.filter(match=match).order_by("number"))
        assert [h.number for h in hands] == confirmed, f"table {match.table_number}"
        assert all(h.voided_at is None for h in hands)
        for hand in hands:
            sent = win(match, hand.number)
            assert (hand.winner, hand.won_by, hand.discarder, hand.total) == (
                0,
                sent["won_by"],
                sent.get("discarder"),
                sent["total"],
            )
            assert hand.recorded_by_id == tablet_user(match)
    assert figures["recorded"] + figures["already"] == figures["hands"] + figures["check_ins"]
    # A hand whose answer was lost landed once; sent again, it was answered "already saved".
    for tablet in evening.tables:
        assert len(tablet.tally.lost) == 1
        assert set(tablet.tally.lost) <= set(tablet.tally.already_for)

    # Every confirmed check-in is there, and nobody else was checked in.
    here = set(
        Attendance.objects.filter(session=evening.session, left_at__isnull=True).values_list(
            "member_id", flat=True
        )
    )
    seated = {m.pk for n in range(1, TABLES + 1) for m in seated_members(evening.session, n)}
    assert here == seated | set(evening.coordinator.tally.confirmed)

    # The tallies kept while recording equal a rebuild from the hands.
    fields = ["chair_id", "result", "hands_played", "hands_won", "best_total", "place", "weight"]
    kept = sorted(MatchResult.objects.values_list(*fields))
    assert len(kept) == 4 * TABLES
    standings.rebuild_results(Match.objects.filter(session=evening.session))
    assert sorted(MatchResult.objects.values_list(*fields)) == kept
    assert Club.objects.count() == 1


def tablet_user(match: Match) -> int:
    return seated_members(match.session, match.table_number)[0].user_id
