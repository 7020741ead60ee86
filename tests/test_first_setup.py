"""The first club made in the browser (front/first_setup.py): on an empty installation the
site's root is the setup page, which asks for the one-time code from the server's log and
makes the operator's login and the first club in one write; once used it is gone for good.
The browser's side, at phone and tablet sizes, is in tests/browser/test_site_pages.py."""

import io
import logging
import re

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.core.management import CommandError, call_command
from django.test import Client

from club.models import Club, Coordinator
from front import first_setup
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

CODE = re.compile(r"Setup code: ([A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4})")


def fresh_code() -> str:
    out = io.StringIO()
    call_command("setup_code", stdout=out)
    return CODE.search(out.getvalue())[1]


def entries(code: str, **changes) -> dict:
    return {
        "setup_code": code,
        "username": "operator",
        "password1": "a-long-operator-password",
        "password2": "a-long-operator-password",
        "email": "",
        "name": "Harbour Mahjong",
        "slug": "",
        "rule_set": "hk",
        "time_zone": "Australia/Hobart",
        "coordinator": "me",
        "coordinator_username": "",
        "coordinator_password": "",
        **changes,
    }


def test_the_root_of_an_empty_installation_is_the_setup_page_and_its_code_is_logged(client, caplog):
    with caplog.at_level(logging.WARNING, logger="front.first_setup"):
        page = client.get("/")
    assert page.status_code == 200
    assert "Set up this site" in page.content.decode()
    (line,) = [record.getMessage() for record in caplog.records if "Setup code" in record.msg]
    code = CODE.search(line)[1]
    assert not Club.objects.exists()  # opening the root made nothing
    # Every worker sees the same code; none prints another.
    with caplog.at_level(logging.WARNING, logger="front.first_setup"):
        client.get("/setup/")
    assert first_setup.announce_setup_code() is None
    assert [r for r in caplog.records if "Setup code" in r.msg] == [caplog.records[0]]
    assert code not in str(cache.get(first_setup.CODE_KEY))  # kept hashed only


def test_setup_makes_the_operator_and_the_first_club_at_the_root_in_one_go(client):
    response = client.post("/setup/", entries(fresh_code().lower().replace("-", " ")))
    assert response.status_code == 302 and response["Location"] == "/"
    club = Club.objects.get()
    assert (club.name, club.slug, club.rule_set, club.time_zone) == (
        "Harbour Mahjong",
        "harbour-mahjong",
        "hk",
        "Australia/Hobart",
    )
    assert club.served_at_root
    operator = get_user_model().objects.get()
    assert operator.is_superuser and operator.is_staff
    assert Coordinator.objects.filter(club=club, user=operator).exists()
    home = client.get("/").content.decode()  # logged in, at the new club's first steps
    assert "Your first evening in three steps" in home
    assert cache.get(first_setup.CODE_KEY) is None


def test_the_coordinator_may_be_someone_else_with_a_login_of_their_own(client):
    data = entries(
        fresh_code(),
        coordinator="other",
        coordinator_username="maureen",
        coordinator_password="maureens-own-password",
    )
    assert client.post("/setup/", data).status_code == 302
    club = Club.objects.get()
    maureen = get_user_model().objects.get(username="maureen")
    assert not maureen.is_superuser
    assert list(Coordinator.objects.filter(club=club).values_list("user", flat=True)) == [
        maureen.pk
    ]
    assert maureen.check_password("maureens-own-password")


@pytest.mark.parametrize(
    "changes, field, words",
    [
        ({"setup_code": "ABCD-EFGH-JKMN"}, "setup_code", "not this installation's setup code"),
        ({"setup_code": ""}, "setup_code", "Please type the setup code"),
        ({"slug": "admin"}, "slug", "kept for the site itself"),
        ({"password2": "another-password"}, "password2", "not the same"),
        ({"password1": "12345678", "password2": "12345678"}, "password1", "too common"),
        ({"time_zone": "Mars/Olympus"}, "time_zone", "Select a valid choice"),
        ({"coordinator": "other"}, "coordinator_username", "choose a login name"),
        (
            {"coordinator": "other", "coordinator_username": "Operator"},
            "coordinator_username",
            "must differ from yours",
        ),
    ],
)
def test_a_wrong_entry_is_named_and_nothing_is_made_and_the_entries_stay(
    client, changes, field, words
):
    code = fresh_code()
    page = client.post("/setup/", entries(code, **changes))
    assert page.status_code == 200
    assert words in " ".join(page.context["form"].errors[field])
    assert 'value="Harbour Mahjong"' in page.content.decode()  # kept
    assert not Club.objects.exists() and not get_user_model().objects.exists()
    assert client.post("/setup/", entries(code)).status_code == 302  # the code still works


def test_wrong_codes_are_throttled_per_connection(client):
    code = fresh_code()
    for _ in range(first_setup.WRONG_CODES_PER_ADDRESS):
        client.post("/setup/", entries("WRONG-CODE-0000"))
    page = client.post("/setup/", entries(code))  # even the right one, for a while
    assert "Too many wrong setup codes" in page.content.decode()
    assert not Club.objects.exists()
    other = Client(REMOTE_ADDR="192.0.2.9")
    assert other.post("/setup/", entries(code)).status_code == 302


def test_once_used_the_setup_page_is_gone_for_good(client):
    code = fresh_code()
    assert client.post("/setup/", entries(code)).status_code == 302
    stranger = Client()
    assert stranger.get("/setup/").status_code == 404
    again = stranger.post("/setup/", entries(code, username="intruder", slug="other-club"))
    assert again.status_code == 404
    assert "Set up this site" not in stranger.get("/").content.decode()
    assert Club.objects.count() == 1 and not get_user_model().objects.filter(username="intruder")
    with pytest.raises(CommandError, match="set up already"):
        call_command("setup_code")


def test_an_installation_with_a_club_or_an_operator_has_no_setup_page(client, settings):
    UserFactory(username="root", is_superuser=True, is_staff=True)  # createsuperuser first
    assert client.get("/setup/").status_code == 404
    client.get("/")  # the old way: the first page opened makes the club, at the root
    assert Club.objects.get().served_at_root
    settings.CLUB_SIGNUP = True
    assert client.get("/setup/").status_code == 404


def test_a_setup_finished_a_moment_before_wins_and_the_later_one_makes_nothing():
    """Two operators posting at once: the page was open for both, the second write finds
    the first's club (after the lock on new logins) and leaves nothing of its own."""
    UserFactory(username="first-operator", is_superuser=True, is_staff=True)
    with pytest.raises(first_setup.SetupDone):
        first_setup.set_up_installation(
            name="Second Club",
            slug="second-club",
            rule_set="hk",
            time_zone="Europe/London",
            username="second-operator",
            password="a-long-operator-password",
        )
    assert not Club.objects.exists()
    assert list(get_user_model().objects.values_list("username", flat=True)) == ["first-operator"]
