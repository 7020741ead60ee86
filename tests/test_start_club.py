"""A club starts itself: front/clubs.py's start_club, one write for the club, its first
coordinator's new login and role, with every entry checked in words."""

import threading

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model

from club.models import Club, Coordinator
from club.roles import is_coordinator
from front import clubs
from front.clubs import ClubNotStarted, start_club, suggest_slug
from tests.factories import ClubFactory, UserFactory
from tests.threads import at_once, failures

User = get_user_model()
PASSWORD = "tiles-and-tea-2026"


def start(**changes):
    entries = {
        "name": "Thursday Mahjong",
        "slug": "thursday-mahjong",
        "rule_set": "classical",
        "coordinator_username": "margaret",
        "password": PASSWORD,
    }
    entries.update(changes)
    return start_club(**entries)


def refusal(**changes) -> ClubNotStarted:
    with pytest.raises(ClubNotStarted) as caught:
        start(**changes)
    return caught.value


def test_a_club_starts_with_its_coordinators_new_login(db):
    club = start(email="margaret@example.org", rule_set="u3a")
    assert (club.name, club.slug, club.rule_set) == ("Thursday Mahjong", "thursday-mahjong", "u3a")
    assert club.time_zone == settings.TIME_ZONE and club.currency_symbol == "£"
    user = User.objects.get(username="margaret")
    assert user.email == "margaret@example.org" and not user.is_staff and not user.is_superuser
    assert user.check_password(PASSWORD)
    assert list(Coordinator.objects.values_list("club", "user")) == [(club.pk, user.pk)]
    assert is_coordinator(user, club)


def test_the_time_zone_and_currency_may_be_given(db):
    club = start(time_zone="Pacific/Auckland", currency_symbol=" $ ")
    assert (club.time_zone, club.currency_symbol) == ("Pacific/Auckland", "$")


def test_entries_are_tidied(db):
    club = start(name="  Thursday\u200b  Mahjong ", slug=" Thursday-Mahjong ")
    assert (club.name, club.slug) == ("Thursday Mahjong", "thursday-mahjong")


@pytest.mark.parametrize(
    ("changes", "field", "words"),
    [
        ({"name": " \u200b "}, "name", "Please type the club's name."),
        ({"slug": ""}, "slug", "Please give the club an address"),
        ({"slug": "Thursday Mahjong"}, "slug", "lower-case letters, digits and dashes only"),
        ({"slug": "9-tiles"}, "slug", "starting with a letter"),
        ({"slug": "ab"}, "slug", "3 to 40 of them"),
        ({"slug": "admin"}, "slug", "The address “admin” is kept for the site itself."),
        ({"slug": "signup"}, "slug", "kept for the site itself"),
        ({"rule_set": "snap"}, "rule_set", "There is no rule set “snap”: please choose one of"),
        ({"coordinator_username": ""}, "username", "Please choose a login name"),
        ({"coordinator_username": "mar garet"}, "username", "with no spaces"),
        ({"password": ""}, "password", "Please choose a password"),
        ({"password": "short"}, "password", "too short"),
        ({"password": "password123"}, "password", "too common"),
        ({"password": "8127364509"}, "password", "entirely numeric"),
        ({"email": "margaret-at-home"}, "email", "Please check the email address"),
        ({"time_zone": "Europe/Narnia"}, "time_zone", "There is no time zone “Europe/Narnia”."),
        ({"currency_symbol": ""}, "currency_symbol", "in 1 to 3 characters"),
        ({"currency_symbol": "EURO"}, "currency_symbol", "in 1 to 3 characters"),
    ],
)
def test_each_bad_entry_is_refused_in_words_and_nothing_is_written(db, changes, field, words):
    refused = refusal(**changes)
    assert list(refused.problems) == [field]
    assert words in " ".join(refused.problems[field])
    assert words in str(refused)
    assert not Club.objects.exists() and not User.objects.exists()


def test_every_problem_is_named_at_once(db):
    refused = refusal(slug="x", password="short", rule_set="snap")
    assert set(refused.problems) == {"slug", "password", "rule_set"}


def test_a_taken_address_is_refused_naming_it(db):
    ClubFactory(slug="thursday-mahjong")
    refused = refusal()
    assert refused.problems == {"slug": [clubs.taken_slug_message("thursday-mahjong")]}
    assert "The address “thursday-mahjong” is taken by another club." in str(refused)
    assert not User.objects.exists()


@pytest.mark.parametrize("existing", ["margaret", "Margaret", "MARGARET"])
def test_an_existing_login_is_never_taken_over(db, existing):
    user = UserFactory(username=existing)
    old_password = user.password
    refused = refusal()
    assert refused.problems["username"][0].startswith(
        "The login name “margaret” is already someone's login."
    )
    user.refresh_from_db()
    assert user.password == old_password
    assert not Club.objects.exists() and not Coordinator.objects.exists()


def test_a_login_name_that_looks_like_another_is_refused(db):
    UserFactory(username="margaret")
    refused = refusal(coordinator_username="rnargaret")
    assert "looks too much like the login “margaret”" in refused.problems["username"][0]


def test_the_password_must_not_look_like_the_login_name(db):
    refused = refusal(coordinator_username="margaretsmith", password="margaretsmith1")
    assert "too similar to the username" in refused.problems["password"][0]


def test_a_failure_in_the_middle_leaves_nothing_written(db, monkeypatch):
    def fail(**fields):
        raise RuntimeError("the disk is full")

    monkeypatch.setattr(Coordinator.objects, "create", fail)
    with pytest.raises(RuntimeError):
        start()
    assert not Club.objects.exists() and not User.objects.exists()


# --- two sign-ups at once -------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_two_sign_ups_for_one_address_at_once_one_wins(db):
    results = at_once(
        [
            lambda: start(coordinator_username="margaret"),
            lambda: start(coordinator_username="brian"),
        ]
    )
    clubs_started = [result for result in results if isinstance(result, Club)]
    refused = failures(results)
    assert len(clubs_started) == 1 and len(refused) == 1
    assert isinstance(refused[0], ClubNotStarted)
    assert refused[0].problems == {"slug": [clubs.taken_slug_message("thursday-mahjong")]}
    assert Club.objects.count() == 1 and User.objects.count() == 1
    assert Coordinator.objects.get().user == User.objects.get()


def both_past_the_checks(monkeypatch):
    """Both sign-ups find the address (and login name) free before either writes: the
    database's unique keys decide."""
    gate = threading.Barrier(2, timeout=30)
    real = clubs.problems_with

    def checked_together(**entries):
        problems = real(**entries)
        gate.wait()
        return problems

    monkeypatch.setattr(clubs, "problems_with", checked_together)


@pytest.mark.django_db(transaction=True)
def test_when_both_pass_the_check_the_database_refuses_the_second_address(db, monkeypatch):
    both_past_the_checks(monkeypatch)
    results = at_once(
        [
            lambda: start(coordinator_username="margaret"),
            lambda: start(coordinator_username="brian"),
        ]
    )
    refused = failures(results)
    assert len(refused) == 1 and isinstance(refused[0], ClubNotStarted), results
    assert refused[0].problems == {"slug": [clubs.taken_slug_message("thursday-mahjong")]}
    winner = Club.objects.get()
    # The loser's login was rolled back with its club: one login, the winner's coordinator.
    assert list(User.objects.values_list("username", flat=True)) == [
        Coordinator.objects.get(club=winner).user.username
    ]


@pytest.mark.django_db(transaction=True)
def test_when_both_pass_the_check_the_database_refuses_the_second_login(db, monkeypatch):
    both_past_the_checks(monkeypatch)
    results = at_once(
        [lambda: start(slug="thursday-mahjong"), lambda: start(slug="friday-mahjong")]
    )
    refused = failures(results)
    assert len(refused) == 1 and isinstance(refused[0], ClubNotStarted), results
    assert refused[0].problems == {"username": [clubs.taken_username_message("margaret")]}
    # The loser's club was rolled back with its login: no club without a coordinator.
    assert Club.objects.count() == 1 and User.objects.count() == 1
    assert Coordinator.objects.get().club == Club.objects.get()


# --- the address made from a club's name -----------------------------------------------------


@pytest.mark.parametrize(
    ("name", "slug"),
    [
        ("Thursday Mahjong", "thursday-mahjong"),
        ("Thursday Mahjong (Leeds)", "thursday-mahjong-leeds"),
        ("  Café  Crème -- Club ", "cafe-creme-club"),
        ("St. Mary's U3A", "st-marys-u3a"),
        ("4 Winds", "club-4-winds"),
        ("Mj", "mj-club"),
        ("麻將", ""),
        ("", ""),
        (
            "The Very Long Named Mahjong Club of Little Snoring and District",
            "the-very-long-named-mahjong-club-of",
        ),
    ],
)
def test_an_address_is_suggested_from_the_name(name, slug):
    assert suggest_slug(name) == slug


@pytest.mark.parametrize(
    "name",
    [
        "Thursday Mahjong",
        "4 Winds",
        "x",
        "a" * 120,
        "Ünïcödé ünd Spaß",
        "--a--b--",
        "Staff",
        "Club",
    ],
)
def test_a_suggested_address_is_always_a_valid_one(name):
    from club.models import validate_club_slug

    slug = suggest_slug(name)
    validate_club_slug(slug)
