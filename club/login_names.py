"""Usernames at login: capitals do not matter. "Sheila", "sheila" and "SHEILA" are the same
login, for the password check, for django-axes' lockout and for the login throttle, which all
count wrong passwords by `login_key(username)`.

New usernames may not differ from an existing one only in case (club.names.check_new_username
for the member form, Django's own UserCreationForm in the admin, `UserAdmin` below for a
rename there), so a username typed in any case finds one login. Logins older than that rule
may still clash ("Sheila" and "sheila"): then the one typed exactly is tried first, then the
others, and the password says which.
"""

from __future__ import annotations

from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.forms import AuthenticationForm

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
