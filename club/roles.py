"""Who may do what, in which club.

- A club's **coordinators** run that club (a `Coordinator` row each): members, sessions,
  seating, settings. A login may coordinate several clubs and has no power in the others.
- Its **members** play and look (a `Member` with the login): a login may be a member of
  several clubs, one member in each.
- The site's **operators** (superusers) run the installation: its admin, every club. The
  Django admin is theirs alone; coordinators work on the club's own pages.
"""

import contextlib
from functools import wraps

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied

from club.models import Club, Coordinator
from club.scoping import scopes_disabled


def is_operator(user) -> bool:
    return bool(user.is_authenticated and user.is_active and user.is_superuser)


def is_coordinator(user, club) -> bool:
    """Whether `user` may run `club` (a Club or its id): its coordinators, and the site's
    operators."""
    return Coordinator.runs(user, club)


def coordinates_any_club(user) -> bool:
    """Whether the login runs some club: such a login is not a plain member's, wherever it is
    a member (club/accounts.py)."""
    with scopes_disabled():
        return Coordinator.objects.filter(user=user).exists()


def make_coordinator(user, club=None) -> Coordinator:
    """Give `user` the coordinator's role in `club` (asking twice changes nothing); without
    one, in the club of a single-club installation."""
    if club is None:
        club = Club.objects.current()
    forget_roles(user)
    with scopes_disabled():
        return Coordinator.objects.get_or_create(club=club, user=user)[0]


def forget_roles(user) -> None:
    """After changing the user's roles, the next question reads them again."""
    user.__dict__.pop("_coordinates", None)


# The group of logins given a temporary password, who must choose their own first.
MUST_CHANGE_GROUP = "Must change password"
# Whether the login must, read with the login itself (club/login_names.py).
MUST_CHANGE_FLAG = "must_change_password_now"


def group_names(user) -> frozenset[str]:
    """The user's groups, read once a request ("must change password" is asked on every
    page)."""
    if not user.is_authenticated:
        return frozenset()
    cached = getattr(user, "_group_names", None)
    if cached is None:
        cached = frozenset(user.groups.values_list("name", flat=True))
        user._group_names = cached
    return cached


def forget_groups(user) -> None:
    """After changing the user's groups, the next question reads them again."""
    # delattr, not the instance's __dict__: request.user is a lazy object, which passes
    # delattr on to the login it wraps.
    for kept in ("_group_names", MUST_CHANGE_FLAG):
        with contextlib.suppress(AttributeError):
            delattr(user, kept)


def coordinator_required(view):
    """Anonymous users go to the login page; anyone who does not run this club gets 403."""

    @wraps(view)
    def wrapper(request, *args, **kwargs):
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        if not is_coordinator(request.user, request.club):
            raise PermissionDenied("Only the club's coordinators can do this.")
        return view(request, *args, **kwargs)

    return wrapper
