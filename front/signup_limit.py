"""How many clubs one internet connection may start at /signup/ (settings
CLUB_SIGNUPS_PER_ADDRESS a day): past that, a sign-up is answered "please wait" before the
form makes anything, so a script cannot fill the site with made-up clubs. A club's members
signing up their own club from the hall are far below it.

Counted with the login throttle's counter, in Django's cache (see club/login_throttle.py:
in production the database's table, which every worker shares and a replaced worker keeps)."""

from axes.helpers import get_client_ip_address
from django.conf import settings

from club.login_throttle import count, counted

KIND = "club-signup"
MESSAGE = (
    "{started} started from this internet connection today, the most the site allows in a "
    "day. Please try again tomorrow, or write to the people who run this site. Nothing was "
    "saved."
)


def _address(request) -> str:
    return get_client_ip_address(request) or ""


def refusal(request) -> str | None:
    """Why this sign-up is refused before anything is made, or None."""
    started = counted(KIND, _address(request))
    if started >= settings.CLUB_SIGNUPS_PER_ADDRESS:
        clubs = "1 club has been" if started == 1 else f"{started} clubs have been"
        return MESSAGE.format(started=clubs)
    return None


def club_started(request) -> None:
    count(KIND, _address(request), settings.CLUB_SIGNUP_WINDOW)
