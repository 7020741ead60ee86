"""Slowing password guessing down before any password is checked.

django-axes locks a username at one address after five wrong passwords (settings
AXES_LOCKOUT_PARAMETERS): a guesser elsewhere cannot lock the member out. Two kinds of
guessing get past that, and each wrong try costs a password hash (the slow part, on purpose):

- spraying: one address tries a password or two over many usernames. Counted per address,
  over all usernames: past LOGIN_THROTTLE_PER_ADDRESS wrong passwords in the window, that
  address is asked to wait.
- a flood: many addresses try one username. Counted per username, over all addresses: past
  LOGIN_THROTTLE_PER_USERNAME, that username is asked to wait, except from a browser that has
  logged in as that username before (a signed "known logins" cookie, OWASP's device cookie).
  So a flood slows the guessers, not the member on their own phone or tablet.

A browser holding that cookie for the login being tried is counted apart from everyone else
(OWASP's "device cookies"): axes leaves it alone (AXES_WHITELIST_CALLABLE, `from_known_device`),
neither the address's nor the username's count applies to it or counts its wrong passwords,
and its own count (of this browser, a random id in the cookie, and this login) stops it after
AXES_FAILURE_LIMIT wrong passwords. So a prankster in the hall, behind the same public
address, who types five wrong passwords for the coordinator's login locks out only browsers
that never logged in as the coordinator: the coordinator's own tablet still logs in.

A refused try is answered here, before the login form runs, so it costs no hash, no
database write and no axes record; it is not counted either, so the window (a fixed one,
from the first wrong password) ends on time. Tries axes refuses are not counted: axes already
answers them without a hash.

The counts live in Django's cache, which in production is a table of the database by
default (CACHE_URL, config/settings/services.py): every gunicorn worker sees the same counts,
and a worker replaced after max_requests (or a restart) forgets none of them. Only `make run`
and the tests keep them in each process's memory.
"""

import hashlib
import json
import secrets

from axes.helpers import get_client_ip_address
from django.conf import settings
from django.contrib.auth.signals import user_login_failed
from django.core import signing
from django.core.cache import cache
from django.dispatch import receiver
from django.shortcuts import render

from club.login_names import LoginForm, login_key

KNOWN_COOKIE = "known_logins"
KNOWN_DEVICE = "known-device"  # a known browser's count of wrong passwords for a login
UNLOCKS = "unlocks"  # how many times a coordinator unlocked a login (in the window)
KNOWN_SALT = "club.login_throttle.known-logins"
KNOWN_MAX = 8  # a shared tablet remembers its last few members
KNOWN_AGE = 365 * 24 * 60 * 60

ADDRESS_MESSAGE = (
    "Too many wrong passwords have been typed from this internet connection. To keep "
    "everyone's login safe, please wait {minutes} minutes and try again, or ask your "
    "coordinator."
)
USERNAME_MESSAGE = (
    "Many wrong passwords have been typed for this login, from elsewhere. To keep it safe, "
    "please wait {minutes} minutes and try again: a phone or tablet you have logged in with "
    "before is not asked to wait. Your coordinator can also unlock your login now."
)

KNOWN_DEVICE_MESSAGE = (
    "Too many wrong passwords have been typed for this login on this phone or tablet. To keep "
    "it safe, please wait {minutes} minutes and try again, or ask your coordinator to unlock "
    "your login."
)


def window_minutes() -> int:
    return max(1, settings.LOGIN_THROTTLE_WINDOW // 60)


def _username(raw) -> str:
    return login_key(raw)  # "Sheila" and "sheila" are one login


def _key(kind: str, value: str) -> str:
    return f"login-throttle:{kind}:{hashlib.sha256(value.encode()).hexdigest()[:40]}"


def counted(kind: str, value: str) -> int:
    """How many of `kind` were counted for `value` in the window that is running."""
    return cache.get(_key(kind, value), 0)


def count(kind: str, value: str, window: int) -> None:
    """One more of `kind` for `value`, in a fixed window of `window` seconds that began with
    the first."""
    key = _key(kind, value)
    cache.add(key, 0, window)  # the window starts at the first
    try:
        cache.incr(key)
    except ValueError:  # it ended between the two lines
        cache.set(key, 1, window)


def failures(kind: str, value: str) -> int:
    return counted(kind, value)


def add_failure(kind: str, value: str) -> None:
    """One more wrong try of `kind` (a login's address or username, a table key's address)
    in the login throttle's window."""
    count(kind, value, settings.LOGIN_THROTTLE_WINDOW)


@receiver(user_login_failed, dispatch_uid="club.login_throttle.count_failure")
def count_failure(sender, credentials, request=None, **kwargs):
    if request is None or getattr(request, "axes_locked_out", False):
        return
    if from_known_device(request, credentials):
        add_failure(KNOWN_DEVICE, _device_count(request, credentials.get("username")))
        return
    add_failure("address", get_client_ip_address(request) or "")
    add_failure("username", _username(credentials.get("username")))


def username_throttled(username: str) -> bool:
    return failures("username", _username(username)) >= settings.LOGIN_THROTTLE_PER_USERNAME


def forget_username(username: str) -> None:
    """A coordinator's unlock lets the member try again from anywhere at once: the flood's
    count goes, and every browser's own count starts again (a new unlock number)."""
    name = _username(username)
    cache.delete(_key("username", name))
    key = _key(UNLOCKS, name)
    cache.set(key, cache.get(key, 0) + 1, settings.LOGIN_THROTTLE_WINDOW)


def known_device_locked(request, username: str) -> bool:
    """Whether this browser, known for `username`, has typed too many wrong passwords."""
    count = failures(KNOWN_DEVICE, _device_count(request, username))
    return count >= settings.AXES_FAILURE_LIMIT


def _known(request) -> tuple[str, list[str]]:
    """This browser's device id and the logins it has logged in as (none: "", [])."""
    try:
        value = request.get_signed_cookie(KNOWN_COOKIE, salt=KNOWN_SALT, max_age=KNOWN_AGE)
        known = json.loads(value)
    except (KeyError, signing.BadSignature, ValueError):
        return "", []
    if isinstance(known, list):  # the cookie before devices had ids: its own value is one
        known = {"device": hashlib.sha256(value.encode()).hexdigest()[:32], "logins": known}
    if not isinstance(known, dict) or not isinstance(known.get("logins"), list):
        return "", []
    names = [name for name in known["logins"] if isinstance(name, str)]
    return str(known.get("device", "")), names


def known_logins(request) -> list[str]:
    return _known(request)[1]


def _device_count(request, username: str) -> str:
    """What this browser's wrong passwords for `username` are counted under: the device and
    the login, and the login's unlocks (a coordinator's unlock starts every device afresh)."""
    name = _username(username)
    return f"{_known(request)[0]}:{name}:{cache.get(_key(UNLOCKS, name), 0)}"


def from_known_device(request, credentials=None) -> bool:
    """Whether this login try comes from a browser that has logged in as its username
    before (axes' AXES_WHITELIST_CALLABLE: such tries are counted here instead)."""
    username = (credentials or {}).get("username")
    if username is None and request.method == "POST":
        username = request.POST.get(settings.AXES_USERNAME_FORM_FIELD)
    return bool(username) and _username(username) in known_logins(request)


def remember_login(request, response, username: str) -> None:
    """After a successful login: this browser is known for this username from now on."""
    name = _username(username)
    device, known = _known(request)
    names = [name, *(other for other in known if other != name)][:KNOWN_MAX]
    response.set_signed_cookie(
        KNOWN_COOKIE,
        json.dumps({"device": device or secrets.token_hex(16), "logins": names}),
        salt=KNOWN_SALT,
        max_age=KNOWN_AGE,
        secure=settings.SESSION_COOKIE_SECURE,
        httponly=True,
        samesite="Lax",
    )


def refusal(request, username: str) -> str | None:
    """Why this login try is refused before its password is checked, or None."""
    if _username(username) in known_logins(request):
        if known_device_locked(request, username):
            return KNOWN_DEVICE_MESSAGE.format(minutes=window_minutes())
        return None
    address = get_client_ip_address(request) or ""
    if failures("address", address) >= settings.LOGIN_THROTTLE_PER_ADDRESS:
        return ADDRESS_MESSAGE.format(minutes=window_minutes())
    if username_throttled(username):
        return USERNAME_MESSAGE.format(minutes=window_minutes())
    return None


def login_page(request, message: str, status: int = 429):
    """The login page itself with the reason a try was refused, the username kept."""
    username = request.POST.get(settings.AXES_USERNAME_FORM_FIELD, "")
    context = {
        "form": LoginForm(request, initial={"username": username}),
        "locked_out_message": message,
        "next": request.POST.get("next", ""),
        "reset_by_email": settings.PASSWORD_RESET_BY_EMAIL,
    }
    return render(request, "registration/login.html", context, status=status)


class LoginThrottleMiddleware:
    """Answers a refused login post (the club's and the admin's) before the view runs."""

    LOGIN_VIEWS = {"login", "admin:login"}

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_view(self, request, view_func, view_args, view_kwargs):
        if request.method != "POST" or request.resolver_match.view_name not in self.LOGIN_VIEWS:
            return None
        reason = refusal(request, request.POST.get(settings.AXES_USERNAME_FORM_FIELD, ""))
        if reason is None:
            return None
        response = login_page(request, reason)
        response["Retry-After"] = str(settings.LOGIN_THROTTLE_WINDOW)
        return response
