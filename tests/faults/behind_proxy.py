"""The test settings with production's HTTPS ones back, for a server behind a real proxy
(tests/faults/test_behind_caddy.py): the redirect to https, secure-only cookies, HSTS, one
host name, and production's cache. TRUSTED_PROXIES comes from the environment, as in
production. 127.0.0.1 is allowed too, for the test's own look at gunicorn's /health/."""

from config.settings import base
from config.settings.test import *  # noqa: F403

SECURE_SSL_REDIRECT = True
SESSION_COOKIE_SECURE = True
CSRF_COOKIE_SECURE = True
SECURE_HSTS_SECONDS = base.SECURE_HSTS_SECONDS
ALLOWED_HOSTS = ["localhost", "127.0.0.1"]
CACHES = base.CACHES
