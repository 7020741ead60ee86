"""Two clubs on one installation cannot see or change each other's data, enumerated.

Clubs A and B (tests/two_clubs.py) each have a whole evening's data. Every URL pattern the
site has (tests/test_security_enumerated.py's walker) is requested at A's address
(`/c/alder/...`) with B's ids in the path (B's session, member, match, keep-apart pair),
by GET and by POST with plausible form data naming B's rows, as an anonymous visitor, a
member of A, a coordinator of A and the login that is a member of both clubs. Then, with
A's own ids in the path, the form data alone names B's rows (a keep-apart "other", a
swap's two people, a correction's hand, a kong to take back...).

Each request runs in a savepoint rolled back afterwards, so every request meets the same
two clubs (a write to A by one does not hide the next), and the test client's login is
put back. After each:
- no response body holds any of B's words (names, table names, contact details, notes,
  venues, B's own evenings' dates, B's logins) or, in its visible text, B's figures
  (hand totals, tallies, results);
- a URL naming B's row by id answers 404, 403, 405 or a redirect, never the page;
- every row of B, table by table, is as it was (count and a hash of every value), and no
  row of A points at a row of B.

The other way round shows the test can fail: B's pages at B's address show B's data to
B's members, the member of both clubs sees each club's data at its address, and a
coordinator of A has no coordinator's power at B's address (403 on every page and write
only B's coordinators may use, B unchanged).
"""

import copy
import json
import re
from html.parser import HTMLParser

import pytest
from django.contrib.auth import get_user_model
from django.db import connection, transaction
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import Resolver404, resolve, reverse

from front import backup
from tests.test_security_enumerated import COORDINATOR, SEATED, WRITES, kwargs_for, walk
from tests.two_clubs import club_models, logins_of_only, rows_of, two_clubs

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
# Arguments that name a row of a club by its id or its secret (a table key's code); a
# table's `number` is the same in every club; a password reset link names a login, which
# is the site's.
CLUB_IDS = {"pk", "session_id", "member_pk", "pair_pk", "code", "calendar_token", "slug"}
NOT_A_CLUBS_ROW = {"password_reset_confirm"}
REFUSALS = {302, 403, 404, 405}
# A statement that changes the database (after one, the other club's rows are compared).
WRITE = re.compile(r"\s*(INSERT|UPDATE|DELETE|REPLACE|TRUNCATE|ALTER|DROP|CREATE)\b", re.I)
# Leaks found by this test and not fixed yet: each gets its own failing test (marked xfail,
# strict), and the walks do not report it again for every role. Once it is fixed, its test
# passes, strict xfail fails the run, and both markings come out. (The first, a club's
# backup holding every club's logins, was fixed in front/backup/.)
KNOWN_LEAKS: dict[str, str] = {}


def url_name(url: str) -> str:
    """The URL pattern's name of a club's address."""
    try:
        return resolve(re.sub(r"^/c/[^/]+", "", url)).view_name
    except Resolver404:
        return ""


@pytest.fixture
def clubs():
    a, b, both = two_clubs()
    return {"a": a, "b": b, "both": both}


def ids_of(world) -> dict:
    """kwargs_for's names for one club's rows."""
    return {
        "session": world.session,
        "match": world.match,
        "plain_member": world.plain_member,
        "last_week": world.last_week,
        "pair": world.pair,
        "coordinator": world.coordinator,
        "table_key": world.table_key,
        "calendar_token": world.calendar_token,
        "club": world.club,
    }


def addresses(world, ids_from) -> list[tuple[str, set, str]]:
    """(name, argument names, url at `world`'s address) for every URL pattern, its
    arguments filled with the ids of `ids_from`'s rows."""
    found = []
    for name, _, keys in walk():
        path = reverse(name, kwargs=kwargs_for(name, keys, ids_of(ids_from)))
        found.append((name, set(keys), world.url(path)))
    return found


def form_data(world) -> dict:
    """Plausible answers to every form of the site, each naming `world`'s rows where a form
    names a row by its id (members, sessions, hands, kong chips, matches)."""
    members = [world.seated, world.plain_member]
    return {
        # a table's hand entry, corrections, kong chips
        "hand": 1,
        "number": 1,
        "winner": 0,
        "won_by": "wall",
        "total": 8,
        "chair": 0,
        "kind": "concealed",
        "kong": world.kong.pk,
        "hand_id": world.hand.pk,
        "what": "win",
        "reason": "Changed from the other club",
        "match": world.match.pk,
        # check-in, sessions
        "present": "1",
        "paid": "1",
        "date": "2027-03-03",
        "venue": "Intruders' hall",
        "notes": "written from the other club",
        "status": "closed",
        "from": world.session.pk,
        "name": "Ivy Intruder",
        "member_id": world.seated.pk,
        # seating
        "member": members[1].pk,
        "a": members[0].pk,
        "b": members[1].pk,
        "pick": members[0].pk,
        "choice": "confirm",
        # members and keep-apart
        "other": members[1].pk,
        "table_name": "Ivy",
        "login": "none",
        "confirm": "yes",
        "action": "confirm",
    }


class VisibleText(HTMLParser):
    """A page's text as a reader sees it (no scripts, styles or attributes)."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag, attrs):
        self._skip += tag in ("script", "style")

    def handle_endtag(self, tag):
        if tag in ("script", "style") and self._skip:
            self._skip -= 1

    def handle_data(self, data):
        if not self._skip:
            self.parts.append(data)


def body_of(response) -> str:
    content = b"".join(response.streaming_content) if response.streaming else response.content
    return content.decode(errors="replace")


def figures_in(text: str) -> set[int]:
    """Whole numbers in `text` (1,234 and 1234 alike), not parts of longer words or numbers."""
    return {
        int(found.replace(",", ""))
        for found in re.findall(
            r"(?<![\w.,])\d{1,3}(?:,\d{3})+(?![\w,])|(?<![\w.,])\d+(?![\w,])", text
        )
    }


def is_a_club_backup(body: str) -> bool:
    return body.startswith(f'{{"format":"{backup.FORMAT}"')


def shows(world, body: str) -> list[str]:
    """`world`'s words and figures found in a response body. A club's backup is every row
    with its id and the ids it points to (and seating plans' lists of member ids): on
    PostgreSQL ids run into the thousands, so one of A's ids equal to one of B's tallies is
    chance, not a leak. Its words are checked here; that its rows are A's alone, row by
    row, is tests/test_backup.py's
    test_a_clubs_backup_holds_its_own_rows_and_logins_and_nothing_of_another_club."""
    found = [word for word in world.words if word in body]
    if is_a_club_backup(body):
        return found
    if "<" in body:
        parser = VisibleText()
        parser.feed(body)
        text = " ".join(parser.parts)
    else:  # CSV, JSON
        text = body
    found += [str(figure) for figure in sorted(world.figures & figures_in(text))]
    return found


def cross_references(a, b) -> list[str]:
    """Rows of club `a` that point at a row of club `b` (a foreign key between two
    club-scoped models, or to the club itself)."""
    paths = dict(club_models())
    found = []
    for model, path in club_models():
        for field in model._meta.concrete_fields:
            target = field.related_model
            if not (field.many_to_one or field.one_to_one) or field.name == path.split("__")[0]:
                continue  # the way the row reaches its own club
            if target is not None and target._meta.label == "club.Club":
                lookup = f"{field.name}"
            elif target in paths:
                lookup = f"{field.name}__{paths[target]}"
            else:
                continue
            rows = model._base_manager.filter(**{path: a.club}).filter(**{lookup: b.club})
            if rows.exists():
                found.append(f"{model._meta.label}.{field.name} -> {b.club.slug}")
    return found


def client_as(user) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


class Walk:
    """Requests made at one club's address, each in a savepoint rolled back afterwards,
    with what the other club (`other`) must never see changed or shown."""

    def __init__(self, here, other, user):
        self.here, self.other = here, other
        self.client = client_as(user)
        self.cookies = copy.deepcopy(self.client.cookies)
        self.before = rows_of(other.club)
        self.problems: list[str] = []
        self.wrote: list[str] = []  # the requests that wrote a club's rows

    def request(self, method: str, url: str, where: str, data=None, extra=None):
        with transaction.atomic():
            with CaptureQueriesContext(connection) as queries:
                response = getattr(self.client, method)(url, data or {}, **(extra or {}))
                body = body_of(response)
            leaked = shows(self.other, body)
            if leaked and not KNOWN_LEAKS.get(url_name(url)):
                self.problems.append(f"{where}: shows {self.other.club.slug}'s {leaked[:5]}")
            writes = [q["sql"] for q in queries if WRITE.match(q["sql"])]
            if not writes:
                transaction.set_rollback(True)
                self.client.cookies = copy.deepcopy(self.cookies)
                return response, body  # nothing written: nothing of the other club's changed
            if any('"club_' in sql or '"games_' in sql or '"scoring_' in sql for sql in writes):
                self.wrote.append(where)
            after = rows_of(self.other.club)
            changed = sorted(k for k in after if after[k] != self.before[k])
            if changed:
                self.problems.append(f"{where}: changed {self.other.club.slug}'s {changed}")
            crossed = []
            if self.here.club != self.other.club:
                crossed = cross_references(self.here, self.other)
            if crossed:
                self.problems.append(f"{where}: made {crossed}")
            transaction.set_rollback(True)
        self.client.cookies = copy.deepcopy(self.cookies)
        return response, body


def roles(clubs) -> dict:
    a = clubs["a"]
    return {
        "anonymous": None,
        "member of A": a.seated.user,
        "coordinator of A": a.coordinator,
        "member of A and B": clubs["both"],
    }


ROLES = ["anonymous", "member of A", "coordinator of A", "member of A and B"]


@pytest.mark.parametrize("role", ROLES)
def test_at_a_s_address_b_s_ids_find_nothing_and_change_nothing(clubs, role):
    a, b = clubs["a"], clubs["b"]
    walk_ = Walk(a, b, roles(clubs)[role])
    data = form_data(b)
    wrong = []
    for name, keys, url in addresses(a, b):
        names_b = bool(keys & CLUB_IDS) and name not in NOT_A_CLUBS_ROW
        for method, extra in (("get", {}), ("get", HTMX), ("post", {}), ("post", HTMX)):
            where = f"{method.upper()}{' htmx' if extra else ''} {url} ({name}) as {role}"
            response, _ = walk_.request(method, url, where, data, extra)
            if response.status_code >= 500:
                wrong.append(f"{where}: answered {response.status_code}")
            elif names_b and response.status_code not in REFUSALS:
                wrong.append(f"{where}: answered {response.status_code} for B's row")
    assert walk_.problems + wrong == [], "\n".join(walk_.problems + wrong)


@pytest.mark.parametrize("role", ["member of A", "coordinator of A", "member of A and B"])
def test_at_a_s_address_forms_naming_b_s_rows_find_nothing_and_change_nothing(clubs, role):
    """A's own pages, their forms filled in with B's rows' ids."""
    a, b = clubs["a"], clubs["b"]
    walk_ = Walk(a, b, roles(clubs)[role])
    data = form_data(b)
    posted = 0
    for name, _, url in addresses(a, a):
        if name not in WRITES:
            continue
        for extra in ({}, HTMX):
            where = f"POST{' htmx' if extra else ''} {url} ({name}) as {role}"
            response, _ = walk_.request("post", url, where, data, extra)
            if response.status_code >= 500:
                walk_.problems.append(f"{where}: answered {response.status_code}")
            posted += 1
    assert walk_.problems == [], "\n".join(walk_.problems)
    assert posted > 80
    if role == "coordinator of A":
        # The form data is plausible: A's coordinator's posts that name no row of B's (retire,
        # delete, a session's status...) really wrote A's rows.
        assert len(walk_.wrote) > 10, walk_.wrote
        print(f"{len(walk_.wrote)} of {posted} posts wrote A's rows")


def test_b_s_pages_show_b_s_data_to_b_s_members(clubs):
    """The walk above could pass by refusing everything: at B's address, with B's ids, the
    same pages show B's data to B's member and coordinator (and never A's)."""
    a, b = clubs["a"], clubs["b"]
    showing = {}
    for who, user in {"member": b.seated.user, "coordinator": b.coordinator}.items():
        walk_ = Walk(b, a, user)
        for name, _, url in addresses(b, b):
            response, body = walk_.request("get", url, f"GET {url} as B's {who}")
            if response.status_code == 200 and shows(b, body):
                showing.setdefault(name, set()).add(who)
        assert walk_.problems == [], "\n".join(walk_.problems)
    # The pages that must show B's rows to whoever may see them.
    for name in [
        "home",
        "scoring:table",
        "scoring:evening",
        "scoring:member",
        "scoring:leaderboard",
        "scoring:scoresheet",
        "club:seating",
    ]:
        assert "member" in showing.get(name, ()), name
    for name in [
        "club:member_list",
        "club:member_detail",
        "club:session_list",
        "club:session_detail",
        "club:check_in",
        "club:seating_manage",
        "scoring:correct",
    ]:
        assert "coordinator" in showing.get(name, ()), name
    assert len(showing) > 30, sorted(showing)


def test_the_login_of_both_clubs_sees_each_club_at_its_own_address(clubs):
    a, b, both = clubs["a"], clubs["b"], clubs["both"]
    client = client_as(both)
    at_a = client.get(a.url("/")).content.decode()
    at_b = client.get(b.url("/")).content.decode()
    assert a.both.table_name in at_a and b.both.table_name not in at_a
    assert b.both.table_name in at_b and a.both.table_name not in at_b
    for world, other in ((a, b), (b, a)):
        table = world.url(
            reverse(
                "scoring:table",
                args=[
                    world.session.pk,
                    world.both.chairs.get(match__session=world.session).match.table_number,
                ],
            )
        )
        page = client.get(table)
        assert page.status_code == 200
        assert world.both.table_name in page.content.decode()
        assert shows(other, page.content.decode()) == []
        standings = client.get(world.url(reverse("scoring:leaderboard"))).content.decode()
        assert world.seated.table_name in standings and shows(other, standings) == []


def test_b_s_pages_show_a_s_data_to_nobody(clubs):
    """The other way round, for the login of both clubs: at B's address, with A's ids."""
    a, b = clubs["a"], clubs["b"]
    walk_ = Walk(b, a, clubs["both"])
    for name, keys, url in addresses(b, a):
        response, _ = walk_.request("get", url, f"GET {url} ({name})")
        if keys & CLUB_IDS and name not in NOT_A_CLUBS_ROW:
            assert response.status_code in REFUSALS, (name, response.status_code)
    assert walk_.problems == [], "\n".join(walk_.problems)


def test_a_coordinator_of_a_has_no_coordinators_power_at_b_s_address(clubs):
    """Every page B's coordinator may open and B's member may not, and every write only
    B's coordinators (or players seated at B's tables) may make, answers 403 to A's
    coordinator at B's address; B unchanged."""
    a, b = clubs["a"], clubs["b"]
    as_coordinator = client_as(b.coordinator)
    as_member = client_as(b.seated.user)
    # B's rows must not change; its words may show (this is B's address, with public results).
    walk_ = Walk(b, type(b)(**{**b.__dict__, "words": [], "figures": set()}), a.coordinator)
    data = form_data(b)
    coordinators_pages = []
    wrong = []
    for name, _, url in addresses(b, b):
        with transaction.atomic():
            theirs = as_coordinator.get(url).status_code
            members = as_member.get(url).status_code
            transaction.set_rollback(True)
        if theirs == 200 and members == 403:
            coordinators_pages.append(name)
            response, _ = walk_.request("get", url, f"GET {url} ({name})")
            if response.status_code != 403:
                wrong.append(f"GET {name}: {response.status_code}")
        if WRITES.get(name) in (COORDINATOR, SEATED):  # not seated at any of B's tables
            for extra in ({}, HTMX):
                response, _ = walk_.request("post", url, f"POST {url} ({name})", data, extra)
                if response.status_code != 403:
                    wrong.append(f"POST {name}: {response.status_code}")
    assert walk_.problems + wrong == [], "\n".join(walk_.problems + wrong)
    assert len(coordinators_pages) > 10, coordinators_pages


def test_a_s_backup_holds_none_of_b_s_rows(clubs):
    """A coordinator of A downloads A's backup: B's club row, B's logins (and their password
    hashes) and B's words are not in it."""
    a, b = clubs["a"], clubs["b"]
    response = client_as(a.coordinator).get(a.url(reverse("club_backup")))
    assert response.status_code == 200
    text = body_of(response)
    backup = json.loads(text)
    b_logins = set(logins_of_only(b.club))
    rows = [
        (row["model"], row.get("pk"), row["fields"].get("username", ""))
        for row in backup["data"]
        if (row["model"] == "club.club" and row.get("pk") == b.club.pk)
        or (row["model"] == "auth.user" and row.get("pk") in b_logins)
    ]
    hashes = [user.password for user in get_user_model().objects.filter(pk__in=b_logins)]
    assert rows == []
    assert [h for h in hashes if h in text] == []
    assert shows(b, text) == []


def test_a_clubs_backup_is_told_apart_and_still_checked_for_the_other_clubs_words(clubs):
    """The backup's figures are left to test_backup (see `shows`): the walk must still know
    a backup when it sees one, and find a club's words in it."""
    b = clubs["b"]
    text = backup.to_json(backup.export_club(b.club))
    assert is_a_club_backup(text) and not is_a_club_backup('{"data": []}')
    assert b.club.name in shows(b, text) and b.seated.name in shows(b, text)
