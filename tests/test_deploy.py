"""The start-up scripts in deploy/ (the Dockerfile's ENTRYPOINT, HEALTHCHECK and gunicorn
settings), run as a container runs them."""

import json
import os
import shutil
import socket
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DEPLOY = ROOT / "deploy"
sys.path.insert(0, str(DEPLOY))
import healthcheck  # noqa: E402

# What the tests' own settings put in the environment, left out of a fresh start-up's.
PROCESS_ONLY = {"DJANGO_SETTINGS_MODULE", "DATABASE_URL", "SECRET_KEY", "DEBUG", "CACHE_URL"}


def environment(**env: str) -> dict[str, str]:
    clean = {k: v for k, v in os.environ.items() if k not in PROCESS_ONLY}
    # The venv's python and gunicorn, as the image has them on its PATH.
    clean["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{clean.get('PATH', '')}"
    clean.update(PYTHON=sys.executable, DEBUG="false", **env)
    return clean


def run(args: list[str], timeout: float = 120, **env: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        args, cwd=ROOT, env=environment(**env), capture_output=True, text=True, timeout=timeout
    )


def a_closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def tables(path: Path) -> set[str]:
    with sqlite3.connect(path) as database:
        rows = database.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
        return {name for (name,) in rows}


# --- deploy/entrypoint.sh -------------------------------------------------------------------

SHOW = "import os; print('command ran, secret key set:', bool(os.environ['SECRET_KEY']))"


def test_the_entrypoint_migrates_makes_the_cache_table_then_runs_the_command(tmp_path):
    database = tmp_path / "club.sqlite3"
    result = run(
        ["deploy/entrypoint.sh", sys.executable, "-c", SHOW],
        DATABASE_URL=f"sqlite:///{database}",
        CACHE_URL="database",
    )
    assert result.returncode == 0, result.stderr
    # The command's output alone on standard output (a backup can be sent to a file).
    assert result.stdout == "command ran, secret key set: True\n"
    assert "The database at" in result.stderr and "answers." in result.stderr
    assert "Applying club.0001_initial... OK" in result.stderr
    # No SECRET_KEY given: a random one, said plainly.
    assert "SECRET_KEY is not set: using a random key until the app restarts" in result.stderr
    made = tables(database)
    assert {"django_migrations", "club_club", "scoring_hand", "club_cache"} <= made


def test_the_entrypoint_leaves_migrating_to_another_server_when_told(tmp_path):
    database = tmp_path / "club.sqlite3"
    result = run(
        ["deploy/entrypoint.sh", sys.executable, "-c", SHOW],
        DATABASE_URL=f"sqlite:///{database}",
        SECRET_KEY="k" * 50,
        MIGRATE_ON_START="false",
    )
    assert result.returncode == 0, result.stderr
    assert "command ran, secret key set: True" in result.stdout
    assert "SECRET_KEY is not set" not in result.stderr
    assert "django_migrations" not in tables(database)


def test_the_entrypoint_stops_when_the_database_never_answers():
    result = run(
        ["deploy/entrypoint.sh", sys.executable, "-c", SHOW],
        timeout=60,
        DATABASE_URL=f"postgres://club:club@127.0.0.1:{a_closed_port()}/club",
        SECRET_KEY="k" * 50,
        DB_WAIT_SECONDS="2",
    )
    assert result.returncode == 1
    assert "Waiting for the database at 127.0.0.1 ..." in result.stderr
    assert "The database at 127.0.0.1 did not answer within 2 s" in result.stderr
    assert "command ran" not in result.stdout


# --- deploy/healthcheck.py ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("allowed", "host"),
    [
        ("club.example.org, www.club.example.org", "club.example.org"),
        (".example.org", "example.org"),
        ("*", "localhost"),
        ("", "localhost"),
    ],
)
def test_the_probe_names_a_host_the_site_answers_to(allowed, host):
    assert healthcheck.probe_host(allowed) == host


def test_the_probe_finds_gunicorn_s_port():
    assert healthcheck.probe_port("0.0.0.0:8000") == 8000
    assert healthcheck.probe_port("[::]:9000") == 9000
    assert healthcheck.probe_port("unix:/run/club.sock") == 8000


def test_the_probe_passes_when_the_site_answers_ok(live_server):
    port = live_server.url.rsplit(":", 1)[1]
    environ = {"GUNICORN_BIND": f"0.0.0.0:{port}", "ALLOWED_HOSTS": "club.example.org"}
    assert healthcheck.main(environ) == 0


def test_the_probe_fails_when_nothing_answers(capsys):
    assert healthcheck.main({"GUNICORN_BIND": f"0.0.0.0:{a_closed_port()}"}) == 1
    assert "unhealthy: no answer on port" in capsys.readouterr().err


# --- deploy/gunicorn.conf.py ----------------------------------------------------------------


def gunicorn_settings(**env: str) -> subprocess.CompletedProcess:
    return run(
        ["gunicorn", "--config", "deploy/gunicorn.conf.py", "--print-config", "config.wsgi"],
        SECRET_KEY="k" * 50,
        **env,
    )


def printed(result: subprocess.CompletedProcess) -> dict[str, str]:
    assert result.returncode == 0, result.stderr
    lines = (line.partition("=") for line in result.stdout.splitlines())
    return {name.strip(): value.strip() for name, _, value in lines}


def test_gunicorn_s_defaults_suit_a_two_core_server():
    values = printed(gunicorn_settings())
    assert values["workers"] == "3" and values["threads"] == "4"
    assert values["worker_class"] == "gthread"
    assert values["bind"] == "['127.0.0.1:8000']"
    assert values["accesslog"] == "-"


def test_gunicorn_reads_its_numbers_from_the_environment():
    values = printed(
        gunicorn_settings(GUNICORN_WORKERS="5", GUNICORN_THREADS="1", GUNICORN_BIND="0.0.0.0:9000")
    )
    assert values["workers"] == "5" and values["worker_class"] == "sync"
    assert values["bind"] == "['0.0.0.0:9000']"
    refused = gunicorn_settings(GUNICORN_WORKERS="many")
    assert refused.returncode != 0
    assert "GUNICORN_WORKERS must be a whole number from 1, not 'many'" in refused.stderr


# --- a database from a newer release (manage.py check_database_not_newer) ------------------

NEWER = ("club", "9999_from_a_newer_release")


def test_the_entrypoint_refuses_a_database_a_newer_release_has_migrated(tmp_path):
    database = tmp_path / "club.sqlite3"
    url = f"sqlite:///{database}"
    # What the check reads: the newer release's migration, as its `migrate` recorded it (a
    # whole migrated database would only make the test slower).
    with sqlite3.connect(database) as connection:
        connection.execute(
            "CREATE TABLE django_migrations (id integer PRIMARY KEY AUTOINCREMENT, "
            "app varchar(255) NOT NULL, name varchar(255) NOT NULL, applied datetime NOT NULL)"
        )
        connection.execute(
            "INSERT INTO django_migrations (app, name, applied) VALUES (?, ?, '2027-01-01')", NEWER
        )
    refused = run(["deploy/entrypoint.sh", sys.executable, "-c", SHOW], DATABASE_URL=url)
    assert refused.returncode != 0
    assert "command ran" not in refused.stdout
    assert "This database was last used by a newer release of the club app" in refused.stderr
    assert "club.9999_from_a_newer_release" in refused.stderr
    assert "restore the backup taken before the upgrade" in refused.stderr
    # Refused before migrating: nothing was applied on top of the newer release's changes.
    assert "Applying" not in refused.stderr


def test_a_database_this_release_migrated_is_not_refused(transactional_db):
    from django.core.management import call_command

    call_command("check_database_not_newer")  # the test database, migrated by this code


@pytest.fixture
def recorded(transactional_db):
    """Records migrations as applied in the test database, and removes them afterwards
    (a flush leaves django_migrations alone)."""
    from django.db import connection
    from django.db.migrations.recorder import MigrationRecorder

    recorder = MigrationRecorder(connection)
    added = []

    def record(app: str, name: str) -> None:
        recorder.record_applied(app, name)
        added.append((app, name))

    yield record
    for app, name in added:
        recorder.record_unapplied(app, name)


def test_only_migrations_of_this_code_s_apps_count(recorded):
    from django.db import connection

    from club.management.commands.check_database_not_newer import migrations_unknown_here

    recorded(*NEWER)
    # An app this code has no migrations for (one since removed) is not a newer release.
    recorded("an_app_since_removed", "0001_initial")
    assert migrations_unknown_here(connection) == [NEWER]


def test_the_migrations_a_squashed_one_replaces_are_known(recorded, monkeypatch):
    import importlib

    from django.db import connection

    from club.management.commands.check_database_not_newer import migrations_unknown_here

    # club's first migration, as if it had been squashed from an old one since deleted.
    initial = importlib.import_module("club.migrations.0001_initial").Migration
    monkeypatch.setattr(initial, "replaces", [("club", "0001_before_the_squash")])
    recorded("club", "0001_before_the_squash")
    assert migrations_unknown_here(connection) == []


# --- deploy/Caddyfile (compose.yaml's caddy service) ----------------------------------------


@pytest.mark.skipif(shutil.which("caddy") is None, reason="Caddy is not installed")
@pytest.mark.parametrize(("tls", "issuer"), [("auto", None), ("internal", "internal")])
def test_the_caddyfile_serves_the_domain_from_env_with_the_tls_chosen(tls, issuer):
    adapted = subprocess.run(
        ["caddy", "adapt", "--config", "deploy/Caddyfile", "--adapter", "caddyfile"],
        cwd=ROOT,
        env={**os.environ, "DOMAIN": "club.example.org", "TLS": tls},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert adapted.returncode == 0, adapted.stderr
    config = json.loads(adapted.stdout)
    (server,) = config["apps"]["http"]["servers"].values()
    assert server["listen"] == [":443"]
    (route,) = server["routes"]
    assert route["match"] == [{"host": ["club.example.org"]}]
    assert '"upstreams":[{"dial":"app:8000"}]' in json.dumps(route, separators=(",", ":"))
    policies = config["apps"].get("tls", {}).get("automation", {}).get("policies", [])
    issuers = [i["module"] for p in policies for i in p.get("issuers", [])]
    # auto: Caddy's own default, a public certificate authority (Let's Encrypt).
    assert issuers == ([issuer] if issuer else [])


@pytest.mark.skipif(shutil.which("caddy") is None, reason="Caddy is not installed")
def test_the_caddyfile_names_a_tls_value_it_does_not_know():
    adapted = subprocess.run(
        ["caddy", "adapt", "--config", "deploy/Caddyfile", "--adapter", "caddyfile"],
        cwd=ROOT,
        env={**os.environ, "TLS": "letsencrypt"},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert adapted.returncode != 0
    assert "tls-letsencrypt" in adapted.stderr
