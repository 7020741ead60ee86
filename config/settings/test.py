"""Settings for the test suite: the base settings with a fixed key and fast hashing."""

import os

os.environ.setdefault("SECRET_KEY", "test-only-secret-key")
os.environ.setdefault("DEBUG", "false")

from config.settings.services import cache_settings  # noqa: E402

from .base import *  # noqa: E402,F403
from .base import BASE_DIR, DATABASES  # noqa: E402

# Tests talk plain HTTP to the test client and live server.
SECURE_SSL_REDIRECT = False
SESSION_COOKIE_SECURE = False
CSRF_COOKIE_SECURE = False
SECURE_HSTS_SECONDS = 0
ALLOWED_HOSTS = ["*"]
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
# The manifest storage needs collectstatic; tests serve files as they are.
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = True

# SQLite tests use a database file, as production does: the shared in-memory test database
# refuses a second writer at once ("table is locked") instead of letting it wait, which
# hides what a real server sees.
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    DATABASES["default"]["TEST"] = {"NAME": str(BASE_DIR / ".test-db.sqlite3")}

# Each test process's memory, emptied between tests (tests/conftest.py), unless CACHE_URL
# says otherwise; servers started as production is (tests/faults/server.py) use production's.
CACHES = cache_settings({**os.environ, "CACHE_URL": os.environ.get("CACHE_URL") or "memory"})

# Browser tests need not wait real seconds for the outbox to send again.
TABLE_OUTBOX_RETRY_MS = 1000

# Axes logs every login; the suite logs in thousands of times.
AXES_VERBOSE = False
