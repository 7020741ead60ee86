"""Logins: the lockout after too many wrong passwords, a coordinator's temporary password
for a member who forgot theirs, and the change of password it requires at the next login.

"Must change the password" is a group rather than a column, so the admin shows and edits
it like any other group and the user table keeps Django's own shape.
"""

import secrets

from axes.models import AccessAttempt
from axes.utils import reset as axes_reset
from django.conf import settings
from django.contrib import messages
from django.contrib.auth.forms import AuthenticationForm
from django.contrib.auth.models import Group
from django.shortcuts import redirect, render
from django.urls import reverse

from club.roles import forget_groups, group_names

LOCKED_OUT_MESSAGE = (
    "Too many wrong passwords. Ask your coordinator to unlock your login, "
    "or try again in {minutes} minutes."
)
MUST_CHANGE_GROUP = "Must change password"

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


def lockout_minutes() -> int:
    return int(settings.AXES_COOLOFF_TIME.total_seconds() // 60)


def locked_out(request, original_response=None, credentials=None):
    """Axes' answer to a locked-out login: the login page itself, with the reason."""
    username = (credentials or {}).get("username") or request.POST.get("username", "")
    form = AuthenticationForm(request, initial={"username": username})
    context = {
        "form": form,
        "locked_out_message": LOCKED_OUT_MESSAGE.format(minutes=lockout_minutes()),
        "next": request.POST.get("next", ""),
        "reset_by_email": settings.PASSWORD_RESET_BY_EMAIL,
    }
    return render(request, "registration/login.html", context, status=429)


def is_locked_out(user) -> bool:
    return AccessAttempt.objects.filter(
        username=user.get_username(), failures_since_start__gte=settings.AXES_FAILURE_LIMIT
    ).exists()


def unlock(user) -> int:
    """Forget the wrong passwords typed for this login; returns how many records went."""
    return axes_reset(username=user.get_username())


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
    return MUST_CHANGE_GROUP in group_names(user)


def password_changed(user) -> None:
    user.groups.remove(must_change_group())
    forget_groups(user)


class RequirePasswordChangeMiddleware:
    """After a temporary password, every page leads to "choose your own password"."""

    ALLOWED = {"password_change", "password_change_done", "logout"}

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
