"""A club starts itself: the club, its first coordinator's login and the coordinator's role,
written together or not at all (the sign-up page and `manage.py create_club` both call
`start_club`).

Here rather than in club: a club's rule set is scoring's to offer and check (front, above
scoring, ties the two together, as the club's settings form does).
"""

from __future__ import annotations

import unicodedata
from functools import cache
from zoneinfo import available_timezones

from django.contrib.auth import get_user_model, password_validation
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import IntegrityError, transaction
from django.utils.text import slugify

from club.addresses import RESERVED_SLUGS, SLUG_LENGTH, validate_club_slug
from club.login_names import create_login
from club.models import TIME_ZONE_MESSAGE, Club, Coordinator, validate_time_zone
from club.names import check_new_username, clean_name, tidy_name
from club.refusals import Refused
from club.scoping import scopes_disabled
from scoring.rules import rule_set_choices

NAME_LENGTH = Club._meta.get_field("name").max_length
CURRENCY_LENGTH = Club._meta.get_field("currency_symbol").max_length
NAME_MESSAGE = "Please type the club's name."
CURRENCY_MESSAGE = (
    "Please give the symbol of the club's money in 1 to 3 characters, e.g. £, € or $."
)
PASSWORD_MESSAGE = "Please choose a password for the coordinator's login."

# What each rule set is, in a sentence, for someone choosing one for a new club.
RULE_SET_DESCRIPTIONS = {
    "classical": "Points for going out, each set and pair, then doubled, up to a limit.",
    "hk": "Count the hand's faan (its special features); a table turns them into points.",
    "fan": "Like Hong Kong, simpler: count the hand's fan and look up its points.",
    "u3a": "Find the hand in the club's list of hands; one chip paid per point.",
}


# The time zones most clubs here are in, first in the list: the UK and Ireland, western
# Europe, Australia, New Zealand and North America.
COMMON_TIME_ZONES = (
    "Europe/London",
    "Europe/Dublin",
    "Europe/Paris",
    "Europe/Amsterdam",
    "Europe/Berlin",
    "Europe/Madrid",
    "Europe/Rome",
    "Australia/Sydney",
    "Australia/Melbourne",
    "Australia/Brisbane",
    "Australia/Adelaide",
    "Australia/Perth",
    "Australia/Hobart",
    "Pacific/Auckland",
    "America/New_York",
    "America/Toronto",
    "America/Chicago",
    "America/Denver",
    "America/Phoenix",
    "America/Los_Angeles",
    "America/Vancouver",
    "America/Halifax",
)


@cache
def time_zone_choices() -> list:
    """Every time zone, for a select: the common ones first, then the rest A to Z, each
    written with spaces ("America/New York")."""
    zones = available_timezones()
    common = [zone for zone in COMMON_TIME_ZONES if zone in zones]
    others = sorted(zone for zone in zones if zone not in common and "/" in zone)
    others += sorted(zone for zone in zones if zone not in common and "/" not in zone)

    def label(zone: str) -> str:
        return zone.replace("_", " ")

    return [
        ("Common time zones", [(zone, label(zone)) for zone in common]),
        ("Every time zone", [(zone, label(zone)) for zone in others]),
    ]


class ClubNotStarted(Refused):
    """What stops a club starting, field by field: `problems` maps "name", "slug",
    "rule_set", "username", "password", "email", "time_zone" or "currency_symbol" to the
    sentences saying what is wrong. str() is every sentence, for a command's error."""

    def __init__(self, problems: dict[str, list[str]]):
        self.problems = problems
        super().__init__(
            " ".join(message for messages in problems.values() for message in messages)
        )


def suggest_slug(name: str) -> str:
    """An address made from a club's name: "Thursday Mahjong (Leeds)" -> "thursday-mahjong-leeds".
    Accents dropped, at most 40 characters cut at a dash, starting with a letter, never one
    of the site's own words; empty when the name has no letter or digit to make one from."""
    plain = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode("ascii")
    slug = slugify(plain).replace("_", "-")
    slug = "-".join(part for part in slug.split("-") if part)
    if not slug:
        return ""
    if not slug[0].isalpha():
        slug = f"club-{slug}"
    if len(slug) > SLUG_LENGTH:
        slug = slug[:SLUG_LENGTH]
        if "-" in slug[SLUG_LENGTH // 2 :]:
            slug = slug[: slug.rindex("-")]
        slug = slug.rstrip("-")
    if len(slug) < 3 or slug in RESERVED_SLUGS:  # "Staff" -> "staff-club", not refused
        slug = f"{slug}-club"
    return slug


def rule_set_options() -> list[tuple[str, str, str]]:
    """(name, title, a sentence saying what it is) of every rule set, for choosing one."""
    return [
        (name, title, RULE_SET_DESCRIPTIONS.get(name, "")) for name, title in rule_set_choices()
    ]


def slug_problem(slug: str) -> str | None:
    """Why `slug` cannot be a new club's address, or None."""
    if not slug:
        return "Please give the club an address, e.g. “thursday-mahjong”."
    try:
        validate_club_slug(slug)  # the one rule for every club's address (club/addresses.py)
    except ValidationError as error:
        return error.messages[0]
    if Club.objects.filter(slug=slug).exists():
        return taken_slug_message(slug)
    return None


def taken_slug_message(slug: str) -> str:
    return (
        f"The address “{slug}” is taken by another club. Please choose another, e.g. "
        f"“{slug[: SLUG_LENGTH - 5]}-town” with your town's name."
    )


def taken_username_message(username: str) -> str:
    return (
        f"The login name “{username}” is already someone's login. Please choose another "
        "(a club's first coordinator gets a login of their own)."
    )


def problems_with(
    *,
    name: str,
    slug: str,
    rule_set: str,
    username: str,
    password: str,
    email: str = "",
    time_zone: str | None = None,
    currency_symbol: str | None = None,
) -> dict[str, list[str]]:
    """Everything wrong with these entries for a new club, field by field (empty: none).
    The entries as `start_club` stores them (`tidy_entries`)."""
    problems: dict[str, list[str]] = {}

    def refuse(field: str, message: str) -> None:
        problems.setdefault(field, []).append(message)

    try:
        clean_name(name, NAME_MESSAGE)
    except ValidationError as error:
        refuse("name", error.messages[0])
    else:
        if len(name) > NAME_LENGTH:
            refuse("name", f"The club's name can have at most {NAME_LENGTH} characters.")
    if problem := slug_problem(slug):
        refuse("slug", problem)
    rule_sets = dict(rule_set_choices())
    if rule_set not in rule_sets:
        named = ", ".join(rule_sets)
        refuse("rule_set", f"There is no rule set “{rule_set}”: please choose one of {named}.")
    if time_zone is not None:
        try:
            validate_time_zone(time_zone)
        except ValidationError:
            refuse("time_zone", f"There is no time zone “{time_zone}”. {TIME_ZONE_MESSAGE}")
    if currency_symbol is not None and not 1 <= len(currency_symbol) <= CURRENCY_LENGTH:
        refuse("currency_symbol", CURRENCY_MESSAGE)
    if email:
        try:
            validate_email(email)
        except ValidationError:
            refuse("email", "Please check the email address: it should look like name@example.org.")
    if not username:
        refuse("username", "Please choose a login name for the club's first coordinator.")
    else:
        # A list, not .iterator(): see club/forms.py (a half-read cursor on PostgreSQL).
        existing = list(get_user_model().objects.values_list("username", flat=True))
        try:
            check_new_username(username, existing)
        except ValidationError as error:
            refuse(
                "username",
                taken_username_message(username) if error.code == "taken" else error.messages[0],
            )
    if not password:
        refuse("password", PASSWORD_MESSAGE)
    else:
        user = get_user_model()(username=username, email=email)
        try:
            password_validation.validate_password(password, user)
        except ValidationError as error:
            for message in error.messages:
                refuse("password", message)
    return problems


def tidy_entries(name: str, slug: str, username: str, email: str) -> tuple[str, str, str, str]:
    """The entries as they are checked and stored: the name tidied (club/names.py), the
    address in lower case, spaces off the login name and email."""
    try:
        name = clean_name(name, NAME_MESSAGE)
    except ValidationError:
        name = name.strip()
    return name, slug.strip().lower(), username.strip(), email.strip()


def start_club(
    name: str,
    slug: str,
    rule_set: str,
    coordinator_username: str,
    password: str,
    email: str = "",
    *,
    time_zone: str | None = None,
    currency_symbol: str | None = None,
    signed_up: bool = False,
) -> Club:
    """A new club at /c/<slug>/ with `rule_set`, and a new login for its first coordinator,
    in one transaction. The first club an operator starts on an installation is served at
    its root too; a club that `signed_up` never is (the operators choose that club), and no
    new club changes another's address. Refuses (ClubNotStarted, saying what is wrong with which entry) a
    bad or taken address, an unknown rule set, a login name that is someone's already (an
    existing login is never taken over), a weak password. Without `time_zone` the club
    keeps the installation's (settings.TIME_ZONE); without `currency_symbol`, £.

    Two sign-ups for one address at once: the database's unique address lets one in and
    the other is refused with the same words as a taken address."""
    name, slug, coordinator_username, email = tidy_entries(name, slug, coordinator_username, email)
    if currency_symbol is not None:
        currency_symbol = tidy_name(currency_symbol)
    entries = {"time_zone": time_zone, "currency_symbol": currency_symbol}
    problems = problems_with(
        name=name,
        slug=slug,
        rule_set=rule_set,
        username=coordinator_username,
        password=password,
        email=email,
        **entries,
    )
    if problems:
        raise ClubNotStarted(problems)
    settings = {key: value for key, value in entries.items() if value is not None}
    try:
        with transaction.atomic(), scopes_disabled():  # the rows name their club themselves
            club = Club.objects.create(name=name, slug=slug, rule_set=rule_set, **settings)
            if signed_up and club.served_at_root:  # a stranger's club never takes the root
                Club.objects.serve_at_root(None)
                club.served_at_root = False
            user = create_login(coordinator_username, password, email=email)
            Coordinator.objects.create(club=club, user=user)
    except IntegrityError:
        # Someone else took the address (or the login name) between the check and the write.
        raise ClubNotStarted(_lost_race(slug, coordinator_username)) from None
    except ValidationError as error:  # a login like it was made between the check and here
        message = taken_username_message(coordinator_username)
        raise ClubNotStarted(
            {"username": [message if error.code == "taken" else error.messages[0]]}
        ) from None
    return club


def _lost_race(slug: str, username: str) -> dict[str, list[str]]:
    if Club.objects.filter(slug=slug).exists():
        return {"slug": [taken_slug_message(slug)]}
    if get_user_model().objects.filter(username__iexact=username).exists():
        return {"username": [taken_username_message(username)]}
    return {"slug": ["The club could not be started just now. Please try again."]}
