"""Settings for the test suite: the base settings with a fixed key and fast hashing."""

import hashlib
import os
import tempfile

os.environ.setdefault("SECRET_KEY", "test-only-secret-key")
os.environ.setdefault("DEBUG", "false")

from .base import *  # noqa: E402,F403

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

if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":  # noqa: F405
    # A file rather than SQLite's shared-cache memory database: there a second writer fails
    # at once ("database table is locked") instead of waiting for the lock, so the tests
    # that fire requests at the same moment could not pass. The file is in /dev/shm where
    # there is one (as fast as memory), named for this checkout so that two checkouts on
    # one machine never share it.
    _tmp = "/dev/shm" if os.path.isdir("/dev/shm") else tempfile.gettempdir()
    _checkout = hashlib.sha1(str(BASE_DIR).encode()).hexdigest()[:10]  # noqa: F405
    DATABASES["default"]["TEST"] = {  # noqa: F405
        "NAME": os.path.join(_tmp, f"club-tests-{_checkout}.sqlite3")
    }
    DATABASES["default"]["OPTIONS"]["init_command"] = "PRAGMA synchronous=OFF"  # noqa: F405
