"""Every throttle keeps its count across gunicorn's workers and across a worker's restart, and
none of them stops the legitimate user at the guesser's address.

A real gunicorn with three workers, started as production is (its cache: the database's
table, tests/faults/production_cache.py), behind one trusted proxy so each visitor's address
comes from X-Forwarded-For. Each limit is measured to the try: half the tries, every worker
replaced (as gunicorn does after max_requests, which any visitor can bring about with cheap
requests), the other half, then the next try must be refused. Reported: with each worker's
own memory the counts were lost at each replacement (8 sign-ups from one address against a
limit of 3). Then the member, the coordinator's own tablet or the table's card, at the same
address, still gets in.
"""

from __future__ import annotations

import http.client
import secrets
import time
import urllib.parse
from http.cookies import SimpleCookie

import pytest
from django.conf import settings

from games.models import TableKey
from tests.factories import PASSWORD, MemberFactory, UserFactory
from tests.faults import FIGURES
from tests.faults.server import Gunicorn
from tests.games.helpers import seated_session

pytestmark = pytest.mark.django_db(transaction=True)

WORKERS = 3
HALL = "203.0.113.40"  # one public address: the guessers and the club's own devices
OTHER_HALL = "203.0.113.41"


class Visitor:
    """A browser at `address`: keeps its cookies, a new connection for each request (so the
    requests spread over the workers), and the CSRF token of its cookie on every post."""

    def __init__(self, server: Gunicorn, address: str):
        self.server = server
        self.address = address
        self.cookies = {settings.CSRF_COOKIE_NAME: secrets.token_hex(16)}

    def send(self, method: str, path: str, data: dict | None = None) -> tuple[int, str]:
        headers = {
            "X-Forwarded-For": self.address,
            "Cookie": "; ".join(f"{name}={value}" for name, value in self.cookies.items()),
        }
        body = None
        if data is not None:
            data = {**data, "csrfmiddlewaretoken": self.cookies[settings.CSRF_COOKIE_NAME]}
            body = urllib.parse.urlencode(data)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        connection = http.client.HTTPConnection("127.0.0.1", self.server.port, timeout=20)
        try:
            connection.request(method, path, body=body, headers=headers)
            answer = connection.getresponse()
            text = answer.read().decode(errors="replace")
            for header in answer.msg.get_all("Set-Cookie") or []:
                for name, morsel in SimpleCookie(header).items():
                    if morsel.value:
                        self.cookies[name] = morsel.value
                    else:
                        self.cookies.pop(name, None)
            return answer.status, text
        finally:
            connection.close()

    def log_in(self, username: str, password: str) -> int:
        return self.send("POST", "/accounts/login/", {"username": username, "password": password})[
            0
        ]


@pytest.fixture
def server(club):
    """Started once the club is there: a server finds the club it serves at its root once."""
    gunicorn = Gunicorn(
        workers=WORKERS,
        env={
            "DJANGO_SETTINGS_MODULE": "tests.faults.production_cache",
            "TRUSTED_PROXIES": "1",
            "CLUB_SIGNUP": "true",
            # The club stays at the root when the sign-ups add others.
            "HOME_CLUB": club.slug,
        },
    )
    gunicorn.start()
    try:
        gunicorn.wait_until_ready()
        yield gunicorn
    finally:
        gunicorn.close()


def test_every_limit_holds_across_workers_and_a_restart_and_spares_the_user_at_its_address(
    server, club
):
    started = time.monotonic()
    coordinator = UserFactory(username="coord")
    MemberFactory(club=club, user=coordinator)
    key = TableKey.objects.for_tables(seated_session(club), [1])[1]
    # The coordinator's tablet has logged in before; `known` is a browser with its memory of
    # that login (its cookies, not its session) at `address`.
    tablet = Visitor(server, HALL)
    assert tablet.log_in("coord", PASSWORD) == 302
    MemberFactory(club=club, user=UserFactory(username="pat"))
    pats_phone = Visitor(server, "192.0.2.8")  # a member's phone, logged in before
    assert pats_phone.log_in("pat", PASSWORD) == 302
    pats_phone.cookies.pop(settings.SESSION_COOKIE_NAME)

    def known(address):
        browser = Visitor(server, address)
        browser.cookies.update(tablet.cookies)
        browser.cookies.pop(settings.SESSION_COOKIE_NAME)
        return browser

    def sign_up(n):
        form = {
            "name": f"Hall club {n}",
            "slug": f"hall-club-{n}",
            "rule_set": "classical",
            "username": f"founder{n}",
            "password1": "red-dragon-pung-42",
            "password2": "red-dragon-pung-42",
        }
        return Visitor(server, "192.0.2.99").send("POST", "/signup/", form)[0]

    own_phone = Visitor(server, "192.0.2.7")  # the coordinator's phone, logged in before
    assert own_phone.log_in("coord", PASSWORD) == 302
    own_phone.cookies.pop(settings.SESSION_COOKIE_NAME)
    axes, per_address = settings.AXES_FAILURE_LIMIT, settings.LOGIN_THROTTLE_PER_ADDRESS
    per_login, codes = settings.LOGIN_THROTTLE_PER_USERNAME, settings.TABLE_KEY_GUESSES_PER_ADDRESS
    signups = settings.CLUB_SIGNUPS_PER_ADDRESS
    # Each limit: its tries (the last one past the limit) and the answers they must get.
    limits = {
        # A prankster in the hall guessing the coordinator's password: axes answers the try
        # that reaches its limit with the lockout already.
        "lockout": (
            lambda n: Visitor(server, HALL).log_in("coord", "wrong"),
            [200] * (axes - 1) + [429, 429],
        ),
        # Spraying: one address, many logins.
        "per address": (
            lambda n: Visitor(server, OTHER_HALL).log_in(f"nobody{n}", "wrong"),
            [200] * per_address + [429],
        ),
        # A flood: one login, many addresses.
        "per login": (
            lambda n: Visitor(server, f"198.51.100.{n + 1}").log_in("pat", "wrong"),
            [200] * per_login + [429],
        ),
        # The coordinator's own phone, in someone else's hands: counted apart, still stopped.
        "known browser": (lambda n: own_phone.log_in("coord", "wrong"), [200] * axes + [429]),
        "table codes": (
            lambda n: Visitor(server, HALL).send("GET", f"/t/{n:02d}BCDEFGHJ/")[0],
            [403] * codes + [429],
        ),
        "sign-ups": (sign_up, [302] * signups + [429]),
    }
    answers = {name: [] for name in limits}
    for half in (0, 1):
        if half:
            server.replace_workers()  # every worker, as after max_requests
        for name, (attempt, expected) in limits.items():
            middle = len(expected) // 2
            tries = range(middle, len(expected)) if half else range(middle)
            answers[name] += [attempt(n) for n in tries]
    assert answers == {name: expected for name, (_, expected) in limits.items()}

    # The legitimate user at each guesser's address still gets in: the coordinator's tablet
    # where the login was locked and where the address was sprayed from, the member's phone
    # at a flooding address; new browsers there wait.
    assert Visitor(server, HALL).log_in("coord", PASSWORD) == 429
    assert known(HALL).log_in("coord", PASSWORD) == 302
    assert known(OTHER_HALL).log_in("coord", PASSWORD) == 302
    assert Visitor(server, "198.51.100.1").log_in("pat", PASSWORD) == 429
    pats_phone.address = "198.51.100.1"
    assert pats_phone.log_in("pat", PASSWORD) == 302
    assert Visitor(server, HALL).send("GET", f"/t/{key.code}/")[0] == 302  # the table's card
    FIGURES.append(
        f"throttles, {WORKERS} workers all replaced halfway: "
        + ", ".join(f"{name} {len(expected) - 1}" for name, (_, expected) in limits.items())
        + f" tries, each refused as its limit says ({time.monotonic() - started:.1f} s)"
    )
