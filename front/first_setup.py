"""The first club, made in the browser: on an empty installation (club/installation.py) the
site's root shows the setup page, which makes the operator's login (a superuser) and the
first club with its coordinator, in one transaction. Then the page is gone.

Whoever reaches the page first could otherwise take the installation, so it asks for a
one-time setup code, printed in the server's log when it starts (as Jupyter and Home
Assistant do); `manage.py setup_code` prints a new one for whoever missed it. The code is
kept hashed in the shared cache (the database's table in production), so every gunicorn
worker knows it, and forgotten once used. Wrong codes are counted per internet connection,
as wrong passwords are (club/login_throttle.py)."""

from __future__ import annotations

import logging
import secrets

from django.conf import settings
from django.contrib.auth.hashers import check_password, make_password
from django.core.cache import cache
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from club.installation import waiting_for_setup
from club.login_names import create_login
from club.login_throttle import count, counted
from club.models import Club, Coordinator
from club.refusals import Refused
from club.scoping import scopes_disabled
from front.clubs import ClubNotStarted, problems_with, start_club, taken_username_message

logger = logging.getLogger(__name__)

CODE_KEY = "first-setup-code"
# No letters or digits read alike (0/O, 1/I/L): 12 of 31 characters, about 59 bits.
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 12
THROTTLE_KIND = "setup-code"
WRONG_CODES_PER_ADDRESS = 10
WRONG_CODE_MESSAGE = (
    "That is not this installation's setup code. It is printed in the server's log when "
    "the server starts (a line beginning “Setup code”); the command “python manage.py "
    "setup_code” prints a new one. Your other entries are kept."
)
THROTTLED_MESSAGE = (
    "Too many wrong setup codes from this internet connection. Please wait 15 minutes, "
    "then type the code from the server's log. Nothing was saved."
)


class SetupDone(Refused):
    """The installation was set up already (by another visitor a moment ago, say)."""


def tidy_code(code: str) -> str:
    return "".join(code.split()).replace("-", "").upper()


def _made_code() -> tuple[str, str]:
    """A new code: as it is kept (hashed) and as it is shown (ABCD-EFGH-JKMN)."""
    code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
    shown = "-".join(code[start : start + 4] for start in range(0, CODE_LENGTH, 4))
    return make_password(code), shown


def new_setup_code() -> str:
    """A new setup code, replacing any before it (`manage.py setup_code`)."""
    kept, shown = _made_code()
    cache.set(CODE_KEY, kept, None)
    return shown


def announce_setup_code() -> str | None:
    """On an empty installation with no setup code yet: makes one and writes it to the log
    (the code, or None when nothing was made). Every worker may call it: the first one's
    code is kept (cache.add), the others print nothing."""
    if not waiting_for_setup() or cache.get(CODE_KEY) is not None:
        return None
    kept, shown = _made_code()
    if not cache.add(CODE_KEY, kept, None):
        return None
    logger.warning(setup_code_words(shown))
    return shown


def setup_code_words(code: str) -> str:
    return (
        f"Setup code: {code}. This installation has no club yet: open the site's address "
        "in a browser and type this code to make your login and the first club. "
        "(`python manage.py setup_code` prints a new one.)"
    )


def code_refusal(code: str, address: str) -> str | None:
    """Why this setup code is refused (wrong, or too many wrong ones from `address`), or
    None when it is the code."""
    if counted(THROTTLE_KIND, address) >= WRONG_CODES_PER_ADDRESS:
        return THROTTLED_MESSAGE
    stored = cache.get(CODE_KEY)
    if stored is not None and code and check_password(tidy_code(code), stored):
        return None
    count(THROTTLE_KIND, address, settings.LOGIN_THROTTLE_WINDOW)
    return WRONG_CODE_MESSAGE


def setup_problems(
    *,
    name: str,
    slug: str,
    rule_set: str,
    time_zone: str,
    username: str,
    password: str,
    email: str,
    coordinator_username: str | None,
    coordinator_password: str,
) -> dict[str, list[str]]:
    """Everything wrong with the entries, by field: the club's (front/clubs.py's checks, as
    for every new club), its coordinator's login, and the operator's when that is another."""
    if coordinator_username is None:  # the operator coordinates the club
        return problems_with(
            name=name,
            slug=slug,
            rule_set=rule_set,
            username=username,
            password=password,
            email=email,
            time_zone=time_zone,
        )
    problems = problems_with(
        name=name,
        slug=slug,
        rule_set=rule_set,
        username=coordinator_username,
        password=coordinator_password,
        time_zone=time_zone,
    )
    problems = {
        {"username": "coordinator_username", "password": "coordinator_password"}.get(
            field, field
        ): messages
        for field, messages in problems.items()
    }
    operator = problems_with(
        name=name, slug=slug, rule_set=rule_set, username=username, password=password, email=email
    )
    for field in ("username", "password", "email"):
        if field in operator:
            problems[field] = operator[field]
    if username and username.lower() == coordinator_username.lower():
        problems.setdefault("coordinator_username", []).append(
            "The coordinator's login name must differ from yours: choose “The club is "
            "coordinated by me” to use your own login."
        )
    return problems


def set_up_installation(
    *,
    name: str,
    slug: str,
    rule_set: str,
    time_zone: str,
    username: str,
    password: str,
    email: str = "",
    coordinator_username: str | None = None,
    coordinator_password: str = "",
) -> Club:
    """The operator's login (a superuser), the first club (at the site's root, as the
    first club is) and its coordinator (the operator, or a new login), all or nothing.
    Refuses with SetupDone when the installation is no longer empty, ClubNotStarted (by
    field) when an entry is wrong."""
    problems = setup_problems(
        name=name,
        slug=slug,
        rule_set=rule_set,
        time_zone=time_zone,
        username=username,
        password=password,
        email=email,
        coordinator_username=coordinator_username,
        coordinator_password=coordinator_password,
    )
    if problems:
        raise ClubNotStarted(problems)
    try:
        with transaction.atomic(), scopes_disabled():
            # New logins are made one at a time (create_login's lock, held to the end of
            # this transaction): after it, a setup that finished a moment ago is seen.
            operator = create_login(
                username, password, email=email, is_staff=True, is_superuser=True
            )
            others = type(operator).objects.filter(is_superuser=True).exclude(pk=operator.pk)
            if Club.objects.exists() or others.exists():
                raise SetupDone
            if coordinator_username is None:
                club = Club.objects.create(
                    name=name, slug=slug, rule_set=rule_set, time_zone=time_zone
                )
                Coordinator.objects.create(club=club, user=operator)
            else:
                club = start_club(
                    name,
                    slug,
                    rule_set,
                    coordinator_username,
                    coordinator_password,
                    time_zone=time_zone,
                )
    except IntegrityError:  # another first club at the same moment: the root is taken
        raise SetupDone from None
    except ValidationError as error:  # a login like it, made between the check and here
        words = taken_username_message(username) if error.code == "taken" else error.messages[0]
        raise ClubNotStarted({"username": [words]}) from None
    cache.delete(CODE_KEY)  # used: no one may type it again
    return club
