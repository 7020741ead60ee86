"""`GET /health/`: whether this app server can answer, for a load balancer's probe.

It asks the database one `SELECT 1` and answers "ok" (200), or "database unreachable"
(503) when the database does not answer. It reads no session and sets no cookie, needs no
login, belongs to no club, and is exempt from the HTTPS redirect (SECURE_REDIRECT_EXEMPT),
since balancers probe over plain HTTP. docs/deploy.md says how to point a balancer at it.
"""

import logging

from django.db import connection
from django.db.utils import InterfaceError, OperationalError
from django.http import HttpResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from club.unavailable import RETRY_AFTER

logger = logging.getLogger(__name__)


@never_cache
@require_safe
def health(request):
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except (OperationalError, InterfaceError) as error:
        logger.warning("Health check: database unreachable: %s", error)
        response = HttpResponse("database unreachable\n", status=503, content_type="text/plain")
        response["Retry-After"] = str(RETRY_AFTER)
        return response
    return HttpResponse("ok\n", content_type="text/plain")
