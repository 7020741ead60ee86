"""`manage.py create_club`: the operator's way to start a club, through start_club."""

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError

from club.models import Club, Coordinator
from tests.factories import ClubFactory, UserFactory

User = get_user_model()
GOOD = ["--slug", "thursday-mahjong", "--name", "Thursday Mahjong", "--coordinator", "margaret"]
GOOD += ["--password", "tiles-and-tea-2026"]


def create(*args) -> str:
    from io import StringIO

    out = StringIO()
    call_command("create_club", *args, stdout=out)
    return out.getvalue()


def test_the_command_starts_a_club_and_prints_its_address(db, settings):
    settings.ALLOWED_HOSTS = ["*"]
    out = create(*GOOD)
    club = Club.objects.get(slug="thursday-mahjong")
    assert (club.name, club.rule_set, club.time_zone, club.currency_symbol) == (
        "Thursday Mahjong",
        "classical",
        settings.TIME_ZONE,
        "£",
    )
    assert Coordinator.objects.get(club=club).user.username == "margaret"
    assert (
        "The club “Thursday Mahjong” is started at /c/thursday-mahjong/ (after the site's " in out
    )
    assert "logs in there as “margaret”" in out
    # The installation's first club: served at the root too, for good.
    assert club.served_at_root
    assert "also served at the site's root (/): it stays there when other clubs" in out


@pytest.mark.parametrize(
    ("hosts", "example"),
    [
        (["mahjong.example.org", "localhost"], ", as in https://mahjong.example.org/c/"),
        # `make run`'s hosts say nothing of where people find the site: no made-up address.
        (["127.0.0.1", "localhost"], ")."),
        (["*", ".example.org", "[::1]", "10.0.0.5"], ")."),
    ],
)
def test_the_address_is_a_path_with_an_example_only_from_a_host_name(db, settings, hosts, example):
    settings.ALLOWED_HOSTS = hosts
    out = create(*GOOD)
    assert f"started at /c/thursday-mahjong/ (after the site's own address{example}" in out
    assert "https://127.0.0.1" not in out and "https://10.0.0.5" not in out


def test_a_second_club_leaves_the_first_at_the_root_and_says_so(db):
    first = ClubFactory(name="Riverside", slug="riverside")
    out = create(*GOOD)
    assert "“Riverside” stays at the site's root (/) and at /c/riverside/" in out
    assert "changes no other club's address" in out
    assert list(Club.objects.filter(served_at_root=True)) == [first]
    Club.objects.serve_at_root(None)
    out = create(*with_option("--slug", "friday"), "--coordinator", "brian")
    assert "The site's root lists the clubs: starting a club changes no other" in out
    assert not Club.objects.filter(served_at_root=True).exists()


def test_rules_time_zone_currency_and_email_may_be_given(db):
    create(*GOOD, "--rules", "hk", "--time-zone", "America/Los_Angeles", "--currency", "$")
    club = Club.objects.get()
    assert (club.rule_set, club.time_zone, club.currency_symbol) == (
        "hk",
        "America/Los_Angeles",
        "$",
    )
    create(
        "--slug", "friday", "--name", "Friday", "--coordinator", "brian",
        "--password", "tiles-and-tea-2026", "--email", "brian@example.org",
    )  # fmt: skip
    assert User.objects.get(username="brian").email == "brian@example.org"


def with_option(option: str, value: str) -> list[str]:
    args = list(GOOD)
    if option in args:
        args[args.index(option) + 1] = value
    else:
        args += [option, value]
    return args


@pytest.mark.parametrize(
    ("option", "value", "words"),
    [
        ("--slug", "Bad Address", "lower-case letters, digits and dashes only"),
        ("--slug", "admin", "The address “admin” is kept for the site itself."),
        ("--name", " ", "Please type the club's name."),
        ("--coordinator", "mar garet", "with no spaces"),
        ("--password", "short", "too short"),
        ("--rules", "snap", "There is no rule set “snap”: please choose one of classical"),
        ("--time-zone", "Mars/Olympus", "There is no time zone “Mars/Olympus”."),
        ("--currency", "EURO", "in 1 to 3 characters"),
        ("--email", "nowhere", "Please check the email address"),
    ],
)
def test_each_bad_input_is_a_clear_error(db, option, value, words):
    with pytest.raises(CommandError, match=words):
        create(*with_option(option, value))
    assert not Club.objects.exists() and not User.objects.exists()


def test_a_taken_address_is_a_clear_error(db):
    ClubFactory(slug="thursday-mahjong")
    with pytest.raises(CommandError, match="The address “thursday-mahjong” is taken"):
        create(*GOOD)


def test_an_existing_login_is_refused_not_taken_over(db):
    user = UserFactory(username="Margaret")
    with pytest.raises(CommandError, match="“margaret” is already someone's login"):
        create(*GOOD)
    assert not Coordinator.objects.filter(user=user).exists() and not Club.objects.exists()


def test_a_missing_option_is_named(db):
    with pytest.raises(CommandError, match="--password"):
        create(*GOOD[:-2])
