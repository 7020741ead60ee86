"""Usernames at login: capitals do not matter. "Sheila", "sheila" and "SHEILA" are the same
login, for the password check, for django-axes' lockout and for the login throttle, which all
count wrong passwords by `login_key(username)`.

New usernames may not differ from an existing one only in case (club.names.check_new_username
for the member form and sign-up, checked again when the login is written by `create_login`
below, so two made at once cannot both pass; Django's own UserCreationForm in the admin,
`UserAdmin` below for a rename there), so a username typed in any case finds one login.
Logins older than that rule may still clash ("Sheila" and "sheila"): then the one typed
exactly is tried first, then the others, and the password says which.
"""

from __future__ import annotations

from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.forms import AuthenticationForm
from django.db import connection
from django.db.models import Exists, OuterRef

from club.names import check_new_username

LOGIN_REFUSED = (
    "That username and password do not match. Please check them and try again, or ask "
    "your coordinator."
)
ADMIN_LOGIN_REFUSED = (
    "That username and password do not match a login that may use the administration pages. "
    "Please check them and try again."
)


def login_key(username) -> str:
    """What a username typed at login counts as: spaces at either end and case ignored."""
    return str(username or "").strip().casefold()


def axes_username(request, credentials=None):
    """django-axes' AXES_USERNAME_CALLABLE: the login key, so wrong passwords typed as
    "Sheila" and as "sheila" lock out one login, not two."""
    from django.conf import settings

    field = settings.AXES_USERNAME_FORM_FIELD
    if credentials:
        raw = credentials.get(field)
    else:
        raw = getattr(request, "data", request.POST).get(field)
    return None if raw is None else login_key(raw)


def stored_usernames(username: str) -> list[str]:
    """The logins `username` names, whatever its case: the one spelt exactly first."""
    model = get_user_model()
    field = model.USERNAME_FIELD
    names = model._default_manager.filter(**{f"{field}__iexact": username.strip()})
    found = list(names.values_list(field, flat=True))
    return sorted(found, key=lambda name: name != username)


class CaseInsensitiveModelBackend(ModelBackend):
    """Django's ModelBackend, finding the login whatever the case the username is typed in.
    The password is still checked by ModelBackend (once for an unknown username, so a wrong
    name takes as long as a wrong password)."""

    def get_user(self, user_id):
        """The request's login (from its session), with whether it must choose a new
        password read in the same query: every page asks (club/accounts.py), and a query
        of the login's groups was a fixed cost of every request (issue 28)."""
        from club.roles import MUST_CHANGE_FLAG, MUST_CHANGE_GROUP

        model = get_user_model()
        must = model.groups.through.objects.filter(
            user_id=OuterRef("pk"), group__name=MUST_CHANGE_GROUP
        )
        logins = model._default_manager.annotate(**{MUST_CHANGE_FLAG: Exists(must)})
        try:
            user = logins.get(pk=user_id)
        except model.DoesNotExist:
            return None
        return user if self.user_can_authenticate(user) else None

    def authenticate(self, request, username=None, password=None, **kwargs):
        if username is None:
            username = kwargs.get(get_user_model().USERNAME_FIELD)
        if username is None or password is None:
            return None
        for name in stored_usernames(str(username)) or [username]:
            user = super().authenticate(request, username=name, password=password)
            if user is not None:
                return user
        return None


class LoginForm(AuthenticationForm):
    """The login form, refusing in plain words (Django's says "both fields may be
    case-sensitive", which the username no longer is)."""

    error_messages = {**AuthenticationForm.error_messages, "invalid_login": LOGIN_REFUSED}


class AdminLoginForm(AdminAuthenticationForm):
    error_messages = {
        **AdminAuthenticationForm.error_messages,
        "invalid_login": ADMIN_LOGIN_REFUSED,
    }


# --- new logins ------------------------------------------------------------------------------

# PostgreSQL's advisory lock that new logins take, one at a time (any 64-bit number that
# nothing else in the project uses).
NEW_LOGINS_LOCK = 0x4E45574C4F47  # "NEWLOG"


def create_login(username: str, password: str, **fields):
    """A new login, written only if `username` is nobody's in any case and looks like no
    other login (club.names.check_new_username, ValidationError in words if it does).

    Forms check that first, but two logins made at once, "Sheila" on one screen and
    "sheila" on another, would both pass their checks. So the check is made again here,
    inside the caller's transaction, with new logins made one at a time: a PostgreSQL
    advisory lock held until the transaction ends; on SQLite every transaction already
    takes the write lock when it begins (IMMEDIATE, config/settings/services.py). A unique
    index on the lower-cased username cannot do this: look-alikes ("rn" for "m") are no
    index's business, and logins older than the rule may still differ only in case."""
    if not connection.in_atomic_block:
        raise RuntimeError("create_login() runs inside the transaction that needs the login")
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [NEW_LOGINS_LOCK])
    model = get_user_model()
    # A list, not .iterator(): a half-read server-side cursor breaks PostgreSQL's request.
    existing = list(model._default_manager.values_list(model.USERNAME_FIELD, flat=True))
    check_new_username(username, existing)
    return model._default_manager.create_user(username=username, password=password, **fields)
