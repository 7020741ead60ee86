"""Password guessing: the client's real address behind a trusted proxy, a lockout an outsider
cannot use to shut a member out, and a throttle for spraying (one address, many usernames)
and floods (many addresses, one username) that refuses before any password is hashed."""

import datetime
import json
from unittest import mock

import pytest
import time_machine
from axes.models import AccessAttempt
from django.conf import settings
from django.contrib.auth.backends import ModelBackend
from django.test import Client, RequestFactory, override_settings
from django.urls import reverse
from django.utils.html import escape

from club import login_throttle
from club.accounts import client_address
from tests.factories import PASSWORD, MemberFactory, UserFactory

ONE_PROXY = override_settings(TRUSTED_PROXIES=1)
PROXY = "127.0.0.1"  # the reverse proxy, as gunicorn sees it


@pytest.fixture
def pat(club):
    user = UserFactory(username="pat")
    MemberFactory(club=club, user=user)
    return user


def post_login(client, username, password, address=None, **extra):
    """A login post that came through the proxy from `address`."""
    if address is not None:
        extra["HTTP_X_FORWARDED_FOR"] = address
    return client.post(
        reverse("login"), {"username": username, "password": password}, REMOTE_ADDR=PROXY, **extra
    )


@pytest.fixture
def hashing():
    """Counts the password checks that reach the hashing backend."""
    real = ModelBackend.authenticate
    with mock.patch.object(ModelBackend, "authenticate", autospec=True, side_effect=real) as spy:
        yield spy


# --- (a) the client's address -----------------------------------------------------------


@pytest.mark.parametrize(
    "proxies, forwarded, expected",
    [
        (0, "81.2.69.160", PROXY),  # trusting nothing: the header is anyone's to send
        (1, "81.2.69.160", "81.2.69.160"),
        (1, "6.6.6.6, 81.2.69.160", "81.2.69.160"),  # the client's own entry is not believed
        (2, "6.6.6.6, 81.2.69.160, 10.0.0.2", "81.2.69.160"),
        (2, "81.2.69.160", PROXY),  # shorter than the proxies: did not come through them
        (1, "", PROXY),
        (1, "not-an-address", PROXY),
        (1, "2001:db8::1", "2001:db8::1"),
    ],
)
def test_client_address(settings, proxies, forwarded, expected):
    settings.TRUSTED_PROXIES = proxies
    request = RequestFactory().get("/", REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR=forwarded)
    assert client_address(request) == expected


@ONE_PROXY
def test_behind_the_proxy_a_lockout_stays_at_the_guessers_address(pat):
    for _ in range(100):
        post_login(Client(), "pat", "wrong-guess", address="203.0.113.9")
    assert post_login(Client(), "pat", PASSWORD, address="203.0.113.9").status_code == 429
    # The member, somewhere else behind the same proxy, logs in.
    assert post_login(Client(), "pat", PASSWORD, address="198.51.100.7").status_code == 302


def test_without_trusted_proxies_a_forged_header_changes_nothing(pat):
    for n in range(settings.AXES_FAILURE_LIMIT):
        post_login(Client(), "pat", "wrong-guess", address=f"203.0.113.{n}")
    # Every try came from the one address the server sees: that pair is locked.
    assert post_login(Client(), "pat", PASSWORD, address="198.51.100.7").status_code == 429
    assert set(AccessAttempt.objects.values_list("ip_address", flat=True)) == {PROXY}


# --- (c) spraying: one address, many usernames --------------------------------------------


@ONE_PROXY
def test_spraying_one_password_over_many_usernames_is_refused_before_hashing(pat, hashing):
    limit = settings.LOGIN_THROTTLE_PER_ADDRESS
    users = [UserFactory(username=f"member{n}") for n in range(limit + 10)]
    answers = [
        post_login(Client(), user.username, "Summer2026!", address="203.0.113.9").status_code
        for user in users
    ]
    assert answers == [200] * limit + [429] * 10
    assert hashing.call_count == limit  # the last ten cost no password hash
    assert AccessAttempt.objects.count() == limit  # and no database write
    refused = post_login(Client(), "member1", PASSWORD, address="203.0.113.9")
    page = refused.content.decode()
    assert "Too many wrong passwords have been typed from this internet connection" in page
    assert 'value="member1"' in page and refused["Retry-After"]
    # Everyone else logs in as usual.
    assert post_login(Client(), "pat", PASSWORD, address="198.51.100.7").status_code == 302


@ONE_PROXY
def test_the_wait_ends_with_the_window(pat):
    for n in range(settings.LOGIN_THROTTLE_PER_ADDRESS):
        post_login(Client(), f"nobody{n}", "guess", address="203.0.113.9")
    assert post_login(Client(), "pat", PASSWORD, address="203.0.113.9").status_code == 429
    later = datetime.timedelta(seconds=settings.LOGIN_THROTTLE_WINDOW + 1)
    with time_machine.travel(datetime.datetime.now(tz=datetime.UTC) + later):
        assert post_login(Client(), "pat", PASSWORD, address="203.0.113.9").status_code == 302


@ONE_PROXY
def test_one_address_hammering_one_login_meets_the_lockout_not_the_throttle(pat, hashing):
    """Axes answers that without hashing, with its own message: the address is not made to
    wait for everyone else's logins."""
    for _ in range(100):
        post_login(Client(), "pat", "wrong-guess", address="203.0.113.9")
    assert hashing.call_count == settings.AXES_FAILURE_LIMIT
    page = post_login(Client(), "pat", PASSWORD, address="203.0.113.9").content.decode()
    assert "Ask your coordinator to unlock your login" in page
    assert post_login(Client(), "pat2", "x", address="203.0.113.9").status_code == 200


# --- (d) the member's own browser, at the guesser's address ------------------------------

HALL = "203.0.113.40"  # a hall's one public address: the coordinator and a prankster share it


def known_browser(username):
    """A browser that has logged in as `username` from the hall, then logged out."""
    browser = Client()
    assert post_login(browser, username, PASSWORD, address=HALL).status_code == 302
    browser.post(reverse("logout"))
    return browser


@ONE_PROXY
def test_a_prankster_at_the_same_address_does_not_lock_out_a_browser_known_for_the_login(
    pat, hashing
):
    """Reported: five wrong passwords from someone in the hall locked the coordinator out for
    15 minutes, even on the tablet they always use. Now that tablet logs in; a new browser
    at the address is still stopped, so guessing is too."""
    own = known_browser("pat")
    for _ in range(settings.AXES_FAILURE_LIMIT + 20):
        post_login(Client(), "pat", "wrong-guess", address=HALL)
    assert post_login(Client(), "pat", PASSWORD, address=HALL).status_code == 429
    assert post_login(own, "pat", PASSWORD, address=HALL).status_code == 302
    # Spraying from the hall (the address's own limit) does not stop it either.
    for n in range(settings.LOGIN_THROTTLE_PER_ADDRESS):
        post_login(Client(), f"nobody{n}", "guess", address=HALL)
    own.post(reverse("logout"))
    assert post_login(own, "pat", PASSWORD, address=HALL).status_code == 302


@ONE_PROXY
def test_guesses_from_a_known_browser_are_counted_apart_and_still_stopped(pat, coordinator_client):
    """Someone with the member's own phone can still not guess on: its wrong passwords are
    counted on their own (not in the address's or the anonymous count) and stop after
    AXES_FAILURE_LIMIT, the right password too, until the window ends or a coordinator
    unlocks the login."""
    own = known_browser("pat")
    for _ in range(settings.AXES_FAILURE_LIMIT):
        assert post_login(own, "pat", "wrong-guess", address=HALL).status_code == 200
    refused = post_login(own, "pat", PASSWORD, address=HALL)
    assert refused.status_code == 429
    assert "for this login on this phone or tablet" in refused.content.decode()
    # Counted apart: nothing for axes or the address, so a new browser there logs in, and
    # so does another browser known for the login.
    assert not AccessAttempt.objects.exists()
    assert post_login(Client(), "pat", PASSWORD, address=HALL).status_code == 302
    tablet = known_browser("pat")
    assert post_login(tablet, "pat", PASSWORD, address=HALL).status_code == 302
    member = pat.memberships.get()
    coordinator_client.post(reverse("club:login_unlock", args=[member.pk]))
    assert post_login(own, "pat", PASSWORD, address=HALL).status_code == 302


# --- (c) floods: many addresses, one username ---------------------------------------------


def flood(username, addresses):
    for n in range(addresses):
        post_login(Client(), username, "wrong-guess", address=f"203.0.113.{n + 1}")


@ONE_PROXY
def test_a_flood_on_one_login_makes_new_browsers_wait_not_the_members_own(pat, hashing):
    own = Client()
    assert post_login(own, "pat", PASSWORD, address="198.51.100.7").status_code == 302
    own.post(reverse("logout"))
    flood("pat", settings.LOGIN_THROTTLE_PER_USERNAME + 5)
    assert hashing.call_count == 1 + settings.LOGIN_THROTTLE_PER_USERNAME
    # A guesser at a fresh address (and the member on a new device) is asked to wait...
    stranger = post_login(Client(), "pat", PASSWORD, address="192.0.2.50")
    assert stranger.status_code == 429
    assert "Many wrong passwords have been typed for this login" in stranger.content.decode()
    assert hashing.call_count == 1 + settings.LOGIN_THROTTLE_PER_USERNAME
    # ...the member's own phone, known from an earlier login, is not, even at a new address.
    assert post_login(own, "pat", PASSWORD, address="192.0.2.77").status_code == 302
    # Other members are not affected.
    UserFactory(username="sam")
    assert post_login(Client(), "sam", PASSWORD, address="192.0.2.50").status_code == 302


@ONE_PROXY
def test_a_forged_known_logins_cookie_does_not_help(pat):
    flood("pat", settings.LOGIN_THROTTLE_PER_USERNAME)
    forger = Client()
    forger.cookies[login_throttle.KNOWN_COOKIE] = '["pat"]'
    assert post_login(forger, "pat", PASSWORD, address="192.0.2.50").status_code == 429


@ONE_PROXY
def test_the_coordinator_can_let_a_waiting_member_in(pat, coordinator_client):
    flood("pat", settings.LOGIN_THROTTLE_PER_USERNAME)
    assert post_login(Client(), "pat", PASSWORD, address="192.0.2.50").status_code == 429
    member = pat.memberships.get()
    detail = coordinator_client.get(reverse("club:member_detail", args=[member.pk]))
    assert "Locked after too many wrong passwords" in detail.content.decode()
    response = coordinator_client.post(reverse("club:login_unlock", args=[member.pk]))
    assert response.status_code == 302
    assert post_login(Client(), "pat", PASSWORD, address="192.0.2.50").status_code == 302


@ONE_PROXY
def test_the_admin_login_is_throttled_too(club, hashing):
    admin = UserFactory(username="admin", is_staff=True, is_superuser=True)
    flood("admin", settings.LOGIN_THROTTLE_PER_USERNAME)
    calls = hashing.call_count
    response = Client().post(
        reverse("admin:login"),
        {"username": "admin", "password": PASSWORD},
        REMOTE_ADDR=PROXY,
        HTTP_X_FORWARDED_FOR="192.0.2.50",
    )
    assert response.status_code == 429 and hashing.call_count == calls
    assert escape("Many wrong passwords") in response.content.decode()
    assert admin.check_password(PASSWORD)


# --- the settings -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "env, expected",
    [
        ({}, [0, 30, 20]),
        ({"TRUSTED_PROXIES": "1"}, [1, 30, 20]),
        ({"LOGIN_THROTTLE_PER_ADDRESS": "50", "LOGIN_THROTTLE_PER_USERNAME": "40"}, [0, 50, 40]),
    ],
)
def test_proxies_and_limits_come_from_the_environment(env, expected):
    from tests.test_settings import run_python

    probe = (
        "import json, django; from django.conf import settings; django.setup();"
        "print(json.dumps([settings.TRUSTED_PROXIES, settings.LOGIN_THROTTLE_PER_ADDRESS,"
        " settings.LOGIN_THROTTLE_PER_USERNAME]))"
    )
    result = run_python(probe, DEBUG="true", **env)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == expected


@pytest.mark.parametrize("value", ["-1", "one", "1.5"])
def test_a_wrong_number_of_proxies_is_named(value):
    from tests.test_settings import run_python

    result = run_python("import django; django.setup()", DEBUG="true", TRUSTED_PROXIES=value)
    assert result.returncode != 0
    assert f"TRUSTED_PROXIES must be a whole number from 0, not '{value}'" in result.stderr
