"""Error reports that reach the operator and carry no member's details.

- `SENTRY_DSN` set: every server error goes to Sentry (the well-kept sentry-sdk), without
  personal data (send_default_pii off), without the code's local variables, and with what
  is left of the request scrubbed by `scrub_event` below.
- `ADMINS` set (with the email settings): Django mails each server error to them. Django's
  own report lists the request's form fields, query, cookies, headers, the login's name and
  every frame's local variables: `MembersHiddenReporter` and `MembersHiddenFilter` keep the
  exception, the traceback and the address's path, and hide the rest.

The coordinator sees none of this (the 500 page says only that something went wrong).
"""

from __future__ import annotations

import warnings
from typing import Any

from django.views.debug import ExceptionReporter, SafeExceptionReporterFilter

HIDDEN = SafeExceptionReporterFilter.cleansed_substitute
# Request headers that say nothing about who asked: kept in a report, every other is hidden.
PLAIN_META = frozenset(
    {"REQUEST_METHOD", "PATH_INFO", "SCRIPT_NAME", "SERVER_NAME", "SERVER_PORT", "CONTENT_TYPE"}
)
PLAIN_HEADERS = frozenset({"user-agent", "content-type", "content-length", "host"})


class MembersHiddenFilter(SafeExceptionReporterFilter):
    """Every form field, cookie, header (but a few plain ones) and local variable hidden,
    whatever the view marked as sensitive: a member's name, email or phone number may be in
    any of them."""

    def is_active(self, request):
        return True

    def get_post_parameters(self, request):
        if request is None:
            return {}
        return {name: HIDDEN for name in request.POST}

    def get_safe_cookies(self, request):
        return {name: HIDDEN for name in getattr(request, "COOKIES", {})}

    def get_safe_request_meta(self, request):
        meta = getattr(request, "META", {})
        return {name: meta[name] if name in PLAIN_META else HIDDEN for name in meta}

    def get_traceback_frame_variables(self, request, tb_frame):
        return [(name, HIDDEN) for name in tb_frame.f_locals]


class MembersHiddenReporter(ExceptionReporter):
    """Django's report without the query string's values, the uploaded files' names or the
    login's name (its number stays, to find it)."""

    def get_traceback_data(self):
        data = super().get_traceback_data()
        if self.request is not None:
            data["request_GET_items"] = [(name, HIDDEN) for name in self.request.GET]
            data["request_FILES_items"] = [(name, HIDDEN) for name in self.request.FILES]
            data["request_insecure_uri"] = self.request.path
            user = getattr(self.request, "user", None)
            data["user_str"] = f"login #{user.pk}" if getattr(user, "pk", None) else "anonymous"
        return data


def scrub_event(event: dict[str, Any], hint: dict[str, Any] | None = None) -> dict[str, Any]:
    """A Sentry event as it may leave the server: the exception and its traceback (without
    local variables), the page's path and method; no form data, query, cookies, headers but
    a few plain ones, login, breadcrumbs (log lines and queries may name members) or extras."""
    event.pop("user", None)
    event.pop("extra", None)
    event.pop("breadcrumbs", None)
    request = event.get("request")
    if isinstance(request, dict):
        url = str(request.get("url", "")).split("?", 1)[0]
        headers = request.get("headers") or {}
        event["request"] = {
            "method": request.get("method"),
            "url": url,
            "headers": {
                name: value for name, value in headers.items() if name.lower() in PLAIN_HEADERS
            },
        }
    for exception in (event.get("exception") or {}).get("values") or []:
        for frame in (exception.get("stacktrace") or {}).get("frames") or []:
            frame.pop("vars", None)
    for thread in (event.get("threads") or {}).get("values") or []:
        for frame in (thread.get("stacktrace") or {}).get("frames") or []:
            frame.pop("vars", None)
    return event


def start_sentry(dsn: str, **options: Any) -> None:
    """Error reports to Sentry at `dsn`, with the options above (`options`: e.g. a test's
    transport, or the environment's name)."""
    import sentry_sdk
    from sentry_sdk.integrations.django import DjangoIntegration

    # sentry-sdk 2.75 calls send_default_pii deprecated in favour of data_collection, and
    # still honours it: off is what is meant here, whichever the SDK reads.
    with warnings.catch_warnings(action="ignore", category=DeprecationWarning):
        sentry_sdk.init(
            dsn=dsn,
            integrations=[DjangoIntegration()],
            send_default_pii=False,
            include_local_variables=False,
            max_request_body_size="never",
            before_send=scrub_event,
            # Errors only: no performance tracing, nothing sent for an ordinary request.
            traces_sample_rate=0,
            **options,
        )
