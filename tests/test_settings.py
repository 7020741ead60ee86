"""Settings come from the environment, and production settings pass `check --deploy`."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PROBE = (
    "import json, django; from django.conf import settings; django.setup();"
    "db = settings.DATABASES['default'];"
    "print(json.dumps({'debug': settings.DEBUG, 'hosts': settings.ALLOWED_HOSTS,"
    " 'tz': settings.TIME_ZONE, 'engine': db['ENGINE'], 'name': str(db['NAME']),"
    " 'secret': settings.SECRET_KEY, 'storage': settings.STORAGES['staticfiles']['BACKEND'],"
    " 'static_root': str(settings.STATIC_ROOT),"
    " 'hsts_preload': settings.SECURE_HSTS_PRELOAD,"
    " 'secure_cookies': [settings.SESSION_COOKIE_SECURE, settings.CSRF_COOKIE_SECURE]}))"
)


SET_BY_THE_RUN = {
    "DEBUG",
    "SECRET_KEY",
    "ALLOWED_HOSTS",
    "DATABASE_URL",
    "TIME_ZONE",
    "STATIC_ROOT",
    "SECURE_COOKIES",
    "CONN_MAX_AGE",
    "DB_POOL_MAX_SIZE",
    "DB_POOL_MIN_SIZE",
    "DB_POOL_TIMEOUT",
    "DISABLE_SERVER_SIDE_CURSORS",
    "CACHE_URL",
    "SENTRY_DSN",
    "ADMINS",
}


def run_python(code: str, **env: str) -> subprocess.CompletedProcess:
    # The suite's own database and cache choices (a run with DB_POOL_MAX_SIZE set, say) are
    # not the settings under test.
    clean_env = {k: v for k, v in os.environ.items() if k not in SET_BY_THE_RUN}
    clean_env.update(env, DJANGO_SETTINGS_MODULE="config.settings.base")
    return subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=clean_env, capture_output=True, text=True
    )


def settings_with(**env: str) -> dict:
    result = run_python(PROBE, **env)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_defaults_for_local_development():
    values = settings_with(DEBUG="true")
    assert values["debug"] is True
    assert values["tz"] == "Europe/London"
    assert values["engine"] == "django.db.backends.sqlite3"
    assert values["name"] == str(ROOT / "db.sqlite3")
    assert values["hosts"] == ["127.0.0.1", "localhost"]
    assert values["static_root"] == str(ROOT / "staticfiles")


def test_static_root_from_the_environment(tmp_path):
    values = settings_with(DEBUG="true", STATIC_ROOT=str(tmp_path / "static"))
    assert values["static_root"] == str(tmp_path / "static")


def test_values_read_from_the_environment():
    values = settings_with(
        DEBUG="false",
        SECRET_KEY="k" * 60,
        ALLOWED_HOSTS="club.example.org, www.club.example.org",
        DATABASE_URL="postgres://u:p@db.example.org:5432/club",
        TIME_ZONE="Australia/Sydney",
    )
    assert values["debug"] is False
    assert values["secret"] == "k" * 60
    assert values["hosts"] == ["club.example.org", "www.club.example.org"]
    assert values["engine"] == "django.db.backends.postgresql"
    assert values["name"] == "club"
    assert values["tz"] == "Australia/Sydney"
    assert values["storage"] == "whitenoise.storage.CompressedManifestStaticFilesStorage"


def test_cookies_are_secure_in_production_unless_a_plain_http_hall_network_says_not():
    production = {"DEBUG": "false", "SECRET_KEY": "k" * 60}
    assert settings_with(**production)["secure_cookies"] == [True, True]
    hall = settings_with(**production, SECURE_COOKIES="false", SECURE_SSL_REDIRECT="false")
    assert hall["secure_cookies"] == [False, False]


def test_hsts_preload_is_off_unless_the_operator_chooses_it():
    """Preloading binds the whole domain to HTTPS in browsers for months: on someone else's
    domain that is the operator's choice, never the app's default."""
    production = {"DEBUG": "false", "SECRET_KEY": "k" * 60}
    assert settings_with(**production)["hsts_preload"] is False
    assert settings_with(**production, SECURE_HSTS_PRELOAD="true")["hsts_preload"] is True


def test_production_refuses_to_start_without_a_secret_key():
    result = run_python(PROBE, DEBUG="false")
    assert result.returncode != 0
    assert "Set SECRET_KEY" in result.stderr


def test_a_bad_debug_value_is_named():
    result = run_python(PROBE, DEBUG="maybe")
    assert result.returncode != 0
    assert "DEBUG must be true or false" in result.stderr


@pytest.mark.parametrize("debug", ["false"])
def test_production_settings_pass_check_deploy(debug):
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env={
            **{
                k: v
                for k, v in os.environ.items()
                if k not in SET_BY_THE_RUN | {"DJANGO_ALLOW_ASYNC_UNSAFE"}
            },
            "DJANGO_SETTINGS_MODULE": "config.settings.base",
            "DEBUG": debug,
            "SECRET_KEY": "x9!Qz" * 12,
            "ALLOWED_HOSTS": "club.example.org",
        },
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_error_reports_are_switched_on_from_the_environment():
    """SENTRY_DSN starts sentry-sdk with no personal data and the scrubber; ADMINS lists who
    gets Django's error mail (tests/test_error_reports.py shows what each carries)."""
    probe = (
        "import json, django; from django.conf import settings; django.setup();"
        "import sentry_sdk; client = sentry_sdk.get_client();"
        "print(json.dumps({'active': client.is_active(), 'admins': settings.ADMINS,"
        " 'pii': client.options.get('send_default_pii'),"
        " 'scrubber': getattr(client.options.get('before_send'), '__name__', None),"
        " 'reporter': settings.DEFAULT_EXCEPTION_REPORTER}))"
    )
    production = {"DEBUG": "false", "SECRET_KEY": "k" * 60}
    result = run_python(
        probe,
        **production,
        SENTRY_DSN="https://public@sentry.example.org/1",
        ADMINS="ops@example.org, it@example.org",
    )
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == {
        "active": True,
        "admins": [["ops@example.org", "ops@example.org"], ["it@example.org", "it@example.org"]],
        "pii": False,
        "scrubber": "scrub_event",
        "reporter": "config.error_reports.MembersHiddenReporter",
    }
    result = run_python(probe, **production)
    assert json.loads(result.stdout)["active"] is False
