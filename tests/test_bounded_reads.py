"""Every page's queries are bounded by what it shows, checked on their SQL (issue 28).

These are the kinds of query `make history-bench` found reading more with years of history
or with more clubs on one database, checked on every page (both databases: the SQL, not
the plan, so they hold whatever the planner chooses on the test's small tables).

1. Rows prefetched for matches already read are found by the matches' keys alone. A page that lists tonight's matches then reads their chairs (or hands) by the matches' keys.
Through the club's scoped manager, that read also joins every match of the club to check
each chair's club; PostgreSQL hashes that join whole once the club has years of matches, so
Tonight and the session page read the club's whole history (461 -> 4,574 rows from 1 to 20
years, `make history-bench`). The matches came from the club's scope already: their keys
are the bound. This checks every page's queries (both databases: it reads the SQL, not the
plan).

2. Rows looked up by listed sessions' or matches' keys are not sorted through a join to the
club's sessions: the model's default order (by session date) joined every session the club
held, which PostgreSQL hashed whole to sort eight sessions' matches (the latest evening: 95
-> 1,048 rows from 1 to 20 years, `make history-bench`), and a member's recent hands joined
every match and session to sort ten matches' hands (4,131 rows at 20 years).

3. Rows of other tables are not sorted by their sessions' dates through a join: sorting a
season's seats by their sessions' dates (the seating planner's history) walked every plan
and session of the club (486 -> 1,368 rows, 26 -> 577 buffers from 1 to 20 years, `make
history-bench`). The sessions are read first, by the club's date index; the rows by their
keys, sorted in Python.

3b. Nor are they found through that join by the sessions' dates: the season standings
found the season's results by joining every result of the club to its session to filter by
date (1,460 -> 28,592 rows from 1 to 20 years, the issue's own measure); the season's
sessions are read first, by the club's date index, and the rows by their keys.

4. Members picked by a subquery of their keys are not also picked by the club's key: with
both, PostgreSQL reads every member the club ever had by the club's index (the check-in
list: 89 -> 507 rows from 1 to 20 years). The keys come from the club's own rows. Nor are
tonight's members found by joining the club's members to their attendances: that read
every member too (the seating page's players: 38 -> 263 rows). Nor are a season's
attendances named by joining them to the members: beside 300 clubs PostgreSQL looked up
each attendance's member, or hashed the club's members, by its statistics of the day (the
attendance register: 484 -> 1,345 rows*); the keys come first, then the names by key.

5. No page reads the installation's logins: a query from the logins' table picks them by
key or username, and a list of members reads their logins by key, not by a join (the
members list beside 300 clubs: 812 -> 1,596 rows, every club's logins hashed). The member forms listed every free login (no member in any club), which
reads every club's logins and members: 13 -> 1,213 rows beside 150 other clubs.

6. Rows summed per member are summed by the members' keys, and the members' names read by
key afterwards: with the members joined to name them, beside 300 clubs PostgreSQL looked a
member up for every result summed (the season standings: 927 -> 1,640 rows*, the member's
home page and the standings' download alike).

7. A member's sessions are the club's sessions each looked up in the member's attendance
(a semi-join), not the sessions joined to their attendances: to find the member's last
session (the member's page for the coordinator) PostgreSQL read every attendance of theirs
(3 -> 71 rows beside 300 clubs).
"""

from __future__ import annotations

import logging
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.test_every_page import evening_in_play
from tests.test_flat_with_history import _requests

pytestmark = pytest.mark.django_db

BY_MATCH_KEYS = re.compile(r'"match_id" IN \((?!SELECT)')  # listed keys, not a subquery
JOINS_MATCHES = re.compile(r'"games_match"."club_id" = ')  # the scope's join
FROM_LOGINS = re.compile(r'FROM "auth_user"')
# A list of members with their logins joined: PostgreSQL hashed every club's logins.
JOINS_LOGINS = re.compile(r'FROM "club_member" (LEFT OUTER |INNER )?JOIN "auth_user" ON')
BY_KEYS_SORTED_BY_DATE = re.compile(
    r'"(session|match)_id" IN \((?!SELECT)[^)]*\).*ORDER BY "club_session"\."date"'
)
# A table's rows for a span of the club's sessions (a season), sorted by their dates
# through the join that finds those sessions.
SORTED_BY_SESSION_DATES = re.compile(
    r'^SELECT .*? FROM "(?!club_session")\w+" .*INNER JOIN "club_session" .*'
    r'"club_session"\."date" >= .*ORDER BY "club_session"\."date"'
)
# A table's rows for a span of the club's sessions found through the join to the
# sessions and their dates, not by the span's sessions' keys.
FILTERED_BY_SESSION_DATES = re.compile(
    r'^SELECT .*? FROM "(?!club_session")\w+" INNER JOIN "club_session" ON [^)]*\) WHERE .*'
    r'"club_session"\."date" >= '
)
MEMBERS_BY_CLUB_AND_KEYS = re.compile(
    r'FROM "club_member" WHERE \("club_member"\."club_id" = \S+ AND "club_member"\."id" IN \(\(?SELECT'
)
MEMBERS_JOINED_TO_ATTENDANCES = re.compile(r'FROM "club_member" INNER JOIN "club_attendance"')
# Listed sessions' rows (attendance, answers, seats) named by joining them to the members.
SESSIONS_ROWS_JOINED_TO_MEMBERS = re.compile(
    r'FROM "\w+" INNER JOIN "club_member" ON .*"session_id" IN \((?!SELECT)'
)
# Rows summed per member with the members joined to name them: a member looked up for every
# row summed, or every member of the club read.
SUMMED_WITH_MEMBERS_JOINED = re.compile(r'INNER JOIN "club_member" ON .* GROUP BY ')
# A member's sessions found by joining the club's sessions to that member's attendances: the
# planner may read every attendance of theirs to find the latest.
SESSIONS_JOINED_TO_A_MEMBERS_ATTENDANCES = re.compile(
    r'FROM "club_session" INNER JOIN "club_attendance" ON .*"club_attendance"\."member_id" = '
)
# A key or a username given (the SQL as run, its values in it), not a join's condition.
# (PostgreSQL's prefetch writes the keys as tuples: ("auth_user"."id") IN ((3), (2)).)
LOGINS_BY_KEY = re.compile(r'"auth_user"\."id"\)? (= |IN \(\(?)\d|"auth_user"\."username" = \'')


# The kinds a single pattern finds, each with what it reads (the module's note).
KINDS = [
    (
        BY_KEYS_SORTED_BY_DATE,
        "rows of listed sessions or matches sorted through a join to the club's sessions",
    ),
    (
        FILTERED_BY_SESSION_DATES,
        "a span of sessions' rows found by the sessions' dates through a join",
    ),
    (SORTED_BY_SESSION_DATES, "a span of sessions' rows sorted by their dates through the join"),
    (
        MEMBERS_JOINED_TO_ATTENDANCES,
        "members found by joining the club's members to their attendances",
    ),
    (
        SESSIONS_ROWS_JOINED_TO_MEMBERS,
        "listed sessions' rows named by a join to the club's members",
    ),
    (SUMMED_WITH_MEMBERS_JOINED, "rows summed per member with the members joined to name them"),
    (
        SESSIONS_JOINED_TO_A_MEMBERS_ATTENDANCES,
        "a member's sessions found by joining the sessions to their attendances",
    ),
    (MEMBERS_BY_CLUB_AND_KEYS, "members picked by a subquery of keys and by the club's key too"),
    (JOINS_LOGINS, "logins joined to a list of members, not read by their keys"),
]


def _unbounded(sql: str) -> str | None:
    if BY_MATCH_KEYS.search(sql) and JOINS_MATCHES.search(sql):
        return "chairs or hands of listed matches joined to every match of the club"
    for pattern, what in KINDS:
        if pattern.search(sql):
            return what
    if FROM_LOGINS.search(sql) and not LOGINS_BY_KEY.search(sql):
        return "logins read but not by key or username"
    return None


def test_every_page_reads_by_keys_not_every_row_of_a_kind(demo_club):
    world = evening_in_play(demo_club)
    offending = {}
    logging.disable(logging.WARNING)  # the refusals' log lines
    try:
        for label, call in _requests(world).items():
            with CaptureQueriesContext(connection) as queries:
                call()
            for query in queries.captured_queries:
                why = _unbounded(query["sql"])
                if why:
                    offending.setdefault(label, f"{why}: {query['sql'][:400]}")
    finally:
        logging.disable(logging.NOTSET)
    assert not offending, "\n".join(f"{label}: {sql}" for label, sql in offending.items())
