"""Logins: the lockout after wrong passwords and a coordinator unlocking it, a coordinator's
temporary password, "Forgot your password?" by email, new usernames, expired forms and the
Content-Security-Policy header."""

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.core import mail
from django.test import Client, override_settings
from django.urls import reverse
from django.utils.html import escape

from club.models import Member
from tests.factories import PASSWORD, MemberFactory, UserFactory

LOCKED = "Too many wrong passwords. Ask your coordinator to unlock your login, or try again in 15 minutes."


@pytest.fixture
def player(club):
    return MemberFactory(club=club, user=UserFactory(username="pat", email="pat@example.org"))


def log_in(client, username, password):
    return client.post(reverse("login"), {"username": username, "password": password})


def logged_in_as(client) -> str | None:
    response = client.get(reverse("home"))
    user = response.wsgi_request.user
    return user.get_username() if user.is_authenticated else None


def test_five_wrong_passwords_lock_the_login_with_a_plain_message(client, player):
    for _ in range(100):
        log_in(client, "pat", "wrong-guess")
    response = log_in(client, "pat", PASSWORD)
    page = response.content.decode()
    assert response.status_code == 429
    assert LOCKED in page
    assert "<h1>Log in</h1>" in page and 'class="site-header"' in page  # the site's look
    assert 'value="pat"' in page
    assert logged_in_as(client) is None


def test_four_wrong_passwords_still_let_the_right_one_in(client, player):
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        assert log_in(client, "pat", "wrong-guess").status_code == 200
    assert log_in(client, "pat", PASSWORD).status_code == 302
    assert logged_in_as(client) == "pat"


def test_a_coordinator_unlocks_a_locked_login(client, coordinator, player):
    for _ in range(settings.AXES_FAILURE_LIMIT):
        log_in(client, "pat", "wrong-guess")
    coordinator_client = Client()
    coordinator_client.force_login(coordinator)
    detail = coordinator_client.get(reverse("club:member_detail", args=[player.pk]))
    assert "Locked after too many wrong passwords" in detail.content.decode()
    unlock = reverse("club:login_unlock", args=[player.pk])
    assert unlock in detail.content.decode()
    response = coordinator_client.post(unlock, follow=True)
    assert escape(f"{player.name}'s login is unlocked") in response.content.decode()
    assert "Locked after" not in response.content.decode()
    assert log_in(client, "pat", PASSWORD).status_code == 302
    assert logged_in_as(client) == "pat"


@pytest.mark.parametrize("name", ["unlock", "new_password"])
def test_only_coordinators_help_with_logins(member_client, player, name):
    url = reverse(f"club:login_{name}", args=[player.pk])
    assert Client().post(url).status_code == 302  # anonymous: to the login page
    assert member_client.post(url).status_code == 403
    player.refresh_from_db()
    assert player.user.check_password(PASSWORD)


def test_a_member_without_a_login_has_no_login_actions(coordinator_client, club):
    member = MemberFactory(club=club)
    page = coordinator_client.get(reverse("club:member_detail", args=[member.pk])).content
    assert b"Set a new password" not in page
    url = reverse("club:login_new_password", args=[member.pk])
    assert coordinator_client.post(url).status_code == 404


def test_a_temporary_password_must_be_changed_at_the_next_login(coordinator_client, player):
    response = coordinator_client.post(reverse("club:login_new_password", args=[player.pk]))
    temporary = re.search(
        r'class="temporary-password">([a-z]+-[a-z]+-[a-z]+-\d\d)<', response.content.decode()
    )
    assert temporary, response.content.decode()
    temporary = temporary.group(1)

    member = Client()
    assert log_in(member, "pat", PASSWORD).status_code == 200  # the old one no longer works
    assert log_in(member, "pat", temporary).status_code == 302
    response = member.get(reverse("home"))
    assert response.status_code == 302 and response.url == reverse("password_change")
    response = member.post(
        reverse("password_change"),
        {
            "old_password": temporary,
            "new_password1": "my own mahjong words",
            "new_password2": "my own mahjong words",
        },
    )
    assert response.status_code == 302
    assert member.get(reverse("home")).status_code == 200
    player.user.refresh_from_db()
    assert player.user.check_password("my own mahjong words")


def test_a_temporary_password_also_unlocks_the_login(coordinator_client, client, player):
    for _ in range(settings.AXES_FAILURE_LIMIT):
        log_in(client, "pat", "wrong-guess")
    response = coordinator_client.post(reverse("club:login_new_password", args=[player.pk]))
    temporary = re.search(r'class="temporary-password">([^<]+)<', response.content.decode()).group(
        1
    )
    assert log_in(client, "pat", temporary).status_code == 302


@override_settings(PASSWORD_RESET_BY_EMAIL=True)
def test_forgot_password_by_email(client, player):
    login_page = client.get(reverse("login")).content.decode()
    assert reverse("password_reset") in login_page and "Forgot your password?" in login_page
    response = client.post(reverse("password_reset"), {"email": "pat@example.org"})
    assert response.status_code == 302 and response.url == reverse("password_reset_done")
    assert len(mail.outbox) == 1 and mail.outbox[0].to == ["pat@example.org"]
    link = re.search(r"https?://[^/]+(/accounts/reset/\S+)", mail.outbox[0].body).group(1)
    form_url = client.get(link).url  # Django swaps the token for a session value
    response = client.post(
        form_url, {"new_password1": "a new mahjong phrase", "new_password2": "a new mahjong phrase"}
    )
    assert response.status_code == 302 and response.url == reverse("password_reset_complete")
    assert log_in(client, "pat", "a new mahjong phrase").status_code == 302
    again = client.get(link)  # the link works once
    assert "already been used" in again.content.decode()


@override_settings(PASSWORD_RESET_BY_EMAIL=False)
def test_without_email_members_are_told_to_ask_their_coordinator(client, player):
    login_page = client.get(reverse("login")).content.decode()
    assert "Forgot your password? Ask your coordinator" in login_page
    assert reverse("password_reset") not in login_page
    response = client.post(reverse("password_reset"), {"email": "pat@example.org"})
    assert "please ask your coordinator" in response.content.decode()
    assert mail.outbox == []


@pytest.mark.parametrize(
    "username", ["Pat Smith", "<b>pat</b>", "pat\N{MAHJONG TILE RED DRAGON}", "pat;drop"]
)
def test_new_usernames_must_be_plain(coordinator_client, club, username):
    data = {
        "name": "Pat Smith",
        "joined": "2026-01-01",
        "experience": "beginner",
        "is_active": "on",
        "login": "new",
        "username": username,
        "password": "a long first password",
    }
    response = coordinator_client.post(reverse("club:member_add"), data)
    page = response.content.decode()
    assert response.status_code == 200
    assert "A username can have only the letters a to z" in page
    assert "Please type a username" not in page
    assert not Member.objects.filter(name="Pat Smith").exists()


def test_a_plain_new_username_is_accepted(coordinator_client, club):
    data = {
        "name": "Pat Smith",
        "joined": "2026-01-01",
        "experience": "beginner",
        "is_active": "on",
        "login": "new",
        "username": "pat.smith",
        "password": "a long first password",
    }
    assert coordinator_client.post(reverse("club:member_add"), data).status_code == 302
    assert Member.objects.get(name="Pat Smith").user.get_username() == "pat.smith"


def test_an_expired_form_says_so_plainly(db, club):
    client = Client(enforce_csrf_checks=True)
    response = client.post(
        reverse("login"),
        {"username": "pat", "password": "x"},
        HTTP_REFERER="http://testserver/accounts/login/",
    )
    page = response.content.decode()
    assert response.status_code == 403
    assert "This form had expired; please try again" in page
    assert 'href="http://testserver/accounts/login/"' in page
    assert 'class="site-header"' in page


def test_pages_carry_a_content_security_policy_without_inline_script(client, club):
    policy = client.get(reverse("login"))["Content-Security-Policy"]
    directives = dict(d.strip().split(" ", 1) for d in policy.split(";") if d.strip())
    assert directives["script-src"] == "'self'"
    assert directives["default-src"] == "'self'"
    assert "unsafe" not in policy


def test_templates_have_no_inline_script_or_handlers():
    """The policy blocks these, so a template using one would break in the browser."""
    offenders = []
    for path in Path(settings.BASE_DIR, "templates").rglob("*.html"):
        text = path.read_text()
        for pattern in (
            r"<script(?![^>]*\bsrc=)[^>]*>",
            r"\son[a-z]+\s*=",
            r"\shx-on",
            r"\sstyle\s*=",
        ):
            offenders += [f"{path.name}: {m.group(0)}" for m in re.finditer(pattern, text)]
    assert offenders == []


def test_whether_to_change_the_password_is_read_with_the_login_not_its_groups(
    coordinator_client, player
):
    """Every page asks whether the login must choose a new password: answered from the
    login's own query (club/login_names.py), with no query of its groups on any page."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    member = Client()
    member.force_login(player.user)
    for client in (member, coordinator_client):
        with CaptureQueriesContext(connection) as queries:
            assert client.get(reverse("home")).status_code == 200
        groups = [q for q in queries.captured_queries if q["sql"].startswith('SELECT "auth_group"')]
        assert not groups
    coordinator_client.post(reverse("club:login_new_password", args=[player.pk]))
    player.user.refresh_from_db()  # a new password ends the login's sessions
    member.force_login(player.user)
    response = member.get(reverse("home"))
    assert response.status_code == 302 and response.url == reverse("password_change")
