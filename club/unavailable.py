"""When the database cannot be reached, or will not take writes: a calm 503 page instead of
an error.

Writes happen in transactions, so a connection lost half-way through a write leaves the
database as it was; the page says so and asks to try again. A database that refuses writes
(read-only, or its disk full: club/read_only.py) gets words of its own, since it is not a
matter of a minute, and the connection is dropped so the next request sees the database
afresh. The page is rendered without the request's context, because the club's name and the
user's role come from the database. Its `Club-Database` header tells the page's scripts
which it is (static/js/connection.js).
"""

import logging
import sys

from django.db.utils import InterfaceError, OperationalError
from django.http import HttpResponse
from django.template import loader
from django.views import defaults

from club.read_only import drop_connections, refuses_writes

logger = logging.getLogger(__name__)

# Seconds a browser or proxy is asked to wait before trying again.
RETRY_AFTER = 60


# SQLite reports a table or column the code expects but the database lacks (a migration
# not run) as an OperationalError too: a fault to fix, not a moment to wait out.
SCHEMA_FAULTS = ("no such table", "no such column", "has no column named")


def is_database_unreachable(error: BaseException | None) -> bool:
    """Whether `error` is the database failing to answer (down, restarting, connection
    lost, busy, refusing writes), rather than a fault in the app."""
    if refuses_writes(error):
        return True
    if not isinstance(error, OperationalError | InterfaceError):
        return False
    return not str(error).startswith(SCHEMA_FAULTS)


def database_unavailable(request, read_only: bool = False) -> HttpResponse:
    # "Try again" repeats a page that was being read; after a form, it goes home.
    reading = request.method in ("GET", "HEAD")
    again = request.get_full_path() if reading else "/"
    page = loader.get_template("503.html").render(
        {"again": again, "posted": not reading, "read_only": read_only}
    )
    response = HttpResponse(page, status=503)
    response["Retry-After"] = str(RETRY_AFTER)
    response["Club-Database"] = "read-only" if read_only else "unreachable"
    return response


class DatabaseUnavailableMiddleware:
    """Turns a view's lost or refused database connection into the 503 page."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        return unreachable_answer(request, exception)


def unreachable_answer(request, error: BaseException) -> HttpResponse | None:
    """The 503 page (logged) when `error` is the database not answering; None otherwise."""
    if not is_database_unreachable(error):
        return None
    if refuses_writes(error):
        logger.error("Database refused a write at %s: %s", request.path, error)
        drop_connections()
        return database_unavailable(request, read_only=True)
    logger.error("Database unreachable at %s: %s", request.path, error)
    return database_unavailable(request)


def server_error(request, template_name=defaults.ERROR_500_TEMPLATE_NAME):
    """The 500 handler. A database failure outside a view (in a middleware that reads the
    session or the user) arrives here rather than at the middleware: it gets the 503 page
    too."""
    error = sys.exc_info()[1]
    if refuses_writes(error):
        drop_connections()
        return database_unavailable(request, read_only=True)
    if is_database_unreachable(error):
        return database_unavailable(request)
    return defaults.server_error(request, template_name)
