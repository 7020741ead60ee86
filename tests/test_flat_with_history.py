"""Every page reads what it shows, not the club's whole history (issue 28).

The demo club (played through the app's own code) with tonight's evening in play, its past
evenings copied back in time to make a year (tests/longer_history.py); every page a
coordinator or a member opens is measured: the rows its queries read (EXPLAIN ANALYZE,
tests/rows_read.py). Then five more years are added the same way and every page is measured
again: no page may read more than 1.5 times its rows of the one-year club (and a few more).
The pages are every URL pattern the site has (tests/test_security_enumerated.py's walker),
so a new page that reads the whole history fails here, plus the writes of a club night
(a check-in tap) and the table's poll.

PostgreSQL only: rows read are its EXPLAIN ANALYZE counters; SQLite has none (CI runs the
suite on both, so CI runs this).
"""

from __future__ import annotations

import logging
import os

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse

from club.models import Attendance, Member
from tests.longer_history import LongerHistory
from tests.rows_read import reading
from tests.test_every_page import evening_in_play
from tests.test_security_enumerated import kwargs_for, walk

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.skipif(
        connection.vendor != "postgresql",
        reason="rows read are PostgreSQL's EXPLAIN ANALYZE counters (SQLite has none)",
    ),
]

# Five more years may cost this much more: rows read <= RATIO x the one-year club's + SLACK
# rows, or buffers (8 kB pages) <= RATIO x theirs + SLACK_BUFFERS. A page fails when both
# grow: reading the history reads more rows and more pages; on this small club the planner
# may instead join a whole small table (a thousand matches: more rows, the same dozen
# pages) where on a real club's tables it looks rows up by index.
RATIO, SLACK, SLACK_BUFFERS = 1.5, 50, 20
MORE_YEARS = 5

# Pages that are the club's whole history by their nature: the backup and the exports of
# every hand and every evening's attendance (downloads, asked for now and then), and a
# member's own data (every hand at their tables, asked for under data protection law).
WHOLE_HISTORY = {
    "club_backup",
    "scoring:hands_csv",
    "scoring:attendance_csv",
    "my_data_csv",
    "my_data_json",
}


# Pages that still read a figure over the member's or club's whole history, each for a
# kept figure not made yet; they must grow here (strict: a page made flat fails the test
# until it is taken off this list). {label prefix: what it sums}
NOT_YET_FLAT: dict[str, str] = {}


def _pages(world) -> list[tuple[str, str]]:
    return [
        (name, reverse(name, kwargs=kwargs_for(name, keys, world)))
        for name, _, keys in walk()
        if name not in WHOLE_HISTORY
    ]


def _requests(world) -> dict[str, object]:
    """What a coordinator and a member open on a club night: every page by GET, a
    check-in tap and the table's poll. {label: a call making the request}."""
    coordinator, member = Client(), Client()
    coordinator.force_login(world["coordinator"])
    member.force_login(world["seated"])
    requests = {}
    for name, url in _pages(world):
        requests[f"{name} (coordinator)"] = lambda url=url: coordinator.get(url)
        requests[f"{name} (member)"] = lambda url=url: member.get(url)
    session, match = world["session"], world["match"]
    absent = Member.objects.exclude(attendances__session=session).filter(is_active=True).first()
    tap = reverse("club:set_attendance", args=[session.pk, absent.pk])

    def check_in_tap():
        # In and out again, so the second measure taps the same way as the first.
        response = coordinator.post(tap, {"present": "1"}, HTTP_HX_REQUEST="true")
        Attendance.objects.filter(session=session, member=absent).delete()
        return response

    requests["check-in tap"] = check_in_tap
    live = reverse("scoring:poll", args=[session.pk, match.table_number])

    def poll():
        match.refresh_from_db()
        return member.get(live, {"m": match.pk, "v": match.version}, HTTP_HX_REQUEST="true")

    poll.client, poll.address, poll.match = member, live, match  # for bench/history_bench.py
    requests["table poll (unchanged)"] = poll
    return requests


def _answered(requests) -> dict[str, object]:
    """The requests not refused: a member at a coordinator's page, a GET of a form's
    address read nothing of the history, and are not measured."""
    return {label: call for label, call in requests.items() if call().status_code < 400}


def _measure(requests) -> dict[str, object]:
    """{label: its Reading}. Indexes preferred: a few hundred sessions fit in a few pages,
    which the planner would read whole here, but not in a club of twenty years
    (tests/rows_read.py). Every table analysed first, in the test's transaction: the plans
    from its own rows, not from statistics of whatever the database held before."""
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")
    return {label: reading(call, prefer_indexes=True) for label, call in requests.items()}


def test_no_page_reads_more_with_five_more_years(demo_club):
    world = evening_in_play(demo_club)
    history = LongerHistory(demo_club)
    history.add(history.per_year - 1)  # the demo's evenings and copies: a year
    logging.disable(logging.WARNING)  # the refusals' log lines
    try:
        requests = _answered(_requests(world))
        one_year = _measure(requests)
        history.add(MORE_YEARS * history.per_year)
        six_years = _measure(requests)
    finally:
        logging.disable(logging.NOTSET)

    grown, lines = [], []
    for label, before in one_year.items():
        after = six_years[label]
        line = (
            f"{label}: {before.queries} -> {after.queries} queries, rows {before.rows} -> "
            f"{after.rows}, buffers {before.buffers} -> {after.buffers}"
        )
        lines.append(line)
        more_rows = after.rows > RATIO * before.rows + SLACK
        more_pages = after.buffers > RATIO * before.buffers + SLACK_BUFFERS
        known = next((why for page, why in NOT_YET_FLAT.items() if label.startswith(page)), None)
        if known and not (more_rows and more_pages):
            grown.append(f"{line}\n    flat now: take it off NOT_YET_FLAT ({known})")
        elif more_rows and more_pages and not known:
            heaviest = "; ".join(f"{s.rows} rows: {s.sql[:300]}" for s in after.heaviest(2))
            grown.append(f"{line}\n    heaviest now: {heaviest}")
    print("\n".join(lines))
    show = os.environ.get("FLAT_SHOW")
    for label in [label for label in six_years if show and (show == "*" or label.startswith(show))]:
        for when, read in (("1 year", one_year[label]), ("6 years", six_years[label])):
            for s in read.statements:
                if s.rows > int(os.environ.get("FLAT_SHOW_ROWS", "0")):
                    print(f"{label} {when}: {s.rows} rows, {s.buffers} buffers: {s.sql}")
    if grown:
        pytest.fail(
            f"{len(grown)} request(s) read more with {MORE_YEARS} more years of history "
            f"(allowed: {RATIO} x + {SLACK} rows or {RATIO} x + {SLACK_BUFFERS} buffers), or "
            "no longer grow though listed in NOT_YET_FLAT:\n" + "\n".join(grown),
            pytrace=False,
        )
