"""`GET /health/`: whether this app server can answer and save, for a load balancer's probe.

It takes the database's write lock and gives it back (club/read_only.py: SQLite checks its
files' write permission and its disk's free space, and runs `BEGIN IMMEDIATE`, `SELECT 1`,
`COMMIT`; PostgreSQL asks `SHOW transaction_read_only`), and answers "ok" (200), "database
read-only" or "database disk full" (503) when a write would be refused, or "database
unreachable" (503) when the database does not answer.
A connection found read-only is dropped, so the next probe, like the next request, sees the
database afresh. It reads no session and sets no cookie, needs no login, belongs to no club,
and is exempt from the HTTPS redirect (SECURE_REDIRECT_EXEMPT), since balancers probe over
plain HTTP. docs/deploy.md says how to point a balancer at it.
"""

import logging

from django.db.utils import InterfaceError, OperationalError
from django.http import HttpResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from club.read_only import drop_connections, write_refused
from club.unavailable import RETRY_AFTER

logger = logging.getLogger(__name__)


def unhealthy(words: str) -> HttpResponse:
    response = HttpResponse(f"{words}\n", status=503, content_type="text/plain")
    response["Retry-After"] = str(RETRY_AFTER)
    return response


@never_cache
@require_safe
def health(request):
    try:
        refused = write_refused()
    except (OperationalError, InterfaceError) as error:
        logger.warning("Health check: database unreachable: %s", error)
        return unhealthy("database unreachable")
    if refused:
        logger.warning("Health check: the database refuses writes (%s)", refused)
        drop_connections()
        return unhealthy(f"database {refused}")
    return HttpResponse("ok\n", content_type="text/plain")
