"""Security, enumerated: every URL the site answers is walked, not a hand-picked few.

- Every view that accepts a POST is listed in WRITES with who may use it; anonymous visitors
  and plain members are refused (login page or 403) with the database left exactly as it was.
  A new view that accepts a POST and is missing from WRITES fails the test by name.
- Every data-changing URL refuses a POST without a CSRF token, and every page's POST forms
  carry the token (htmx requests carry it through <body hx-headers>).
- No page an anonymous visitor or a plain member can open shows another member's email,
  phone or notes, or a session's private notes; a member sees another's email and phone
  only where that member shares them with all members.
"""

import datetime
import json
from html.parser import HTMLParser

import pytest
from django.apps import apps
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from club.calendar_feed.models import CalendarAddress
from club.models import Club, KeepApart, Member, Session
from games.models import Match, RoomKey, TableKey
from games.start import start_play
from scoring.recording import record_draw
from tests.factories import CoordinatorFactory, MemberFactory, UserFactory
from tests.games.helpers import seated_members, seated_session
from tests.scoring.standings_helpers import draw, play, session_on, win

pytestmark = pytest.mark.django_db

# Who may change data through each view that accepts a POST.
COORDINATOR = "coordinators only"
SEATED = "coordinators, and members seated at that table"
# Open to anyone because they act only on the visitor's own login or change nothing stored;
# each is still checked to leave the club's data untouched when anonymous or a member posts.
OPEN = "anyone: own login only, or changes nothing"
# Signed-in members, acting only on their own account or changing nothing stored.
SIGNED_IN = "signed-in members: own account only, or changes nothing"
# Answers POST like GET (no method guard) but writes nothing; checked to write nothing.
READ_ONLY = "reads only, whatever the method"

WRITES = {
    "club_settings": COORDINATOR,
    "club:member_add": COORDINATOR,
    "club:member_import": COORDINATOR,  # previews only; the confirm step writes
    "club:member_import_confirm": COORDINATOR,
    "club:member_detail": COORDINATOR,
    "club:member_edit": COORDINATOR,
    "club:member_retire": COORDINATOR,
    "club:member_reactivate": COORDINATOR,
    "club:member_delete": COORDINATOR,
    "club:member_erase": COORDINATOR,
    "members_data_settings": COORDINATOR,
    "club:keep_apart_add": COORDINATOR,
    "club:keep_apart_remove": COORDINATOR,
    "club:login_unlock": COORDINATOR,
    "club:login_new_password": COORDINATOR,
    "club:session_add": COORDINATOR,
    "club:session_next": COORDINATOR,
    "club:session_edit": COORDINATOR,
    "club:session_status": COORDINATOR,
    "club:check_in": COORDINATOR,
    "club:set_attendance": COORDINATOR,
    "club:set_paid": COORDINATOR,
    "club:walk_in": COORDINATOR,
    "club:seating_make": COORDINATOR,
    "club:seating_reroll": COORDINATOR,
    "club:seating_undo": COORDINATOR,
    "club:seating_swap": COORDINATOR,
    "club:seating_lock": COORDINATOR,
    "club:seating_unlock": COORDINATOR,
    "club:seating_publish": COORDINATOR,
    "club:seating_unpublish": COORDINATOR,
    "club:seating_late": COORDINATOR,
    "club:seating_leaver": COORDINATOR,
    "club:seating_make_from_replies": COORDINATOR,
    # A coordinator answers "coming?" for a member who rang; members answer for themselves
    # only (their own member row at the club, found from their login).
    "club:week_reply_for": COORDINATOR,
    "club:week_reply": SIGNED_IN,
    "club:week_away": SIGNED_IN,
    "club:week_away_end": SIGNED_IN,
    "games:start": COORDINATOR,
    "games:end": COORDINATOR,
    "games:table_key_reissue": COORDINATOR,
    "games:table_key_stop": COORDINATOR,
    "games:room_key_reissue": COORDINATOR,
    "games:room_key_stop": COORDINATOR,
    "scoring:win": SEATED,
    "scoring:preview": SEATED,  # scores without saving, but only for the table's players
    "scoring:full": SEATED,
    "scoring:draw": SEATED,
    "scoring:kong": SEATED,
    "scoring:take_back_kong": SEATED,
    "scoring:undo": SEATED,
    "scoring:dice": SEATED,
    "scoring:correct": COORDINATOR,
    "scoring:paper": COORDINATOR,
    "scoring:practice": SIGNED_IN,  # scores a practice hand; stores nothing
    "login": OPEN,
    "logout": OPEN,
    "password_change": SIGNED_IN,
    # A member's own calendar address, made or renewed by the page's button only.
    "club:calendar_renew": SIGNED_IN,
    "my_details": SIGNED_IN,  # the login's own member only
    "password_reset": OPEN,
    "password_reset_confirm": OPEN,  # needs the emailed token; walked with a wrong one
    "api_score": OPEN,  # public scoring API: stores nothing
    # Typing a table's code: stores nothing but the key on the device's own session.
    "table_key_enter": OPEN,
    # Forgets this device's own table key (and its session): nothing of anyone else's.
    "table_key_leave": OPEN,
    # Starts a new club with a new login, when the operators switch sign-up on
    # (settings.CLUB_SIGNUP; off here, so a post is a 404): nothing of an existing club.
    "signup": OPEN,
    # An empty installation's first club and operator (front/first_setup.py), behind the setup
    # code from the server's log; on an installation with a club it is a 404.
    "first_setup": OPEN,
}

# Django's own admin has its own login and permission checks; static files write nothing.
SKIPPED_PREFIXES = ("admin/", "static/")

HTMX = {"HTTP_HX_REQUEST": "true"}


def walk(patterns=None, prefix="", namespace="", keys=()):
    """(name, route, argument names) for every URL pattern, following includes."""
    if patterns is None:
        patterns = get_resolver().url_patterns
    for entry in patterns:
        route = prefix + str(entry.pattern)
        if route.startswith(SKIPPED_PREFIXES):
            continue
        inner_keys = keys + tuple(entry.pattern.converters)
        if isinstance(entry, URLResolver):
            inner = f"{namespace}{entry.namespace}:" if entry.namespace else namespace
            yield from walk(entry.url_patterns, route, inner, inner_keys)
        elif isinstance(entry, URLPattern):
            assert entry.name, f"name the URL pattern {route}"
            yield f"{namespace}{entry.name}", route, inner_keys


@pytest.fixture
def world(club):
    """A u3a evening in play with a hand recorded at table 1, a coordinator, a member seated
    at table 1, a member seated at table 2, a plain member seated nowhere, and a keep-apart
    pair: real ids for every URL."""
    club.rule_set = "u3a"
    club.show_dice = True
    club.public_calendar = True  # its feed is one of the pages
    club.save()
    session = seated_session(club, sizes=(4, 4))
    start_play(session)
    session.refresh_from_db()
    match = Match.objects.get(session=session, table_number=1, status="in_play")
    record_draw(match, 1)
    seated = seated_members(session, 1)[0]
    seated.user = UserFactory()
    seated.save()
    elsewhere = seated_members(session, 2)[0]
    elsewhere.user = UserFactory()
    elsewhere.save()
    plain = UserFactory()
    plain_member = MemberFactory(club=club, user=plain)
    pair = KeepApart.objects.create(club=club, member_a=seated, member_b=plain_member)
    last_week = session_on(club, datetime.date(2026, 11, 18))
    players = [plain_member, *seated_members(session, 1)[:3]]
    play(last_week, 1, players, [draw(4), win(0, 8, [24, -8, -8, -8])], rules="u3a")
    coordinator = CoordinatorFactory()
    # Every table's key, as the coordinator's first visit to the Table keys page issues
    # them (that the visit issues each once is tests/games/test_table_keys.py): after it,
    # opening any page writes nothing (test_gets_change_nothing).
    keys = TableKey.objects.for_tables(session, [1, 2])
    room_key = RoomKey.for_club(club)  # as the coordinator's first visit to the room card
    return {
        "calendar_token": CalendarAddress.renew(seated).token,
        "room_key": room_key,
        "table_key": keys[1],
        "keys": keys,
        "club": club,
        "session": session,
        "match": match,
        "seated": seated,
        "elsewhere": elsewhere,
        "plain": plain,
        "plain_member": plain_member,
        "pair": pair,
        "last_week": last_week,
        "coordinator": coordinator,
    }


# Which object a URL's `pk` names, by the URL's name.
PK_OF = {
    "match": ("scoring:scoresheet", "scoring:correct", "scoring:paper"),
    "member": ("club:member_", "club:keep_apart_", "club:login_", "scoring:member"),
}


def kwargs_for(name, keys, world):
    """Real values for a URL's arguments; fails naming any argument it cannot fill."""
    values = {}
    for key in keys:
        if key == "pk":
            if name.startswith(PK_OF["match"]):
                values[key] = world["match"].pk
            elif name.startswith(PK_OF["member"]):
                values[key] = world["plain_member"].pk
            elif name.startswith(("scoring:evening", "scoring:changes")):
                values[key] = world["last_week"].pk
            else:
                values[key] = world["session"].pk
        elif key == "session_id":
            values[key] = world["session"].pk
        elif key == "number":
            values[key] = 1
        elif key == "member_pk":
            values[key] = world["plain_member"].pk
        elif key == "pair_pk":
            values[key] = world["pair"].pk
        elif key == "uidb64":
            values[key] = urlsafe_base64_encode(force_bytes(world["coordinator"].pk))
        elif key == "token":
            values[key] = "wrong-token"
        elif key == "code":
            values[key] = world["table_key"].code
        elif key == "calendar_token":
            values[key] = world["calendar_token"]
        elif key == "slug":
            values[key] = world["club"].slug
        else:
            raise AssertionError(f"{name}: say which object fills <{key}> in kwargs_for")
    return values


def urls(world):
    """(name, url) for every pattern, with real ids."""
    return [(name, reverse(name, kwargs=kwargs_for(name, keys, world))) for name, _, keys in walk()]


def snapshot():
    """Every row of every model except the login sessions (which carry messages) and the
    login audit (which records every sign-in, including the test's own)."""
    rows = {}
    for model in apps.get_models():
        if model._meta.label == "sessions.Session" or model._meta.app_label == "axes":
            continue
        if model._meta.label == "auth.User":
            rows[model._meta.label] = list(
                model.objects.order_by("pk").values_list(
                    "pk", "username", "password", "is_active", "is_staff", "is_superuser"
                )
            )
            continue
        rows[model._meta.label] = list(model.objects.order_by("pk").values_list())
    return rows


def client_for(user=None, **kwargs):
    client = Client(**kwargs)
    if user is not None:
        client.force_login(user)
    return client


def refused(response):
    """The login page for anonymous visitors, 403 for members, 405 for the wrong method."""
    if response.status_code in (403, 405):
        return True
    return response.status_code == 302 and response["Location"].startswith("/accounts/login/")


def test_every_view_that_accepts_a_post_is_in_the_registry(world):
    missing = []
    for name, url in urls(world):
        client = client_for(world["coordinator"])
        before = snapshot()
        response = client.post(url, {"hand": 1, "number": 1}, **HTMX)
        if response.status_code != 405 and name not in WRITES:
            missing.append(f"{name} ({url}) answers POST with {response.status_code}")
        elif response.status_code == 405 and name in WRITES:
            missing.append(f"{name} is GET only: take it out of WRITES")
        elif WRITES.get(name) == READ_ONLY and snapshot() != before:
            missing.append(f"{name} is not read only: say who may change data through it")
    assert missing == [], "Add these to WRITES with who may use them:\n" + "\n".join(missing)


def test_registry_names_only_views_that_exist(world):
    names = {name for name, _ in urls(world)}
    assert sorted(set(WRITES) - names) == []


@pytest.mark.parametrize("who", ["anonymous", "plain member", "member at another table"])
def test_refused_posts_change_nothing(world, who):
    """Anonymous visitors and members are refused every write that is not theirs, and the
    database is exactly as it was afterwards."""
    user = {
        "anonymous": None,
        "plain member": world["plain"],
        "member at another table": world["elsewhere"].user,
    }[who]
    problems = []
    for name, url in urls(world):
        policy = WRITES.get(name)
        if policy is None:
            continue
        for extra in ({}, HTMX):
            before = snapshot()
            response = client_for(user).post(url, {"hand": 1, "number": 1}, **extra)
            must_refuse = policy in (COORDINATOR, SEATED) or (policy == SIGNED_IN and user is None)
            if must_refuse and not refused(response):
                problems.append(f"{name} answered {response.status_code} to {who}")
            if snapshot() != before:
                problems.append(f"{name} changed the database for {who}")
    assert problems == []


def test_a_member_seated_at_the_table_may_record_there(world):
    """SEATED is not COORDINATOR in disguise: the seated member gets past the guard."""
    for name, url in urls(world):
        if WRITES.get(name) == SEATED:
            response = client_for(world["seated"].user).post(url, {"hand": 1}, **HTMX)
            assert response.status_code == 200, (name, response.status_code)


def test_gets_change_nothing(world):
    """Opening any page, as anyone, writes nothing."""
    for user in (None, world["plain"], world["seated"].user, world["coordinator"]):
        client = client_for(user)
        for name, url in urls(world):
            before = snapshot()
            client.get(url)
            client.get(url, **HTMX)
            assert snapshot() == before, (name, user)


def test_every_data_changing_url_refuses_a_post_without_its_csrf_token(world):
    for name, url in urls(world):
        policy = WRITES.get(name)
        if policy in (None, READ_ONLY) or name == "api_score":
            continue
        before = snapshot()
        client = client_for(world["coordinator"], enforce_csrf_checks=True)
        response = client.post(url, {"hand": 1}, **HTMX)
        assert response.status_code == 403, (name, response.status_code)
        assert snapshot() == before, name


class Forms(HTMLParser):
    """POST forms and whether each carries a CSRF token; the <body>'s hx-headers; and
    whether anything on the page posts through htmx."""

    def __init__(self):
        super().__init__()
        self.forms = []  # [action, has_token]
        self.body_headers = None
        self.htmx_posts = False
        self._open = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "body":
            self.body_headers = attrs.get("hx-headers")
        if any(a in attrs for a in ("hx-post", "hx-put", "hx-patch", "hx-delete")):
            self.htmx_posts = True
        if tag == "form" and (attrs.get("method") or "get").lower() == "post":
            self._open = [attrs.get("action", ""), False]
            self.forms.append(self._open)
        if tag == "input" and attrs.get("name") == "csrfmiddlewaretoken" and self._open:
            self._open[1] = bool(attrs.get("value"))

    def handle_endtag(self, tag):
        if tag == "form":
            self._open = None


def test_every_post_form_and_htmx_request_carries_the_csrf_token(world):
    checked = 0
    for user in (None, world["plain"], world["seated"].user, world["coordinator"]):
        client = client_for(user)
        for name, url in urls(world):
            for extra in ({}, HTMX):
                response = client.get(url, **extra)
                if response.status_code != 200 or "text/html" not in response["Content-Type"]:
                    continue
                page = Forms()
                page.feed(response.content.decode())
                missing = [action for action, has_token in page.forms if not has_token]
                assert missing == [], (name, extra, missing)
                if not extra and (page.htmx_posts or page.forms):
                    assert page.body_headers, (name, "no hx-headers on <body>")
                    token = json.loads(page.body_headers).get("X-CSRFToken")
                    assert token and len(token) >= 32, name
                checked += len(page.forms)
    assert checked > 20  # the walk really reached the forms


def test_the_token_on_body_lets_htmx_requests_through(world):
    """With CSRF checks on, an htmx request carrying the page's hx-headers token succeeds."""
    client = client_for(world["seated"].user, enforce_csrf_checks=True)
    session, number = world["session"].pk, 1
    page = Forms()
    page.feed(client.get(reverse("scoring:table", args=[session, number])).content.decode())
    token = json.loads(page.body_headers)["X-CSRFToken"]
    dice = reverse("scoring:dice", args=[session, number])
    assert client.post(dice, **HTMX).status_code == 403
    assert client.post(dice, HTTP_X_CSRFTOKEN=token, **HTMX).status_code == 200


def test_no_page_shows_another_members_contact_details_or_notes(world):
    """Email, phone and notes planted on every member (and notes on the sessions) appear on no
    page an anonymous visitor or a member can open, except the member's own and the email
    and phone of a member who shares them with all members (every page and CSV, as htmx
    asks too): those a member sees, on the club's contact list; the public never sees a
    full name either, only names at the table. Members share in turn with nobody, the
    coordinators and all members."""
    club = world["club"]
    club.standings_visibility = Club.Visibility.PUBLIC
    club.save()
    private = {}
    shared = {}  # what a member of the club may see: the email and phone of those who share
    surnames = []
    sharing = list(Member.Sharing)
    for n, member in enumerate(Member.objects.order_by("pk")):
        member.email = f"secret{n}@private.example"
        member.phone = f"07700 90{n:04d}"
        member.notes = f"Private note number {n} xyzzy"
        member.name = f"Fullname{n} Hidden-Surname{n}"
        member.contact_sharing = sharing[n % len(sharing)]
        member.save()
        private[member.pk] = [member.email, member.phone, member.notes]
        if member.contact_sharing == Member.Sharing.MEMBERS:
            shared[member.pk] = [member.email, member.phone]
        surnames.append(f"Hidden-Surname{n}")
    # The seated member, whom the plain member is kept apart from, allowed nothing.
    world["seated"].refresh_from_db()
    assert world["seated"].contact_sharing != Member.Sharing.MEMBERS
    assert len(shared) >= 2
    Session.objects.update(notes="Session note plugh")
    viewers = {
        "anonymous": (None, None),
        "plain member": (world["plain"], world["plain_member"].pk),
        "seated member": (world["seated"].user, world["seated"].pk),
    }
    opened = 0
    for who, (user, own) in viewers.items():
        allowed = set() if user is None else set(shared)
        planted = [v for pk, values in private.items() if pk != own for v in values]
        planted = [v for v in planted if user is None or not any(v in shared[pk] for pk in shared)]
        planted.append("Session note plugh")
        # The tables' keys and the room card are the coordinators' to hand out: no
        # member's page shows one.
        planted += [code for key in world["keys"].values() for code in (key.code, key.shown_code)]
        planted += [world["room_key"].code, world["room_key"].shown_code]
        if user is None:
            planted += surnames
        seen = set()
        client = client_for(user)
        for name, url in urls(world):
            for extra in ({}, HTMX):
                response = client.get(url, **extra)
                if response.status_code != 200:
                    continue
                opened += 1
                body = (
                    b"".join(response.streaming_content) if response.streaming else response.content
                )
                text = body.decode()
                leaked = [value for value in planted if value in text]
                assert leaked == [], (who, name, url, leaked)
                seen |= {pk for pk in allowed & set(shared) if shared[pk][0] in text}
        # ... and where a member allowed it, other members do see it.
        assert seen == (set(shared) if user is not None else set()), who
    assert opened > 40  # the walk really opened the pages
