"""Usernames at login ignore case: "Sheila", "sheila" and "SHEILA" log in as Sheila, and
wrong passwords typed in any case count against one login (django-axes' lockout and the
login throttle). The refusal does not talk about case; no new login may differ from another
only in case."""

import pytest
from axes.models import AccessAttempt
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client, override_settings
from django.urls import reverse

from club import accounts, login_throttle
from club.login_names import LOGIN_REFUSED, login_key
from tests.factories import PASSWORD, MemberFactory, UserFactory
from tests.test_login_guessing import PROXY, hashing, post_login  # noqa: F401 (a fixture)

pytestmark = pytest.mark.django_db

ONE_PROXY = override_settings(TRUSTED_PROXIES=1)


@pytest.fixture
def sheila(club):
    user = UserFactory(username="Sheila")
    MemberFactory(club=club, user=user, table_name="Sheila")
    return user


def logged_in_as(client) -> str | None:
    user_id = client.session.get("_auth_user_id")
    return get_user_model().objects.get(pk=user_id).username if user_id else None


@pytest.mark.parametrize("typed", ["Sheila", "sheila", "SHEILA", "sHeIlA", "  sheila "])
def test_the_username_may_be_typed_in_any_case(client, sheila, typed):
    response = client.post(reverse("login"), {"username": typed, "password": PASSWORD})
    assert response.status_code == 302
    assert logged_in_as(client) == "Sheila"


def test_the_wrong_case_of_the_password_is_still_wrong(client, sheila):
    response = client.post(
        reverse("login"), {"username": "sheila", "password": PASSWORD.swapcase()}
    )
    assert response.status_code == 200 and logged_in_as(client) is None


@pytest.mark.parametrize(
    ("url", "username"),
    [("login", "sheila"), ("login", "nobody"), ("admin:login", "sheila")],
)
def test_a_refused_login_does_not_talk_about_case(client, sheila, url, username):
    response = client.post(reverse(url), {"username": username, "password": "wrong-guess"})
    form = response.context["form"]
    (message,) = form.non_field_errors()
    assert "case" not in message.lower() and "capital" not in message.lower()
    assert "do not match" in message
    if url == "login":
        assert message == LOGIN_REFUSED


def test_an_unknown_username_still_costs_one_password_check(client, sheila, hashing):  # noqa: F811
    client.post(reverse("login"), {"username": "nobody", "password": "wrong-guess"})
    client.post(reverse("login"), {"username": "SHEILA", "password": "wrong-guess"})
    assert hashing.call_count == 2


def test_logins_that_clash_from_before_the_rule_are_told_apart_by_the_password(club):
    # Older versions let in usernames differing only in case.
    upper = UserFactory(username="Sheila")
    lower = UserFactory(username="sheila")
    lower.set_password("another-password-77")
    lower.save()
    for typed, password, expected in [
        ("Sheila", PASSWORD, "Sheila"),
        ("sheila", "another-password-77", "sheila"),
        ("SHEILA", PASSWORD, "Sheila"),
        ("SHEILA", "another-password-77", "sheila"),
        ("sheila", "wrong-guess", None),
    ]:
        client = Client()
        client.post(reverse("login"), {"username": typed, "password": password})
        assert logged_in_as(client) == expected, (typed, password)
    assert {upper.username, lower.username} == {"Sheila", "sheila"}


# --- wrong passwords in any case count against one login ------------------------------------


@ONE_PROXY
def test_the_lockout_counts_every_case_as_one_login(sheila):
    typed = ["Sheila", "sheila", "SHEILA", "sheila", "Sheila"][: settings.AXES_FAILURE_LIMIT]
    for username in typed:
        post_login(Client(), username, "wrong-guess", address="203.0.113.9")
    assert list(AccessAttempt.objects.values_list("username", flat=True)) == ["sheila"]
    page = post_login(Client(), "sheila", PASSWORD, address="203.0.113.9").content.decode()
    assert "Ask your coordinator to unlock your login" in page
    assert accounts.is_locked_out(sheila)
    assert accounts.unlock(sheila) == 1
    assert not accounts.is_locked_out(sheila)
    assert post_login(Client(), "SHEILA", PASSWORD, address="203.0.113.9").status_code == 302


@ONE_PROXY
def test_the_throttle_counts_every_case_as_one_login(sheila):
    for n in range(settings.LOGIN_THROTTLE_PER_USERNAME):
        username = ("Sheila", "sheila", "SHEILA")[n % 3]
        post_login(Client(), username, "wrong-guess", address=f"203.0.113.{n + 1}")
    assert login_throttle.failures("username", login_key("Sheila")) == (
        settings.LOGIN_THROTTLE_PER_USERNAME
    )
    for typed in ("Sheila", "sheila"):
        assert post_login(Client(), typed, PASSWORD, address="192.0.2.50").status_code == 429
    assert accounts.is_locked_out(sheila)


@ONE_PROXY
def test_a_browser_known_for_one_case_is_known_for_every_case(sheila):
    own = Client()
    assert post_login(own, "Sheila", PASSWORD, address="198.51.100.7").status_code == 302
    own.post(reverse("logout"))
    for n in range(settings.LOGIN_THROTTLE_PER_USERNAME):
        post_login(Client(), "sheila", "wrong-guess", address=f"203.0.113.{n + 1}")
    assert post_login(own, "SHEILA", PASSWORD, address="192.0.2.77").status_code == 302


# --- no new login may differ from another only in case --------------------------------------


def _member_form(username):
    return {
        "name": "Sheila Two",
        "table_name": "Sheila T",
        "email": "",
        "phone": "",
        "joined": "2025-09-04",
        "is_active": "on",
        "experience": "beginner",
        "fixed_table": "",
        "notes": "",
        "login": "new",
        "username": username,
        "password": "red-dragon-pung-42",
    }


@pytest.fixture
def admin_client(club):
    admin = UserFactory(username="admin", is_staff=True, is_superuser=True)
    client = Client()
    client.force_login(admin)
    return client


@pytest.mark.parametrize("username", ["sheila", "SHEILA"])
@pytest.mark.parametrize("where", ["member form", "admin: new login", "admin: rename"])
def test_a_username_differing_only_in_case_is_refused(
    coordinator, admin_client, sheila, where, username
):
    users = get_user_model().objects
    if where == "member form":
        client = Client()
        client.force_login(coordinator)
        response = client.post(reverse("club:member_add"), _member_form(username))
        field = "username"
    elif where == "admin: new login":
        data = {"username": username, "password1": "red-dragon-pung-42"}
        data.update(password2="red-dragon-pung-42", usable_password="true")
        response = admin_client.post(reverse("admin:auth_user_add"), data)
        field = "username"
    else:
        other = UserFactory(username="sam")
        url = reverse("admin:auth_user_change", args=[other.pk])
        data = {"username": username, "date_joined_0": "2026-01-01", "date_joined_1": "10:00"}
        response = admin_client.post(url, data)
        field = "username"
    assert response.status_code == 200
    form = response.context["adminform"].form if where != "member form" else None
    errors = " ".join((form or response.context["form"]).errors[field])
    assert "taken" in errors or "already exists" in errors
    if where != "admin: new login":  # Django's own form says "already exists"
        assert f"The username “{username}” is taken" in errors
        assert "Sheila" in errors and "capitals do not count" in errors
    assert users.filter(username__iexact="sheila").count() == 1


def test_the_admin_may_still_save_a_login_under_its_own_name(admin_client, sheila):
    url = reverse("admin:auth_user_change", args=[sheila.pk])
    data = {"username": "Sheila", "date_joined_0": "2026-01-01", "date_joined_1": "10:00"}
    response = admin_client.post(url, data)
    assert response.status_code == 302


# --- two new logins at once ------------------------------------------------------------------


def _made_in_a_transaction(username: str):
    from django.db import transaction

    from club.login_names import create_login

    with transaction.atomic():
        return create_login(username, PASSWORD)


@pytest.mark.django_db(transaction=True)
def test_two_logins_differing_only_in_capitals_made_at_once_one_is_refused(monkeypatch):
    """ "Sheila" on one screen and "sheila" on another, at the same moment: both pass their
    forms' checks, so create_login checks again with new logins made one at a time. Here
    each check lingers (up to 2 s) for the other before writing: were both let through, both
    would be written (the usernames differ, so no unique key stops them)."""
    import contextlib
    import threading

    from django.core.exceptions import ValidationError

    from club import login_names
    from tests.threads import at_once, failures

    together = threading.Barrier(2, timeout=2)
    real = login_names.check_new_username

    def check_and_linger(username, existing):
        real(username, existing)
        # Broken after 2 s: the other is held at the lock, and checks once this is written.
        with contextlib.suppress(threading.BrokenBarrierError):
            together.wait()

    monkeypatch.setattr(login_names, "check_new_username", check_and_linger)
    results = at_once([lambda n=n: _made_in_a_transaction(n) for n in ("Sheila", "sheila")])
    refused = failures(results)
    assert len(refused) == 1 and isinstance(refused[0], ValidationError), results
    assert "capitals do not count when logging in" in refused[0].messages[0]
    assert get_user_model().objects.filter(username__iexact="sheila").count() == 1


def test_a_member_form_whose_new_login_was_made_meanwhile_saves_nothing_and_says_so(club):
    """The member form checked "Sheila" free; "sheila" was made before it saved: nothing is
    saved, and the form (entries kept) says why beside the username."""
    from club.forms import MemberForm
    from club.models import Member
    from tests.club.test_members import member_form

    entries = member_form(login="new", username="Sheila", password="red-dragon-pung-42")
    form = MemberForm(entries, club=club)
    assert form.is_valid(), form.errors
    UserFactory(username="sheila")
    assert form.save() is None
    assert "capitals do not count when logging in" in form.errors["username"][0]
    assert not Member.objects.filter(table_name="Edith").exists()
    assert get_user_model().objects.filter(username__iexact="sheila").count() == 1


def test_a_sign_up_whose_login_was_made_meanwhile_is_refused_with_nothing_started(db, monkeypatch):
    from club.models import Club
    from front import clubs

    real = clubs.problems_with

    def checked_then_taken(**entries):
        problems = real(**entries)
        UserFactory(username="MARGARET")  # made on another screen, after this one's check
        return problems

    monkeypatch.setattr(clubs, "problems_with", checked_then_taken)
    with pytest.raises(clubs.ClubNotStarted) as refused:
        clubs.start_club("Thursday Mahjong", "thursday", "classical", "margaret", PASSWORD)
    assert refused.value.problems == {"username": [clubs.taken_username_message("margaret")]}
    assert not Club.objects.filter(slug="thursday").exists()
