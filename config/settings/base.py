"""Settings for the club app, read from the environment.

DEBUG, SECRET_KEY, ALLOWED_HOSTS, DATABASE_URL and TIME_ZONE come from the
environment (see docs/deploy.md). With DEBUG off the secure defaults apply, so
`manage.py check --deploy` stays quiet in production.
"""

import datetime
import os
from pathlib import Path

from django.core.exceptions import ImproperlyConfigured

from config.settings.services import cache_settings, database_settings, whole_number, yes_or_no

BASE_DIR = Path(__file__).resolve().parent.parent.parent


def env_bool(name: str, default: bool = False) -> bool:
    return yes_or_no(os.environ, name, default)


def env_list(name: str, default: str = "") -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


def env_int(name: str, default: int, minimum: int = 0) -> int:
    return whole_number(os.environ, name, default, minimum)


DEBUG = env_bool("DEBUG", False)

# A fixed key is fine for local development only; production must set its own.
_DEV_SECRET_KEY = "dev-only-insecure-key-do-not-use-in-production"
SECRET_KEY = os.environ.get("SECRET_KEY", _DEV_SECRET_KEY if DEBUG else "")
if not SECRET_KEY:
    raise ImproperlyConfigured("Set SECRET_KEY in the environment (required when DEBUG is off).")

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "127.0.0.1,localhost" if DEBUG else "")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_htmx",
    "template_partials",
    "axes",
    "csp",
    # Who changed a member's details (club/member_history.py).
    "simple_history",
    "club",
    "games",
    "scoring",
    "front",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # Before whitenoise, so static files carry the header too.
    "django_permissions_policy.PermissionsPolicyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # A database that cannot be reached gives a calm 503 page, not an error page.
    "club.unavailable.DatabaseUnavailableMiddleware",
    # request.club from the address (/c/<slug>/...), and every view inside that club's scope.
    "club.middleware.ClubAddressMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # Pages shown to a login are never kept by a browser or a proxy (club/no_store.py).
    "club.no_store.NoStoreForSessionsMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    # The login a change to a member is recorded against (club/member_history.py).
    "simple_history.middleware.HistoryRequestMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "csp.middleware.CSPMiddleware",
    "club.accounts.RequirePasswordChangeMiddleware",
    # Refuses a login post while its address or username is throttled, before any hashing.
    "club.login_throttle.LoginThrottleMiddleware",
    # Last, as django-axes asks: it turns a locked-out login into club.accounts.locked_out.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "config.urls"
# The club served at the site's root (without /c/<slug>/) when the installation hosts several:
# e.g. a club's own installation that lets a friend's club join keeps its old links. Empty:
# an installation with one club serves it at the root; with several, the root lists them.
HOME_CLUB = os.environ.get("HOME_CLUB", "").strip()
# Whether anyone may start a club at /signup/ (a hosted service's operators switch it on).
CLUB_SIGNUP = env_bool("CLUB_SIGNUP", False)
WSGI_APPLICATION = "config.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "club.context_processors.club",
            ],
        },
    },
]

# DATABASE_URL, CONN_MAX_AGE, and DB_POOL_MAX_SIZE for PostgreSQL's connection pool (several
# app servers); the choices are in config/settings/services.py.
DATABASES = {"default": database_settings(os.environ, BASE_DIR)}
# CACHE_URL: `database` by default (with DEBUG on, each process's memory), `memory` or
# `redis://...`. The throttles' counts are kept here: every gunicorn worker must share them.
CACHES = cache_settings(os.environ, debug=DEBUG)
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    # Django's ModelBackend, with usernames found whatever their case (club/login_names.py).
    "club.login_names.CaseInsensitiveModelBackend",
]
# The client's address, for the lockout and the throttle below. Behind a reverse proxy
# (docs/deploy.md) every request comes from the proxy: set TRUSTED_PROXIES to the number of
# proxies in front, each adding the address it saw to X-Forwarded-For; the address the
# outermost one saw is then the client's. With 0 (the default) the header is ignored, since
# anyone can send it, and REMOTE_ADDR is the address. gunicorn must then listen only where
# the proxy reaches it (e.g. 127.0.0.1).
TRUSTED_PROXIES = env_int("TRUSTED_PROXIES", 0)
AXES_CLIENT_IP_CALLABLE = "club.accounts.client_address"
# Password guessing: 5 wrong passwords for one username from one address lock that pair
# out for 15 minutes (a guesser elsewhere cannot lock the member out); a coordinator can
# unlock it on the member's page.
AXES_FAILURE_LIMIT = 5
AXES_COOLOFF_TIME = datetime.timedelta(minutes=15)
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_CALLABLE = "club.accounts.locked_out"
# A browser that has logged in as the login before is not locked by others' guesses: its own
# wrong passwords are counted apart (club/login_throttle.py, OWASP's device cookies).
AXES_WHITELIST_CALLABLE = "club.login_throttle.from_known_device"
# "Sheila" and "sheila" are one login: wrong passwords count against it in any case.
AXES_USERNAME_CALLABLE = "club.login_names.axes_username"
# Spraying (one address, many usernames) and floods (many addresses, one username) are
# refused before any password is hashed: see club/login_throttle.py. Within the window, 30
# wrong passwords from one address over all usernames make that address wait; 20 for one
# username from all addresses make that username wait, except in a browser that has logged
# in as it before. Counts are kept in Django's cache (each process's memory by default).
LOGIN_THROTTLE_WINDOW = 15 * 60
LOGIN_THROTTLE_PER_ADDRESS = env_int("LOGIN_THROTTLE_PER_ADDRESS", 30, minimum=1)
LOGIN_THROTTLE_PER_USERNAME = env_int("LOGIN_THROTTLE_PER_USERNAME", 20, minimum=1)
# Table keys' codes typed or scanned at /t/ (games/key_views.py): past this many wrong codes
# from one address in the same window, that address waits. A hall's tablets share one
# address, so it allows for their typing slips; a 10-character code (50 bits) stays far
# out of a guesser's reach.
TABLE_KEY_GUESSES_PER_ADDRESS = env_int("TABLE_KEY_GUESSES_PER_ADDRESS", 30, minimum=1)
# Clubs started at /signup/ from one address (front/signup_limit.py): past this many in a
# day, that address waits, so a script cannot fill the site with made-up clubs.
CLUB_SIGNUPS_PER_ADDRESS = env_int("CLUB_SIGNUPS_PER_ADDRESS", 3, minimum=1)
CLUB_SIGNUP_WINDOW = 24 * 60 * 60

# Email for "Forgot your password?": set EMAIL_HOST (and the others) to send real mail.
# Without it members are told to ask their coordinator; with DEBUG on, mail is printed.
EMAIL_HOST = os.environ.get("EMAIL_HOST", "")
EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "587"))
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", True)
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "webmaster@localhost")
if EMAIL_HOST:
    EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
else:
    EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
PASSWORD_RESET_BY_EMAIL = bool(EMAIL_HOST) or DEBUG

CSRF_FAILURE_VIEW = "club.views.accounts.csrf_failure"

# Content-Security-Policy: scripts, styles and pictures only from this site; no inline
# script, no eval, no framing.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "font-src": ["'self'"],
        "connect-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    }
}

# No page here uses the camera, the microphone or the device's position: browsers refuse
# them to this site and to anything framed in it.
PERMISSIONS_POLICY = {"camera": [], "microphone": [], "geolocation": []}

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

LANGUAGE_CODE = "en-gb"
TIME_ZONE = os.environ.get("TIME_ZONE", "Europe/London")
USE_I18N = True
USE_TZ = True

# Absolute: a relative one would be read under whichever club's prefix asked first.
STATIC_URL = "/static/"
# Where `collectstatic` puts the files the server hands out (whitenoise).
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT") or BASE_DIR / "staticfiles")
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"
        if not DEBUG
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}
# In DEBUG (make run) whitenoise serves straight from the app folders.
WHITENOISE_USE_FINDERS = DEBUG

MESSAGE_STORAGE = "django.contrib.messages.storage.session.SessionStorage"
# How often a table page's outbox sends again while writes wait (the page's JSON says it).
TABLE_OUTBOX_RETRY_MS = 5000

# Secure defaults whenever DEBUG is off (production behind HTTPS).
if not DEBUG:
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    # Load balancers probe the health endpoint (front/health.py) over plain HTTP.
    SECURE_REDIRECT_EXEMPT = [r"^health/$"]
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    # SECURE_COOKIES=false only for a hall's own network over plain http (docs/deploy.md,
    # "A hall with no usable Wi-Fi"): browsers refuse a secure cookie sent over http, so
    # nobody could log in there.
    SESSION_COOKIE_SECURE = env_bool("SECURE_COOKIES", True)
    CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
    SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", "31536000"))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    # Off unless the operator chooses it: preloading binds the whole domain (and every
    # subdomain) to HTTPS in browsers for months, which is not a club app's to decide on
    # someone else's domain. Django's check --deploy reminds of it (W021): silenced.
    SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", False)
    if not SECURE_HSTS_PRELOAD:
        SILENCED_SYSTEM_CHECKS = ["security.W021"]
    SECURE_CONTENT_TYPE_NOSNIFF = True
    SECURE_REFERRER_POLICY = "same-origin"
    X_FRAME_OPTIONS = "DENY"

# Server errors reach the operator (config/error_reports.py), with no member's details:
# SENTRY_DSN sends them to Sentry; ADMINS (addresses, comma-separated) has Django mail them
# through the EMAIL_* settings above, from SERVER_EMAIL.
SENTRY_DSN = os.environ.get("SENTRY_DSN", "").strip()
ADMINS = [(address, address) for address in env_list("ADMINS")]
SERVER_EMAIL = os.environ.get("SERVER_EMAIL", DEFAULT_FROM_EMAIL)
EMAIL_SUBJECT_PREFIX = "[Mahjong club] "
if not DEBUG:
    # With DEBUG on the error page shows everything to the developer at the keyboard.
    DEFAULT_EXCEPTION_REPORTER = "config.error_reports.MembersHiddenReporter"
    DEFAULT_EXCEPTION_REPORTER_FILTER = "config.error_reports.MembersHiddenFilter"
if SENTRY_DSN:
    from config.error_reports import start_sentry

    start_sentry(SENTRY_DSN, environment=os.environ.get("SENTRY_ENVIRONMENT", "production"))

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
}
