"""Logins: the lockout after too many wrong passwords, a coordinator's temporary password
for a member who forgot theirs, and the change of password it requires at the next login.

"Must change the password" is a group rather than a column, so the admin shows and edits
it like any other group and the user table keeps Django's own shape.
"""

import ipaddress
import secrets

from axes.models import AccessAttempt
from axes.utils import reset as axes_reset
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import PasswordResetForm, _unicode_ci_compare
from django.contrib.auth.models import Group
from django.db.models import Q
from django.shortcuts import redirect
from django.urls import reverse

from club import login_throttle
from club.login_names import login_key
from club.models import Member
from club.refusals import Refused
from club.roles import (
    MUST_CHANGE_FLAG,
    MUST_CHANGE_GROUP,
    coordinates_any_club,
    forget_groups,
    group_names,
)
from club.scoping import scopes_disabled

LOCKED_OUT_MESSAGE = (
    "Too many wrong passwords. Ask your coordinator to unlock your login, "
    "or try again in {minutes} minutes."
)

# Short, common words that are easy to say aloud and to type on a phone.
WORDS = [
    "apple",
    "bread",
    "brick",
    "cabin",
    "candle",
    "cherry",
    "cloud",
    "coffee",
    "copper",
    "daisy",
    "dragon",
    "eagle",
    "field",
    "forest",
    "garden",
    "ginger",
    "grape",
    "harbour",
    "hazel",
    "honey",
    "island",
    "jacket",
    "kettle",
    "ladder",
    "lemon",
    "letter",
    "lily",
    "maple",
    "meadow",
    "melon",
    "mirror",
    "morning",
    "orange",
    "otter",
    "panda",
    "paper",
    "pepper",
    "piano",
    "pillow",
    "planet",
    "pocket",
    "pony",
    "rabbit",
    "raven",
    "river",
    "robin",
    "rocket",
    "saddle",
    "salmon",
    "silver",
    "spoon",
    "spring",
    "stone",
    "summer",
    "sunset",
    "table",
    "teapot",
    "thunder",
    "tiger",
    "timber",
    "tomato",
    "tulip",
    "turtle",
    "valley",
    "velvet",
    "violet",
    "walnut",
    "water",
    "willow",
    "window",
    "winter",
    "yellow",
    "zebra",
]


def client_address(request) -> str:
    """The client's address (axes' AXES_CLIENT_IP_CALLABLE): REMOTE_ADDR, or behind
    TRUSTED_PROXIES proxies the address the outermost proxy saw. Each proxy appends the
    address it saw to X-Forwarded-For, so that is the TRUSTED_PROXIES-th from the right;
    anything to its left came from the client and is not believed. A header shorter than
    that, or not an address, means the request did not come through the proxies."""
    remote = request.META.get("REMOTE_ADDR", "")
    hops = settings.TRUSTED_PROXIES
    if hops <= 0:
        return remote
    forwarded = [part.strip() for part in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")]
    forwarded = [part for part in forwarded if part]
    if len(forwarded) < hops:
        return remote
    try:
        return str(ipaddress.ip_address(forwarded[-hops]))
    except ValueError:
        return remote


class LoginRefused(Refused):
    """A coordinator asked to change a login that only the administrator may change."""


def is_plain_member_login(user) -> bool:
    """A login that can do no more than a member can, in any club: not an operator's, and
    no club's coordinator's."""
    return not (user.is_superuser or user.is_staff or coordinates_any_club(user))


def only_in_club(user, club) -> bool:
    """Whether every member the login belongs to is in `club` (or it belongs to none)."""
    with scopes_disabled():
        return not Member.objects.filter(user=user).exclude(club=club).exists()


def may_manage_login(actor, user, club) -> bool:
    """Coordinators look after their own members' logins. A login that can run a club or
    the admin is the operators' to change: otherwise a coordinator could attach the admin
    login to a member, set its password and log in as the administrator. A login shared
    with another club's member is the operators' too: one club's coordinator must not lock
    a member of another club out (or in)."""
    if actor is not None and actor.is_superuser:
        return True
    return is_plain_member_login(user) and only_in_club(user, club)


def check_may_manage(actor, member) -> None:
    """Refuse, in plain words, to touch the login of a member whose login is not a plain one."""
    if member.user is not None and not may_manage_login(actor, member.user, member.club):
        raise LoginRefused(
            f"{member.table_name} logs in as a coordinator or administrator, or also belongs "
            "to another club, so only the site's administrator can change their login (set a "
            "password, unlock it, or switch it on or off). Nothing was changed."
        )


def logins_to_attach(actor):
    """The logins a coordinator may give to a member: free (no member in any club), active,
    and plain member logins (every free login for a superuser)."""
    # Filters across relations are joins, not the scoped managers: they see every club.
    free = get_user_model().objects.filter(memberships__isnull=True, is_active=True)
    if actor is None or not actor.is_superuser:
        free = free.filter(is_superuser=False, is_staff=False, coordinator_roles__isnull=True)
    return free.order_by("username")


def lockout_minutes() -> int:
    return int(settings.AXES_COOLOFF_TIME.total_seconds() // 60)


def locked_out(request, original_response=None, credentials=None):
    """Axes' answer to a locked-out login: the login page itself, with the reason."""
    return login_throttle.login_page(request, LOCKED_OUT_MESSAGE.format(minutes=lockout_minutes()))


def is_locked_out(user) -> bool:
    """Locked by axes (at some address), or asked to wait after a flood of wrong passwords."""
    return (
        login_throttle.username_throttled(user.get_username())
        or AccessAttempt.objects.filter(
            username=login_key(user.get_username()),
            failures_since_start__gte=settings.AXES_FAILURE_LIMIT,
        ).exists()
    )


def unlock(user) -> int:
    """Forget the wrong passwords typed for this login; returns how many records went."""
    login_throttle.forget_username(user.get_username())
    return axes_reset(username=login_key(user.get_username()))


def temporary_password() -> str:
    """Three words and a number, e.g. "maple-river-candle-42": easy to read out."""
    words = [secrets.choice(WORDS) for _ in range(3)]
    return "-".join([*words, str(secrets.randbelow(90) + 10)])


def must_change_group() -> Group:
    return Group.objects.get_or_create(name=MUST_CHANGE_GROUP)[0]


def set_temporary_password(user) -> str:
    password = temporary_password()
    user.set_password(password)
    user.save(update_fields=["password"])
    user.groups.add(must_change_group())
    forget_groups(user)
    unlock(user)
    return password


def must_change_password(user) -> bool:
    # Read with the login when the request's session found it (club/login_names.py):
    # no query for the login's groups on every page.
    known = getattr(user, MUST_CHANGE_FLAG, None)
    if known is not None:
        return known
    return MUST_CHANGE_GROUP in group_names(user)


def password_changed(user) -> None:
    user.groups.remove(must_change_group())
    forget_groups(user)


class RequirePasswordChangeMiddleware:
    """After a temporary password, every page leads to "choose your own password"."""

    # The health endpoint (front/health.py) reads no session: a probe is no one's page.
    # Nor is the table's poll sent on: it only refreshes a page already open (the next page
    # asks), and it is most of a club night's requests, which need not read the groups.
    ALLOWED = {"password_change", "password_change_done", "logout", "health", "poll"}

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_view(self, request, view_func, view_args, view_kwargs):
        if request.resolver_match.url_name in self.ALLOWED:
            return None
        if must_change_password(request.user):
            messages.info(
                request,
                "Please choose your own new password now. Type the temporary password "
                "from your coordinator as the old password.",
            )
            return redirect(reverse("password_change"))
        return None


def reset_address(user) -> str:
    """Where "Forgot your password?" sends the link: the member's own address, which the
    coordinator keeps up to date, for a plain member login (the login's own if the record has
    none); a login that can run the club
    keeps its login's address, which only the administrator can change."""
    with scopes_disabled():
        member = Member.objects.filter(user=user).order_by("pk").first()
    if member is not None and member.email and is_plain_member_login(user):
        return member.email
    return user.email


class MemberPasswordResetForm(PasswordResetForm):
    """Django's reset form, finding and mailing a member by the address on their record."""

    def get_users(self, email):
        plain = Q(is_superuser=False, is_staff=False, coordinator_roles__isnull=True)
        by_member = Q(memberships__email__iexact=email) & plain
        by_login = Q(email__iexact=email)  # reset_address() below says which one counts
        users = get_user_model()._default_manager.filter(by_member | by_login, is_active=True)
        for user in users.distinct():
            if user.has_usable_password() and _unicode_ci_compare(email, reset_address(user)):
                yield user

    def send_mail(
        self,
        subject_template_name,
        email_template_name,
        context,
        from_email,
        to_email,
        html_email_template_name=None,
    ):
        to_email = context["email"] = reset_address(context["user"])
        super().send_mail(
            subject_template_name,
            email_template_name,
            context,
            from_email,
            to_email,
            html_email_template_name,
        )
