"""The sign-up page (/signup/, when settings.CLUB_SIGNUP is on): a club starts itself, its
first coordinator is logged in at the club's new address and finds the first evening's
steps on the home page."""

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils.html import escape

from club.models import Club, Coordinator
from front import forms as front_forms
from front.clubs import rule_set_options
from tests.factories import ClubFactory, UserFactory

User = get_user_model()
SIGNUP = "/signup/"
PASSWORD = "tiles-and-tea-2026"


def entries(**changes) -> dict:
    data = {
        "name": "Thursday Mahjong",
        "slug": "thursday-mahjong",
        "rule_set": "classical",
        "username": "margaret",
        "password1": PASSWORD,
        "password2": PASSWORD,
        "email": "",
    }
    data.update(changes)
    return data


@pytest.fixture
def signup_on(settings):
    settings.CLUB_SIGNUP = True


@pytest.fixture
def many_clubs(db):
    """A site of several clubs: /signup/ is one of the site's own pages."""
    return [ClubFactory(name="Alpha Club"), ClubFactory(name="Beta Club")]


def test_the_page_is_not_found_when_sign_up_is_off(client, many_clubs, settings):
    settings.CLUB_SIGNUP = False
    response = client.get(SIGNUP)
    assert response.status_code == 404
    assert "Start your club" not in response.content.decode()


def test_a_post_is_refused_when_sign_up_is_off(client, many_clubs, settings):
    settings.CLUB_SIGNUP = False
    assert client.post(SIGNUP, entries()).status_code == 404
    assert not Club.objects.filter(slug="thursday-mahjong").exists()
    assert not User.objects.filter(username="margaret").exists()


def test_the_page_asks_for_the_club_and_its_first_coordinator(client, many_clubs, signup_on):
    response = client.get(SIGNUP)
    page = response.content.decode()
    assert response.status_code == 200
    assert [t.name for t in response.templates][:2] == ["site/signup.html", "site/base.html"]
    assert "<h1>Start your club</h1>" in page and "Alpha Club" not in page
    for name in ("name", "slug", "username", "password1", "password2", "email"):
        assert f'name="{name}"' in page
    assert "testserver/c/</span>" in page  # the address's prefix, shown before the field
    assert "The club keeps this address for good: clubs that start here later never" in page
    # Each rule set with one plain line saying what it is, none chosen for the club.
    assert 'type="radio" name="rule_set" value="classical"' in page
    for name, title, words in rule_set_options():
        assert f'value="{name}"' in page and title in page
        assert words and escape(words) in page and len(words) <= 80, name
    assert "checked" not in page
    assert "<script" not in page  # works without JavaScript
    # The privacy notice the club starts with, before it exists.
    assert 'id="privacy-notice"' in page and "What the club keeps" in page


def test_a_club_starts_and_its_coordinator_is_logged_in_at_its_address(
    client, many_clubs, signup_on
):
    response = client.post(SIGNUP, entries(rule_set="hk", email="margaret@example.org"))
    assert response.status_code == 302
    assert response["Location"] == "/c/thursday-mahjong/"
    club = Club.objects.get(slug="thursday-mahjong")
    user = User.objects.get(username="margaret")
    assert (club.name, club.rule_set, user.email) == (
        "Thursday Mahjong",
        "hk",
        "margaret@example.org",
    )
    assert Coordinator.objects.filter(club=club, user=user).exists()
    assert int(client.session["_auth_user_id"]) == user.pk
    home = client.get(response["Location"]).content.decode()
    assert (
        "Thursday Mahjong is started at testserver/c/thursday-mahjong/, and stays at that "
        "address when other clubs start here. Welcome, coordinator!"
    ) in home
    assert "Your first evening in three steps" in home
    assert 'href="/c/thursday-mahjong/club/members/add/"' in home


def test_an_empty_address_is_made_from_the_name(client, many_clubs, signup_on):
    response = client.post(SIGNUP, entries(name="St. Mary's Tiles", slug=""))
    assert response["Location"] == "/c/st-marys-tiles/"
    assert Club.objects.get(slug="st-marys-tiles").name == "St. Mary's Tiles"


def test_the_address_may_be_typed_in_capitals(client, many_clubs, signup_on):
    response = client.post(SIGNUP, entries(slug="Thursday-Mahjong"))
    assert response["Location"] == "/c/thursday-mahjong/"


def refused(client, **changes) -> str:
    response = client.post(SIGNUP, entries(**changes))
    assert response.status_code == 200
    return response.content.decode()


def test_bad_entries_come_back_in_words_with_the_entries_kept(client, many_clubs, signup_on):
    page = refused(client, slug="Bad Address!", password2="something-else", rule_set="fan")
    assert "Please check the form" in page
    assert "lower-case letters, digits and dashes only" in page
    assert "The two passwords are not the same. Please type it again." in page
    assert 'value="Thursday Mahjong"' in page and 'value="Bad Address!"' in page
    assert 'value="margaret"' in page
    assert 'value="fan" id="id_rule_set_2" required checked>' in page
    assert page.count(" checked>") == 1
    assert PASSWORD not in page and "something-else" not in page  # passwords are not kept
    assert not Club.objects.filter(slug__in=["thursday-mahjong", "bad-address"]).exists()
    assert not User.objects.filter(username="margaret").exists()


def test_a_taken_address_is_named(client, many_clubs, signup_on):
    page = refused(client, slug=many_clubs[0].slug)
    assert f"The address “{many_clubs[0].slug}” is taken by another club." in page


def test_an_address_made_from_a_taken_name_comes_back_to_change(client, many_clubs, signup_on):
    ClubFactory(slug="thursday-mahjong")
    page = refused(client, slug="")
    assert "The address “thursday-mahjong” is taken by another club." in page
    assert 'value="thursday-mahjong"' in page  # the suggestion, in the field to change


def test_an_existing_login_is_refused_in_plain_words(client, many_clubs, signup_on):
    UserFactory(username="margaret")
    page = refused(client)
    assert "The login name “margaret” is already someone&#x27;s login." in page
    assert not Club.objects.filter(slug="thursday-mahjong").exists()


def test_a_weak_password_is_refused_in_words(client, many_clubs, signup_on):
    page = refused(client, password1="password", password2="password")
    assert "This password is too common." in page


def test_empty_entries_are_asked_for(client, many_clubs, signup_on):
    page = refused(client, name="", username="", password1="", password2="", slug="")
    for words in (
        "Please type the club&#x27;s name.",
        "Please choose a login name for yourself.",
        "Please choose a password.",
        "Please type the password a second time.",
    ):
        assert words in page


def test_an_address_taken_between_the_check_and_the_write(
    client, many_clubs, signup_on, monkeypatch
):
    real = front_forms.start_club

    def someone_else_first(*args, **kwargs):
        ClubFactory(slug="thursday-mahjong")
        return real(*args, **kwargs)

    monkeypatch.setattr(front_forms, "start_club", someone_else_first)
    page = refused(client)
    assert "The address “thursday-mahjong” is taken by another club." in page
    assert not User.objects.filter(username="margaret").exists()


def test_the_form_needs_its_csrf_token(many_clubs, signup_on):
    client = Client(enforce_csrf_checks=True)
    assert client.post(SIGNUP, entries()).status_code == 403
    assert not Club.objects.filter(slug="thursday-mahjong").exists()


def test_sign_up_works_on_a_one_club_installation_too(client, club, signup_on):
    """With one club, the root is that club's; /signup/ still starts a second one."""
    assert client.get(SIGNUP).status_code == 200
    response = client.post(SIGNUP, entries())
    assert response["Location"] == "/c/thursday-mahjong/"
    assert client.get("/c/thursday-mahjong/").status_code == 200
    assert Club.objects.count() == 2


def test_one_connection_starts_a_few_clubs_a_day_then_is_asked_to_wait(
    many_clubs, signup_on, settings
):
    """A script cannot fill the site with made-up clubs: past CLUB_SIGNUPS_PER_ADDRESS clubs
    started from one address in a day, a sign-up is answered "please wait" (429) before
    anything is made, with the entries kept. Refused and wrong sign-ups are not counted, and
    another address is not held up."""
    settings.CLUB_SIGNUPS_PER_ADDRESS = 2
    here = {"REMOTE_ADDR": "203.0.113.7"}
    Client().post(SIGNUP, entries(slug="taken", name="Alpha Club", password2="no"), **here)
    for n in (1, 2):
        started = Client().post(SIGNUP, entries(slug=f"club-{n}", username=f"coord{n}"), **here)
        assert started.status_code == 302, n
    third = Client().post(SIGNUP, entries(slug="club-3", username="coord3"), **here)
    page = third.content.decode()
    assert third.status_code == 429 and third["Retry-After"] == str(24 * 60 * 60)
    assert "2 clubs have been started from this internet connection today" in page
    assert "Nothing was saved." in page
    assert 'value="club-3"' in page and 'value="coord3"' in page  # the entries are kept
    assert not Club.objects.filter(slug="club-3").exists()
    assert not User.objects.filter(username="coord3").exists()
    assert Client().get(SIGNUP, **here).status_code == 200  # the page itself still opens
    elsewhere = Client().post(
        SIGNUP, entries(slug="club-4", username="coord4"), REMOTE_ADDR="198.51.100.2"
    )
    assert elsewhere.status_code == 302


def test_the_wait_says_one_club_in_the_singular(many_clubs, signup_on, settings):
    settings.CLUB_SIGNUPS_PER_ADDRESS = 1
    assert Client().post(SIGNUP, entries()).status_code == 302
    again = Client().post(SIGNUP, entries(slug="another", username="brian"))
    assert "1 club has been started from this internet connection today" in again.content.decode()


def test_no_rules_chosen_is_asked_for_with_every_entry_kept(client, many_clubs, signup_on):
    data = entries(email="margaret@example.org")
    del data["rule_set"]
    response = client.post(SIGNUP, data)
    page = response.content.decode()
    assert response.status_code == 200
    assert "Please choose the rules your club plays: one of the four above." in page
    assert 'value="Thursday Mahjong"' in page and 'value="thursday-mahjong"' in page
    assert 'value="margaret"' in page and 'value="margaret@example.org"' in page
    assert "checked" not in page
    assert '<a href="#id_rule_set">The rules you play: Please choose' in page  # its fieldset
    assert not Club.objects.filter(slug="thursday-mahjong").exists()
