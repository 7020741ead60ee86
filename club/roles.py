"""The two roles: coordinators run the club, members play and look.

A coordinator is a user in the Coordinators group (or a superuser). Coordinators are
staff so the Django admin works for them; the group carries the model permissions.
"""

from functools import wraps

from django.contrib.auth.models import Group, Permission
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied

COORDINATORS = "Coordinators"
# The apps whose data coordinators may change in the admin.
COORDINATOR_APPS = ("club", "games", "scoring")


def is_coordinator(user) -> bool:
    if not user.is_authenticated or not user.is_active:
        return False
    if user.is_superuser:
        return True
    return COORDINATORS in group_names(user)


def group_names(user) -> frozenset[str]:
    """The user's groups, read once a request: the role (asked several times by templates)
    and "must change password" (asked on every page) come from the same query."""
    if not user.is_authenticated:
        return frozenset()
    cached = getattr(user, "_group_names", None)
    if cached is None:
        cached = frozenset(user.groups.values_list("name", flat=True))
        user._group_names = cached
    return cached


def forget_groups(user) -> None:
    """After changing the user's groups, the next question reads them again."""
    user.__dict__.pop("_group_names", None)


def coordinators_group() -> Group:
    group, _ = Group.objects.get_or_create(name=COORDINATORS)
    group.permissions.set(Permission.objects.filter(content_type__app_label__in=COORDINATOR_APPS))
    return group


def make_coordinator(user) -> None:
    user.is_staff = True
    user.save(update_fields=["is_staff"])
    user.groups.add(coordinators_group())
    forget_groups(user)


def coordinator_required(view):
    """Anonymous users go to the login page; members get 403."""

    @wraps(view)
    def wrapper(request, *args, **kwargs):
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        if not is_coordinator(request.user):
            raise PermissionDenied("Only the club's coordinators can do this.")
        return view(request, *args, **kwargs)

    return wrapper
